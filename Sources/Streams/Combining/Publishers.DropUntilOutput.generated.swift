// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// The publisher types of the operators in Publishers.DropUntilOutput.swift
// (`Publishers.DropUntilOutput`): their stored parameters, and the engine each one subscribes its
// subscriber to. What the operators do is documented there.

extension Publishers {
    /// The publisher of ``Publisher/drop(untilOutputFrom:)``: the upstream's values after a
    /// second publisher has sent a value.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type (the trigger's too).
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on once the trigger has fired.
        public let upstream: Upstream
        /// The trigger: its first value lets the upstream's values through.
        public let other: Other

        /// Creates a publisher of `upstream`'s values after `other` has sent a value.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are passed on once the trigger has fired.
        ///   - other: The trigger: its first value lets the upstream's values through.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes `subscriber`, then the trigger, then the upstream.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            UntilOutputSubscription.subscribe(subscriber, to: upstream, until: other, mode: .drop, name: "DropUntilOutput")
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
