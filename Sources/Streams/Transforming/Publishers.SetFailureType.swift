// Engine: none. The whole operator is in this file.

// MARK: - setFailureType

extension Publisher where Failure == Never {
    /// Gives a publisher that cannot fail the failure type that the code downstream expects.
    ///
    /// Nothing changes at run time: the values and `.finished` pass through, and no failure is
    /// ever sent, because the upstream cannot fail. Only the type changes, so that the
    /// publisher can be combined with others that can fail (`flatMap`, `merge`, `zip`, `catch`
    /// need matching failure types). To change the failure of a publisher that *can* fail, use
    /// ``mapError(_:)`` instead.
    ///
    /// <!-- marble setFailureType: $0.assertNoFailure().setFailureType(to: DocError.self) -->
    /// ```text
    /// upstream: -1-2-|       (Failure == Never)
    ///           setFailureType(to: URLError.self)
    /// output:   -1-2-|       (Failure == URLError)
    /// ```
    ///
    /// ![Marble diagram of setFailureType](marble-setFailureType)
    ///
    /// ```swift
    /// struct LoadError: Error {}
    /// let cached: AnyPublisher<Int, LoadError> = [1, 2].publisher
    ///     .setFailureType(to: LoadError.self)
    ///     .eraseToAnyPublisher()
    /// let c = cached.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1
    /// //         2
    /// //         finished
    /// ```
    ///
    /// - Parameter failureType: The failure type to declare, such as `URLError.self`.
    /// - Returns: A publisher of the same values whose failure type is `failureType`.
    /// - Demand: passes through unchanged: the downstream gets the upstream's subscription.
    /// - Completion: `.finished` passes through; there is never a failure.
    /// - Cancellation: goes straight to the upstream subscription.
    /// - Combine compatibility: as Combine. On a `Publishers.Sequence` it returns a
    ///   `Publishers.Sequence` with the new failure type, on `Just` a `Result.Publisher`, and
    ///   `setFailureType` after `setFailureType` is one `SetFailureType`.
    /// - Complexity: O(1) per value.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/setFailureType(to:)``: the upstream's values with a failure
    /// type it never actually sends.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The upstream's output type.
        public typealias Output = Upstream.Output

        /// The publisher that cannot fail.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s values that declares the failure type `Failure`.
        ///
        /// - Parameter upstream: The publisher that cannot fail.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream, as if it could fail with `Failure`.
        ///
        /// - Parameter subscriber: The subscriber that receives the upstream's values and
        ///   `.finished`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: SetFailureTypeSubscriber(downstream: subscriber))
        }

        /// Changes the declared failure type again; the result wraps the same upstream.
        ///
        /// - Parameter failure: The new failure type to declare.
        /// - Returns: A `SetFailureType` of the same upstream with the failure type `failure`.
        @inlinable
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}
extension Publishers.SetFailureType: Sendable where Upstream: Sendable {}

// MARK: - Subscribers

@usableFromInline
struct SetFailureTypeSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Never
    @usableFromInline let downstream: Downstream

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    @usableFromInline var description: String { "SetFailureType" }

    @inlinable func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
    /// The only completion a `Never`-failing upstream can send is `.finished`.
    @inlinable func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: .finished) }
}
