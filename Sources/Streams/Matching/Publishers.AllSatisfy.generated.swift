// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.AllSatisfy.swift (`Publishers.AllSatisfy` and
// `Publishers.TryAllSatisfy`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/allSatisfy(_:)``: whether every value satisfies a predicate.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// `true` if every value satisfied the predicate.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are checked.
        public let upstream: Upstream
        /// The predicate every value must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether every value of `upstream` satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are checked.
        ///   - predicate: The predicate every value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the answer.
        ///
        /// - Parameter subscriber: The subscriber that receives the answer and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: SearchReduction.allSatisfy(predicate), name: "AllSatisfy")
        }
    }

    /// The publisher of ``Publisher/tryAllSatisfy(_:)``: whether every value satisfies a throwing
    /// predicate.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// `true` if every value satisfied the predicate.
        public typealias Output = Bool
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are checked.
        public let upstream: Upstream
        /// The throwing predicate every value must satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether every value of `upstream` satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are checked.
        ///   - predicate: The throwing predicate every value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the answer.
        ///
        /// - Parameter subscriber: The subscriber that receives the answer and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let reduction = SearchReduction.allSatisfy(predicate)
            upstream.subscribe(subscriber, reducing: reduction, name: "TryAllSatisfy")
        }
    }
}
