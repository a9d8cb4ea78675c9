import Foundation
import Streams
import StreamsTesting
import Testing

/// Foundation's `Timer.publish` on a real run loop: each test runs a thread of its own whose run
/// loop it spins until the expected ticks arrived or a deadline passed, so every test is bounded
/// in time (a few seconds at worst) and never sleeps to wait for a tick.
@Suite("Timer.publish on a real run loop")
struct TimerPublisherRunLoopTests {
    /// What a run-loop thread reports back.
    final class Report: @unchecked Sendable {  // all fields guarded by `lock`
        private let lock = Lock()
        private var _values: [String: Int] = [:]
        private var _dates: [Date] = []
        func set(_ key: String, _ value: Int) { lock.withLock { _values[key] = value } }
        func get(_ key: String) -> Int? { lock.withLock { _values[key] } }
        func setDates(_ dates: [Date]) { lock.withLock { _dates = dates } }
        var dates: [Date] { lock.withLock { _dates } }
    }

    /// Runs `body` on a new thread with that thread's run loop, and waits until it returns.
    static func onRunLoopThread(_ body: @escaping @Sendable (RunLoop) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                body(RunLoop.current)
                continuation.resume()
            }
            thread.start()
        }
    }

    /// Runs `runLoop` in `mode` until `done()` or for at most `seconds`.
    static func spin(_ runLoop: RunLoop, mode: RunLoop.Mode = .default, for seconds: TimeInterval,
                     until done: () -> Bool = { false }) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !done() && Date() < deadline {
            let slice = min(deadline, Date(timeIntervalSinceNow: 0.01))
            if !runLoop.run(mode: mode, before: slice) {
                // Nothing to run in this mode: the run loop returned at once.
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
    }

    @Test func ticksComeAfterConnectOneIntervalApartOnTheRunLoopsThread() async {
        let report = Report()
        await Self.onRunLoopThread { runLoop in
            let interval: TimeInterval = 0.02
            let publisher = Timer.publish(every: interval, on: runLoop, in: .default)
            let runLoopThread = ObjectIdentifier(Thread.current)
            let onThread = LockedTickCounter()
            let subscriber = RecordingSubscriber<Date, Never>(demand: .unlimited, onValue: { _ in
                if ObjectIdentifier(Thread.current) == runLoopThread { onThread.increment() }
                return .none
            })
            publisher.subscribe(subscriber)
            Self.spin(runLoop, for: 0.1)
            report.set("beforeConnect", subscriber.values.count)
            let connectedAt = Date()
            let connection = publisher.connect()
            Self.spin(runLoop, for: 5) { subscriber.values.count >= 3 }
            connection.cancel()
            let count = subscriber.values.count
            Self.spin(runLoop, for: 0.1)
            report.set("afterCancel", subscriber.values.count - count)
            report.set("onThread", onThread.count)
            report.set("firstTickMillisecondsAfterConnect",
                       Int(((subscriber.values.first ?? connectedAt).timeIntervalSince(connectedAt)) * 1000))
            report.setDates(subscriber.values)
            report.set("violations", subscriber.violations.count)
        }
        let dates = report.dates
        #expect(report.get("beforeConnect") == 0)
        #expect(dates.count >= 3)
        #expect(report.get("onThread") == dates.count)
        #expect(report.get("afterCancel") == 0)
        // The first tick is one interval (20 ms) after connecting, not at once.
        #expect((report.get("firstTickMillisecondsAfterConnect") ?? 0) >= 15)
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 })
        #expect(report.get("violations") == 0)
    }

    @Test func aTimerInACustomModeFiresOnlyWhileTheRunLoopRunsInThatMode() async {
        let report = Report()
        await Self.onRunLoopThread { runLoop in
            let mode = RunLoop.Mode("streams.custom")
            let subscriber = RecordingSubscriber<Date, Never>()
            let connection = Timer.publish(every: 0.01, on: runLoop, in: mode).autoconnect()
            connection.subscribe(subscriber)
            Self.spin(runLoop, mode: .default, for: 0.1)
            report.set("inDefaultMode", subscriber.values.count)
            Self.spin(runLoop, mode: mode, for: 5) { subscriber.values.count >= 2 }
            report.set("inCustomMode", subscriber.values.count)
            subscriber.cancel()
        }
        #expect(report.get("inDefaultMode") == 0)
        #expect((report.get("inCustomMode") ?? 0) >= 2)
    }

    @Test func subscribersShareTheTicksAndDemandIsPerSubscriber() async {
        let report = Report()
        await Self.onRunLoopThread { runLoop in
            let publisher = Timer.publish(every: 0.01, on: runLoop, in: .default)
            let all = RecordingSubscriber<Date, Never>()
            let two = RecordingSubscriber<Date, Never>(demand: .max(2))
            publisher.subscribe(all)
            publisher.subscribe(two)
            let connection = publisher.connect()
            Self.spin(runLoop, for: 5) { all.values.count >= 4 }
            connection.cancel()
            report.set("all", all.values.count)
            report.set("two", two.values.count)
            report.set("sameDates", all.values.prefix(2) == two.values[...] ? 1 : 0)
            report.set("violations", all.violations.count + two.violations.count)
        }
        #expect((report.get("all") ?? 0) >= 4)
        #expect(report.get("two") == 2)
        #expect(report.get("sameDates") == 1)
        #expect(report.get("violations") == 0)
    }

    @Test func autoconnectInvalidatesTheTimerWhenTheLastSubscriberCancels() async {
        let report = Report()
        await Self.onRunLoopThread { runLoop in
            let ticks = LockedTickCounter()
            let cancellable = Timer.publish(every: 0.01, on: runLoop, in: .default)
                .autoconnect()
                .sink { _ in ticks.increment() }
            Self.spin(runLoop, for: 5) { ticks.count >= 2 }
            cancellable.cancel()
            let count = ticks.count
            Self.spin(runLoop, for: 0.1)
            report.set("ticks", count)
            report.set("afterCancel", ticks.count - count)
        }
        #expect((report.get("ticks") ?? 0) >= 2)
        #expect(report.get("afterCancel") == 0)
    }
}

/// A counter safe to bump from any thread.
final class LockedTickCounter: @unchecked Sendable {  // `value` guarded by `lock`
    private let lock = Lock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
