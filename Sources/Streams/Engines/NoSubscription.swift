// How an engine holds an upstream's subscription that it may not have: before the upstream has
// subscribed, after it has finished, or between one inner publisher and the next. Two ways,
// each where it measured cheaper (Docs/Performance.md, "flatMap: fewer costs per subscription"
// and "What a subscription pays at its end"):
//
// - A plain `any Subscription` field that holds a `NoSubscription` while there is none, the
//   owner's own state saying which: the sink's core (its flags) and the combining engine's
//   slots (`UpstreamSlot.state`). Storing a subscription writes over the placeholder without
//   destroying it (``NoSubscription/hold(_:in:)``); taking it out leaves a new placeholder
//   (``NoSubscription/take(from:)``). Per subscription this is the cheapest way measured:
//   `HeldSubscription`, used there instead, cost 90 to 190 instructions more per `sink` or
//   combining subscription (W3, F2, M2, C2; Docs/Performance.md, "Removed").
// - ``HeldSubscription`` (in FlatMapSubscription.swift), an enum with a `none` case, in
//   flatMap, whose in-place paths ask whether a subscription is there without a flag of their
//   own.
//
// Neither is a `(any Subscription)?`: testing, assigning over or destroying an `Optional` of an
// existential goes through the standard library's generic `Optional` witnesses (a metadata
// lookup, then about 60 instructions even for `nil`).

/// The subscription an engine holds while it has none: does nothing.
@usableFromInline
struct NoSubscription: Subscription {
    @inlinable init() {}
    @usableFromInline var combineIdentifier: CombineIdentifier { CombineIdentifier() }
    @inlinable func request(_ demand: Subscribers.Demand) {}
    @inlinable func cancel() {}

    /// Stores `subscription` in `field`, which must hold a `NoSubscription`. Generic, so that
    /// where the subscription's type is known it is boxed once, directly; and written over the
    /// placeholder rather than assigned, which would first destroy it through the existential's
    /// witnesses (about 30 instructions, for an empty struct that has nothing to destroy).
    @inlinable
    static func hold(_ subscription: some Subscription, in field: inout any Subscription) {
        withUnsafeMutablePointer(to: &field) { $0.initialize(to: subscription) }
    }

    /// Moves the subscription out of `field` (not copied), leaving a `NoSubscription`.
    @inlinable
    static func take(from field: inout any Subscription) -> any Subscription {
        withUnsafeMutablePointer(to: &field) {
            let taken = $0.move()
            $0.initialize(to: NoSubscription())
            return taken
        }
    }
}
