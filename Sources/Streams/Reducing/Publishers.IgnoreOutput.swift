// MARK: - ignoreOutput

extension Publisher {
    /// Drops every value and passes on only the upstream's completion.
    ///
    /// Use it when all that matters is whether, and how, the upstream ends: a save that either
    /// finishes or fails, say. The output type becomes `Never`, so nothing but the completion can
    /// reach the downstream.
    ///
    /// ```text
    /// upstream: -1-2-3-|
    ///           ignoreOutput()
    /// output:   -------|
    /// ```
    ///
    /// ```swift
    /// struct Zero: Error {}
    /// let c = [1, 2, 0, 3].publisher
    ///     .tryMap { n -> Int in guard n != 0 else { throw Zero() }; return n }
    ///     .ignoreOutput()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
    /// // Prints: failure(Zero())
    /// ```
    ///
    /// - Demand: asks the upstream for `.unlimited` as soon as it is subscribed, as Combine
    ///   does; the downstream's requests change nothing (but `.none` is still an API violation,
    ///   S9).
    /// - Completion: the upstream's, passed on at once: it needs no demand (S5).
    /// - Cancellation: cancels the upstream (S7).
    /// - Threading: the completion goes out on the upstream's thread.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value, no lock, no allocation.
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/ignoreOutput()``: only the upstream's completion.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No values are ever sent.
        public typealias Output = Never
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are dropped.
        public let upstream: Upstream

        /// Creates a publisher that passes on only `upstream`'s completion.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream's completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.receive(subscriber: ReducingSubscription<IgnoreOutputReduction<Upstream.Output>, Failure, S>(
                downstream: subscriber, reduction: IgnoreOutputReduction(), name: "IgnoreOutput"))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

// MARK: - Reduction

/// `ignoreOutput()` as a reduction with no result: the completion alone goes down.
@usableFromInline
struct IgnoreOutputReduction<Input>: Reduction {
    @inlinable init() {}

    @inlinable
    mutating func reduce(_ input: Input) -> ReductionStep<Never> { .consumed }

    @inlinable
    mutating func result() -> Never? { nil }
}
