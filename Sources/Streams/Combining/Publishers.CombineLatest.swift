// MARK: - combineLatest

// Engine: Sources/Streams/Engines/CombiningSubscription.swift (with ``LatestRules`` and
// ``SlotSide``, below).
//
// The publisher types (`CombineLatest`, `CombineLatest3`, `CombineLatest4`), their latest values,
// and the `combineLatest` operators for three and four publishers are in
// Publishers.CombineLatest.generated.swift, made by Scripts/generate-sources from
// Scripts/templates/Publishers.CombineLatest.generated.swift.template. This file has the
// two-publisher operators and the rules every combineLatest follows.

extension Publisher {
    /// Sends a tuple of the latest value of this publisher and of another whenever either sends
    /// a value, once both have sent one.
    ///
    /// CombineLatest remembers the latest value of each upstream. Nothing goes out until each
    /// has sent at least one; from then on, every value from either upstream sends the pair of
    /// latest values. Use it to keep something up to date with several inputs (a form that
    /// depends on two fields, say); to pair values one to one, use `zip(_:)`.
    ///
    /// <!-- marble combineLatest: $0[0].combineLatest($0[1]).map { "(\($0), \($1))" } -->
    /// ```text
    /// self:   -1---2-3---|
    /// other:  ---a-----b-|
    ///         combineLatest(other)
    /// output: ---w-x-y-z-|      (w = (1, a), x = (2, a), y = (3, a), z = (3, b))
    /// ```
    ///
    /// ![Marble diagram of combineLatest](marble-combineLatest)
    ///
    /// ```swift
    /// let width = PassthroughSubject<Int, Never>()
    /// let height = PassthroughSubject<Int, Never>()
    /// let c = width.combineLatest(height).sink { print($0) }
    /// width.send(1)
    /// width.send(2)
    /// height.send(10)
    /// width.send(3)
    /// // Prints: (2, 10)
    /// //         (3, 10)
    /// ```
    ///
    /// - Parameter other: The publisher to combine with this one.
    /// - Returns: A ``Publishers/CombineLatest`` that sends a tuple of both publishers' latest
    ///   values each time either sends a value, once both have sent one.
    /// - Demand: each of the downstream's requests, and demand it returns from `receive(_:)`,
    ///   is passed to every upstream. A tuple goes out only against demand ([S1]): when a value
    ///   arrives while the downstream has no demand, its tuple is dropped, but the value is
    ///   remembered, so the next tuple sent has it. Asking for `.none` does nothing and is not
    ///   passed on, as in Combine ([S9]).
    /// - Completion: `.finished` once every upstream has finished (if one finishes without ever
    ///   sending a value, nothing is ever sent, and the stream still waits for the others). The
    ///   first failure cancels the other upstreams and goes down at once. What an upstream sends
    ///   before its subscription or after its end is ignored, and a second subscription is
    ///   cancelled ([S2]).
    /// - Cancellation: cancels every upstream and lets go of the downstream and the latest
    ///   values ([S7]).
    /// - Threading: the upstreams may send from several threads at once; the downstream is
    ///   called one signal at a time ([S3]), by the thread whose value completes a tuple or the one
    ///   already delivering.
    /// - Combine compatibility: as Combine, which also drops a tuple that finds no demand.
    ///   Combine returns the demand that the downstream returns only to the upstream that sent
    ///   the value, so the other upstreams can stall; here every upstream gets it. The
    ///   downstream has its subscription before the upstreams are subscribed.
    /// - Complexity: O(1) per value; the tuple copies the latest value of each upstream.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Sends what a closure makes of the latest values of this publisher and of another,
    /// whenever either sends a value, once both have sent one.
    ///
    /// The same as `combineLatest(_:)` followed by `map`.
    ///
    /// <!-- marble combineLatest-transform: $0[0].ints.combineLatest($0[1].ints) { $0 * $1 } -->
    /// ```text
    /// self:   -1---2---|
    /// other:  ---3---4-|
    ///         combineLatest(other) { $0 * $1 }
    /// output: ---a-b-c-|      (a = 3, b = 6, c = 8)
    /// ```
    ///
    /// ![Marble diagram of combineLatest-transform](marble-combineLatest-transform)
    ///
    /// ```swift
    /// let width = PassthroughSubject<Int, Never>()
    /// let height = PassthroughSubject<Int, Never>()
    /// let c = width.combineLatest(height) { $0 * $1 }.sink { print($0) }
    /// width.send(2)
    /// height.send(5)
    /// width.send(3)
    /// // Prints: 10
    /// //         15
    /// ```
    ///
    /// - Parameters:
    ///   - other: The publisher to combine with this one.
    ///   - transform: A closure that takes the latest value of each publisher and returns the value
    ///     to send.
    /// - Returns: A publisher that sends what `transform` returns for both publishers' latest
    ///   values each time either sends a value, once both have sent one.
    /// - Demand, completion, cancellation, threading: as `combineLatest(_:)`; `transform` runs
    ///   on the thread that delivers.
    /// - Combine compatibility: as Combine (a `Publishers.Map` of a `Publishers.CombineLatest`).
    /// - Complexity: O(1) per value.
    @inlinable
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        Publishers.Map(upstream: Publishers.CombineLatest(self, other)) { transform($0.0, $0.1) }
    }
}

// MARK: - Rules

/// The latest value of each upstream of a combineLatest, typed: the only part of the
/// combineLatest state machine that depends on the arity.
@usableFromInline
protocol LatestValues {
    /// The tuple of the latest values.
    associatedtype Output
    /// No values yet.
    init()
    /// The latest values, once every upstream has sent one.
    var combination: Output? { get }
}

/// Rules whose upstreams' values go into a typed `Storage` (combineLatest's): each upstream's
/// values are put in its place by a closure that knows it (``SlotSide``).
@usableFromInline
protocol StoringRules: CombiningRules {
    /// Where the upstreams' values are kept.
    associatedtype Storage
    var storage: Storage { get set }
    /// A value from upstream `index` was just stored: returns the combination to send, paid for
    /// (`core.demand` already lessened), or `nil`.
    mutating func valueStored(at index: Int, _ core: inout CombiningCore) -> Output?
}

/// What a combineLatest (`CombineLatest`, `CombineLatest3`, `CombineLatest4`) does with its
/// upstreams' values.
///
/// Each value replaces its upstream's latest in `storage`. Once every upstream has sent one,
/// each value makes a tuple, paid for from the downstream's demand, or dropped when there is
/// none. The downstream's demand, requested or returned, is passed to every upstream as it is.
@usableFromInline
struct LatestRules<Storage: LatestValues>: StoringRules {
    @usableFromInline var storage = Storage()

    @inlinable static var name: StaticString { "CombineLatest" }

    @inlinable init() {}

    @inlinable
    mutating func valueStored(at index: Int, _ core: inout CombiningCore) -> Storage.Output? {
        guard core.demand != .none, let tuple = storage.combination else { return nil }
        core.demand -= 1
        return tuple
    }

    @inlinable
    func initialDemand(for index: Int, requested: Subscribers.Demand) -> Subscribers.Demand {
        requested
    }

    @inlinable
    mutating func demandDidGrow(
        by added: Subscribers.Demand, _ core: inout CombiningCore, paid: inout FIFOQueue<Storage.Output>
    ) {
        core.requestFromEveryUpstream(added)
    }

    @inlinable
    mutating func upstreamFinished(at index: Int, _ core: inout CombiningCore) {
        if core.finishedCount == core.upstreamCount { core.end(Subscribers.Completion<Never>.finished) }
    }
}

// MARK: - Side subscriber

/// The subscriber a combineLatest gives upstream `index`: passes its signals on with the
/// index, and stores its values with the closure that knows their place in the storage.
@usableFromInline
struct SlotSide<Input, Downstream: Subscriber, Rules: StoringRules>: Subscriber, CustomStringConvertible
where Rules.Output == Downstream.Input {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let combiner: CombiningSubscription<Downstream?, Rules>
    @usableFromInline let index: Int
    @usableFromInline let store: (inout Rules.Storage, Input) -> Void
    /// The operator's identity, shared by its upstream subscribers.
    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(combiner) }

    @inlinable
    init(
        _ combiner: CombiningSubscription<Downstream?, Rules>, index: Int,
        store: @escaping (inout Rules.Storage, Input) -> Void
    ) {
        self.combiner = combiner
        self.index = index
        self.store = store
    }

    @usableFromInline var description: String { combiner.description }

    @inlinable
    func receive(subscription: any Subscription) {
        combiner.receive(subscription: subscription, at: index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let (index, store) = (self.index, self.store)
        return combiner.receive(input, at: index) { rules, value, core in
            store(&rules.storage, value)
            return (rules.valueStored(at: index, &core), .none)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        combiner.receive(completion: completion, at: index)
    }
}
