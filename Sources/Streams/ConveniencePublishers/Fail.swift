// Engine: none. The whole operator is in this file.

/// A publisher that fails at once with a given error, sending no values.
///
/// <!-- marble fail source: Fail<String, DocError>(error: DocError()) -->
/// ```text
/// Fail(error: e):  ^
/// ```
///
/// ![Marble diagram of fail](marble-fail)
///
/// ```swift
/// struct Oops: Error {}
/// let c = Fail<Int, Oops>(error: Oops()).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints: failure(Oops())
/// ```
///
/// - Demand: fails without waiting for demand ([S5]). Its subscription ignores every request,
///   `.none` included, as in Combine ([S9]).
/// - Combine compatibility: as Combine.
///
/// [S5]: doc:/Contract/StreamContract#S5
/// [S9]: doc:/Contract/StreamContract#S9
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error the publisher fails with.
    public let error: Failure

    /// Creates a publisher that fails with `error`.
    ///
    /// - Parameter error: The error to fail each subscriber with.
    @inlinable
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher that fails with `failure`, naming the output type for type inference.
    ///
    /// - Parameters:
    ///   - outputType: The output type, such as `Int.self`.
    ///   - failure: The error to fail each subscriber with.
    @inlinable
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    /// Gives `subscriber` an inert subscription, then the failure.
    ///
    /// - Parameter subscriber: The subscriber that receives the failure.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable {}
