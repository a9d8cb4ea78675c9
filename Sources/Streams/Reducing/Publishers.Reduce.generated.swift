// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.Reduce.swift (`Publishers.Reduce` and
// `Publishers.TryReduce`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/reduce(_:_:)``: all values combined into one, sent when the
    /// upstream finishes.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are combined.
        public let upstream: Upstream
        /// The result to start from, and the result of an upstream without values.
        public let initial: Output
        /// Combines the result so far with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that combines `upstream`'s values, starting from `initial`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are combined.
        ///   - initial: The result to start from, and the result of an upstream without values.
        ///   - nextPartialResult: Combines the result so far with the next value.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` to the combined result.
        ///
        /// - Parameter subscriber: The subscriber that receives the combined result and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                subscriber, reducing: ReduceReduction(initial: initial, nextPartialResult: nextPartialResult), name: "Reduce")
        }
    }

    /// The publisher of ``Publisher/tryReduce(_:_:)``: all values combined into one by a throwing
    /// closure, sent when the upstream finishes.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher whose values are combined.
        public let upstream: Upstream
        /// The result to start from, and the result of an upstream without values.
        public let initial: Output
        /// Combines the result so far with the next value; may throw.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that combines `upstream`'s values, starting from `initial`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are combined.
        ///   - initial: The result to start from, and the result of an upstream without values.
        ///   - nextPartialResult: Combines the result so far with the next value; may throw.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` to the combined result.
        ///
        /// - Parameter subscriber: The subscriber that receives the combined result and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let reduction = ReduceReduction(initial: initial, nextPartialResult: nextPartialResult)
            upstream.subscribe(subscriber, reducing: reduction, name: "TryReduce")
        }
    }
}
