// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/Publishers.Zip.generated.swift.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// MARK: - zip with three and four publishers

extension Publisher {
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
    /// - Parameters:
    ///   - publisher1: The second publisher to zip, after this one.
    ///   - publisher2: The third publisher to zip.
    /// - Returns: A ``Publishers/Zip3`` that sends a tuple of the three publishers' oldest unused
    ///   values each time all three have one.
    /// - Demand, completion, cancellation, threading: as `zip(_:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.Zip3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
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
    /// - Parameters:
    ///   - publisher1: The second publisher to zip, after this one.
    ///   - publisher2: The third publisher to zip.
    ///   - transform: A closure that takes one value of each publisher and returns the value
    ///     to send.
    /// - Returns: A publisher that sends what `transform` returns for each group of the three
    ///   publishers' oldest unused values.
    /// - Demand, completion, cancellation, threading: as `zip(_:)`.
    /// - Combine compatibility: as Combine (a `Publishers.Map` of a `Publishers.Zip3`).
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip3(self, publisher1, publisher2)) {
            transform($0.0, $0.1, $0.2)
        }
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
    /// - Parameters:
    ///   - publisher1: The second publisher to zip, after this one.
    ///   - publisher2: The third publisher to zip.
    ///   - publisher3: The fourth publisher to zip.
    /// - Returns: A ``Publishers/Zip4`` that sends a tuple of the four publishers' oldest unused
    ///   values each time all four have one.
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
    /// - Parameters:
    ///   - publisher1: The second publisher to zip, after this one.
    ///   - publisher2: The third publisher to zip.
    ///   - publisher3: The fourth publisher to zip.
    ///   - transform: A closure that takes one value of each publisher and returns the value
    ///     to send.
    /// - Returns: A publisher that sends what `transform` returns for each group of the four
    ///   publishers' oldest unused values.
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

// MARK: - Publishers.Zip, Zip3, Zip4

extension Publishers {
    /// The publisher of `zip(_:)`: the values of two publishers, paired oldest with oldest.
    public struct Zip<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to zip.
        public let a: A
        /// The second publisher to zip.
        public let b: B

        /// Creates a publisher that pairs the values of `a` and `b`.
        ///
        /// - Parameters:
        ///   - a: The first publisher to zip.
        ///   - b: The second publisher to zip.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the tuples and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Storage = Zip2Storage<A.Output, B.Output>
            let zip = ZipSubscription<S?, Storage>(downstream: subscriber, upstreamCount: 2)
            zip.start()
            guard zip.isRunning else { return }
            a.receive(subscriber: ZipSide<Storage.LaneA, S>(zip))
            guard zip.isRunning else { return }
            b.receive(subscriber: ZipSide<Storage.LaneB, S>(zip))
        }
    }

    /// The publisher of `zip(_:_:)`: the values of three publishers, grouped oldest with oldest.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to zip.
        public let a: A
        /// The second publisher to zip.
        public let b: B
        /// The third publisher to zip.
        public let c: C

        /// Creates a publisher that groups the values of `a`, `b` and `c`.
        ///
        /// - Parameters:
        ///   - a: The first publisher to zip.
        ///   - b: The second publisher to zip.
        ///   - c: The third publisher to zip.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the tuples and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Storage = Zip3Storage<A.Output, B.Output, C.Output>
            let zip = ZipSubscription<S?, Storage>(downstream: subscriber, upstreamCount: 3)
            zip.start()
            guard zip.isRunning else { return }
            a.receive(subscriber: ZipSide<Storage.LaneA, S>(zip))
            guard zip.isRunning else { return }
            b.receive(subscriber: ZipSide<Storage.LaneB, S>(zip))
            guard zip.isRunning else { return }
            c.receive(subscriber: ZipSide<Storage.LaneC, S>(zip))
        }
    }

    /// The publisher of `zip(_:_:_:)`: the values of four publishers, grouped oldest with oldest.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to zip.
        public let a: A
        /// The second publisher to zip.
        public let b: B
        /// The third publisher to zip.
        public let c: C
        /// The fourth publisher to zip.
        public let d: D

        /// Creates a publisher that groups the values of `a`, `b`, `c` and `d`.
        ///
        /// - Parameters:
        ///   - a: The first publisher to zip.
        ///   - b: The second publisher to zip.
        ///   - c: The third publisher to zip.
        ///   - d: The fourth publisher to zip.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the tuples and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Storage = Zip4Storage<A.Output, B.Output, C.Output, D.Output>
            let zip = ZipSubscription<S?, Storage>(downstream: subscriber, upstreamCount: 4)
            zip.start()
            guard zip.isRunning else { return }
            a.receive(subscriber: ZipSide<Storage.LaneA, S>(zip))
            guard zip.isRunning else { return }
            b.receive(subscriber: ZipSide<Storage.LaneB, S>(zip))
            guard zip.isRunning else { return }
            c.receive(subscriber: ZipSide<Storage.LaneC, S>(zip))
            guard zip.isRunning else { return }
            d.receive(subscriber: ZipSide<Storage.LaneD, S>(zip))
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

// MARK: - Storage

/// The queues of a two-upstream zip.
@usableFromInline
struct Zip2Storage<A, B>: ZipStorage {
    @usableFromInline var a = FIFOQueue<A>()
    @usableFromInline var b = FIFOQueue<B>()

    @inlinable init() {}

    @inlinable var isFull: Bool { !a.isEmpty && !b.isEmpty }

    @inlinable
    func isEmpty(_ index: Int) -> Bool {
        switch index {
        case 0: a.isEmpty
        default: b.isEmpty
        }
    }

    @inlinable
    mutating func takeTuple() -> (A, B) {
        (a.popFirst()!, b.popFirst()!)
    }

    /// Upstream `a`'s place in the storage.
    @usableFromInline
    enum LaneA: ZipLane {
        @inlinable static var index: Int { 0 }

        @inlinable
        static func offer(_ value: A, to storage: inout Zip2Storage, pairing: Bool) -> (A, B)? {
            guard pairing, storage.a.isEmpty, !storage.b.isEmpty else {
                storage.a.append(value)
                return nil
            }
            return (value, storage.b.popFirst()!)
        }
    }

    /// Upstream `b`'s place in the storage.
    @usableFromInline
    enum LaneB: ZipLane {
        @inlinable static var index: Int { 1 }

        @inlinable
        static func offer(_ value: B, to storage: inout Zip2Storage, pairing: Bool) -> (A, B)? {
            guard pairing, storage.b.isEmpty, !storage.a.isEmpty else {
                storage.b.append(value)
                return nil
            }
            return (storage.a.popFirst()!, value)
        }
    }
}

/// The queues of a three-upstream zip.
@usableFromInline
struct Zip3Storage<A, B, C>: ZipStorage {
    @usableFromInline var a = FIFOQueue<A>()
    @usableFromInline var b = FIFOQueue<B>()
    @usableFromInline var c = FIFOQueue<C>()

    @inlinable init() {}

    @inlinable var isFull: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty }

    @inlinable
    func isEmpty(_ index: Int) -> Bool {
        switch index {
        case 0: a.isEmpty
        case 1: b.isEmpty
        default: c.isEmpty
        }
    }

    @inlinable
    mutating func takeTuple() -> (A, B, C) {
        (a.popFirst()!, b.popFirst()!, c.popFirst()!)
    }

    /// Upstream `a`'s place in the storage.
    @usableFromInline
    enum LaneA: ZipLane {
        @inlinable static var index: Int { 0 }

        @inlinable
        static func offer(_ value: A, to storage: inout Zip3Storage, pairing: Bool) -> (A, B, C)? {
            guard pairing, storage.a.isEmpty, !storage.b.isEmpty, !storage.c.isEmpty else {
                storage.a.append(value)
                return nil
            }
            return (value, storage.b.popFirst()!, storage.c.popFirst()!)
        }
    }

    /// Upstream `b`'s place in the storage.
    @usableFromInline
    enum LaneB: ZipLane {
        @inlinable static var index: Int { 1 }

        @inlinable
        static func offer(_ value: B, to storage: inout Zip3Storage, pairing: Bool) -> (A, B, C)? {
            guard pairing, storage.b.isEmpty, !storage.a.isEmpty, !storage.c.isEmpty else {
                storage.b.append(value)
                return nil
            }
            return (storage.a.popFirst()!, value, storage.c.popFirst()!)
        }
    }

    /// Upstream `c`'s place in the storage.
    @usableFromInline
    enum LaneC: ZipLane {
        @inlinable static var index: Int { 2 }

        @inlinable
        static func offer(_ value: C, to storage: inout Zip3Storage, pairing: Bool) -> (A, B, C)? {
            guard pairing, storage.c.isEmpty, !storage.a.isEmpty, !storage.b.isEmpty else {
                storage.c.append(value)
                return nil
            }
            return (storage.a.popFirst()!, storage.b.popFirst()!, value)
        }
    }
}

/// The queues of a four-upstream zip.
@usableFromInline
struct Zip4Storage<A, B, C, D>: ZipStorage {
    @usableFromInline var a = FIFOQueue<A>()
    @usableFromInline var b = FIFOQueue<B>()
    @usableFromInline var c = FIFOQueue<C>()
    @usableFromInline var d = FIFOQueue<D>()

    @inlinable init() {}

    @inlinable var isFull: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty && !d.isEmpty }

    @inlinable
    func isEmpty(_ index: Int) -> Bool {
        switch index {
        case 0: a.isEmpty
        case 1: b.isEmpty
        case 2: c.isEmpty
        default: d.isEmpty
        }
    }

    @inlinable
    mutating func takeTuple() -> (A, B, C, D) {
        (a.popFirst()!, b.popFirst()!, c.popFirst()!, d.popFirst()!)
    }

    /// Upstream `a`'s place in the storage.
    @usableFromInline
    enum LaneA: ZipLane {
        @inlinable static var index: Int { 0 }

        @inlinable
        static func offer(_ value: A, to storage: inout Zip4Storage, pairing: Bool) -> (A, B, C, D)? {
            guard pairing, storage.a.isEmpty, !storage.b.isEmpty, !storage.c.isEmpty, !storage.d.isEmpty else {
                storage.a.append(value)
                return nil
            }
            return (value, storage.b.popFirst()!, storage.c.popFirst()!, storage.d.popFirst()!)
        }
    }

    /// Upstream `b`'s place in the storage.
    @usableFromInline
    enum LaneB: ZipLane {
        @inlinable static var index: Int { 1 }

        @inlinable
        static func offer(_ value: B, to storage: inout Zip4Storage, pairing: Bool) -> (A, B, C, D)? {
            guard pairing, storage.b.isEmpty, !storage.a.isEmpty, !storage.c.isEmpty, !storage.d.isEmpty else {
                storage.b.append(value)
                return nil
            }
            return (storage.a.popFirst()!, value, storage.c.popFirst()!, storage.d.popFirst()!)
        }
    }

    /// Upstream `c`'s place in the storage.
    @usableFromInline
    enum LaneC: ZipLane {
        @inlinable static var index: Int { 2 }

        @inlinable
        static func offer(_ value: C, to storage: inout Zip4Storage, pairing: Bool) -> (A, B, C, D)? {
            guard pairing, storage.c.isEmpty, !storage.a.isEmpty, !storage.b.isEmpty, !storage.d.isEmpty else {
                storage.c.append(value)
                return nil
            }
            return (storage.a.popFirst()!, storage.b.popFirst()!, value, storage.d.popFirst()!)
        }
    }

    /// Upstream `d`'s place in the storage.
    @usableFromInline
    enum LaneD: ZipLane {
        @inlinable static var index: Int { 3 }

        @inlinable
        static func offer(_ value: D, to storage: inout Zip4Storage, pairing: Bool) -> (A, B, C, D)? {
            guard pairing, storage.d.isEmpty, !storage.a.isEmpty, !storage.b.isEmpty, !storage.c.isEmpty else {
                storage.d.append(value)
                return nil
            }
            return (storage.a.popFirst()!, storage.b.popFirst()!, storage.c.popFirst()!, value)
        }
    }
}
