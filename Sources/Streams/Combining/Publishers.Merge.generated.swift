// GENERATED FILE: do not edit. Made by Scripts/generate-sources from
// Scripts/templates/Publishers.Merge.generated.swift.template.
// To change it, edit the template, then run `python3 Scripts/generate-sources`
// (`--check` verifies the file is current).

// MARK: - merge(with:_:) ... (three to eight publishers)

extension Publisher {
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
    /// - Parameters:
    ///   - b: The second publisher to merge, after this one.
    ///   - c: The third publisher to merge, after this one.
    /// - Returns: A ``Publishers/Merge3`` that sends the values of all three publishers as they
    ///   arrive, and finishes when all have finished.
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher>(
        with b: B, _ c: C
    ) -> Publishers.Merge3<Self, B, C>
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
    /// - Parameters:
    ///   - b: The second publisher to merge, after this one.
    ///   - c: The third publisher to merge, after this one.
    ///   - d: The fourth publisher to merge, after this one.
    /// - Returns: A ``Publishers/Merge4`` that sends the values of all four publishers as they
    ///   arrive, and finishes when all have finished.
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher>(
        with b: B, _ c: C, _ d: D
    ) -> Publishers.Merge4<Self, B, C, D>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure
    {
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
    /// - Parameters:
    ///   - b: The second publisher to merge, after this one.
    ///   - c: The third publisher to merge, after this one.
    ///   - d: The fourth publisher to merge, after this one.
    ///   - e: The fifth publisher to merge, after this one.
    /// - Returns: A ``Publishers/Merge5`` that sends the values of all five publishers as they
    ///   arrive, and finishes when all have finished.
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure
    {
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
    /// - Parameters:
    ///   - b: The second publisher to merge, after this one.
    ///   - c: The third publisher to merge, after this one.
    ///   - d: The fourth publisher to merge, after this one.
    ///   - e: The fifth publisher to merge, after this one.
    ///   - f: The sixth publisher to merge, after this one.
    /// - Returns: A ``Publishers/Merge6`` that sends the values of all six publishers as they
    ///   arrive, and finishes when all have finished.
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
        F.Output == Output, F.Failure == Failure
    {
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
    /// - Parameters:
    ///   - b: The second publisher to merge, after this one.
    ///   - c: The third publisher to merge, after this one.
    ///   - d: The fourth publisher to merge, after this one.
    ///   - e: The fifth publisher to merge, after this one.
    ///   - f: The sixth publisher to merge, after this one.
    ///   - g: The seventh publisher to merge, after this one.
    /// - Returns: A ``Publishers/Merge7`` that sends the values of all seven publishers as they
    ///   arrive, and finishes when all have finished.
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
        F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure
    {
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
    /// - Parameters:
    ///   - b: The second publisher to merge, after this one.
    ///   - c: The third publisher to merge, after this one.
    ///   - d: The fourth publisher to merge, after this one.
    ///   - e: The fifth publisher to merge, after this one.
    ///   - f: The sixth publisher to merge, after this one.
    ///   - g: The seventh publisher to merge, after this one.
    ///   - h: The eighth publisher to merge, after this one.
    /// - Returns: A ``Publishers/Merge8`` that sends the values of all eight publishers as they
    ///   arrive, and finishes when all have finished.
    /// - Demand, completion, cancellation, threading: as `merge(with:)`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func merge<
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
        H: Publisher
    >(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
        F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure,
        H.Output == Output, H.Failure == Failure
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}

// MARK: - Publishers.Merge ... Merge8

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
        ///
        /// - Parameters:
        ///   - a: The first publisher to merge.
        ///   - b: The second publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
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
        ///
        /// - Parameters:
        ///   - a: The first publisher to merge.
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
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
    where
        A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure
    {
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
        ///
        /// - Parameters:
        ///   - a: The first publisher to merge.
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
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
    where
        A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure
    {
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
        ///
        /// - Parameters:
        ///   - a: The first publisher to merge.
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Subscribes `subscriber` to the merged values, then each upstream in order.
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
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
    where
        A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure,
        E.Output == F.Output, E.Failure == F.Failure
    {
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
        ///
        /// - Parameters:
        ///   - a: The first publisher to merge.
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        ///   - f: The sixth publisher to merge.
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
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
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
    public struct Merge7<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
        G: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure,
        E.Output == F.Output, E.Failure == F.Failure, F.Output == G.Output, F.Failure == G.Failure
    {
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
        ///
        /// - Parameters:
        ///   - a: The first publisher to merge.
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        ///   - f: The sixth publisher to merge.
        ///   - g: The seventh publisher to merge.
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
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
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
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
        G: Publisher, H: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure, D.Output == E.Output, D.Failure == E.Failure,
        E.Output == F.Output, E.Failure == F.Failure, F.Output == G.Output, F.Failure == G.Failure,
        G.Output == H.Output, G.Failure == H.Failure
    {
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
        ///
        /// - Parameters:
        ///   - a: The first publisher to merge.
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        ///   - f: The sixth publisher to merge.
        ///   - g: The seventh publisher to merge.
        ///   - h: The eighth publisher to merge.
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
        ///
        /// - Parameter subscriber: The subscriber that receives the merged values and the
        ///   completion.
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
}

extension Publishers.Merge: Equatable
where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable
where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable
where
    A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable,
    G: Equatable
{}
extension Publishers.Merge8: Equatable
where
    A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable,
    G: Equatable, H: Equatable
{}

// MARK: - Merging more (Combine's overloads on the merge types)

extension Publishers.Merge {
    /// Merges one more publisher: a ``Publishers/Merge3`` rather than a merge of a merge.
    ///
    /// - Parameter other: The publisher to merge with this merge's two.
    /// - Returns: A ``Publishers/Merge3`` of this merge's publishers, then `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge3(a, b, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge4``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge4`` of this merge's publishers, then the two given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge4<A, B, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge4(a, b, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge5``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge5`` of this merge's publishers, then the three given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge5<A, B, Z, Y, X>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure
    {
        Publishers.Merge5(a, b, z, y, x)
    }

    /// Merges four more publishers: a ``Publishers/Merge6``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    ///   - w: The fourth publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge6`` of this merge's publishers, then the four given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge6<A, B, Z, Y, X, W>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure
    {
        Publishers.Merge6(a, b, z, y, x, w)
    }

    /// Merges five more publishers: a ``Publishers/Merge7``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    ///   - w: The fourth publisher to add to the merge.
    ///   - v: The fifth publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge7`` of this merge's publishers, then the five given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure,
        V.Output == Output, V.Failure == Failure
    {
        Publishers.Merge7(a, b, z, y, x, w, v)
    }

    /// Merges six more publishers: a ``Publishers/Merge8``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    ///   - w: The fourth publisher to add to the merge.
    ///   - v: The fifth publisher to add to the merge.
    ///   - u: The sixth publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge8`` of this merge's publishers, then the six given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
    ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure,
        V.Output == Output, V.Failure == Failure, U.Output == Output, U.Failure == Failure
    {
        Publishers.Merge8(a, b, z, y, x, w, v, u)
    }
}

extension Publishers.Merge3 {
    /// Merges one more publisher: a ``Publishers/Merge4``.
    ///
    /// - Parameter other: The publisher to merge with this merge's three.
    /// - Returns: A ``Publishers/Merge4`` of this merge's publishers, then `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge4<A, B, C, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge4(a, b, c, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge5``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge5`` of this merge's publishers, then the two given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge5<A, B, C, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge5(a, b, c, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge6``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge6`` of this merge's publishers, then the three given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge6<A, B, C, Z, Y, X>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure
    {
        Publishers.Merge6(a, b, c, z, y, x)
    }

    /// Merges four more publishers: a ``Publishers/Merge7``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    ///   - w: The fourth publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge7`` of this merge's publishers, then the four given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure
    {
        Publishers.Merge7(a, b, c, z, y, x, w)
    }

    /// Merges five more publishers: a ``Publishers/Merge8``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    ///   - w: The fourth publisher to add to the merge.
    ///   - v: The fifth publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge8`` of this merge's publishers, then the five given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure,
        V.Output == Output, V.Failure == Failure
    {
        Publishers.Merge8(a, b, c, z, y, x, w, v)
    }
}

extension Publishers.Merge4 {
    /// Merges one more publisher: a ``Publishers/Merge5``.
    ///
    /// - Parameter other: The publisher to merge with this merge's four.
    /// - Returns: A ``Publishers/Merge5`` of this merge's publishers, then `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge5(a, b, c, d, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge6``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge6`` of this merge's publishers, then the two given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge6<A, B, C, D, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge6(a, b, c, d, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge7``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge7`` of this merge's publishers, then the three given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge7<A, B, C, D, Z, Y, X>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure
    {
        Publishers.Merge7(a, b, c, d, z, y, x)
    }

    /// Merges four more publishers: a ``Publishers/Merge8``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    ///   - w: The fourth publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge8`` of this merge's publishers, then the four given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W
    ) -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure
    {
        Publishers.Merge8(a, b, c, d, z, y, x, w)
    }
}

extension Publishers.Merge5 {
    /// Merges one more publisher: a ``Publishers/Merge6``.
    ///
    /// - Parameter other: The publisher to merge with this merge's five.
    /// - Returns: A ``Publishers/Merge6`` of this merge's publishers, then `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge6(a, b, c, d, e, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge7``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge7`` of this merge's publishers, then the two given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge7(a, b, c, d, e, z, y)
    }

    /// Merges three more publishers: a ``Publishers/Merge8``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    ///   - x: The third publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge8`` of this merge's publishers, then the three given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
        with z: Z, _ y: Y, _ x: X
    ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where
        Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure,
        X.Output == Output, X.Failure == Failure
    {
        Publishers.Merge8(a, b, c, d, e, z, y, x)
    }
}

extension Publishers.Merge6 {
    /// Merges one more publisher: a ``Publishers/Merge7``.
    ///
    /// - Parameter other: The publisher to merge with this merge's six.
    /// - Returns: A ``Publishers/Merge7`` of this merge's publishers, then `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge7(a, b, c, d, e, f, other)
    }

    /// Merges two more publishers: a ``Publishers/Merge8``.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add to the merge.
    ///   - y: The second publisher to add to the merge.
    /// - Returns: A ``Publishers/Merge8`` of this merge's publishers, then the two given.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(
        with z: Z, _ y: Y
    ) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
        Publishers.Merge8(a, b, c, d, e, f, z, y)
    }
}

extension Publishers.Merge7 {
    /// Merges one more publisher: a ``Publishers/Merge8``.
    ///
    /// - Parameter other: The publisher to merge with this merge's seven.
    /// - Returns: A ``Publishers/Merge8`` of this merge's publishers, then `other`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge8(a, b, c, d, e, f, g, other)
    }
}
