/// The subscriber that `flatMap` and `switchToLatest` subscribe each inner publisher with.
///
/// An operator that subscribes publishers of its own (the *inners*) must tell their signals
/// apart, and must recognise a signal from an inner that is already over (finished, failed,
/// cancelled or replaced) so that it can ignore it ([S2], [S4]). `InnerSubscriber` does that
/// without an object per inner: it is a struct holding the operator's subscription (its
/// *parent*), the inner's *slot* (where the parent keeps that inner's state; always 0 for
/// `switchToLatest`, which has one inner at a time) and the slot's *generation* (bumped each
/// time the slot gets a new inner). Every signal goes to the parent with both; the parent
/// compares them with the slot's current generation, under its lock, and drops what is stale.
///
/// It holds the parent strongly: an inner keeps the operator's subscription alive until it
/// completes or is cancelled, and the parent lets go of the inner's subscription when the
/// stream ends, so the cycle is broken then ([S7]).
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S4]: doc:/Contract/StreamContract#S4
/// [S7]: doc:/Contract/StreamContract#S7
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

// MARK: - Delivery

/// What the drain token holder of `flatMap` or `switchToLatest` hands out with the lock
/// released: their ``SerialDelivery/Delivery``. `Item` is what waits in their queue.
@usableFromInline
enum FlatteningDelivery<Downstream: Subscriber, Item> {
    /// A value for the subscriber; then `next`, if any, is asked for one more (flatMap asks
    /// the inner that sent it, once its waiting value has gone out).
    case value(Downstream.Input, next: (any Subscription)?)
    /// Demand the subscriber returned, passed on to `subscription` (switchToLatest: to the
    /// current inner publisher).
    case request(any Subscription, Subscribers.Demand)
    /// `.unlimited` for each of these (flatMap: the subscriber's demand became unlimited).
    case unlimit(ContiguousArray<any Subscription>)
    /// The completion; the subscriber and the values still waiting are let go of after it ([S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    case end(Subscribers.Completion<Downstream.Failure>, Downstream?, FIFOQueue<Item>)
    /// Only let go of, after unlocking ([S7]): the stream was cancelled while the token was held.
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    case letGo(Downstream?)
}

/// A ``SerialDelivery`` whose deliveries are ``FlatteningDelivery``s: the subscriptions of
/// `flatMap` and `switchToLatest`, which share how the token holder calls out. The holder owns
/// `downstream` while it holds the token (`cancel()` leaves it to the holder), so it reads it
/// without the lock.
@usableFromInline
protocol FlatteningSubscription: SerialDelivery where Delivery == FlatteningDelivery<Downstream, Item> {
    associatedtype Downstream: Subscriber
    /// `nil` once the stream is over.
    var downstream: Downstream? { get }
}

extension FlatteningSubscription {
    @inlinable
    func deliver(_ delivery: FlatteningDelivery<Downstream, Item>) -> DeliveryResult {
        switch delivery {
        case .value(let value, let next):
            let more = downstream.unsafelyUnwrapped.receive(value)
            next?.request(.max(1))
            return .returned(more)
        case .request(let subscription, let demand):
            subscription.request(demand)
            return .returned(.none)
        case .unlimit(let subscriptions):
            for subscription in subscriptions { subscription.request(.unlimited) }
            return .returned(.none)
        case .end(let completion, let downstream, _):
            downstream?.receive(completion: completion)
            return .leave  // nothing follows the completion: the token stays taken
        case .letGo:
            return .leave
        }
    }
}
