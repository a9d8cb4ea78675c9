/// A publisher that sends no values, and either finishes at once or never.
///
/// <!-- marble empty source row=1: Empty<String, Never>() -->
/// <!-- marble empty-never source row=2: Empty<String, Never>(completeImmediately: false) -->
/// ```text
/// Empty():                          |
/// Empty(completeImmediately: false): -------   (never sends anything)
/// ```
///
/// ![Marble diagram of empty](marble-empty)
///
/// ```swift
/// let c = Empty<Int, Never>().sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints: finished
/// ```
///
/// - Demand: finishes without waiting for demand (S5). Its subscription ignores every request,
///   `.none` included, as in Combine (S9).
/// - Combine compatibility: as Combine.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether the publisher finishes as soon as it is subscribed to (`true`) or never (`false`).
    public let completeImmediately: Bool

    /// Creates an empty publisher that finishes at once, or never when `completeImmediately` is
    /// `false`.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher, naming its output and failure types for type inference.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Gives `subscriber` an inert subscription, then `.finished` if `completeImmediately`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Two empty publishers are equal when they complete alike.
    @inlinable
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}

extension Empty: Sendable {}
