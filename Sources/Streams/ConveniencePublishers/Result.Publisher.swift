// Engine: Engines/OneValueSubscription.swift.

extension Result {
    /// A publisher that sends this result: the success value then `.finished`, or the failure.
    ///
    /// <!-- marble result source row=1: Result<String, DocError>.success("a").publisher -->
    /// <!-- marble result-failure source row=2: Result<String, DocError>.failure(DocError()).publisher -->
    /// ```text
    /// Result.success(a).publisher:  [a|]
    /// Result.failure(e).publisher:  ^
    /// ```
    ///
    /// ![Marble diagram of result](marble-result)
    ///
    /// ```swift
    /// let c = Result<Int, Never>.success(7).publisher.sink { print($0) }
    /// // Prints: 7
    /// ```
    public var publisher: Publisher {
        Publisher(self)
    }

    /// A publisher of one result: a value and `.finished`, or a failure.
    ///
    /// - Demand: the value waits for demand; a failure is sent at once ([S5]). Asking for `.none`
    ///   is an API violation ([S9]).
    /// - Cancellation: thread-safe and idempotent, also against a concurrent `request` ([S6]).
    /// - Combine compatibility: as Combine, with the cancellation guarantee above. The operators
    ///   Combine declares on `Result.Publisher` itself (`map`, `tryMap`, `mapError`, `reduce`,
    ///   `replaceError`, ...) are declared here too, return the same publishers and, as in
    ///   Combine, run their closures when they are called.
    ///
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S9]: doc:/Contract/StreamContract#S9
    public struct Publisher: Streams.Publisher {
        /// The success type.
        public typealias Output = Success

        /// The result this publisher sends.
        public let result: Result<Success, Failure>

        /// Creates a publisher of `result`.
        ///
        /// - Parameter result: The success or failure to publish.
        @inlinable
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Creates a publisher of a success.
        ///
        /// - Parameter output: The value to send before finishing.
        @inlinable
        public init(_ output: Success) {
            self.result = .success(output)
        }

        /// Creates a publisher of a failure.
        ///
        /// - Parameter failure: The error to fail with.
        @inlinable
        public init(_ failure: Failure) {
            self.result = .failure(failure)
        }

        /// Sends the result to `subscriber`.
        ///
        /// - Parameter subscriber: The subscriber that receives the value and `.finished`, or the
        ///   failure.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let value):
                sendOneValue(value, to: subscriber, name: "Result.Publisher")
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable {}
