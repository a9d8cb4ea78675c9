// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.PrefixWhile.swift (`Publishers.PrefixWhile`
// and `Publishers.TryPrefixWhile`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/prefix(while:)``: the upstream's values up to the first that
    /// fails a predicate.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The condition a value satisfies for the stream to go on.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of `upstream`'s values up to the first that fails `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are passed on.
        ///   - predicate: The condition a value satisfies for the stream to go on.
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
            upstream.subscribe(subscriber, through: PrefixWhileStep(predicate: predicate), name: "PrefixWhile")
        }
    }

    /// The publisher of ``Publisher/tryPrefix(while:)``: the upstream's values up to the first
    /// that fails a throwing predicate.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The condition a value satisfies for the stream to go on; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of `upstream`'s values up to the first that fails `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are passed on.
        ///   - predicate: The condition a value satisfies for the stream to go on; may throw.
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
            upstream.subscribe(subscriber, through: PrefixWhileStep(predicate: predicate), name: "TryPrefixWhile")
        }
    }
}
