import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("Schedulers: immediate, dispatch, run loop, operation queue, AnyScheduler")
struct SchedulerTests {
    @Test func immediateSchedulerRunsAtOnce() {
        let runs = Atomic<Int>(0)
        let scheduler = ImmediateScheduler.shared
        scheduler.schedule { runs.add(1, ordering: .relaxed) }
        scheduler.schedule(after: scheduler.now.advanced(by: 100)) { runs.add(1, ordering: .relaxed) }
        _ = scheduler.schedule(after: scheduler.now, interval: 1) { runs.add(1, ordering: .relaxed) }
        #expect(runs.load(ordering: .relaxed) == 3)
        // As Combine: the immediate scheduler's clock never moves.
        #expect(scheduler.now.distance(to: scheduler.now.advanced(by: 5)) == 0)
    }

    @Test func dispatchStrideUnits() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect(Stride.seconds(2).magnitude == 2_000_000_000)
        #expect(Stride.seconds(0.5).magnitude == 500_000_000)
        #expect(Stride.milliseconds(3).magnitude == 3_000_000)
        #expect(Stride.microseconds(4).magnitude == 4_000)
        #expect(Stride.nanoseconds(5).magnitude == 5)
        let literal: Stride = 1
        #expect(literal == .seconds(1))
        let fractional: Stride = 0.25
        #expect(fractional == .milliseconds(250))
        #expect(Stride(.seconds(Int.max)).magnitude == Int.max)
        #expect(Stride.seconds(1) + .milliseconds(1) == .nanoseconds(1_001_000_000))
        let now = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 10))
        #expect(now.advanced(by: .nanoseconds(5)).dispatchTime.uptimeNanoseconds == 15)
        #expect(now.distance(to: now.advanced(by: .seconds(1))) == .seconds(1))
    }

    @Test func runLoopStrideUnits() {
        typealias Stride = RunLoop.SchedulerTimeType.Stride
        #expect(Stride.milliseconds(1500).timeInterval == 1.5)
        #expect(Stride.seconds(2) == 2)
        let time = RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 0))
        #expect(time.distance(to: time.advanced(by: 3)) == 3)
    }

    @Test func dispatchQueueRunsNowAfterAndRepeatedly() async {
        let queue = DispatchQueue(label: "test")
        let log = LockedLog()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.schedule {
                log.append("now")
                queue.schedule(after: queue.now.advanced(by: .milliseconds(5))) {
                    log.append("later")
                    done.resume()
                }
            }
        }
        #expect(log.entries == ["now", "later"])

        let ticks = Atomic<Int>(0)
        let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
            ticks.add(1, ordering: .relaxed)
        }
        while ticks.load(ordering: .relaxed) < 3 { await Task.yield() }
        cancellable.cancel()
        queue.sync {}
        let stopped = ticks.load(ordering: .relaxed)
        queue.sync {}
        #expect(ticks.load(ordering: .relaxed) == stopped)
    }

    @Test func operationQueueRunsNowAndAfter() async {
        let queue = OperationQueue()
        let log = LockedLog()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.schedule {
                log.append("now")
                queue.schedule(after: queue.now.advanced(by: .milliseconds(5))) {
                    log.append("later")
                    done.resume()
                }
            }
        }
        #expect(log.entries == ["now", "later"])
    }

    @Test func runLoopRunsWhatIsScheduledWhenItRuns() {
        let log = LockedLog()
        let runLoop = RunLoop.current
        runLoop.schedule { log.append("perform") }
        runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(1))) { log.append("timer") }
        let deadline = Date().addingTimeInterval(2)
        while log.entries.count < 2 && Date() < deadline {
            _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        #expect(log.entries == ["perform", "timer"])
    }

    @Test func anySchedulerForwardsEverything() {
        let test = DispatchQueue.test
        let erased: AnySchedulerOf<DispatchQueue> = AnyScheduler(test)
        let log = LockedLog()
        #expect(erased.now == test.now)
        #expect(erased.minimumTolerance == .zero)
        erased.schedule { log.append("a") }
        erased.schedule(after: erased.now.advanced(by: .seconds(1))) { log.append("b") }
        let repeating = erased.schedule(after: erased.now.advanced(by: .seconds(1)), interval: .seconds(1)) { log.append("r") }
        test.advance(by: .seconds(2))
        repeating.cancel()
        test.advance(by: .seconds(2))
        #expect(log.entries == ["a", "b", "r", "r"])
        #expect(AnyScheduler(erased).now == test.now)
    }
}

final class LockedLog: @unchecked Sendable {  // `items` guarded by `lock`
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var entries: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
