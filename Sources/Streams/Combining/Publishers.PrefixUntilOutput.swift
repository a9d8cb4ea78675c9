// Engine: Engines/UntilOutputSubscription.swift.

// MARK: - prefix(untilOutputFrom:)

extension Publisher {
    /// Passes on values until a second publisher sends a value, then finishes.
    ///
    /// The operator subscribes to `publisher` (the trigger), asking it for one value, then to the
    /// upstream; the subscriber gets its subscription when the upstream's arrives. Until the
    /// trigger's value comes, the upstream's values go through unchanged. When it comes, the
    /// upstream and the trigger are cancelled and the stream finishes. If the trigger completes
    /// without sending anything, nothing changes: the upstream's values keep flowing.
    ///
    /// <!-- marble prefixUntilOutput: $0[0].prefix(untilOutputFrom: $0[1]) -->
    /// ```text
    /// upstream: -a-b-c-d-|
    /// trigger:  ----x-----
    ///           prefix(untilOutputFrom: trigger)
    /// output:   -a-b[;;|]     (`;;`: the upstream and the trigger are cancelled)
    /// ```
    ///
    /// ![Marble diagram of prefixUntilOutput](marble-prefixUntilOutput)
    ///
    /// ```swift
    /// let values = PassthroughSubject<Int, Never>()
    /// let stop = PassthroughSubject<Void, Never>()
    /// let c = values.prefix(untilOutputFrom: stop)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// values.send(1)
    /// values.send(2)
    /// stop.send()
    /// values.send(3)
    /// // Prints: 1
    /// //         2
    /// //         finished
    /// ```
    ///
    /// - Parameter publisher: The trigger: its first value ends the stream. Its failure type may
    ///   differ from the upstream's; its completion is ignored.
    /// - Returns: A publisher that sends the upstream's values until `publisher` sends a value,
    ///   then finishes.
    /// - Demand: the downstream's demand goes to the upstream unchanged (what it asks for while
    ///   it receives its subscription is passed on right after). The trigger is asked for
    ///   `.max(1)`. Asking for `.none` does nothing and is not passed on ([S9]).
    /// - Completion: `.finished` at the trigger's first value; before that, the upstream's
    ///   completion as is (the trigger is then cancelled). What the upstream or the trigger sends
    ///   before its subscription or after its end is ignored, and a second subscription is
    ///   cancelled ([S2]). A trigger that fires before the upstream's subscription has arrived
    ///   gives the subscriber its subscription and `.finished` at once; the upstream's
    ///   subscription is cancelled when it arrives.
    /// - Cancellation: the trigger's value cancels both publishers ([S15]); a cancel from downstream
    ///   cancels both too.
    /// - Threading: the two publishers may send on different threads; the downstream is never
    ///   called by both at once ([S3]). A trigger value that arrives while the subscriber is given
    ///   its subscription or an upstream value on another thread ends the stream right after.
    /// - Combine compatibility: the order of events is Combine's: the trigger is subscribed
    ///   first, then the upstream, and the subscriber gets its subscription when the upstream's
    ///   arrives, so a trigger that fires at once (`Just`) finishes the stream before any
    ///   upstream value. Four differences keep rules Combine breaks here: a trigger that fires
    ///   before the upstream's subscription has arrived makes Combine send `.finished` to a
    ///   subscriber that has no subscription ([S2]), where this sends the subscription first;
    ///   Combine passes on a request made inside `receive(subscription:)` at once, where this
    ///   passes it on when that call has returned ([S3]); Combine lets go of the trigger after
    ///   its value without cancelling it, where this cancels it ([S7], [S15]); and Combine passes
    ///   `request(.none)` to the upstream ([S9]).
    /// - Complexity: O(1) per value.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.PrefixUntilOutput`) hold the operators' parameters; each one's
// `receive(subscriber:)` subscribes through the logic below.

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
            UntilOutputSubscription.subscribe(
                subscriber, to: upstream, until: other, mode: .prefix, name: "PrefixUntilOutput")
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
