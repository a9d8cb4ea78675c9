import Dispatch
import Foundation
import Streams
import Synchronization
import Testing

// A harness for the async marble diagrams of publishers that fire from a RunLoop (see
// `MarbleBlock`, option `async`): Foundation's `Timer.publish(every:on:in:)`.

extension TestScheduler {
    /// A publisher made on the run loop of a thread of its own, whose run loop turns only at the
    /// ticks of a marble diagram: at tick `first`, then every `every` ticks, the thread runs its
    /// run loop until the publisher has sent one event, then waits for the next turn.
    ///
    /// For the diagram of `Timer.publish(every:on:in:)`. A run loop timer fires in real time, and
    /// a run loop left running would fire it whenever the machine lets it — several times in
    /// one tick on a loaded machine. A run loop fires a repeating timer at most once per pass
    /// and folds the fires it missed into one, so a run loop that turns once per tick the row
    /// shows fires the timer exactly once there, however late; the ticks of the row then stand
    /// for the timer's intervals:
    ///
    /// <!-- example context: marble -->
    /// ```swift
    /// scheduler.turningRunLoop(first: 1, every: 2) { runLoop in
    ///     Timer.publish(every: 0.05, on: runLoop, in: .default).autoconnect()
    /// }
    /// .namedInOrder()
    /// ```
    ///
    /// What the publisher sends arrives on that thread: drive it with `async`. Cancelling the
    /// subscription cancels the inner one and ends the thread.
    ///
    /// - Parameters:
    ///   - first: The tick of the run loop's first turn.
    ///   - every: How many ticks apart the later turns are.
    ///   - make: A closure that takes the thread's run loop and returns the publisher to run on it.
    /// - Returns: A publisher of the events the made publisher sends on that thread.
    public func turningRunLoop<Inner: Publisher>(
        first: Int,
        every: Int,
        _ make: @escaping @Sendable (RunLoop) -> Inner
    ) -> RunLoopThreadPublisher<Inner.Output, Inner.Failure> where Inner: SendableMetatype, Inner.Output: Sendable {
        let turns = RunLoopTurns()
        var start = now
        for _ in 0..<max(first, 0) { start = start.advanced(by: .seconds(1)) }
        // Scheduled for as long as the publisher lives; once the thread has ended, a turn does nothing.
        let turning = AnyCancellable(schedule(after: start, interval: .seconds(max(every, 1))) { turns.allowOne() })
        return RunLoopThreadPublisher(turns: turns, turning: turning) { runLoop, relay in
            make(runLoop).sink(receiveCompletion: { relay.send(completion: $0) }, receiveValue: { relay.send($0) })
        }
    }
}

/// The publisher ``TestScheduler/turningRunLoop(first:every:_:)`` makes.
public struct RunLoopThreadPublisher<Output: Sendable, Failure: Error>: Publisher {
    let turns: RunLoopTurns
    /// The scheduled turns, cancelled when the last copy of the publisher goes.
    let turning: AnyCancellable
    let start: @Sendable (RunLoop, PassthroughSubject<Output, Failure>) -> AnyCancellable

    /// Subscribes `subscriber` to the events of the run loop thread, then starts the thread.
    ///
    /// - Parameter subscriber: The subscriber that receives the events, on the run loop's thread.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let relay = PassthroughSubject<Output, Failure>()
        let turns = self.turns
        relay
            .handleEvents(
                receiveOutput: { _ in turns.countEvent() },
                receiveCompletion: { _ in turns.countEvent() },
                receiveCancel: { turns.stop() }
            )
            .subscribe(subscriber)
        let start = self.start
        let thread = Thread {
            let runLoop = RunLoop.current
            let inner = start(runLoop, relay)
            while turns.waitForTurn() {
                let before = turns.eventCount
                // One pass at a time, each without waiting (`before` a date already past): a
                // pass fires every timer that is due once, so the turn ends with the first event.
                while !turns.isStopped && turns.eventCount == before {
                    _ = runLoop.run(mode: .default, before: .distantPast)
                    if turns.eventCount == before { usleep(1_000) }
                }
            }
            inner.cancel()
        }
        thread.name = "turningRunLoop"
        thread.start()
    }
}

/// The turns a run loop thread may take, and whether it should end.
final class RunLoopTurns: Sendable {
    /// How many events the thread's publisher has sent (values and the completion).
    private let events = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let allowed = DispatchSemaphore(value: 0)

    var isStopped: Bool { stopped.load(ordering: .acquiring) }
    var eventCount: Int { events.load(ordering: .acquiring) }

    /// Counts a value or the completion the thread's publisher sent.
    func countEvent() { events.add(1, ordering: .releasing) }

    /// Lets the thread turn its run loop until the next event (nothing once it has ended).
    func allowOne() {
        if !isStopped { allowed.signal() }
    }

    /// Ends the thread (after its current turn).
    func stop() {
        stopped.store(true, ordering: .releasing)
        allowed.signal()
    }

    /// Blocks the run loop thread until it may take a turn; `false` once it should end.
    func waitForTurn() -> Bool {
        allowed.wait()
        return !isStopped
    }
}

extension Publisher where Output == Date {
    /// The dates as names, in order: the first date `a`, the second `b`, and so on, after
    /// checking that each is later than the one before (a test failure otherwise).
    ///
    /// For a diagram whose values are the dates of a real-time timer, which no diagram can
    /// write down: the row shows their order.
    ///
    /// - Parameter sourceLocation: Where to report a failure; the caller's location by default.
    /// - Returns: A publisher of the names `a`, `b`, ... in place of the dates.
    public func namedInOrder(sourceLocation: SourceLocation = #_sourceLocation) -> some Publisher<String, Failure> {
        scan((name: "", date: Date.distantPast)) { last, date in
            if date <= last.date {
                TestFailures.record(
                    "the date \(date) is not later than the one before, \(last.date)", sourceLocation: sourceLocation)
            }
            let scalar = last.name.unicodeScalars.first.map { $0.value + 1 } ?? UnicodeScalar("a").value
            return (String(UnicodeScalar(scalar).map(Character.init) ?? "?"), date)
        }
        .map(\.name)
    }
}
