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
/// The downstream and the value wait together in one `Pending` and are released together, once
/// delivered or cancelled (S7). Whoever flips `done` first (the first valid request, or
/// `cancel()`) takes them; `cancelled` tells a delivery in progress not to send the completion.
@usableFromInline
final class OneValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable  // `pending` is owned by whoever flips `done` first
{
    /// The downstream and its value, until delivered or cancelled.
    @usableFromInline
    enum Pending {
        case waiting(Downstream, Downstream.Input)
        case taken
    }

    @usableFromInline let done = Atomic<Bool>(false)
    /// Set by `cancel()`, also while the value is being delivered: then no completion follows.
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @exclusivity(unchecked) @usableFromInline var pending: Pending
    @usableFromInline let name: StaticString

    @inlinable
    init(_ value: Downstream.Input, to downstream: Downstream, name: StaticString) {
        self.pending = .waiting(downstream, value)
        self.name = name
    }

    /// Takes the downstream and the value; call only after winning `done`.
    @inlinable
    func take() -> (Downstream, Downstream.Input)? {
        var taken = Pending.taken
        swap(&taken, &pending)
        guard case .waiting(let downstream, let value) = taken else { return nil }
        return (downstream, value)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "\(name)") else { return }
        if done.exchange(true, ordering: .acquiringAndReleasing) { return }
        guard let (downstream, value) = take() else { return }
        _ = downstream.receive(value)
        if !cancelled.load(ordering: .acquiring) {
            downstream.receive(completion: .finished)
        }
    }

    @inlinable
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        if done.exchange(true, ordering: .acquiringAndReleasing) { return }
        _ = take()
    }

    @usableFromInline var description: String { "\(name)" }
}
