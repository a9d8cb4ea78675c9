/// The subscriber that `flatMap` and `switchToLatest` subscribe each inner publisher with.
///
/// An operator that subscribes publishers of its own (the *inners*) must tell their signals
/// apart, and must recognise a signal from an inner that is already over (finished, failed,
/// cancelled or replaced) so that it can ignore it (S2, S4). `InnerSubscriber` does that
/// without an object per inner: it is a struct holding the operator's subscription (its
/// *parent*), the inner's *slot* (where the parent keeps that inner's state; always 0 for
/// `switchToLatest`, which has one inner at a time) and the slot's *generation* (bumped each
/// time the slot gets a new inner). Every signal goes to the parent with both; the parent
/// compares them with the slot's current generation, under its lock, and drops what is stale.
///
/// It holds the parent strongly: an inner keeps the operator's subscription alive until it
/// completes or is cancelled, and the parent lets go of the inner's subscription when the
/// stream ends, so the cycle is broken then (S7).
@usableFromInline
struct InnerSubscriber<Parent: InnerSubscriberParent>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Parent.InnerInput
    @usableFromInline typealias Failure = Parent.InnerFailure

    @usableFromInline let parent: Parent
    @usableFromInline let slot: Int
    @usableFromInline let generation: Int

    @inlinable
    init(parent: Parent, slot: Int, generation: Int) {
        self.parent = parent
        self.slot = slot
        self.generation = generation
    }

    /// The parent's: every inner of one stream is the same subscriber, as in Combine.
    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }
    @usableFromInline var description: String { parent.description }

    @inlinable
    func receive(subscription: any Subscription) {
        parent.innerSubscribed(subscription, slot: slot, generation: generation)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.innerValue(input, slot: slot, generation: generation)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        parent.innerCompleted(completion, slot: slot, generation: generation)
    }
}

/// The subscription an ``InnerSubscriber`` reports to: it receives each inner's signals with
/// the inner's slot and generation.
@usableFromInline
protocol InnerSubscriberParent: AnyObject, CustomStringConvertible {
    associatedtype InnerInput
    associatedtype InnerFailure: Error

    /// The inner of `slot` and `generation` sent its subscription.
    func innerSubscribed(_ subscription: any Subscription, slot: Int, generation: Int)
    /// The inner of `slot` and `generation` sent a value; returns the demand to give it back.
    func innerValue(_ value: InnerInput, slot: Int, generation: Int) -> Subscribers.Demand
    /// The inner of `slot` and `generation` completed.
    func innerCompleted(_ completion: Subscribers.Completion<InnerFailure>, slot: Int, generation: Int)
}
