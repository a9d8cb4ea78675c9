// MARK: - merge(with:)

// Engine: Sources/Streams/Engines/CombiningSubscription.swift (with ``MergeRules`` and
// ``MergeSide``, below).
//
// The publisher types for two to eight publishers (`Merge` ... `Merge8`), the operators for three
// to eight (`merge(with:_:)` ...) and the `merge(with:)` overloads on the merge types are in
// Publishers.Merge.generated.swift, made by Scripts/generate-sources from
// Scripts/templates/Publishers.Merge.generated.swift.template. This file has the two-publisher
// operators, `MergeMany`, and the rules every merge follows.

extension Publisher {
    /// Combines this publisher's values with another publisher's into one stream, in the order
    /// they arrive.
    ///
    /// Both publishers are subscribed, and every value either of them sends is passed on as it
    /// comes. The merged stream finishes when both have finished, and fails as soon as either
    /// fails. The two must have the same `Output` and `Failure` types; to merge several, use
    /// `merge(with:_:)` and its longer forms, or ``Publishers/MergeMany``.
    ///
    /// <!-- marble merge: $0[0].merge(with: $0[1].map { $0 }) -->
    /// ```text
    /// self:   -1---3---|
    /// other:  ---2---4---|
    ///         merge(with: other)
    /// output: -1-2-3-4---|
    /// ```
    ///
    /// ![Marble diagram of merge](marble-merge)
    ///
    /// ```swift
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let others = PassthroughSubject<Int, Never>()
    /// let c = numbers.merge(with: others).sink { print($0) }
    /// numbers.send(1)
    /// others.send(2)
    /// numbers.send(3)
    /// // Prints: 1, 2, 3
    /// ```
    ///
    /// - Parameter other: The publisher to merge with this one.
    /// - Returns: A ``Publishers/Merge`` that sends the values of both publishers as they arrive.
    /// - Demand: never more values than the downstream asked for ([S1]). With `.unlimited` demand,
    ///   every upstream is asked for `.unlimited` and values go straight through. With limited
    ///   demand, each upstream is asked for one value at a time, also before any demand: a value
    ///   that arrives without demand waits, and its upstream is asked for the next one only once
    ///   it has been delivered. So at most one value per upstream waits, and waiting values go
    ///   out in the order they arrived, as demand comes: no upstream starves another. Asking for
    ///   `.none` does nothing and is not passed on, as in Combine ([S9]).
    /// - Completion: `.finished` once every upstream has finished and every waiting value has
    ///   been delivered. The first failure cancels the other upstreams and goes down at once;
    ///   values still waiting for demand are dropped. What an upstream sends before its
    ///   subscription or after its end is ignored, and a second subscription is cancelled ([S2]).
    /// - Cancellation: cancels every upstream and lets go of the downstream ([S7]).
    /// - Threading: the upstreams may send from several threads at once. The downstream is
    ///   called one signal at a time ([S3]): a value that arrives while another is being delivered
    ///   is delivered right after it, by the thread already delivering.
    /// - Combine compatibility: as Combine, which also keeps one value per upstream under
    ///   limited demand. Combine documents no order for waiting values; here it is the order of
    ///   arrival. Upstreams are subscribed in order, after the downstream has its subscription;
    ///   once the stream has ended, the rest are not subscribed.
    /// - Complexity: O(1) per value: a lock taken twice, no allocation when values do not have
    ///   to wait.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Combines this publisher's values with those of another publisher of the same type, in
    /// the order they arrive.
    ///
    /// The same as the generic `merge(with:)`, but the result is a ``Publishers/MergeMany`` of
    /// this publisher's type, which can take more publishers of that type with its own
    /// `merge(with:)`. Swift picks this form when both publishers have the same type.
    ///
    /// <!-- marble merge-sameType: $0[0].merge(with: $0[1]) -->
    /// ```text
    /// self:   -1---3-|
    /// other:  ---2---|
    ///         merge(with: other)
    /// output: -1-2-3-|
    /// ```
    ///
    /// ![Marble diagram of merge-sameType](marble-merge-sameType)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.merge(with: [3, 4].publisher).sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// - Parameter other: The publisher of the same type to merge with this one.
    /// - Returns: A ``Publishers/MergeMany`` that sends the values of both publishers as they
    ///   arrive.
    /// - Demand, completion, cancellation, threading: as the generic `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

// MARK: - Publishers

extension Publishers {
    /// A publisher that merges the values of any number of publishers of one type, in the order
    /// they arrive.
    ///
    /// It behaves as `merge(with:)` does for two: every publisher is subscribed, in order; the
    /// stream finishes when all have finished (at once when there are none) and fails with the
    /// first failure.
    ///
    /// ```swift
    /// let merged = Publishers.MergeMany([1, 2].publisher, [3].publisher, [4, 5].publisher)
    /// let c = merged.sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5
    /// ```
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' output type.
        public typealias Output = Upstream.Output
        /// The upstreams' failure type.
        public typealias Failure = Upstream.Failure

        /// The publishers to merge, in the order they are subscribed.
        public let publishers: [Upstream]

        /// Creates a publisher that merges the values of the given publishers.
        ///
        /// - Parameter upstream: The publishers to merge.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges the values of the publishers in a sequence.
        ///
        /// - Parameter upstream: The sequence of publishers to merge.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: publishers.count)
            merger.start()
            for index in publishers.indices {
                guard merger.isRunning else { return }
                publishers[index].receive(subscriber: MergeSide(merger, index: index))
            }
        }

        /// A `MergeMany` of these publishers and `other`.
        ///
        /// - Parameter other: The publisher to add to the merge.
        /// - Returns: A `MergeMany` of these publishers, then `other`.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

// MARK: - Rules

/// A merge's subscription (`Merge` to `Merge8`, `MergeMany`, for any number of upstreams).
@usableFromInline
typealias MergeSubscription<Downstream: Subscriber> = CombiningSubscription<Downstream?, MergeRules<Downstream.Input>>

/// What a merge does with its upstreams' values.
///
/// With unlimited demand every upstream is asked for `.unlimited` and each value goes straight
/// down. With limited demand each upstream has at most one request outstanding: asked for one
/// value when subscribed, and for the next once its value has been paid for. A value that finds
/// no demand waits in `waiting`, in arrival order, and is paid for, in that order, as demand
/// comes; then its upstream is asked for the next. Invariant: `waiting` is empty or the demand
/// is zero.
@usableFromInline
struct MergeRules<Output>: CombiningRules {
    /// Values that found no demand, with their upstream's index, oldest first; at most one per
    /// upstream.
    @usableFromInline var waiting = FIFOQueue<(index: Int, value: Output)>()
    /// Set once the downstream's demand is unlimited and every upstream has been asked for
    /// `.unlimited`.
    @usableFromInline var isUnlimited = false

    @inlinable static var name: StaticString { "Merge" }

    @inlinable init() {}

    /// Takes a value from upstream `index`: returns it to send if it is paid for, and `.max(1)`
    /// when the upstream may send the next (the value was paid for under limited demand).
    @inlinable
    mutating func take(_ value: Output, at index: Int, _ core: inout CombiningCore)
        -> (send: Output?, more: Subscribers.Demand)
    {
        if isUnlimited { return (value, .none) }
        if core.demand == .none {
            waiting.append((index, value))
            return (nil, .none)
        }
        core.demand -= 1
        return (value, .max(1))
    }

    @inlinable
    func initialDemand(for index: Int, requested: Subscribers.Demand) -> Subscribers.Demand {
        isUnlimited ? .unlimited : .max(1)
    }

    @inlinable
    mutating func demandDidGrow(
        by added: Subscribers.Demand, _ core: inout CombiningCore, paid: inout FIFOQueue<Output>
    ) {
        if isUnlimited { return }
        if core.demand == .unlimited {
            isUnlimited = true
            // (Tested first: the loop would make the empty queue's storage unique, allocating.)
            if !waiting.isEmpty {
                while let (_, value) = waiting.popFirst() { paid.append(value) }
            }
            core.requestFromEveryUpstream(.unlimited)
        } else if !waiting.isEmpty {
            while core.demand > 0, let (index, value) = waiting.popFirst() {
                core.demand -= 1
                paid.append(value)
                core.request(.max(1), fromUpstream: index)
            }
        }
        finishIfDone(&core)
    }

    @inlinable
    mutating func upstreamFinished(at index: Int, _ core: inout CombiningCore) {
        finishIfDone(&core)
    }

    /// Ends with `.finished` once every upstream has finished and nothing waits.
    @inlinable
    func finishIfDone(_ core: inout CombiningCore) {
        if core.finishedCount == core.upstreamCount, waiting.isEmpty, core.isRunning {
            core.end(Subscribers.Completion<Never>.finished)
        }
    }
}

// MARK: - Side subscriber

/// The subscriber a merge gives upstream `index`: passes its signals on with the index.
@usableFromInline
struct MergeSide<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let merger: MergeSubscription<Downstream>
    @usableFromInline let index: Int
    /// The merge's identity, shared by its upstream subscribers (as flatMap's inner subscribers
    /// share theirs).
    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(merger) }

    @inlinable
    init(_ merger: MergeSubscription<Downstream>, index: Int) {
        self.merger = merger
        self.index = index
    }

    @usableFromInline var description: String { "Merge" }

    @inlinable
    func receive(subscription: any Subscription) {
        merger.receive(subscription: subscription, at: index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let index = self.index
        return merger.receive(input, at: index) { rules, value, core in
            rules.take(value, at: index, &core)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        merger.receive(completion: completion, at: index)
    }
}
