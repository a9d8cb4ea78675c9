import Synchronization

// The engine of the synchronous sources: `Publishers.Sequence` and `Record` hand their elements
// (and, for `Record`, a recorded completion) to ``publish(_:then:to:name:)``, which gives the
// subscriber a ``SequenceSubscription``.
//
// State: the iterator and the next element, parked in the subscription while no loop runs, and
// one atomic word, `state`: a flag `running` (a drain loop owns the iterator and the
// downstream), a flag `cancelled`, and `total`, every demand ever requested added up (saturating:
// its largest value means unlimited). No lock. The drain loop runs on whichever thread set
// `running`; it alone touches the iterator and the downstream, and it keeps in `taken` how much
// of `total` it has already counted. A `request` or `cancel` that arrives meanwhile (from another
// thread, or from inside `receive`) only records itself in `state`, so the running loop picks it
// up: no lock, no recursion, so a subscriber asking for one element at a time from inside
// `receive(_:)` does not grow the stack (S8). The loop stops by clearing `running` with a
// compare-and-swap against the state it last read, so a request or cancel that arrived after
// that read makes it look again. Once finished or cancelled, `running` stays set, so nothing
// runs again. The first element is read at subscription, so an empty sequence finishes at once,
// and the next one right after each delivery, so the last element is followed by the completion
// without waiting for more demand (S5).
//
// Performance: the loop reads new demand with a plain load of `state` (the requested total less
// what it has counted), not a read-modify-write, so a request made from inside `receive(_:)`
// costs one compare-and-swap in all: the request's own (Docs/Performance.md, "The sequence
// subscription in one atomic word"). It keeps no lock and allocates nothing per element. Two
// more tricks: `@exclusivity(unchecked)` on the fields only the loop owner touches (the loop
// already serializes them), and `runDrain`, a closure made where the subscription is created,
// where the concrete types are known, so that a `request` arriving through the `Subscription`
// existential runs the specialized loop rather than the generic one. It pays where the loop is
// started from outside `receive(_:)` (a subscriber that paces itself, an async iterator): W5ext
// 343 → 40 ns per element (4,751 → 600 instructions).

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
    subscriber.receive(
        subscription: SequenceSubscription(
            downstream: subscriber, iterator: iterator, next: first, completion: completion, name: name))
}

/// Delivers a sequence's elements on demand.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription,
    CustomStringConvertible, @unchecked Sendable  // iterator, next, downstream, taken: owned by the drain loop
where Downstream.Input == Iterator.Element {
    @exclusivity(unchecked) @usableFromInline var iterator: Iterator?
    @exclusivity(unchecked) @usableFromInline var next: Iterator.Element?
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// The part of the requested total that the loop has already counted into its budget.
    @exclusivity(unchecked) @usableFromInline var taken: UInt = 0
    @usableFromInline let completion: Subscribers.Completion<Downstream.Failure>
    @usableFromInline let name: StaticString
    /// `running` (bit 0), `cancelled` (bit 1), and above them the total demand requested.
    @usableFromInline let state = Atomic<UInt>(0)
    /// `drain`, as compiled for the concrete types at the subscribing call site. `request` is
    /// reached through the `Subscription` existential, where only the generic (slow) code of this
    /// class is visible; calling through this closure runs the specialized loop instead.
    @usableFromInline let runDrain: (SequenceSubscription) -> Void

    /// Set while a drain loop owns the iterator and the downstream (and for good once finished
    /// or cancelled).
    @inlinable static var running: UInt { 1 }
    /// Set by `cancel()`.
    @inlinable static var cancelled: UInt { 2 }
    /// The lowest bit of the requested total.
    @inlinable static var one: UInt { 4 }
    /// The largest total, which stands for unlimited demand.
    @inlinable static var unlimitedTotal: UInt { UInt.max >> 2 }

    @inlinable
    init(
        downstream: Downstream, iterator: Iterator, next: Iterator.Element,
        completion: Subscribers.Completion<Downstream.Failure>, name: StaticString
    ) {
        self.runDrain = { $0.drain() }
        self.downstream = downstream
        self.iterator = iterator
        self.next = next
        self.completion = completion
        self.name = name
    }

    @usableFromInline var description: String { "\(name)" }

    /// The requested total that `state` holds.
    @inlinable
    static func total(_ state: UInt) -> UInt { state >> 2 }

    /// `total` with `demand` added, saturating at `unlimitedTotal`.
    @inlinable
    static func adding(_ demand: Subscribers.Demand, to total: UInt) -> UInt {
        if demand == .unlimited || total == unlimitedTotal { return unlimitedTotal }
        let (sum, overflow) = total.addingReportingOverflow(demand.rawValue)
        return overflow || sum >= unlimitedTotal ? unlimitedTotal : sum
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand == .none { return }
        var old = state.load(ordering: .relaxed)
        while true {
            let new = Self.adding(demand, to: Self.total(old)) << 2 | old & Self.cancelled | Self.running
            let (exchanged, original) = state.compareExchange(
                expected: old, desired: new, ordering: .acquiringAndReleasing)
            if exchanged { break }
            old = original
        }
        if old & Self.running == 0 {
            runDrain(self)
        }
    }

    @inlinable
    func cancel() {
        let old = state.bitwiseOr(Self.cancelled | Self.running, ordering: .acquiringAndReleasing).oldValue
        if old & (Self.cancelled | Self.running) == 0 {
            release()
        }
    }

    @inlinable
    func release() {
        downstream = nil
        iterator = nil
        next = nil
    }

    /// The budget that the requests in `state` add to `budget`; records them as taken.
    @inlinable
    func takeRequested(from state: UInt, into budget: UInt) -> UInt {
        let total = Self.total(state)
        if total == Self.unlimitedTotal {
            taken = total
            return Subscribers.Demand.unlimitedRawValue
        }
        let new = total &- taken
        taken = total
        return (Subscribers.Demand(rawValue: budget) + Subscribers.Demand(rawValue: new)).rawValue
    }

    @inlinable
    func drain() {
        guard let downstream, var iterator = self.iterator.take(), var value = next.take() else { return }
        let unlimited = Subscribers.Demand.unlimitedRawValue
        var budget: UInt = 0
        var seen = state.load(ordering: .acquiring)
        while true {
            if seen & Self.cancelled != 0 {
                release()
                return
            }
            budget = takeRequested(from: seen, into: budget)
            while budget > 0 {
                let more = downstream.receive(value).rawValue
                if budget != unlimited {
                    budget = Swift.min(budget - 1 + more, unlimited)
                }
                guard let following = iterator.next() else {
                    if state.load(ordering: .acquiring) & Self.cancelled == 0 {
                        self.downstream = nil
                        downstream.receive(completion: completion)
                    }
                    release()
                    return
                }
                value = following
                if budget == 0 || state.load(ordering: .relaxed) & Self.cancelled != 0 { break }
            }
            let current = state.load(ordering: .acquiring)
            if current != seen || budget > 0 {
                // More demand, or a cancel, arrived meanwhile.
                seen = current
                continue
            }
            // Park the loop's state before letting another caller take over.
            self.iterator = iterator
            self.next = value
            let (stopped, original) = state.compareExchange(
                expected: seen, desired: seen & ~Self.running, ordering: .acquiringAndReleasing)
            if stopped { return }
            seen = original
            iterator = self.iterator.take()!
            value = self.next.take()!
        }
    }
}
