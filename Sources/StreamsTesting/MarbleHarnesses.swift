import Streams

// Harnesses for the <!-- marble ... --> annotations of diagrams that are not one operator
// between rows (see `MarbleBlock`): work that comes from outside at a diagram's ticks, and a
// subscriber whose calls are the output row.

extension TestScheduler {
    /// Runs `action` at tick `tick` of a marble diagram driven on this scheduler: `tick` seconds
    /// of virtual time after now (a diagram's expression is made at tick 0).
    ///
    /// For the work a diagram shows coming from outside at set ticks: a promise called, a
    /// callback, a value sent by someone else.
    ///
    /// <!-- example context: marble -->
    /// ```swift
    /// let future = Future<String, Never> { promise in
    ///     scheduler.atTick(3) { promise(.success("a")) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - tick: The tick of the diagram at which to run `action`.
    ///   - action: The work to run.
    public func atTick(_ tick: Int, _ action: @escaping @Sendable () -> Void) {
        var time = now
        for _ in 0..<max(tick, 0) { time = time.advanced(by: .seconds(1)) }
        schedule(after: time, action)
    }
}

/// A publisher whose output row is what a subscriber under test does: `attach` subscribes it
/// to `upstream` and reports each call it makes, with the value it was called with (its
/// completion too), (a closure called, a property set) by sending
/// it to `row`.
///
/// A diagram of a subscriber (`sink`, `assign`) has no publisher after the operator; this one
/// stands in for it, so the block runs like any other:
///
/// <!-- example context: marble -->
/// ```swift
/// recordingCalls(of: upstream) { upstream, row in
///     upstream.sink(receiveCompletion: row.send(completion:), receiveValue: row.send(_:))
/// }
/// ```
///
/// Each subscription attaches a new subscriber; cancelling the subscription cancels it.
///
/// - Parameters:
///   - upstream: The publisher the subscriber under test subscribes to.
///   - attach: A closure that takes `upstream` and the row, attaches the subscriber under test,
///     sends each of its calls to the row, and returns its cancellable.
/// - Returns: A publisher whose values are the calls of the subscriber under test.
public func recordingCalls<Upstream: Publisher>(
    of upstream: Upstream,
    _ attach: @escaping (Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>) -> AnyCancellable
) -> SubscriberCalls<Upstream> {
    SubscriberCalls(upstream: upstream, attach: attach)
}

/// The publisher ``recordingCalls(of:_:)`` makes.
public struct SubscriberCalls<Upstream: Publisher>: Publisher {
    /// The values of the row: the upstream's, which the subscriber under test receives.
    public typealias Output = Upstream.Output
    /// The failure of the row: the upstream's.
    public typealias Failure = Upstream.Failure

    let upstream: Upstream
    let attach: (Upstream, PassthroughSubject<Output, Failure>) -> AnyCancellable

    /// Subscribes `subscriber` to the calls, then attaches the subscriber under test.
    ///
    /// - Parameter subscriber: The subscriber that receives the calls.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let row = PassthroughSubject<Output, Failure>()
        let attached = AttachedSubscriber()
        row.handleEvents(receiveCancel: { attached.cancel() }).subscribe(subscriber)
        attached.keep(attach(upstream, row))
    }
}

/// The subscriber under test, kept until the row's subscription is cancelled.
final class AttachedSubscriber: @unchecked Sendable {  // `cancellable` is guarded by `lock`
    private let lock = Lock()
    private var cancellable: AnyCancellable?
    func keep(_ cancellable: AnyCancellable) { lock.withLock { self.cancellable = cancellable } }
    func cancel() { lock.withLock { cancellable }?.cancel() }
}
