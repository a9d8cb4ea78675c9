// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.DropWhile.swift (`Publishers.DropWhile` and
// `Publishers.TryDropWhile`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/drop(while:)``: the upstream's values from the first that
    /// fails a predicate on.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are dropped.
        public let upstream: Upstream
        /// The condition under which a value is still dropped.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of `upstream`'s values from the first that fails `predicate` on.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose first values are dropped.
        ///   - predicate: The condition under which a value is still dropped.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                subscriber, through: DropWhileStep(predicate: predicate), name: "DropWhile", reportsNoneRequests: true)
        }
    }

    /// The publisher of ``Publisher/tryDrop(while:)``: the upstream's values from the first that
    /// fails a throwing predicate on.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose first values are dropped.
        public let upstream: Upstream
        /// The condition under which a value is still dropped; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of `upstream`'s values from the first that fails `predicate` on.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose first values are dropped.
        ///   - predicate: The condition under which a value is still dropped; may throw.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` through the predicate.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                subscriber, through: DropWhileStep(predicate: predicate), name: "TryDropWhile", reportsNoneRequests: true)
        }
    }
}
