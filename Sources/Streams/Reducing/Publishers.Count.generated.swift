// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.Count.swift (`Publishers.Count`): their stored
// parameters, and the engine each one subscribes its subscriber to. What the operators do is
// documented there.

extension Publishers {
    /// The publisher of ``Publisher/count()``: the number of values, sent when the upstream
    /// finishes.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The number of values.
        public typealias Output = Int
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are counted.
        public let upstream: Upstream

        /// Creates a publisher that counts `upstream`'s values.
        ///
        /// - Parameter upstream: The publisher whose values are counted.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the count.
        ///
        /// - Parameter subscriber: The subscriber that receives the count and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: CountReduction(), name: "Count")
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}
