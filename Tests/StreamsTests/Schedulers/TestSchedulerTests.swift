import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func append(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
        var entries: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    @Test func nothingRunsUntilTheClockMoves() {
        let scheduler = DispatchQueue.test
        let log = Log()
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("1s") }
        #expect(log.entries.isEmpty)
        scheduler.advance()
        #expect(log.entries == ["now"])
        scheduler.advance(by: .milliseconds(999))
        #expect(log.entries == ["now"])
        scheduler.advance(by: .milliseconds(1))
        #expect(log.entries == ["now", "1s"])
    }

    @Test func workRunsByTimeThenBySchedulingOrder() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let start = scheduler.now
        scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append("b2") }
        scheduler.schedule(after: start.advanced(by: .seconds(1))) { log.append("a1") }
        scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append("c2") }
        scheduler.advance(by: .seconds(5))
        #expect(log.entries == ["a1", "b2", "c2"])
        #expect(scheduler.now == start.advanced(by: .seconds(5)))
    }

    @Test func clockStandsAtEachWorksTimeWhileItRuns() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let log = Log()
        scheduler.schedule(after: start.advanced(by: .seconds(3))) {
            log.append("\(start.distance(to: scheduler.now).magnitude / 1_000_000_000)")
        }
        scheduler.advance(by: .seconds(10))
        #expect(log.entries == ["3"])
    }

    @Test func workScheduledNowFromInsideWorkRunsBeforeTheClockMovesOn() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let log = Log()
        scheduler.schedule(after: start.advanced(by: .seconds(1))) {
            log.append("a")
            scheduler.schedule { log.append("a-now") }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("a+1") }
        }
        scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append("b") }
        scheduler.advance(by: .seconds(2))
        #expect(log.entries == ["a", "a-now", "b", "a+1"])
    }

    @Test func repeatingWorkRunsEveryIntervalUntilCancelled() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let cancellable = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(2)) {
            log.append("tick")
        }
        scheduler.advance(by: .seconds(1))
        #expect(log.entries.count == 1)
        scheduler.advance(by: .seconds(4))
        #expect(log.entries.count == 3)
        cancellable.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(10))
        #expect(log.entries.count == 3)
    }

    @Test func runRunsEverythingAndMovesTheClock() {
        let scheduler = RunLoop.test
        let start = scheduler.now
        let log = Log()
        scheduler.schedule(after: start.advanced(by: 5)) { log.append("5") }
        scheduler.schedule(after: start.advanced(by: 1)) {
            log.append("1")
            scheduler.schedule(after: scheduler.now.advanced(by: 10)) { log.append("11") }
        }
        scheduler.run()
        #expect(log.entries == ["1", "5", "11"])
        #expect(scheduler.now == start.advanced(by: 11))
    }

    @Test func advancingBackwardsStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = DispatchQueue.test
            scheduler.advance(to: scheduler.now.advanced(by: .seconds(-1)))
        }
    }

    @Test func dropsInWhereADispatchQueueSchedulerIsExpected() {
        func work(on scheduler: AnySchedulerOf<DispatchQueue>, log: Log) {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) { log.append("done") }
        }
        let scheduler = DispatchQueue.test
        let log = Log()
        work(on: scheduler.eraseToAnyScheduler(), log: log)
        scheduler.advance(by: .milliseconds(10))
        #expect(log.entries == ["done"])
        #expect(OperationQueue.test.now == RunLoop.test.now)
    }
}
