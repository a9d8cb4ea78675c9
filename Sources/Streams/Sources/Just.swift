import Synchronization

/// A publisher that sends one value, then finishes.
///
/// The value goes out as soon as the subscriber asks for anything; `Just` cannot fail.
///
/// <!-- marble just source: Just("a") -->
/// ```text
/// Just(a):  [a|]
/// ```
///
/// ![Marble diagram of just](marble-just)
///
/// ```swift
/// let c = Just("hello").sink { print($0) }
/// // Prints: hello
/// ```
///
/// - Demand: waits for demand; asking for `.none` is an API violation (S9).
/// - Cancellation: thread-safe and idempotent, also against a concurrent `request` (S6): the
///   value is delivered at most once, and never after `cancel()` returns.
/// - Combine compatibility: as Combine. The operators Combine declares on `Just` itself (`map`,
///   `filter`, `tryMap`, `reduce`, `append`, ...) are declared here too, return the same
///   publishers (`Just`, `Optional.Publisher`, `Result.Publisher`, `Publishers.Sequence`) and, as
///   in Combine, run their closures when they are called, not when someone subscribes.
public struct Just<Output>: Publisher {
    /// `Just` cannot fail.
    public typealias Failure = Never

    /// The value this publisher sends.
    public let output: Output

    /// Creates a publisher that sends `output` once, then finishes.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Gives `subscriber` a subscription that delivers the value on its first request.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: OneValueSubscription(output, to: subscriber, name: "Just"))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// The subscription of publishers with at most one value (`Just`, `Result.Publisher`,
/// `Optional.Publisher`): the value and `.finished` go out on the first request.
///
/// The downstream and the value wait together in `pending` and are released together, once
/// delivered or cancelled (S7). Whoever sets `done` first in `state` (the first valid request, or
/// `cancel()`) takes them; `cancelled`, set by `cancel()`, tells a delivery in progress not to send
/// the completion.
///
/// The class is generic over the pending pair's type (always a `OneValuePending<Downstream>`), not
/// over the downstream: its deinit, compiled once for every type, then finds that type in the
/// object's own class metadata instead of looking it up in the runtime's metadata cache
/// (Docs/Performance.md, "A one-value subscription generic over what it holds").
@usableFromInline
final class OneValueSubscription<Pending: OneValuePendingDelivery>: Subscription, CustomStringConvertible,
    @unchecked Sendable  // `pending` is owned by whoever sets `done` first
{
    /// The flags `done` and `cancelled`, in one atomic byte.
    @usableFromInline let state = Atomic<UInt8>(0)
    /// Set by the first valid request or by `cancel()`: whoever sets it takes `pending`.
    @inlinable static var done: UInt8 { 1 }
    /// Set by `cancel()`, also while the value is being delivered: then no completion follows.
    @inlinable static var cancelled: UInt8 { 2 }

    /// The downstream and its value, until delivered or cancelled.
    @exclusivity(unchecked) @usableFromInline var pending: Pending
    @usableFromInline let name: StaticString

    @inlinable
    init(pending: Pending, name: StaticString) {
        self.pending = pending
        self.name = name
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "\(name)") else { return }
        if state.bitwiseOr(Self.done, ordering: .acquiringAndReleasing).oldValue & Self.done != 0 { return }
        pending.take().deliver { self.state.load(ordering: .acquiring) & Self.cancelled != 0 }
    }

    @inlinable
    func cancel() {
        let old = state.bitwiseOr(Self.done | Self.cancelled, ordering: .acquiringAndReleasing).oldValue
        if old & Self.done != 0 { return }
        _ = pending.take()
    }

    @usableFromInline var description: String { "\(name)" }
}

extension OneValueSubscription {
    /// A subscription that will send `value` to `downstream`.
    @inlinable
    convenience init<Downstream: Subscriber>(_ value: Downstream.Input, to downstream: Downstream, name: StaticString)
    where Pending == OneValuePending<Downstream> {
        self.init(pending: .waiting(downstream, value), name: name)
    }
}

/// What a `OneValueSubscription` holds until it delivers or is cancelled.
@usableFromInline
protocol OneValuePendingDelivery {
    /// Takes what is held, leaving nothing.
    mutating func take() -> Self
    /// Sends the value, then `.finished` unless `isCancelled()` says the subscription was cancelled
    /// during the value; does nothing if nothing is held.
    consuming func deliver(unlessCancelled isCancelled: () -> Bool)
}

/// A downstream and the one value it is to get, or nothing once taken.
@usableFromInline
enum OneValuePending<Downstream: Subscriber>: OneValuePendingDelivery {
    case waiting(Downstream, Downstream.Input)
    case taken

    @inlinable
    mutating func take() -> Self {
        var taken = Self.taken
        swap(&taken, &self)
        return taken
    }

    @inlinable
    consuming func deliver(unlessCancelled isCancelled: () -> Bool) {
        guard case .waiting(let downstream, let value) = self else { return }
        _ = downstream.receive(value)
        if !isCancelled() {
            downstream.receive(completion: .finished)
        }
    }
}
