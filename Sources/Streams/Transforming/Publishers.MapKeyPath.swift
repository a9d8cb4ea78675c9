// Engine: none of its own. It subscribes through `map`'s `MapSubscriber`
//   (Transforming/Publishers.Map.swift).

// MARK: - map(keyPath)

extension Publisher {
    /// Replaces each value with the value of one of its properties, named by a key path.
    ///
    /// `map(\.name)` does what `map { $0.name }` does, and reads better when all you want is a
    /// property. A closure still picks the closure form (``Publishers/Map``); only a key path
    /// literal picks this one. Like `map`, it is a plain struct: no state, no lock.
    ///
    /// <!-- marble map-keyPath: $0.map { legendValue($0, as: User.self) }.map(\.name) -->
    /// ```text
    /// upstream: -a-b-|       (a = User(name: "Ann"), b = User(name: "Bo"))
    ///           map(\.name)
    /// output:   -x-y-|       (x = "Ann", y = "Bo")
    /// ```
    ///
    /// ```swift
    /// struct User { let name: String }
    /// let c = [User(name: "Ann"), User(name: "Bo")].publisher
    ///     .map(\.name)
    ///     .sink { print($0) }
    /// // Prints: Ann
    /// //         Bo
    /// ```
    ///
    /// - Parameter keyPath: The key path of the property to send.
    /// - Returns: A publisher that sends the property at `keyPath` of each upstream value.
    /// - Demand: passes through unchanged: one value out for each value in.
    /// - Completion: passes through unchanged.
    /// - Cancellation: goes straight to the upstream subscription.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value (one key path read).
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Replaces each value with a pair of its properties, named by two key paths.
    ///
    /// <!-- marble map-keyPaths2: $0.map { legendValue($0, as: Point.self) }.map(\.x, \.y) -->
    /// ```text
    /// upstream: -a-b-|       (a = Point(x: 1, y: 2), b = Point(x: 3, y: 4))
    ///           map(\.x, \.y)
    /// output:   -p-q-|       (p = (1, 2), q = (3, 4))
    /// ```
    ///
    /// ```swift
    /// struct Point { let x: Int, y: Int }
    /// let c = [Point(x: 1, y: 2)].publisher.map(\.x, \.y).sink { print($0) }
    /// // Prints: (1, 2)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath0: The key path of the first property of the pair.
    ///   - keyPath1: The key path of the second property of the pair.
    /// - Returns: A publisher that sends a tuple of the two properties of each upstream value.
    /// - Demand, completion, cancellation: pass through, as for `map(_:)` with one key path.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value (two key path reads).
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Replaces each value with a triple of its properties, named by three key paths.
    ///
    /// <!-- marble map-keyPaths3: $0.map { legendValue($0, as: Color.self) }.map(\.r, \.g, \.b) -->
    /// ```text
    /// upstream: -a-|         (a = Color(r: 1, g: 2, b: 3))
    ///           map(\.r, \.g, \.b)
    /// output:   -t-|         (t = (1, 2, 3))
    /// ```
    ///
    /// ```swift
    /// struct Color { let r: Int, g: Int, b: Int }
    /// let c = [Color(r: 1, g: 2, b: 3)].publisher.map(\.r, \.g, \.b).sink { print($0) }
    /// // Prints: (1, 2, 3)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath0: The key path of the first property of the triple.
    ///   - keyPath1: The key path of the second property of the triple.
    ///   - keyPath2: The key path of the third property of the triple.
    /// - Returns: A publisher that sends a tuple of the three properties of each upstream value.
    /// - Demand, completion, cancellation: pass through, as for `map(_:)` with one key path.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value (three key path reads).
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}

extension Publishers {
    /// The publisher of `map(_:)` with a key path: the value of a key path of each upstream
    /// value.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The key path of the property to publish.
        public let keyPath: KeyPath<Upstream.Output, Output>

        // Internal, as in Combine: made by `map(_:)`.
        @inlinable
        init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Subscribes `subscriber` through the key path.
        ///
        /// - Parameter subscriber: The subscriber that receives the properties and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.receive(subscriber: MapSubscriber(downstream: subscriber) { $0[keyPath: keyPath] })
        }
    }

    /// The publisher of ``Publisher/map(_:_:)``: the values of two key paths of each upstream
    /// value, as a tuple.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// A pair of the two properties.
        public typealias Output = (Output0, Output1)
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The key path of the first property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        // Internal, as in Combine: made by `map(_:_:)`.
        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Subscribes `subscriber` through the key paths.
        ///
        /// - Parameter subscriber: The subscriber that receives the pairs and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath0 = self.keyPath0
            let keyPath1 = self.keyPath1
            upstream.receive(
                subscriber: MapSubscriber(downstream: subscriber) {
                    ($0[keyPath: keyPath0], $0[keyPath: keyPath1])
                })
        }
    }

    /// The publisher of ``Publisher/map(_:_:_:)``: the values of three key paths of each
    /// upstream value, as a tuple.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// A triple of the three properties.
        public typealias Output = (Output0, Output1, Output2)
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are read.
        public let upstream: Upstream
        /// The key path of the first property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of the second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The key path of the third property to publish.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        // Internal, as in Combine: made by `map(_:_:_:)`.
        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Subscribes `subscriber` through the key paths.
        ///
        /// - Parameter subscriber: The subscriber that receives the triples and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath0 = self.keyPath0
            let keyPath1 = self.keyPath1
            let keyPath2 = self.keyPath2
            upstream.receive(
                subscriber: MapSubscriber(downstream: subscriber) {
                    ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
                })
        }
    }
}

// The subscriber is `map`'s `MapSubscriber` (Publishers.Map.swift) with a closure that reads the
// key paths: the same struct, no state, no lock.
