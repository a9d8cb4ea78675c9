// MARK: - prefix(untilOutputFrom:)

extension Publisher {
    /// Passes on values until a second publisher sends a value, then finishes.
    ///
    /// The operator subscribes to `publisher` (the trigger) as well as to the upstream, and asks
    /// the trigger for one value. Until that value comes, the upstream's values go through
    /// unchanged. When it comes, the upstream and the trigger are cancelled and the stream
    /// finishes. If the trigger completes without sending anything, nothing changes: the
    /// upstream's values keep flowing.
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
    /// - Demand: the downstream's demand goes to the upstream unchanged (demand asked for before
    ///   the upstream has sent its subscription is passed on when it does). The trigger is asked
    ///   for `.max(1)`. Asking for `.none` does nothing and is not passed on, as in Combine (S9).
    /// - Completion: `.finished` at the trigger's first value; before that, the upstream's
    ///   completion as is (the trigger is then cancelled). What the upstream or the trigger sends
    ///   before its subscription or after its end is ignored, and a second subscription is
    ///   cancelled (S2).
    /// - Cancellation: the trigger's value cancels both publishers (S15); a cancel from
    ///   downstream cancels both too.
    /// - Threading: the two publishers may send on different threads; the downstream is never
    ///   called by both at once (S3). A trigger value that arrives while an upstream value is
    ///   being delivered on another thread ends the stream right after that value.
    /// - Combine compatibility: as Combine. The trigger is subscribed before the upstream, so
    ///   a trigger that fires at once (`Just`) finishes the stream before any upstream value.
    /// - Complexity: O(1) per value; two uncontended locks per value.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

// The publisher types (`Publishers.PrefixUntilOutput`) are declared in
// Publishers.PrefixUntilOutput.generated.swift, made by Scripts/generate-sources from
// Scripts/templates/PublisherTypes.template: each one holds the operator's parameters, and its
// `receive(subscriber:)` subscribes through the logic below.

