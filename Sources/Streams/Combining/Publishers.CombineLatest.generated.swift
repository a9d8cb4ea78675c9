// GENERATED FILE: do not edit. Made by Scripts/generate-arities from
// Scripts/templates/Publishers.CombineLatest.generated.swift.template.
// To change it, edit the template, then run `python3 Scripts/generate-arities`
// (`--check` verifies the file is current).

// MARK: - Publishers.CombineLatest3, CombineLatest4

extension Publishers {
    /// The publisher of `combineLatest(_:_:)`: the latest values of three publishers, whenever
    /// any of them sends one.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to combine.
        public let a: A
        /// The second publisher to combine.
        public let b: B
        /// The third publisher to combine.
        public let c: C

        /// Creates a publisher that combines the latest values of `a`, `b` and `c`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber` to the tuples, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Rules = LatestRules<Latest3<A.Output, B.Output, C.Output>>
            let combiner = CombiningSubscription<S, Rules>(downstream: subscriber, upstreamCount: 3)
            combiner.start()
            guard combiner.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(combiner, index: 0) { $0.a = $1 })
            guard combiner.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(combiner, index: 1) { $0.b = $1 })
            guard combiner.isRunning else { return }
            c.receive(subscriber: SlotSide<C.Output, S, Rules>(combiner, index: 2) { $0.c = $1 })
        }
    }

    /// The publisher of `combineLatest(_:_:_:)`: the latest values of four publishers, whenever
    /// any of them sends one.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to combine.
        public let a: A
        /// The second publisher to combine.
        public let b: B
        /// The third publisher to combine.
        public let c: C
        /// The fourth publisher to combine.
        public let d: D

        /// Creates a publisher that combines the latest values of `a`, `b`, `c` and `d`.
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
            typealias Rules = LatestRules<Latest4<A.Output, B.Output, C.Output, D.Output>>
            let combiner = CombiningSubscription<S, Rules>(downstream: subscriber, upstreamCount: 4)
            combiner.start()
            guard combiner.isRunning else { return }
            a.receive(subscriber: SlotSide<A.Output, S, Rules>(combiner, index: 0) { $0.a = $1 })
            guard combiner.isRunning else { return }
            b.receive(subscriber: SlotSide<B.Output, S, Rules>(combiner, index: 1) { $0.b = $1 })
            guard combiner.isRunning else { return }
            c.receive(subscriber: SlotSide<C.Output, S, Rules>(combiner, index: 2) { $0.c = $1 })
            guard combiner.isRunning else { return }
            d.receive(subscriber: SlotSide<D.Output, S, Rules>(combiner, index: 3) { $0.d = $1 })
        }
    }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

// MARK: - Storage

/// The latest values of a three-upstream combineLatest.
@usableFromInline
struct Latest3<A, B, C>: LatestValues {
    @usableFromInline var a: A?
    @usableFromInline var b: B?
    @usableFromInline var c: C?

    @inlinable init() {}

    @inlinable
    var combination: (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }
}

/// The latest values of a four-upstream combineLatest.
@usableFromInline
struct Latest4<A, B, C, D>: LatestValues {
    @usableFromInline var a: A?
    @usableFromInline var b: B?
    @usableFromInline var c: C?
    @usableFromInline var d: D?

    @inlinable init() {}

    @inlinable
    var combination: (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }
}
