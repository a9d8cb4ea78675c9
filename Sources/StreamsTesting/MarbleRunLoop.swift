import Foundation
import Streams
import Synchronization
import Testing

// Harnesses for the async marble diagrams of publishers that run on a RunLoop (see `MarbleBlock`,
// option `async`).

/// A publisher made on the run loop of a thread of its own, which runs that run loop while a
/// subscription lasts: `make` gets the run loop, and what the publisher it returns sends is
/// passed on. Cancelling the subscription cancels the inner one and ends the thread.
///
/// For the diagram of `Timer.publish(every:on:in:)`, whose timer fires only while its run loop
/// runs; a test never blocks its own thread (a thread of Swift's cooperative pool) to run one:
///
/// ```swift
/// onRunLoopThread { runLoop in Timer.publish(every: 0.2, on: runLoop, in: .default).autoconnect() }
/// ```
///
/// Values and the completion arrive on that thread, in real time: drive it with `async`.
public func onRunLoopThread<Inner: Publisher>(
    _ make: @escaping @Sendable (RunLoop) -> Inner
) -> RunLoopThreadPublisher<Inner.Output, Inner.Failure> where Inner: SendableMetatype, Inner.Output: Sendable {
    RunLoopThreadPublisher { runLoop, relay in
        make(runLoop).sink(receiveCompletion: { relay.send(completion: $0) }, receiveValue: { relay.send($0) })
    }
}

/// The publisher ``onRunLoopThread(_:)`` makes.
public struct RunLoopThreadPublisher<Output: Sendable, Failure: Error>: Publisher {
    let start: @Sendable (RunLoop, PassthroughSubject<Output, Failure>) -> AnyCancellable

    /// Subscribes `subscriber` to the relay, then starts the thread.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let relay = PassthroughSubject<Output, Failure>()
        let stop = RunLoopStop()
        relay.handleEvents(receiveCancel: { stop.flag.store(true, ordering: .releasing) }).subscribe(subscriber)
        let start = self.start
        let thread = Thread {
            let runLoop = RunLoop.current
            let inner = start(runLoop, relay)
            // A timer far away keeps the run loop from returning at once when it has no other source.
            let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
            runLoop.add(keepAlive, forMode: .default)
            while !stop.flag.load(ordering: .acquiring) {
                _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            keepAlive.invalidate()
            inner.cancel()
        }
        thread.name = "onRunLoopThread"
        thread.start()
    }
}

/// Whether the run loop thread should end.
final class RunLoopStop: Sendable {
    let flag = Atomic<Bool>(false)
}

extension Publisher where Output == Date {
    /// The dates as names, in order: the first date `a`, the second `b`, and so on, after
    /// checking that each is later than the one before (a test failure otherwise).
    ///
    /// For a diagram whose values are the dates of a real-time timer, which no diagram can
    /// write down: the row shows their order.
    public func namedInOrder(sourceLocation: SourceLocation = #_sourceLocation) -> some Publisher<String, Failure> {
        scan((name: "", date: Date.distantPast)) { last, date in
            if date <= last.date {
                Issue.record("the date \(date) is not later than the one before, \(last.date)", sourceLocation: sourceLocation)
            }
            let next = last.name.isEmpty ? "a" : String(UnicodeScalar(last.name.unicodeScalars.first!.value + 1)!)
            return (next, date)
        }
        .map(\.name)
    }
}
