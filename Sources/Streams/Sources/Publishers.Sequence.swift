import Synchronization

extension Sequence {
    /// A publisher that sends the elements of this sequence, in order, as they are requested,
    /// then finishes.
    ///
    /// <!-- marble sequence source: [1, 2, 3].publisher -->
    /// ```text
    /// [1, 2, 3].publisher:  [123|]     (unlimited demand: all at once, then finished)
    /// ```
    ///
    /// ![Marble diagram of sequence](marble-sequence)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.sink { print($0) }
    /// // Prints: 1, 2, 3 (one per line)
    /// ```
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers {
    /// A publisher that sends the elements of a sequence, then finishes.
    ///
    /// Elements go out only as demand allows (S1); the publisher finishes as soon as the sequence
    /// is exhausted, without waiting for more demand, and an empty sequence finishes at once
    /// (S5). A subscriber that requests one element at a time, from inside `receive(_:)` or by
    /// returning `.max(1)`, is served by a loop, not by recursion: a million elements do not grow
    /// the stack (S8).
    ///
    /// <!-- marble sequence-demand source demand=2: [1, 2, 3].publisher -->
    /// ```text
    /// elements:        1, 2, 3
    /// demand .max(2):  [12]     (3 and the completion wait for more demand)
    /// ```
    ///
    /// ![Marble diagram of sequence-demand](marble-sequence-demand)
    ///
    /// ```swift
    /// let c = (1...3).publisher.map { $0 * 2 }.sink { print($0) }
    /// // Prints: 2, 4, 6
    /// ```
    ///
    /// - Demand: requesting `.none` is accepted and does nothing, as in Combine (S9).
    /// - Threading: `request` and `cancel` may come from any thread; elements are delivered on the
    ///   thread whose request (or subscription) made them available, one caller at a time (S3).
    /// - Cancellation: stops delivery before the next element and releases the subscriber and the
    ///   sequence's iterator (S6, S7).
    /// - Combine compatibility: as Combine. The operators Combine declares on
    ///   `Publishers.Sequence` itself are declared here too and return the same publishers:
    ///   `map`, `filter`, `scan`, `dropFirst`, `prefix`, `append`, ... give a
    ///   `Publishers.Sequence` (the chain stays one loop); `reduce`, `collect`, `contains`,
    ///   `allSatisfy`, `count` give a `Result.Publisher` (or a `Just`); `first`, `last`, `min`,
    ///   `max`, `output(at:)` give an `Optional.Publisher`. As in Combine, those that take a
    ///   closure or compute an answer read the sequence when they are called, not when someone
    ///   subscribes.
    /// - Complexity: O(1) per element, no lock and no allocation per element.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The sequence's element type.
        public typealias Output = Elements.Element

        /// The sequence whose elements are published.
        public let sequence: Elements

        /// Creates a publisher of `sequence`'s elements.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Gives `subscriber` a subscription that delivers the elements on demand.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            publish(sequence, then: .finished, to: subscriber, name: "Sequence")
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

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
///
/// The drain loop runs on whichever thread moved `pass` from 0 to 1; it alone touches the
/// iterator and the downstream. A `request` or `cancel` that arrives meanwhile (from another
/// thread, or from inside `receive`) only records itself in the atomics and bumps `pass`, so the
/// running loop picks it up: no lock, no recursion. Once finished or cancelled, `pass` never
/// drops back to 0, so nothing runs again.
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
