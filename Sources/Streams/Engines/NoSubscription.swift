// How an engine holds a subscription that may not be there yet: before the upstream has
// subscribed, after it has finished, or between one inner publisher and the next. One idiom in
// every engine: a plain `any Subscription` field that holds a `NoSubscription` while there is
// none, the owner's own state saying which when it matters (a flag such as
// `upstreamSubscribed`, a slot's `isSubscribed`, the sink's flags). A placeholder's `request`
// and `cancel` do nothing, so a call on what may be a placeholder needs no test.
//
// Why this one: it is the cheapest measured (Docs/Performance.md, "flatMap: fewer costs per
// subscription", "What a subscription pays at its end" and "Removed"). Testing, assigning over
// or destroying a `(any Subscription)?` goes through the standard library's generic `Optional`
// witnesses (a metadata lookup, then about 60 instructions even for `nil`); flatMap's former
// `HeldSubscription` enum (`none` or `some(any Subscription)`) avoided that, but cost 90 to 190
// instructions more per `sink` or combining subscription than this placeholder. Storing a
// subscription writes over the placeholder without destroying it (``NoSubscription/hold(_:in:)``);
// taking it out leaves a new placeholder (``NoSubscription/take(from:)``). Plain assignment and
// copying work too, for paths that are not per subscription. `package`, so that the modules of
// this package that hold subscriptions (the store's effect subscriber) use the same idiom.

/// The subscription an engine holds while it has none: does nothing.
@usableFromInline
package struct NoSubscription: Subscription {
    /// A placeholder.
    @inlinable package init() {}
    @usableFromInline package var combineIdentifier: CombineIdentifier { CombineIdentifier() }
    /// Does nothing.
    @inlinable package func request(_ demand: Subscribers.Demand) {}
    /// Does nothing.
    @inlinable package func cancel() {}

    /// Stores `subscription` in `field`, which must hold a `NoSubscription`. Generic, so that
    /// where the subscription's type is known it is boxed once, directly; and written over the
    /// placeholder rather than assigned, which would first destroy it through the existential's
    /// witnesses (about 30 instructions, for an empty struct that has nothing to destroy).
    @inlinable
    package static func hold(_ subscription: some Subscription, in field: inout any Subscription) {
        withUnsafeMutablePointer(to: &field) { $0.initialize(to: subscription) }
    }

    /// Moves the subscription out of `field` (not copied), leaving a `NoSubscription`.
    @inlinable
    package static func take(from field: inout any Subscription) -> any Subscription {
        withUnsafeMutablePointer(to: &field) {
            let taken = $0.move()
            $0.initialize(to: NoSubscription())
            return taken
        }
    }
}
