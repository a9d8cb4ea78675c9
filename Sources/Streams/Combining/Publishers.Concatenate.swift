// Engine: Engines/SwitchingSubscription.swift.

// MARK: - prepend, append

extension Publisher {
    /// Sends the given values before the upstream's values.
    ///
    /// The values go out first, as a sequence would send them; only once they are all delivered
    /// is the upstream subscribed, and its values follow. It is
    /// `Publishers.Concatenate(prefix: values.publisher, suffix: self)`: see `append(_:)` with a
    /// publisher for how demand carries over.
    ///
    /// <!-- marble prepend-values: $0.prepend("1", "2") -->
    /// ```text
    /// upstream: -3-4-|
    ///           prepend("1", "2")
    /// output:   [12]3-4-|
    /// ```
    ///
    /// ![Marble diagram of prepend-values](marble-prepend-values)
    ///
    /// ```swift
    /// let c = [3, 4].publisher.prepend(1, 2).sink { print($0) }
    /// // Prints: 1, 2, 3, 4 (one per line)
    /// ```
    ///
    /// - Parameter elements: The values to send before the upstream's.
    /// - Returns: A publisher that sends `elements`, then the upstream's values.
    /// - Demand: counted and carried over, as for `append(_:)` with a publisher.
    /// - Completion: `.finished` once the upstream finishes; the upstream's failure as is. What a
    ///   source sends before its subscription or after its end is ignored, and a second subscription
    ///   is cancelled ([S2]).
    /// - Cancellation: cancels whichever part is live; the upstream is never subscribed if
    ///   cancelled before the values are through.
    /// - Combine compatibility: as Combine. On a `Publishers.Sequence` of a
    ///   `RangeReplaceableCollection` it returns a `Publishers.Sequence` of the joined elements.
    /// - Complexity: O(1) per value.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Sends the elements of a sequence before the upstream's values.
    ///
    /// The sequence is read when a subscriber subscribes, as the elements are asked for; once
    /// it is exhausted the upstream is subscribed.
    ///
    /// <!-- marble prepend-sequence: $0.prepend(["1", "2"]) -->
    /// ```text
    /// upstream: -3-4-|
    ///           prepend(["1", "2"])
    /// output:   [12]3-4-|
    /// ```
    ///
    /// ![Marble diagram of prepend-sequence](marble-prepend-sequence)
    ///
    /// ```swift
    /// let c = [3, 4].publisher.prepend(1...2).sink { print($0) }
    /// // Prints: 1, 2, 3, 4 (one per line)
    /// ```
    ///
    /// - Parameter elements: The sequence whose elements to send before the upstream's values.
    /// - Returns: A publisher that sends the elements of `elements`, then the upstream's values.
    /// - Demand: counted and carried over, as for `append(_:)` with a publisher.
    /// - Completion: `.finished` once the upstream finishes; the upstream's failure as is.
    /// - Cancellation: cancels whichever part is live.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Sends another publisher's values, then, once it has finished, the upstream's.
    ///
    /// `publisher` is subscribed first; the upstream is subscribed only when `publisher`
    /// finishes, so the upstream does no work (starts no request, no timer) until then.
    ///
    /// <!-- marble prepend-publisher: $0[1].prepend($0[0]) -->
    /// ```text
    /// publisher: -a-b-|
    /// upstream:  ------c-d-|    (subscribed when publisher finishes, at tick 5)
    ///            upstream.prepend(publisher)
    /// output:    -a-b--c-d-|
    /// ```
    ///
    /// ![Marble diagram of prepend-publisher](marble-prepend-publisher)
    ///
    /// ```swift
    /// let cached = ["cached"].publisher
    /// let c = ["fresh"].publisher.prepend(cached).sink { print($0) }
    /// // Prints: cached
    /// //         fresh
    /// ```
    ///
    /// - Parameter publisher: The publisher whose values to send before the upstream's.
    /// - Returns: A publisher that sends `publisher`'s values, then, once it has finished, the
    ///   upstream's.
    /// - Demand: counted and carried over, as for `append(_:)` with a publisher.
    /// - Completion: `.finished` once the upstream finishes; a failure of either at once.
    /// - Cancellation: cancels whichever is live.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Sends the given values after the upstream has finished.
    ///
    /// The upstream's values pass through; when the upstream finishes, the values follow, as
    /// far as the subscriber's demand allows, then `.finished`. If the upstream fails, the
    /// values are never sent.
    ///
    /// <!-- marble append-values: $0.append("3", "4") -->
    /// ```text
    /// upstream: -1-2-|
    ///           append("3", "4")
    /// output:   -1-2-[34|]
    /// ```
    ///
    /// ![Marble diagram of append-values](marble-append-values)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.append(3, 4).sink { print($0) }
    /// // Prints: 1, 2, 3, 4 (one per line)
    /// ```
    ///
    /// - Parameter elements: The values to send after the upstream has finished.
    /// - Returns: A publisher that sends the upstream's values, then `elements`.
    /// - Demand: counted and carried over, as for `append(_:)` with a publisher.
    /// - Completion: `.finished` after the last value; the upstream's failure as is.
    /// - Cancellation: cancels whichever part is live.
    /// - Combine compatibility: as Combine. On a `Publishers.Sequence` of a
    ///   `RangeReplaceableCollection` it returns a `Publishers.Sequence` of the joined elements.
    /// - Complexity: O(1) per value.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Sends the elements of a sequence after the upstream has finished.
    ///
    /// The sequence is read only once the upstream has finished, as its elements are asked
    /// for.
    ///
    /// <!-- marble append-sequence: $0.append(["3", "4"]) -->
    /// ```text
    /// upstream: -1-2-|
    ///           append(["3", "4"])
    /// output:   -1-2-[34|]
    /// ```
    ///
    /// ![Marble diagram of append-sequence](marble-append-sequence)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.append(3...4).sink { print($0) }
    /// // Prints: 1, 2, 3, 4 (one per line)
    /// ```
    ///
    /// - Parameter elements: The sequence whose elements to send after the upstream has finished.
    /// - Returns: A publisher that sends the upstream's values, then the elements of `elements`.
    /// - Demand: counted and carried over, as for `append(_:)` with a publisher.
    /// - Completion: `.finished` after the last element; the upstream's failure as is.
    /// - Cancellation: cancels whichever part is live.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Sends another publisher's values after the upstream has finished.
    ///
    /// The upstream's values pass through. When it finishes, `publisher` is subscribed — not
    /// before — and its values follow. A failure of the upstream ends everything: `publisher`
    /// is never subscribed. The subscriber sees one stream: the demand it has not used up when
    /// the upstream finishes is asked of `publisher` in one request.
    ///
    /// <!-- marble append-publisher: $0[0].append($0[1]) -->
    /// ```text
    /// upstream:  -a-b-|
    /// publisher: ------c-d-|    (subscribed when the upstream finishes, at tick 5)
    ///            upstream.append(publisher)
    /// output:    -a-b--c-d-|
    /// ```
    ///
    /// ![Marble diagram of append-publisher](marble-append-publisher)
    ///
    /// ```swift
    /// let page1 = ["a", "b"].publisher
    /// let page2 = ["c"].publisher
    /// let c = page1.append(page2).sink { print($0) }
    /// // Prints: a, b, c (one per line)
    /// ```
    ///
    /// - Parameter publisher: The publisher whose values to send after the upstream has finished.
    /// - Returns: A publisher that sends the upstream's values, then, once it has finished,
    ///   `publisher`'s.
    /// - Demand: the operator counts the subscriber's demand (requested plus returned, minus
    ///   delivered). Requests go to the live publisher as they come; the next one is asked for
    ///   everything still outstanding when it is subscribed (nothing, if nothing is). Asking for
    ///   `.none` does nothing, as in Combine ([S9]).
    /// - Completion: `.finished` once the second publisher finishes; a failure of either at
    ///   once, and the second is then never subscribed.
    /// - Cancellation: cancels whichever is live and lets go of the subscriber and of the
    ///   publisher not yet subscribed ([S6], [S7]).
    /// - Threading: values and the completion arrive on the live publisher's thread; the second
    ///   publisher is subscribed on the thread on which the first finished.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}

extension Publishers {
    /// The publisher of `append(_:)` and `prepend(_:)`:
    /// the values of one publisher, then, once it has finished, those of another.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        /// The output type of both publishers.
        public typealias Output = Suffix.Output
        /// The failure type of both publishers.
        public typealias Failure = Suffix.Failure

        /// The publisher whose values come first.
        public let prefix: Prefix
        /// The publisher subscribed once the prefix has finished.
        public let suffix: Suffix

        /// Creates a publisher of `prefix`'s values followed by `suffix`'s.
        ///
        /// - Parameters:
        ///   - prefix: The publisher whose values come first.
        ///   - suffix: The publisher subscribed once `prefix` has finished.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Subscribes `subscriber` to the prefix; the suffix follows when the prefix finishes.
        ///
        /// - Parameter subscriber: The subscriber that receives the prefix's values, then the
        ///   suffix's, and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = ConcatenateSubscription<Suffix, S>(downstream: subscriber, suffix: suffix)
            prefix.receive(subscriber: subscription.firstSourceSubscriber(failing: Prefix.Failure.self))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}
extension Publishers.Concatenate: Sendable where Prefix: Sendable, Suffix: Sendable {}

// MARK: - Subscription

/// The subscription of `Publishers.Concatenate`: the prefix is source 0; when it finishes, the
/// suffix (the context) is taken and subscribed as source 1.
@usableFromInline
final class ConcatenateSubscription<Suffix: Publisher, Downstream: Subscriber>:
    SwitchingSubscription<Downstream, Suffix>, @unchecked Sendable  // state guarded by the base's `lock`
where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
    @inlinable
    init(downstream: Downstream, suffix: Suffix) {
        super.init(downstream: downstream, context: suffix, name: "Concatenate")
    }

    @inlinable
    override func sourceFinished(generation: Int) {
        guard generation == 0 else {
            finish(.finished)
            return
        }
        lock.lock()
        let suffix = context.take()
        lock.unlock()
        // `nil`: cancelled meanwhile.
        if let suffix { subscribe(suffix, generation: 1) }
    }

    @inlinable
    override func sourceFailed<SourceFailure: Error>(_ error: SourceFailure, generation: Int) {
        finish(.failure(error as! Downstream.Failure))
    }
}
