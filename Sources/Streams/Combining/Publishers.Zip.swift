// MARK: - zip

// The types for three and four publishers (`Zip3`, `Zip4` and their queues) are in
// Publishers.Zip.generated.swift, made by Scripts/generate-arities from
// Scripts/templates/Publishers.Zip.generated.swift.template.

extension Publisher {
    /// Pairs this publisher's values with another publisher's, oldest with oldest, and sends the
    /// pairs as tuples.
    ///
    /// Zip keeps the values each publisher has sent and not yet paired, in order. As soon as both
    /// have one, the oldest of each go down together as a tuple: the first value of one with the
    /// first of the other, the second with the second, and so on. Like a zip fastener, it never
    /// skips or repeats a value; a value without a partner yet waits for one.
    ///
    /// <!-- marble zip: $0[0].zip($0[1]).map { "(\($0), \($1))" } -->
    /// ```text
    /// self:   -1-2-----3-|
    /// other:  ---a-b-c---|
    ///         zip(other)
    /// output: ---x-y---z-[;|]   (x = (1, a), y = (2, b), z = (3, c); `;`: other cancelled)
    /// ```
    ///
    /// ![Marble diagram of zip](marble-zip)
    ///
    /// ```swift
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let letters = PassthroughSubject<String, Never>()
    /// let c = numbers.zip(letters).sink { print($0) }
    /// numbers.send(1)
    /// numbers.send(2)
    /// letters.send("a")
    /// letters.send("b")
    /// // Prints: (1, "a")
    /// //         (2, "b")
    /// ```
    ///
    /// - Demand: each upstream is asked for exactly what the downstream asks for (requests and
    ///   demand returned from `receive(_:)` alike): `n` tuples need `n` values from each, so zip
    ///   never asks an upstream for a value it could not pair within the downstream's demand.
    ///   A tuple goes out only against demand (S1); an upstream that sends more than it was asked
    ///   for has its extra values kept for later pairs. Asking for `.none` does nothing and is not
    ///   passed on, as in Combine (S9).
    /// - Completion: `.finished` as soon as an upstream has finished and has no value left to
    ///   pair: at once, or right after the tuple that takes its last value. No more tuples can
    ///   come, so the other upstreams are cancelled then (before that last tuple goes down). The
    ///   first failure cancels the other upstreams and goes down at once; unpaired values are
    ///   dropped. What an upstream sends before its subscription or after its end is ignored, and a
    ///   second subscription is cancelled (S2).
    /// - Cancellation: cancels every upstream and lets go of the downstream (S7).
    /// - Threading: the upstreams may send from several threads at once; the downstream is
    ///   called one signal at a time (S3), by the thread that completes a tuple or the one
    ///   already delivering.
    /// - Combine compatibility: as Combine. Combine gives the downstream its subscription once
    ///   every upstream is subscribed; here the downstream has it first, and an upstream that
    ///   subscribes after a request is asked for everything requested so far.
    /// - Complexity: O(1) amortized per value; memory for the values waiting for a partner.
    @inlinable
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Pairs this publisher's values with another publisher's, oldest with oldest, and sends
    /// what a closure makes of each pair.
    ///
    /// The same as `zip(_:)` followed by `map`: `transform` gets the two values of each pair.
    ///
    /// <!-- marble zip-transform: $0[0].zip($0[1]) { "\($0)\($1)" } -->
    /// ```text
    /// self:   -1-2---|
    /// other:  ---a-b-|
    ///         zip(other) { "\($0)\($1)" }
    /// output: ---x-y-[;|]   (x = "1a", y = "2b")
    /// ```
    ///
    /// ![Marble diagram of zip-transform](marble-zip-transform)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher
    ///     .zip(["a", "b"].publisher) { String(repeating: $1, count: $0) }
    ///     .sink { print($0) }
    /// // Prints: a
    /// //         bb
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `zip(_:)`; `transform` runs on the
    ///   thread that delivers.
    /// - Combine compatibility: as Combine (a `Publishers.Map` of a `Publishers.Zip`).
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip(self, other)) { transform($0.0, $0.1) }
    }

    /// Groups this publisher's values with those of two others, oldest with oldest, and sends
    /// the groups as tuples.
    ///
    /// A tuple goes out as soon as each of the three has a value not yet used: the first values
    /// together, then the second, and so on.
    ///
    /// <!-- marble zip3: $0[0].zip($0[1], $0[2]).map { "(\($0), \($1), \($2))" } -->
    /// ```text
    /// self:   -1---2---|
    /// b:      --a---b--|
    /// c:      ---x---y-|
    ///         zip(b, c)
    /// output: ---p---q-[;;|]   (p = (1, a, x), q = (2, b, y))
    /// ```
    ///
    /// ![Marble diagram of zip3](marble-zip3)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.zip(["a", "b"].publisher, [true, false].publisher)
    ///     .sink { print($0) }
    /// // Prints: (1, "a", true)
    /// //         (2, "b", false)
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `zip(_:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.Zip3<Self, P, Q> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Groups this publisher's values with those of two others, oldest with oldest, and sends
    /// what a closure makes of each group.
    ///
    /// The same as `zip(_:_:)` followed by `map`.
    ///
    /// <!-- marble zip3-transform: $0[0].zip($0[1], $0[2]) { "\($0)\($1)\($2)" } -->
    /// ```text
    /// self:   -1---2---|
    /// b:      --a---b--|
    /// c:      ---x---y-|
    ///         zip(b, c) { "\($0)\($1)\($2)" }
    /// output: ---p---q-[;;|]   (p = "1ax", q = "2by")
    /// ```
    ///
    /// ![Marble diagram of zip3-transform](marble-zip3-transform)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.zip([10, 20].publisher, [100, 200].publisher) { $0 + $1 + $2 }
    ///     .sink { print($0) }
    /// // Prints: 111
    /// //         222
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `zip(_:)`.
    /// - Combine compatibility: as Combine (a `Publishers.Map` of a `Publishers.Zip3`).
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip3(self, publisher1, publisher2)) { transform($0.0, $0.1, $0.2) }
    }

    /// Groups this publisher's values with those of three others, oldest with oldest, and sends
    /// the groups as tuples.
    ///
    /// A tuple goes out as soon as each of the four has a value not yet used.
    ///
    /// <!-- marble zip4: $0[0].zip($0[1], $0[2], $0[3]).map { "(\($0), \($1), \($2), \($3))" } -->
    /// ```text
    /// self:   -1----|
    /// b:      --a---|
    /// c:      ---x--|
    /// d:      ----7-|
    ///         zip(b, c, d)
    /// output: ----p-[;;;|]   (p = (1, a, x, 7))
    /// ```
    ///
    /// ![Marble diagram of zip4](marble-zip4)
    ///
    /// ```swift
    /// let c = Just(1).zip(Just("a"), Just(true), Just(2.5)).sink { print($0) }
    /// // Prints: (1, "a", true, 2.5)
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `zip(_:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.Zip4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Groups this publisher's values with those of three others, oldest with oldest, and sends
    /// what a closure makes of each group.
    ///
    /// The same as `zip(_:_:_:)` followed by `map`.
    ///
    /// <!-- marble zip4-transform: $0[0].zip($0[1], $0[2], $0[3]) { "\($0)\($1)\($2)\($3)" } -->
    /// ```text
    /// self:   -1----|
    /// b:      --a---|
    /// c:      ---x--|
    /// d:      ----7-|
    ///         zip(b, c, d) { "\($0)\($1)\($2)\($3)" }
    /// output: ----p-[;;;|]   (p = "1ax7")
    /// ```
    ///
    /// ![Marble diagram of zip4-transform](marble-zip4-transform)
    ///
    /// ```swift
    /// let c = Just(1).zip(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 }.sink { print($0) }
    /// // Prints: 10
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `zip(_:)`.
    /// - Combine compatibility: as Combine (a `Publishers.Map` of a `Publishers.Zip4`).
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip4(self, publisher1, publisher2, publisher3)) {
            transform($0.0, $0.1, $0.2, $0.3)
        }
    }
}

// MARK: - Publishers

extension Publishers {
    /// The publisher of `zip(_:)`: the values of two publishers, paired oldest with oldest.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to zip.
        public let a: A
        /// The second publisher to zip.
        public let b: B

        /// Creates a publisher that pairs the values of `a` and `b`.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = ZipRules<Zip2Storage<A.Output, B.Output>>
            let zip = CombiningSubscription<S, Rules>(downstream: subscriber, upstreamCount: 2)
            zip.start()
            guard zip.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(zip, index: 0) { $0.a.append($1) })
            guard zip.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(zip, index: 1) { $0.b.append($1) })
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}

// MARK: - Rules

/// The unpaired values of each upstream of a zip, one queue per upstream, typed: the only part
/// of the zip state machine that depends on the arity.
@usableFromInline
protocol ZipStorage {
    /// The tuple of one value per upstream.
    associatedtype Output
    /// Empty queues.
    init()
    /// Whether every queue has a value.
    var isFull: Bool { get }
    /// Whether upstream `index`'s queue is empty.
    func isEmpty(_ index: Int) -> Bool
    /// Takes the oldest value of every queue; none may be empty.
    mutating func takeTuple() -> Output
}

/// The queues of a two-upstream zip.
@usableFromInline
struct Zip2Storage<A, B>: ZipStorage {
    @usableFromInline var a = FIFOQueue<A>()
    @usableFromInline var b = FIFOQueue<B>()

    @inlinable init() {}

    @inlinable var isFull: Bool { !a.isEmpty && !b.isEmpty }

    @inlinable
    func isEmpty(_ index: Int) -> Bool {
        index == 0 ? a.isEmpty : b.isEmpty
    }

    @inlinable
    mutating func takeTuple() -> (A, B) {
        (a.popFirst()!, b.popFirst()!)
    }
}

/// What a zip (`Zip`, `Zip3`, `Zip4`) does with its upstreams' values.
///
/// Each upstream's unpaired values wait in its queue in `storage`. A tuple is taken as soon as
/// no queue is empty and the downstream has demand for it. The downstream's demand, requested
/// or returned, is passed to every upstream as it is. Invariant: a queue is empty or the demand
/// is zero.
@usableFromInline
struct ZipRules<Storage: ZipStorage>: StoringRules {
    @usableFromInline var storage = Storage()

    @inlinable static var name: StaticString { "Zip" }

    @inlinable init() {}

    @inlinable
    mutating func valueStored(at index: Int, _ core: inout CombiningCore<Storage.Output>) -> Storage.Output? {
        guard core.demand != .none, storage.isFull else { return nil }
        core.demand -= 1
        let tuple = storage.takeTuple()
        guard isExhausted(core) else { return tuple }
        core.ready.append(tuple)
        core.end(Subscribers.Completion<Never>.finished)
        return nil
    }

    /// Whether a finished upstream has no value left to pair: then no more tuples can come.
    @inlinable
    func isExhausted(_ core: CombiningCore<Storage.Output>) -> Bool {
        for index in 0..<core.upstreamCount where storage.isEmpty(index) && core.isFinished(index) {
            return true
        }
        return false
    }

    @inlinable
    func initialDemand(for index: Int, _ core: CombiningCore<Storage.Output>) -> Subscribers.Demand {
        core.requested
    }

    @inlinable
    mutating func demandDidGrow(by added: Subscribers.Demand, _ core: inout CombiningCore<Storage.Output>) {
        while core.demand != .none && storage.isFull {
            core.demand -= 1
            core.ready.append(storage.takeTuple())
            if isExhausted(core) {
                core.end(Subscribers.Completion<Never>.finished)
                return
            }
        }
        core.requestFromEveryUpstream(added)
    }

    @inlinable
    mutating func upstreamFinished(at index: Int, _ core: inout CombiningCore<Storage.Output>) {
        if storage.isEmpty(index) { core.end(Subscribers.Completion<Never>.finished) }
    }
}
