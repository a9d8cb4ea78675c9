// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.PrefixUntilOutput.swift
// (`Publishers.PrefixUntilOutput`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/prefix(untilOutputFrom:)``: the upstream's values until a
    /// second publisher sends a value.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream
        /// The trigger: its first value finishes this publisher.
        public let other: Other

        /// Creates a publisher of `upstream`'s values until `other` sends a value.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are passed on.
        ///   - other: The trigger: its first value finishes this publisher.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes the trigger, then the upstream; `subscriber` gets its subscription when the
        /// upstream's arrives, as in Combine.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UntilOutputSubscription.subscribe(subscriber, to: upstream, until: other, mode: .prefix, name: "PrefixUntilOutput")
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
