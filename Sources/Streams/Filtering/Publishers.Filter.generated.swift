// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.Filter.swift (`Publishers.Filter` and
// `Publishers.TryFilter`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/filter(_:)``.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The predicate a value must satisfy to be passed on.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a publisher of `upstream`'s values that satisfy `isIncluded`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are filtered.
        ///   - isIncluded: The predicate a value must satisfy to be passed on.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
        }
    }

    /// The publisher of ``Publisher/tryFilter(_:)``.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The throwing predicate a value must satisfy to be passed on.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher of `upstream`'s values that satisfy `isIncluded`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are filtered.
        ///   - isIncluded: The throwing predicate a value must satisfy to be passed on.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, through: FilterStep(isIncluded: isIncluded), name: "TryFilter")
        }
    }
}
