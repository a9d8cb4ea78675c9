// MARK: - drop(untilOutputFrom:)

extension Publisher {
    /// Drops values until a second publisher sends a value, then passes on the rest.
    ///
    /// The operator subscribes to `publisher` (the trigger) as well as to the upstream, and asks
    /// the trigger for one value. Until that value comes, the upstream's values are dropped.
    /// When it comes, the trigger is cancelled and every later upstream value goes through. If
    /// the trigger completes before sending anything, the stream ends with that completion (a
    /// failure or `.finished`) and the upstream is cancelled.
    ///
    /// <!-- marble dropUntilOutput: $0[0].drop(untilOutputFrom: $0[1]) -->
    /// ```text
    /// upstream: -a-b-c-d-|
    /// trigger:  ----x-----
    ///           drop(untilOutputFrom: trigger)
    /// output:   ----;c-d-|    (`;`: the trigger is cancelled after its first value)
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
    /// - Demand: the downstream's demand goes to the upstream unchanged (demand asked for before
    ///   the upstream has sent its subscription is passed on when it does). A value dropped
    ///   before the trigger fires uses up the demand it was sent for, as Combine documents: it
    ///   is not asked for again. The trigger is asked for `.max(1)`. Asking for `.none` does
    ///   nothing and is not passed on, as in Combine (S9).
    /// - Completion: the upstream's completion as is, at any time (the trigger is then
    ///   cancelled); the trigger's completion if it comes before its value (the upstream is
    ///   then cancelled); after its value, the trigger's completion is ignored. What the upstream
    ///   or the trigger sends before its subscription or after its end is ignored, and a second
    ///   subscription is cancelled (S2).
    /// - Cancellation: the trigger's value cancels the trigger; a cancel from downstream
    ///   cancels both publishers.
    /// - Threading: the two publishers may send on different threads; the downstream is never
    ///   called by both at once (S3). A trigger completion that arrives while an upstream value
    ///   is being delivered on another thread is sent right after that value.
    /// - Combine compatibility: as Combine, including the demand that dropped values use up.
    ///   The trigger is subscribed before the upstream, so a trigger that fires at once
    ///   (`Just`) lets every upstream value through.
    /// - Complexity: O(1) per value; two uncontended locks per value passed on, one per value
    ///   dropped.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

// The publisher types (`Publishers.DropUntilOutput`) are declared in
// Publishers.DropUntilOutput.generated.swift, made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template: each one holds the operator's parameters, and its
// `receive(subscriber:)` subscribes through the logic below.

