// GENERATED FILE: do not edit. Made by Scripts/generate-arities from
// Scripts/templates/Publishers.Zip.generated.swift.template.
// To change it, edit the template, then run `python3 Scripts/generate-arities`
// (`--check` verifies the file is current).

// MARK: - Publishers.Zip3, Zip4

extension Publishers {
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
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = ZipRules<Zip3Storage<A.Output, B.Output, C.Output>>
            let zip = CombiningSubscription<S, Rules>(downstream: subscriber, upstreamCount: 3)
            zip.start()
            guard zip.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(zip, index: 0) { $0.a.append($1) })
            guard zip.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(zip, index: 1) { $0.b.append($1) })
            guard zip.isRunning else { return }
            c.receive(subscriber: SlotSide<C.Output, S, Rules>(zip, index: 2) { $0.c.append($1) })
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
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = ZipRules<Zip4Storage<A.Output, B.Output, C.Output, D.Output>>
            let zip = CombiningSubscription<S, Rules>(downstream: subscriber, upstreamCount: 4)
            zip.start()
            guard zip.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(zip, index: 0) { $0.a.append($1) })
            guard zip.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(zip, index: 1) { $0.b.append($1) })
            guard zip.isRunning else { return }
            c.receive(subscriber: SlotSide<C.Output, S, Rules>(zip, index: 2) { $0.c.append($1) })
            guard zip.isRunning else { return }
            d.receive(subscriber: SlotSide<D.Output, S, Rules>(zip, index: 3) { $0.d.append($1) })
        }
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

// MARK: - Storage

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
}
