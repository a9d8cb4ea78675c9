import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
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

    @Test func repeatingWorkKeepsItsPlaceAmongWorkDueAtTheSameInstant() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let start = scheduler.now
        let a = scheduler.schedule(after: start, interval: .seconds(1)) { log.append("A") }
        let b = scheduler.schedule(after: start, interval: .seconds(2)) { log.append("B") }
        scheduler.advance(by: .seconds(2))
        // At 0 and at 2 both are due: A was scheduled first, so it runs first every time.
        #expect(log.entries == ["A", "B", "A", "A", "B"])
        a.cancel()
        b.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func repeatingWorkRunsBeforeWorkScheduledAfterItForTheSameInstant() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let start = scheduler.now
        let timer = scheduler.schedule(after: start.advanced(by: .seconds(1)), interval: .seconds(2)) {
            log.append("timer")
        }
        // Scheduled after the timer, before its first run, for the instant of its second run.
        scheduler.schedule(after: start.advanced(by: .seconds(3))) { log.append("later") }
        scheduler.advance(by: .seconds(3))
        #expect(log.entries == ["timer", "timer", "later"])
        timer.cancel()
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

    @Test func advancingToATimeAlreadyPassedDoesNothing() {
        // As combine-schedulers: no trap, no work, and the clock stays.
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let log = Log()
        scheduler.advance(by: .seconds(2))
        scheduler.schedule(after: start.advanced(by: .seconds(1))) { log.append("past") }
        scheduler.advance(to: start.advanced(by: .seconds(1)))
        #expect(log.entries.isEmpty)
        #expect(scheduler.now == start.advanced(by: .seconds(2)))
    }

    @Test func workScheduledForATimeAlreadyPassedRunsAtTheCurrentTime() {
        // The clock never moves backwards (combine-schedulers' moves back to the work's time).
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let log = Log()
        scheduler.advance(by: .seconds(2))
        scheduler.schedule(after: start.advanced(by: .seconds(1))) {
            log.append("\(start.distance(to: scheduler.now).magnitude / 1_000_000_000)")
        }
        scheduler.advance()
        #expect(log.entries == ["2"])
    }

    @Test func runLoopAndOperationQueueTestSchedulersStartAtTheUnixEpoch() {
        // As combine-schedulers'.
        #expect(RunLoop.test.now.date == Date(timeIntervalSince1970: 0))
        #expect(OperationQueue.test.now.date == Date(timeIntervalSince1970: 0))
    }

    // MARK: Async: sleep, timer, and the async advance
    //
    // As in combine-schedulers' tests, the test and the tasks it starts share the main actor: the
    // async advance gives them their turn on it, in order, so the result does not depend on
    // how busy the machine is.

    @Test(.timeLimit(.minutes(2))) @MainActor func aTaskSleepingOnTheSchedulerWakesWhenTheTestAdvancesIt() async throws {
        // The package's own test shape, 100 times in a row: start a task that sleeps on the
        // scheduler, `await scheduler.advance(by:)`, and the task has finished.
        for _ in 0..<100 {
            let scheduler = DispatchQueue.test
            let woke = Mutex(false)
            let task = Task {
                try await scheduler.sleep(for: .seconds(1))
                woke.withLock { $0 = true }
            }
            await scheduler.advance(by: .seconds(1))
            #expect(woke.withLock { $0 })
            task.cancel()  // a task still asleep would wait forever: end it instead
            _ = await task.result
        }
    }

    @Test(.timeLimit(.minutes(1))) @MainActor func aTaskSleepingTwiceWakesTwiceWithinOneAdvance() async throws {
        let scheduler = DispatchQueue.test
        let log = Log()
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
            log.append("1")
            try await scheduler.sleep(for: .seconds(1))
            log.append("2")
        }
        await scheduler.advance(by: .milliseconds(1_500))
        #expect(log.entries == ["1"])
        await scheduler.advance(by: .milliseconds(500))
        #expect(log.entries == ["1", "2"])
        task.cancel()
        _ = await task.result
    }

    @Test(.timeLimit(.minutes(1))) @MainActor func sleepEndsWithCancellationErrorWhenTheTaskIsCancelled() async {
        let scheduler = DispatchQueue.test
        let task = Task { try await scheduler.sleep(for: .seconds(10)) }
        await scheduler.advance(by: .seconds(1))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.pendingCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) @MainActor func timerTicksWithTheSchedulersTimeAndStopsWithTheIteration() async {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let task = Task {
            var ticks: [Int] = []
            for await tick in scheduler.timer(interval: .seconds(2)) {
                ticks.append(Int(start.distance(to: tick).magnitude / 1_000_000_000))
                if ticks.count == 3 { break }
            }
            return ticks
        }
        await scheduler.advance(by: .seconds(7))
        task.cancel()  // ends the iteration if a tick did not come
        #expect(await task.value == [2, 4, 6])
        await scheduler.advance()
        #expect(scheduler.pendingCount == 0)  // the repeating schedule is cancelled with the iteration
    }

    @Test(.timeLimit(.minutes(1))) @MainActor func asyncRunRunsWhatTasksScheduleToo() async throws {
        let scheduler = DispatchQueue.test
        let log = Log()
        let task = Task {
            try await scheduler.sleep(for: .seconds(5))
            log.append("a")
            try await scheduler.sleep(for: .seconds(5))
            log.append("b")
        }
        await scheduler.run()
        #expect(log.entries == ["a", "b"])
        #expect(scheduler.now == DispatchQueue.test.now.advanced(by: .seconds(10)))
        task.cancel()
        _ = await task.result
    }

    @Test func dropsInWhereADispatchQueueSchedulerIsExpected() {
        func work(on scheduler: AnySchedulerOf<DispatchQueue>, log: Log) {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) { log.append("done") }
        }
        let scheduler = DispatchQueue.test
        let log = Log()
        work(on: AnyScheduler(scheduler), log: log)
        scheduler.advance(by: .milliseconds(10))
        #expect(log.entries == ["done"])
        #expect(OperationQueue.test.now.date == RunLoop.test.now.date)
    }

    // MARK: Work handed over by tasks: advance(by:until:)

    @Test func asyncAdvanceRunsWorkATaskSchedulesAfterItsTurn() async {
        let scheduler = DispatchQueue.test
        let log = Log()
        let (answers, answer) = AsyncStream<String>.makeStream()
        let task = Task {
            for await text in answers {
                scheduler.schedule { log.append(text) }
            }
        }
        answer.yield("hello")
        let done = await scheduler.advance(until: { log.entries == ["hello"] })
        #expect(done)
        answer.yield("again")
        await scheduler.advance(until: { log.entries == ["hello", "again"] })
        #expect(log.entries == ["hello", "again"])
        answer.finish()
        await task.value
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anAsyncSequenceDeliveredOnTheSchedulerIsTestedWithoutSleeping() async {
        let scheduler = DispatchQueue.test
        let log = Log()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let start = scheduler.now
        let cancellable = AsyncSequencePublisher(stream)
            .receive(on: scheduler)
            .sink(receiveCompletion: { _ in log.append("finished") }, receiveValue: { log.append("\($0)") })
        continuation.yield(1)
        await scheduler.advance(until: { log.entries == ["1"] })
        continuation.yield(2)
        continuation.yield(3)
        continuation.finish()
        await scheduler.advance(until: { log.entries.last == "finished" })
        #expect(log.entries == ["1", "2", "3", "finished"])
        #expect(scheduler.now == start)
        _ = cancellable
    }

    @Test func aTaskStartedByWorkSchedulesAtTheTimeTheClockStandsAt() async {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let log = Log()
        // Like an effect debounced on the scheduler: the async work starts when the wait is over.
        scheduler.schedule(after: start.advanced(by: .seconds(1))) {
            log.append("start")
            Task {
                await Task.yield()
                scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("task+1s") }
                scheduler.schedule { log.append("task now") }
            }
        }
        // Up to the start, and no further: the clock stands at 1 s while the task runs.
        await scheduler.advance(by: .seconds(1), until: { log.entries.contains("task now") })
        #expect(log.entries == ["start", "task now"])
        #expect(scheduler.now == start.advanced(by: .seconds(1)))
        #expect(scheduler.pendingCount == 1)
        await scheduler.advance(by: .seconds(1))
        #expect(log.entries == ["start", "task now", "task+1s"])
    }

    @Test func asyncAdvanceStopsTheClockWhereTheConditionHolds() async {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let log = Log()
        for second in 1...3 {
            scheduler.schedule(after: start.advanced(by: .seconds(second))) { log.append("\(second)s") }
        }
        await scheduler.advance(by: .seconds(10), until: { log.entries.count == 2 })
        #expect(log.entries == ["1s", "2s"])
        #expect(scheduler.now == start.advanced(by: .seconds(2)))
        #expect(scheduler.pendingCount == 1)
    }

    @Test func asyncAdvanceRunsOnlyTheWorkNeededToReachTheCondition() async {
        let scheduler = DispatchQueue.test
        let log = Log()
        scheduler.schedule { log.append("a") }
        scheduler.schedule { log.append("b") }
        await scheduler.advance(until: { log.entries == ["a"] })
        #expect(log.entries == ["a"])
        #expect(scheduler.pendingCount == 1)
        // Already true: nothing runs.
        await scheduler.advance(until: { true })
        #expect(scheduler.pendingCount == 1)
        await scheduler.advance()
        #expect(log.entries == ["a", "b"])
    }

    @Test func asyncAdvanceCanWaitForATaskToScheduleLaterWork() async {
        // A task that schedules for a later time: wait until it has, then move the clock.
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let log = Log()
        let task = Task {
            await Task.yield()
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("2s") }
        }
        await scheduler.advance(until: { scheduler.pendingCount == 1 })
        #expect(log.entries.isEmpty)
        await scheduler.advance(by: .seconds(2))
        #expect(log.entries == ["2s"])
        #expect(scheduler.now == start.advanced(by: .seconds(2)))
        await task.value
    }

    @Test func asyncAdvanceFailsWhenTheWorkNeverComes() async {
        let scheduler = DispatchQueue.test
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {}
        var held: Bool?
        await expectFailures {
            held = await scheduler.advance(until: { false }, timeout: .milliseconds(50))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("1 piece(s) of work are scheduled for later times") }
        }
        #expect(held == false)
        #expect(scheduler.pendingCount == 1)
    }

    @Test func cancellingTheWaitingTaskEndsTheWaitWithoutAFailure() async {
        let scheduler = DispatchQueue.test
        let waiting = Task { await scheduler.advance(until: { false }, timeout: .seconds(60)) }
        waiting.cancel()
        #expect(await waiting.value == false)
    }
}
