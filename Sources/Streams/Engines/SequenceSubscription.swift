import Synchronization

// The engine of the synchronous sources: `Publishers.Sequence` and `Record` hand their elements
// (and, for `Record`, a recorded completion) to ``publish(_:then:to:name:)``, which gives the
// subscriber a ``SequenceSubscription``.
//
// State: the iterator and the next element, parked in the subscription while no loop runs;
// `requested`, the demand not yet taken by the loop; `cancelled`; and `pass`, the count of
// reasons for the loop to run. No lock: the three are atomics. The drain loop runs on whichever
// thread moved `pass` from 0 to 1; it alone touches the iterator and the downstream. A `request`
// or `cancel` that arrives meanwhile (from another thread, or from inside `receive`) only
// records itself in the atomics and bumps `pass`, so the running loop picks it up: no lock, no
// recursion, so a subscriber asking for one element at a time from inside `receive(_:)` does not
// grow the stack (S8). Once finished or cancelled, `pass` never drops back to 0, so nothing runs
// again. The first element is read at subscription, so an empty sequence finishes at once, and
// the next one right after each delivery, so the last element is followed by the completion
// without waiting for more demand (S5).
//
// Performance: the loop reads demand with one atomic exchange per batch, not per element, and
// keeps no lock and allocates nothing per element. Two tricks: `@exclusivity(unchecked)` on the
// fields only the loop owner touches (the loop already serializes them), and `runDrain`, a
// closure made where the subscription is created, where the concrete types are known, so that a
// `request` arriving through the `Subscription` existential runs the specialized loop rather than
// the generic one. It pays where the loop is started from outside `receive(_:)` (a subscriber
// that paces itself, an async iterator): W5ext 343 → 40 ns per element (4,751 → 600
// instructions); a request from inside `receive(_:)` (W5req) only bumps `pass` and gains nothing.

/// Subscribes `subscriber` to the elements of `elements` followed by `completion` (shared by
/// `Publishers.Sequence` and `Record`). An empty sequence completes at once.
@inlinable
func publish<Elements: Sequence, S: Subscriber>(
    _ elements: Elements, then completion: Subscribers.Completion<S.Failure>, to subscriber: S, name: StaticString
) where S.Input == Elements.Element {
    var iterator = elements.makeIterator()
    guard let first = iterator.next() else {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: completion)
        return
    }
    subscriber.receive(subscription: SequenceSubscription(
        downstream: subscriber, iterator: iterator, next: first, completion: completion, name: name))
}

/// Delivers a sequence's elements on demand.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription,
    CustomStringConvertible, @unchecked Sendable  // iterator, next, downstream: owned by the drain loop
where Downstream.Input == Iterator.Element {
    @exclusivity(unchecked) @usableFromInline var iterator: Iterator?
    @exclusivity(unchecked) @usableFromInline var next: Iterator.Element?
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    @usableFromInline let completion: Subscribers.Completion<Downstream.Failure>
    @usableFromInline let name: StaticString
    /// Demand requested and not yet taken by the loop (raw `Demand` value).
    @usableFromInline let requested = Atomic<UInt>(0)
    /// Requests for the loop to run; the caller that raises it from 0 runs the loop.
    @usableFromInline let pass = Atomic<Int>(0)
    @usableFromInline let cancelled = Atomic<Bool>(false)
    /// `drain`, as compiled for the concrete types at the subscribing call site. `request` is
    /// reached through the `Subscription` existential, where only the generic (slow) code of this
    /// class is visible; calling through this closure runs the specialized loop instead.
    @usableFromInline let runDrain: (SequenceSubscription) -> Void

    @inlinable
    init(downstream: Downstream, iterator: Iterator, next: Iterator.Element,
         completion: Subscribers.Completion<Downstream.Failure>, name: StaticString) {
        self.runDrain = { $0.drain() }
        self.downstream = downstream
        self.iterator = iterator
        self.next = next
        self.completion = completion
        self.name = name
    }

    @usableFromInline var description: String { "\(name)" }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { return }
        var old = requested.load(ordering: .relaxed)
        while true {
            let new = (Subscribers.Demand(rawValue: old) + demand).rawValue
            let (exchanged, original) = requested.compareExchange(
                expected: old, desired: new, ordering: .acquiringAndReleasing)
            if exchanged { break }
            old = original
        }
        if pass.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            runDrain(self)
        }
    }

    @inlinable
    func cancel() {
        if cancelled.exchange(true, ordering: .acquiringAndReleasing) { return }
        if pass.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            release()
        }
    }

    @inlinable
    func release() {
        downstream = nil
        iterator = nil
        next = nil
    }

    @inlinable
    func drain() {
        guard let downstream, var iterator = self.iterator.take(), var value = next.take() else { return }
        let unlimited = Subscribers.Demand.unlimitedRawValue
        var missed = 1
        var budget: UInt = 0
        while true {
            budget = (Subscribers.Demand(rawValue: budget)
                + Subscribers.Demand(rawValue: requested.exchange(0, ordering: .acquiring))).rawValue
            while budget > 0 {
                if cancelled.load(ordering: .relaxed) {
                    release()
                    return
                }
                let more = downstream.receive(value).rawValue
                if budget != unlimited {
                    budget = Swift.min(budget - 1 + more, unlimited)
                }
                guard let following = iterator.next() else {
                    if !cancelled.load(ordering: .relaxed) {
                        self.downstream = nil
                        downstream.receive(completion: completion)
                    }
                    release()
                    return
                }
                value = following
            }
            if cancelled.load(ordering: .relaxed) {
                release()
                return
            }
            // Park the loop's state before letting another caller take over.
            self.iterator = iterator
            self.next = value
            missed = pass.wrappingSubtract(missed, ordering: .acquiringAndReleasing).newValue
            if missed == 0 { return }
            iterator = self.iterator.take()!
            value = self.next.take()!
        }
    }
}
