// Engine: Engines/OneValueSubscription.swift.

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
/// - Demand: waits for demand; asking for `.none` is an API violation ([S9]).
/// - Cancellation: thread-safe and idempotent, also against a concurrent `request` ([S6]): the
///   value is delivered at most once, and never after `cancel()` returns.
/// - Combine compatibility: as Combine. The operators Combine declares on `Just` itself (`map`,
///   `filter`, `tryMap`, `reduce`, `append`, ...) are declared here too, return the same
///   publishers (`Just`, `Optional.Publisher`, `Result.Publisher`, `Publishers.Sequence`) and, as
///   in Combine, run their closures when they are called, not when someone subscribes.
///
/// [S6]: doc:/Contract/StreamContract#S6
/// [S9]: doc:/Contract/StreamContract#S9
public struct Just<Output>: Publisher {
    /// `Just` cannot fail.
    public typealias Failure = Never

    /// The value this publisher sends.
    public let output: Output

    /// Creates a publisher that sends `output` once, then finishes.
    ///
    /// - Parameter output: The value to send to each subscriber.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Gives `subscriber` a subscription that delivers the value on its first request.
    ///
    /// - Parameter subscriber: The subscriber that receives the value and `.finished`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        sendOneValue(output, to: subscriber, name: "Just")
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}
