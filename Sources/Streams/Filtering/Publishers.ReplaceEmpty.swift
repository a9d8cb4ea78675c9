// Engine: Engines/ReducingSubscription.swift.

// MARK: - replaceEmpty

extension Publisher {
    /// Sends a given value if the upstream finishes without sending any.
    ///
    /// The upstream's values pass through unchanged. If it finishes without having sent one,
    /// `replaceEmpty` sends `output` in its place, then `.finished`, so the downstream always
    /// gets at least one value from a stream that finishes.
    ///
    /// <!-- marble replaceEmpty: $0.replaceEmpty(with: "0") -->
    /// ```text
    /// upstream: ---|
    ///           replaceEmpty(with: 0)
    /// output:   ---[0|]
    /// ```
    ///
    /// ![Marble diagram of replaceEmpty](marble-replaceEmpty)
    ///
    /// ```swift
    /// let numbers: [Double] = []
    /// let c = numbers.publisher.replaceEmpty(with: .nan).sink { print($0) }
    /// // Prints: nan
    /// ```
    ///
    /// - Parameter output: The value to send if the upstream finishes without a value.
    /// - Returns: A publisher that sends the upstream's values, or `output` if the upstream
    ///   finishes without any.
    /// - Demand: asks the upstream for `.unlimited` once the downstream has the subscription, as
    ///   Combine does, and passes the downstream's requests (and the demand it returns for a
    ///   value) up as well; so the upstream's values can reach a downstream that has not asked
    ///   for them. The replacement waits until the downstream has asked for a value ([S1]).
    ///   `request(.none)` is an API violation ([S9]), as in Combine.
    /// - Completion: a failure passes through, without a replacement; `.finished` passes
    ///   through, after the replacement if there was no value.
    /// - Cancellation: cancels the upstream, and no replacement is sent ([S6], [S7]).
    /// - Threading: values go out on the upstream's thread; the replacement on the thread that
    ///   completes the upstream, or on the thread of the request that finds it waiting.
    /// - Combine compatibility: as Combine, including the `.unlimited` request.
    /// - Complexity: O(1) per value.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/replaceEmpty(with:)``: the upstream's values, or a given
    /// value if there are none.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The value sent when the upstream finishes without values.
        public let output: Upstream.Output
        /// The publisher whose values pass through.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s values that sends `output` if there are none.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are passed on.
        ///   - output: The value to send if `upstream` finishes without a value.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber` to the values or the replacement.
        ///
        /// - Parameter subscriber: The subscriber that receives the values, or the replacement, and
        ///   the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: ReplaceEmptyReduction(output: output), name: "ReplaceEmpty")
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

// MARK: - Reduction

/// `replaceEmpty` as a reduction that sends every value on, and `output` at the end if there was
/// none. Requests pass through unchanged.
@usableFromInline
struct ReplaceEmptyReduction<Input>: Reduction {
    @usableFromInline let output: Input
    @usableFromInline var isEmpty = true

    @inlinable
    init(output: Input) {
        self.output = output
    }

    @inlinable var demandFactor: Int? { 1 }
    /// As Combine: `.unlimited` up front, and the downstream's demand passed up as well.
    @inlinable var asksForUnlimited: Bool { true }
    /// Combine traps for `request(.none)` here ([S9]).
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable var rejectsRequestForNone: Bool { true }

    @inlinable
    mutating func reduce(_ input: Input) -> ReductionStep<Input> {
        isEmpty = false
        return .send(input)
    }

    @inlinable
    mutating func result() -> Input? { isEmpty ? output : nil }
}
