// MARK: - merge(with:)

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
    /// - Demand: never more values than the downstream asked for (S1). With `.unlimited` demand,
    ///   every upstream is asked for `.unlimited` and values go straight through. With limited
    ///   demand, each upstream is asked for one value at a time, also before any demand: a value
    ///   that arrives without demand waits, and its upstream is asked for the next one only once
    ///   it has been delivered. So at most one value per upstream waits, and waiting values go
    ///   out in the order they arrived, as demand comes: no upstream starves another. Asking for
    ///   `.none` does nothing and is not passed on, as in Combine (S9).
    /// - Completion: `.finished` once every upstream has finished and every waiting value has
    ///   been delivered. The first failure cancels the other upstreams and goes down at once;
    ///   values still waiting for demand are dropped. What an upstream sends before its
    ///   subscription or after its end is ignored, and a second subscription is cancelled (S2).
    /// - Cancellation: cancels every upstream and lets go of the downstream (S7).
    /// - Threading: the upstreams may send from several threads at once. The downstream is
    ///   called one signal at a time (S3): a value that arrives while another is being delivered
    ///   is delivered right after it, by the thread already delivering.
    /// - Combine compatibility: as Combine, which also keeps one value per upstream under
    ///   limited demand. Combine documents no order for waiting values; here it is the order of
    ///   arrival. Upstreams are subscribed in order, after the downstream has its subscription;
    ///   once the stream has ended, the rest are not subscribed.
    /// - Complexity: O(1) per value: a lock taken twice, no allocation when values do not have
    ///   to wait.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Combines this publisher's values with those of two others into one stream, in the order
    /// they arrive.
    ///
    /// All three are subscribed and their values passed on as they come; the stream finishes
    /// when all have finished.
    ///
    /// <!-- marble merge3: $0[0].merge(with: $0[1], $0[2]) -->
    /// ```text
    /// self:   -1-----|
    /// b:      ---2-----|
    /// c:      -----3-|
    ///         merge(with: b, c)
    /// output: -1-2-3---|
    /// ```
    ///
    /// ![Marble diagram of merge3](marble-merge3)
    ///
    /// ```swift
    /// let c = Just(1).merge(with: Just(2), Just(3)).sink { print($0) }
    /// // Prints: 1, 2, 3
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// Combines this publisher's values with those of three others into one stream, in the
    /// order they arrive.
    ///
    /// All four are subscribed and their values passed on as they come; the stream finishes
    /// when all have finished.
    ///
    /// <!-- marble merge4: $0[0].merge(with: $0[1], $0[2], $0[3]) -->
    /// ```text
    /// self:   -1------|
    /// b:      --2-----|
    /// c:      ---3----|
    /// d:      ----4---|
    ///         merge(with: b, c, d)
    /// output: -1234---|
    /// ```
    ///
    /// ![Marble diagram of merge4](marble-merge4)
    ///
    /// ```swift
    /// let c = Just(1).merge(with: Just(2), Just(3), Just(4)).sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher>(
        with b: B, _ c: C, _ d: D
    ) -> Publishers.Merge4<Self, B, C, D>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
          D.Output == Output, D.Failure == Failure {
        Publishers.Merge4(self, b, c, d)
    }

    /// Combines this publisher's values with those of four others into one stream, in the order
    /// they arrive.
    ///
    /// All five are subscribed and their values passed on as they come; the stream finishes
    /// when all have finished.
    ///
    /// <!-- marble merge5: $0[0].merge(with: $0[1], $0[2], $0[3], $0[4]) -->
    /// ```text
    /// self:   -1-----|
    /// b:      --2----|
    /// c:      ---3---|
    /// d:      ----4--|
    /// e:      -----5-|
    ///         merge(with: b, c, d, e)
    /// output: -12345-|
    /// ```
    ///
    /// ![Marble diagram of merge5](marble-merge5)
    ///
    /// ```swift
    /// let c = Just(1).merge(with: Just(2), Just(3), Just(4), Just(5)).sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
          D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Combines this publisher's values with those of five others into one stream, in the order
    /// they arrive.
    ///
    /// All six are subscribed and their values passed on as they come; the stream finishes when
    /// all have finished.
    ///
    /// <!-- marble merge6: $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5]) -->
    /// ```text
    /// self:   -1------|
    /// b:      --2-----|
    /// c:      ---3----|
    /// d:      ----4---|
    /// e:      -----5--|
    /// f:      ------6-|
    ///         merge(with: b, c, d, e, f)
    /// output: -123456-|
    /// ```
    ///
    /// ![Marble diagram of merge6](marble-merge6)
    ///
    /// ```swift
    /// let c = Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6)).sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
          D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
          F.Output == Output, F.Failure == Failure {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Combines this publisher's values with those of six others into one stream, in the order
    /// they arrive.
    ///
    /// All seven are subscribed and their values passed on as they come; the stream finishes
    /// when all have finished.
    ///
    /// <!-- marble merge7: $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5], $0[6]) -->
    /// ```text
    /// self:   -1-------|
    /// b:      --2------|
    /// c:      ---3-----|
    /// d:      ----4----|
    /// e:      -----5---|
    /// f:      ------6--|
    /// g:      -------7-|
    ///         merge(with: b, c, d, e, f, g)
    /// output: -1234567-|
    /// ```
    ///
    /// ![Marble diagram of merge7](marble-merge7)
    ///
    /// ```swift
    /// let c = Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7))
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
          D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
          F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Combines this publisher's values with those of seven others into one stream, in the
    /// order they arrive.
    ///
    /// All eight are subscribed and their values passed on as they come; the stream finishes
    /// when all have finished. To merge more, use ``Publishers/MergeMany``.
    ///
    /// <!-- marble merge8: $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5], $0[6], $0[7]) -->
    /// ```text
    /// self:   -1--------|
    /// b:      --2-------|
    /// c:      ---3------|
    /// d:      ----4-----|
    /// e:      -----5----|
    /// f:      ------6---|
    /// g:      -------7--|
    /// h:      --------8-|
    ///         merge(with: b, c, d, e, f, g, h)
    /// output: -12345678-|
    /// ```
    ///
    /// ![Marble diagram of merge8](marble-merge8)
    ///
    /// ```swift
    /// let c = Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7, 8
    /// ```
    ///
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
                      H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
          D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
          F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure,
          H.Output == Output, H.Failure == Failure {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
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
    /// The publisher of `merge(with:)`: the values of two publishers, in the order they arrive.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B

        /// Creates a publisher that merges the values of `a` and `b`.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: 2)
            merger.start()
            guard merger.isRunning else { return }
            a.receive(subscriber: MergeSide(merger, index: 0))
            guard merger.isRunning else { return }
            b.receive(subscriber: MergeSide(merger, index: 1))
        }
    }

    /// The publisher of `merge(with:_:)`: the values of three publishers, in the order they
    /// arrive.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C

        /// Creates a publisher that merges the values of `a`, `b` and `c`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: 3)
            merger.start()
            guard merger.isRunning else { return }
            a.receive(subscriber: MergeSide(merger, index: 0))
            guard merger.isRunning else { return }
            b.receive(subscriber: MergeSide(merger, index: 1))
            guard merger.isRunning else { return }
            c.receive(subscriber: MergeSide(merger, index: 2))
        }
    }

    /// The publisher of `merge(with:_:_:)`: the values of four publishers, in the order they
    /// arrive.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
          C.Output == D.Output, C.Failure == D.Failure {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D

        /// Creates a publisher that merges the values of `a`, `b`, `c` and `d`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: 4)
            merger.start()
            guard merger.isRunning else { return }
            a.receive(subscriber: MergeSide(merger, index: 0))
            guard merger.isRunning else { return }
            b.receive(subscriber: MergeSide(merger, index: 1))
            guard merger.isRunning else { return }
            c.receive(subscriber: MergeSide(merger, index: 2))
            guard merger.isRunning else { return }
            d.receive(subscriber: MergeSide(merger, index: 3))
        }
    }

    /// The publisher of `merge(with:_:_:_:)`: the values of five publishers, in the order they
    /// arrive.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
          C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E

        /// Creates a publisher that merges the values of `a`, `b`, `c`, `d` and `e`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: 5)
            merger.start()
            guard merger.isRunning else { return }
            a.receive(subscriber: MergeSide(merger, index: 0))
            guard merger.isRunning else { return }
            b.receive(subscriber: MergeSide(merger, index: 1))
            guard merger.isRunning else { return }
            c.receive(subscriber: MergeSide(merger, index: 2))
            guard merger.isRunning else { return }
            d.receive(subscriber: MergeSide(merger, index: 3))
            guard merger.isRunning else { return }
            e.receive(subscriber: MergeSide(merger, index: 4))
        }
    }

    /// The publisher of `merge(with:_:_:_:_:)`: the values of six publishers, in the order they
    /// arrive.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
          C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure,
          E.Output == F.Output, E.Failure == F.Failure {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E
        /// The sixth publisher to merge.
        public let f: F

        /// Creates a publisher that merges the values of `a`, `b`, `c`, `d`, `e` and `f`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: 6)
            merger.start()
            guard merger.isRunning else { return }
            a.receive(subscriber: MergeSide(merger, index: 0))
            guard merger.isRunning else { return }
            b.receive(subscriber: MergeSide(merger, index: 1))
            guard merger.isRunning else { return }
            c.receive(subscriber: MergeSide(merger, index: 2))
            guard merger.isRunning else { return }
            d.receive(subscriber: MergeSide(merger, index: 3))
            guard merger.isRunning else { return }
            e.receive(subscriber: MergeSide(merger, index: 4))
            guard merger.isRunning else { return }
            f.receive(subscriber: MergeSide(merger, index: 5))
        }
    }

    /// The publisher of `merge(with:_:_:_:_:_:)`: the values of seven publishers, in the order
    /// they arrive.
    public struct Merge7<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
                         G: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
          C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure,
          E.Output == F.Output, E.Failure == F.Failure, F.Output == G.Output, F.Failure == G.Failure {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E
        /// The sixth publisher to merge.
        public let f: F
        /// The seventh publisher to merge.
        public let g: G

        /// Creates a publisher that merges the values of `a`, `b`, `c`, `d`, `e`, `f` and `g`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: 7)
            merger.start()
            guard merger.isRunning else { return }
            a.receive(subscriber: MergeSide(merger, index: 0))
            guard merger.isRunning else { return }
            b.receive(subscriber: MergeSide(merger, index: 1))
            guard merger.isRunning else { return }
            c.receive(subscriber: MergeSide(merger, index: 2))
            guard merger.isRunning else { return }
            d.receive(subscriber: MergeSide(merger, index: 3))
            guard merger.isRunning else { return }
            e.receive(subscriber: MergeSide(merger, index: 4))
            guard merger.isRunning else { return }
            f.receive(subscriber: MergeSide(merger, index: 5))
            guard merger.isRunning else { return }
            g.receive(subscriber: MergeSide(merger, index: 6))
        }
    }

    /// The publisher of `merge(with:_:_:_:_:_:_:)`: the values of eight publishers, in the order
    /// they arrive.
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
                         G: Publisher, H: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
          C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure,
          E.Output == F.Output, E.Failure == F.Failure, F.Output == G.Output, F.Failure == G.Failure,
          G.Output == H.Output, G.Failure == H.Failure {
        /// The upstreams' output type.
        public typealias Output = A.Output
        /// The upstreams' failure type.
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E
        /// The sixth publisher to merge.
        public let f: F
        /// The seventh publisher to merge.
        public let g: G
        /// The eighth publisher to merge.
        public let h: H

        /// Creates a publisher that merges the values of `a`, `b`, `c`, `d`, `e`, `f`, `g` and
        /// `h`.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: 8)
            merger.start()
            guard merger.isRunning else { return }
            a.receive(subscriber: MergeSide(merger, index: 0))
            guard merger.isRunning else { return }
            b.receive(subscriber: MergeSide(merger, index: 1))
            guard merger.isRunning else { return }
            c.receive(subscriber: MergeSide(merger, index: 2))
            guard merger.isRunning else { return }
            d.receive(subscriber: MergeSide(merger, index: 3))
            guard merger.isRunning else { return }
            e.receive(subscriber: MergeSide(merger, index: 4))
            guard merger.isRunning else { return }
            f.receive(subscriber: MergeSide(merger, index: 5))
            guard merger.isRunning else { return }
            g.receive(subscriber: MergeSide(merger, index: 6))
            guard merger.isRunning else { return }
            h.receive(subscriber: MergeSide(merger, index: 7))
        }
    }

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
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges the values of the publishers in a sequence.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = MergeSubscription(downstream: subscriber, upstreamCount: publishers.count)
            merger.start()
            for (index, publisher) in publishers.enumerated() {
                guard merger.isRunning else { return }
                publisher.receive(subscriber: MergeSide(merger, index: index))
            }
        }

        /// A `MergeMany` of these publishers and `other`.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable,
      H: Equatable {}
extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

// MARK: - Merging more (Combine's overloads on the merge types)

extension Publishers.Merge {
    /// Merges one more publisher: a ``Publishers/Merge3`` rather than a merge of a merge.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge3(a, b, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge4``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge4<A, B, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge4(a, b, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge5``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge5<A, B, Z, Y, X>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure {
        Publishers.Merge5(a, b, z, y, x)
    }

    /// Merges four more publishers: a ``Publishers/Merge6``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge6<A, B, Z, Y, X, W>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure {
        Publishers.Merge6(a, b, z, y, x, w)
    }

    /// Merges five more publishers: a ``Publishers/Merge7``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure,
          V.Output == Output, V.Failure == Failure {
        Publishers.Merge7(a, b, z, y, x, w, v)
    }

    /// Merges six more publishers: a ``Publishers/Merge8``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
    ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure,
          V.Output == Output, V.Failure == Failure, U.Output == Output, U.Failure == Failure {
        Publishers.Merge8(a, b, z, y, x, w, v, u)
    }
}

extension Publishers.Merge3 {
    /// Merges one more publisher: a ``Publishers/Merge4``.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge4<A, B, C, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge4(a, b, c, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge5``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge5<A, B, C, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge5(a, b, c, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge6``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge6<A, B, C, Z, Y, X>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure {
        Publishers.Merge6(a, b, c, z, y, x)
    }

    /// Merges four more publishers: a ``Publishers/Merge7``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure {
        Publishers.Merge7(a, b, c, z, y, x, w)
    }

    /// Merges five more publishers: a ``Publishers/Merge8``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure,
          V.Output == Output, V.Failure == Failure {
        Publishers.Merge8(a, b, c, z, y, x, w, v)
    }
}

extension Publishers.Merge4 {
    /// Merges one more publisher: a ``Publishers/Merge5``.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge5(a, b, c, d, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge6``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge6<A, B, C, D, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge6(a, b, c, d, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge7``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge7<A, B, C, D, Z, Y, X>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure {
        Publishers.Merge7(a, b, c, d, z, y, x)
    }

    /// Merges four more publishers: a ``Publishers/Merge8``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure {
        Publishers.Merge8(a, b, c, d, z, y, x, w)
    }
}

extension Publishers.Merge5 {
    /// Merges one more publisher: a ``Publishers/Merge6``.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge6(a, b, c, d, e, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge7``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge7(a, b, c, d, e, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge8``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
          X.Output == Output, X.Failure == Failure {
        Publishers.Merge8(a, b, c, d, e, z, y, x)
    }
}

extension Publishers.Merge6 {
    /// Merges one more publisher: a ``Publishers/Merge7``.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge7(a, b, c, d, e, f, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge8``.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge8(a, b, c, d, e, f, z, y)
    }
}

extension Publishers.Merge7 {
    /// Merges one more publisher: a ``Publishers/Merge8``.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge8(a, b, c, d, e, f, g, other)
    }
}

// MARK: - Subscription

/// The state machine of every merge (`Merge` to `Merge8`, `MergeMany`), for any number of
/// upstreams.
///
/// With unlimited demand every upstream is asked for `.unlimited` and each value goes straight
/// down (through ``CombiningSubscription/sendLocked(_:)``). With limited demand each upstream
/// has at most one request outstanding: asked for one value when subscribed, and for the next
/// once its value has been paid for. A value that finds no demand waits in `waiting`, in arrival
/// order, and is paid for, in that order, as demand comes; then its upstream is asked for the
/// next. Invariant: `waiting` is empty or `demand` is zero.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>:
    CombiningSubscription<Downstream, MergeSubscription<Downstream>>, CombiningRules,
    @unchecked Sendable  // all added state is guarded by `lock`
{
    /// Values that found no demand, with their upstream's index, oldest first; at most one per
    /// upstream.
    @exclusivity(unchecked) @usableFromInline var waiting = FIFOQueue<(index: Int, value: Downstream.Input)>()
    /// Set once the downstream's demand is unlimited and every upstream has been asked for
    /// `.unlimited`.
    @exclusivity(unchecked) @usableFromInline var isUnlimited = false

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        super.init(downstream: downstream, upstreamCount: upstreamCount, name: "Merge")
    }

    /// Takes a value from upstream `index`; returns `.max(1)` when the upstream may send the next
    /// (the value was paid for under limited demand).
    @inlinable
    func receive(_ value: Downstream.Input, at index: Int) -> Subscribers.Demand {
        lock.lock()
        guard case .running = phase, isSubscribedLocked(index) else {
            lock.unlock()
            return .none
        }
        if isUnlimited {
            sendLocked(value)
            return .none
        }
        if demand == .none {
            waiting.append((index, value))
            lock.unlock()
            return .none
        }
        demand -= 1
        sendLocked(value)
        return .max(1)
    }

    @inlinable
    func initialDemandLocked(for index: Int) -> Subscribers.Demand {
        isUnlimited ? .unlimited : .max(1)
    }

    @inlinable
    func demandDidGrowLocked(by added: Subscribers.Demand) {
        if isUnlimited { return }
        if demand == .unlimited {
            isUnlimited = true
            while let (_, value) = waiting.popFirst() { ready.append(.value(value)) }
            requestFromEveryUpstreamLocked(.unlimited)
        } else {
            while demand > 0, let (index, value) = waiting.popFirst() {
                demand -= 1
                ready.append(.value(value))
                if case .subscribed(let subscription) = slots[index] { requests.append((subscription, .max(1))) }
            }
        }
        finishIfDoneLocked()
    }

    @inlinable
    func upstreamFinishedLocked(at index: Int) {
        finishIfDoneLocked()
    }

    /// Queues `.finished` once every upstream has finished and nothing waits.
    @inlinable
    func finishIfDoneLocked() {
        if finishedCount == slots.count, waiting.isEmpty, case .running = phase {
            endLocked(.finished)
        }
    }

    @inlinable
    func takeWaitingLocked() -> Any {
        let taken = waiting
        waiting = FIFOQueue()
        return taken
    }
}

/// The subscriber a merge gives upstream `index`: passes its signals to the merge with the index.
@usableFromInline
struct MergeSide<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let merger: MergeSubscription<Downstream>
    @usableFromInline let index: Int
    @usableFromInline let combineIdentifier = CombineIdentifier()

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
        merger.receive(input, at: index)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        merger.receive(completion: completion, at: index)
    }
}
