// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.Last.swift (`Publishers.Last`,
// `Publishers.LastWhere` and `Publishers.TryLastWhere`): their stored parameters, and the engine
// each one subscribes its subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/last()``: the last value, sent when the upstream finishes.
    public struct Last<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose last value is sent.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s last value.
        ///
        /// - Parameter upstream: The publisher whose last value is sent.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the last value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: LastReduction(), name: "Last")
        }
    }

    /// The publisher of ``Publisher/last(where:)``: the last value that satisfies a predicate,
    /// sent when the upstream finishes.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The predicate the value must satisfy.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of the last value of `upstream` that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The predicate the value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the last matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: LastWhereReduction(predicate: predicate), name: "LastWhere")
        }
    }

    /// The publisher of ``Publisher/tryLast(where:)``: the last value that satisfies a throwing
    /// predicate, sent when the upstream finishes.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = any Error

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The throwing predicate the value must satisfy.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of the last value of `upstream` that satisfies `predicate`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are searched.
        ///   - predicate: The throwing predicate the value must satisfy.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` to the last matching value.
        ///
        /// - Parameter subscriber: The subscriber that receives the value found, if any, and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, reducing: LastWhereReduction(predicate: predicate), name: "TryLastWhere")
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}
