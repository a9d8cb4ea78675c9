// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.Scan.swift (`Publishers.Scan` and
// `Publishers.TryScan`): their stored parameters, and the engine each one subscribes its subscriber
// to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/scan(_:_:)``: the running result of a closure over the
    /// upstream's values.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The result the first value is combined with.
        public let initialResult: Output
        /// Combines the result so far with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher of the running result of `nextPartialResult` over `upstream`'s
        /// values, starting from `initialResult`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are accumulated.
        ///   - initialResult: The result the first value is combined with.
        ///   - nextPartialResult: Combines the result so far with the next value.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` through the accumulator, starting from `initialResult`.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ScanSubscriber(
                downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }
    }

    /// The publisher of ``Publisher/tryScan(_:_:)``: the running result of a throwing closure
    /// over the upstream's values.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by the closure.
        public typealias Failure = any Error

        /// The publisher whose values are accumulated.
        public let upstream: Upstream
        /// The result the first value is combined with.
        public let initialResult: Output
        /// Combines the result so far with the next value; may throw.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher of the running result of `nextPartialResult` over `upstream`'s
        /// values, starting from `initialResult`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are accumulated.
        ///   - initialResult: The result the first value is combined with.
        ///   - nextPartialResult: Combines the result so far with the next value; may throw.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber` through the accumulator, starting from `initialResult`.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let step = ScanStep(result: initialResult, nextPartialResult: nextPartialResult)
            upstream.subscribe(subscriber, through: step, name: "TryScan")
        }
    }
}
