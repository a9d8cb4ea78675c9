// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.Contains.swift (`Publishers.Contains`,
// `Publishers.ContainsWhere` and `Publishers.TryContainsWhere`): their stored parameters, and the
// engine each one subscribes its subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/contains(_:)``: whether the upstream sends a given value.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// `true` if the value was found.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The value to look for.
        public let output: Upstream.Output

        /// Creates a publisher that tells whether `upstream` sends `output`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - output: The value to look for.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber` to the answer.
        ///
        /// - Parameter subscriber: The subscriber that receives the answer and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let output = self.output
            upstream.subscribe(subscriber, reducing: SearchReduction.contains { $0 == output }, name: "Contains")
        }
    }

    /// The publisher of ``Publisher/contains(where:)``: whether the upstream sends a value that
    /// satisfies a predicate.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// `true` if such a value was found.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The predicate a value must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether `upstream` sends a value satisfying `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The predicate a value must satisfy.
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
            upstream.subscribe(subscriber, reducing: SearchReduction.contains(where: predicate), name: "ContainsWhere")
        }
    }

    /// The publisher of ``Publisher/tryContains(where:)``: whether the upstream sends a value
    /// that satisfies a throwing predicate.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// `true` if such a value was found.
        public typealias Output = Bool
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The throwing predicate a value must satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether `upstream` sends a value satisfying `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The throwing predicate a value must satisfy.
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
            upstream.subscribe(subscriber, reducing: SearchReduction.contains(where: predicate), name: "TryContainsWhere")
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}
