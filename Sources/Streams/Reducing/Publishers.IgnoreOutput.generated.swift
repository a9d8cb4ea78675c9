// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.IgnoreOutput.swift
// (`Publishers.IgnoreOutput`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/ignoreOutput()``: only the upstream's completion.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No values are ever sent.
        public typealias Output = Never
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are dropped.
        public let upstream: Upstream

        /// Creates a publisher that passes on only `upstream`'s completion.
        ///
        /// - Parameter upstream: The publisher whose values are dropped.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber` to the upstream's completion.
        ///
        /// - Parameter subscriber: The subscriber that receives only the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: IgnoreOutputSubscriber<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}
