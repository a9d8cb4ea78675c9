// Engine: none. The whole operator is in this file.

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
/// - Demand: finishes without waiting for demand ([S5]). Its subscription ignores every request,
///   `.none` included, as in Combine ([S9]).
/// - Combine compatibility: as Combine.
///
/// [S5]: doc:/Contract/StreamContract#S5
/// [S9]: doc:/Contract/StreamContract#S9
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether the publisher finishes as soon as it is subscribed to (`true`) or never (`false`).
    public let completeImmediately: Bool

    /// Creates an empty publisher that finishes at once, or never when `completeImmediately` is
    /// `false`.
    ///
    /// - Parameter completeImmediately: Whether to finish at once; `false` makes a publisher that
    ///   never completes.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher, naming its output and failure types for type inference.
    ///
    /// - Parameters:
    ///   - completeImmediately: Whether to finish at once; `false` makes a publisher that never
    ///     completes.
    ///   - outputType: The output type, such as `Int.self`.
    ///   - failureType: The failure type, such as `Never.self`.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Gives `subscriber` an inert subscription, then `.finished` if `completeImmediately`.
    ///
    /// - Parameter subscriber: The subscriber that receives the completion, if there is one.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Two empty publishers are equal when they complete alike.
    ///
    /// - Parameters:
    ///   - lhs: An empty publisher.
    ///   - rhs: Another empty publisher.
    /// - Returns: `true` if both finish at once, or both never complete.
    @inlinable
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}

extension Empty: Sendable {}
