// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.First.swift (`Publishers.First`,
// `Publishers.FirstWhere` and `Publishers.TryFirstWhere`): their stored parameters, and the engine
// each one subscribes its subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/first()``: the upstream's first value, then `.finished`.
    public struct First<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first value is passed on.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s first value.
        ///
        /// - Parameter upstream: The publisher whose first value is passed on.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the first value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: SearchReduction.first { _ in true }, name: "First")
        }
    }

    /// The publisher of ``Publisher/first(where:)``: the upstream's first value that satisfies
    /// a predicate, then `.finished`.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition the value to pass on satisfies.
        public let predicate: (Output) -> Bool

        /// Creates a publisher of `upstream`'s first value that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The condition the value to pass on satisfies.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the first matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Combine's name for this subscription, too.
            upstream.subscribe(subscriber, reducing: SearchReduction.first(where: predicate), name: "TryFirst")
        }
    }

    /// The publisher of ``Publisher/tryFirst(where:)``: the upstream's first value that
    /// satisfies a throwing predicate, then `.finished`.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The condition the value to pass on satisfies; may throw.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher of `upstream`'s first value that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The condition the value to pass on satisfies; may throw.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the first matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: SearchReduction.first(where: predicate), name: "TryFirstWhere")
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
extension Publishers.First: Sendable where Upstream: Sendable {}
