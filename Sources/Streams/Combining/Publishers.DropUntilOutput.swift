// Engine: Engines/UntilOutputSubscription.swift.

// MARK: - drop(untilOutputFrom:)

extension Publisher {
    /// Drops values until a second publisher sends a value, then passes on the rest.
    ///
    /// The subscriber gets its subscription first; then the operator subscribes to `publisher`
    /// (the trigger), asking it for one value, and to the upstream. Until the trigger's value
    /// comes, the upstream's values are dropped. When it comes, every later upstream value goes
    /// through; the trigger stays subscribed until the stream ends (what it sends afterwards is
    /// ignored). If the trigger completes before sending anything, the stream ends with that
    /// completion (a failure or `.finished`) and the upstream is cancelled.
    ///
    /// <!-- marble dropUntilOutput: $0[0].drop(untilOutputFrom: $0[1]) -->
    /// ```text
    /// upstream: -a-b-c-d-|
    /// trigger:  ----x-----
    ///           drop(untilOutputFrom: trigger)
    /// output:   -----c-d-[;|] (`;`: the trigger, still subscribed, is cancelled at the end)
    /// ```
    ///
    /// ![Marble diagram of dropUntilOutput](marble-dropUntilOutput)
    ///
    /// ```swift
    /// let values = PassthroughSubject<Int, Never>()
    /// let start = PassthroughSubject<Void, Never>()
    /// let c = values.drop(untilOutputFrom: start).sink { print($0) }
    /// values.send(1)
    /// values.send(2)
    /// start.send()
    /// values.send(3)
    /// values.send(4)
    /// // Prints: 3
    /// //         4
    /// ```
    ///
    /// - Parameter publisher: The trigger: its first value lets the upstream's values through.
    ///   It fails with the upstream's failure type.
    /// - Returns: A publisher that sends the upstream's values that come after `publisher`'s first
    ///   value.
    /// - Demand: the downstream's demand goes to the upstream unchanged (demand asked for before
    ///   the upstream has sent its subscription is passed on when it does). A value dropped
    ///   before the trigger fires uses up the demand it was sent for, as Combine documents: it
    ///   is not asked for again. The trigger is asked for `.max(1)`. Asking for `.none` does
    ///   nothing and is not passed on ([S9]).
    /// - Completion: the upstream's completion as is, at any time (the trigger, fired or not,
    ///   is then cancelled); the trigger's completion if it comes before its value (the upstream
    ///   is then cancelled); after its value, the trigger's completion is ignored. What the
    ///   upstream or the trigger sends before its subscription or after its end is ignored, and
    ///   a second subscription is cancelled ([S2]).
    /// - Cancellation: a cancel from downstream cancels both publishers, the trigger also after
    ///   its value: it stays subscribed until the stream ends.
    /// - Threading: the two publishers may send on different threads; the downstream is never
    ///   called by both at once ([S3]). A trigger completion that arrives while an upstream value
    ///   is being delivered on another thread is sent right after that value.
    /// - Combine compatibility: as Combine, including the order of subscriptions (the
    ///   subscriber's, then the trigger's, then the upstream's, so a trigger that fires at once,
    ///   `Just`, lets every upstream value through), the demand that dropped values use up, and
    ///   the trigger kept subscribed after its value. Combine never cancels the trigger once it
    ///   has fired, so it outlives the stream; this cancels it when the stream ends ([S7]).
    /// - Complexity: O(1) per value.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

// MARK: - Publisher types

// The publisher types (`Publishers.DropUntilOutput`) hold the operators' parameters; each one's
// `receive(subscriber:)` subscribes through the logic below.

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
            UntilOutputSubscription.subscribe(
                subscriber, to: upstream, until: other, mode: .drop, name: "DropUntilOutput")
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}
