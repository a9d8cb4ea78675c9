import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("Scheduler doubles: immediate and unimplemented; the erased main and global schedulers")
struct SchedulerDoublesTests {
    final class Log: @unchecked Sendable {  // `items` guarded by `lock`
        private let lock = NSLock()
        private var items: [String] = []
        func append(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
        var entries: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    @Test func anImmediateSchedulerRunsEverythingAtOnceAndItsClockStands() {
        let scheduler = DispatchQueue.immediate
        let log = Log()
        let start = scheduler.now
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) { log.append("later") }
        let repeating = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { log.append("tick") }
        #expect(log.entries == ["now", "later", "tick"])
        #expect(scheduler.now == start)
        #expect(start == DispatchQueue.test.now)
        repeating.cancel()
    }

    @Test func anImmediateSchedulerDropsInForAnErasedDispatchQueue() {
        let log = Log()
        let mainQueue: AnySchedulerOf<DispatchQueue> = .immediate
        let c = Just(1).delay(for: .seconds(10), scheduler: mainQueue).sink { log.append("\($0)") }
        #expect(log.entries == ["1"])
        _ = c
        #expect(OperationQueue.immediate.now.date == Date(timeIntervalSince1970: 0))
        #expect(RunLoop.immediate.now.date == Date(timeIntervalSince1970: 0))
    }

    @Test func anUnimplementedSchedulerFailsTheTestAndRunsNothing() {
        let log = Log()
        let scheduler = DispatchQueue.unimplemented("mainQueue")
        expectFailures {
            scheduler.schedule { log.append("ran") }
        } matching: { issue in
            issue.description.contains(
                "The unimplemented scheduler \"mainQueue\" scheduled an action to run at once: "
                    + "the code under test was not expected to use it.")
        }
        expectFailures {
            _ = scheduler.now
        } matching: { issue in
            issue.description.contains("was asked the current time")
        }
        let erased: AnySchedulerOf<DispatchQueue> = .unimplemented
        expectFailures {
            erased.schedule(after: DispatchQueue.test.now, tolerance: .zero, options: nil) { log.append("ran") }
        } matching: { issue in
            issue.description.contains("An unimplemented scheduler scheduled an action to run later")
        }
        #expect(log.entries.isEmpty)
    }

    @Test func theMainAndGlobalSchedulersErased() async {
        let main: AnySchedulerOf<DispatchQueue> = .main
        let global: AnySchedulerOf<DispatchQueue> = .global(qos: .userInitiated)
        await withCheckedContinuation { continuation in
            main.schedule { continuation.resume() }
        }
        await withCheckedContinuation { continuation in
            global.schedule { continuation.resume() }
        }
        let operations: AnySchedulerOf<OperationQueue> = .main
        #expect(abs(operations.now.date.timeIntervalSinceNow) < 60)
    }

    @Test func theMainRunLoopCanBeErased() {
        // A RunLoop is not Sendable; the main one is found again from any thread.
        let erased = RunLoop.main.eraseToAnyScheduler()
        let viaStatic: AnySchedulerOf<RunLoop> = .main
        #expect(abs(erased.now.date.timeIntervalSinceNow) < 60)
        #expect(abs(viaStatic.now.date.timeIntervalSinceNow) < 60)
    }
}
