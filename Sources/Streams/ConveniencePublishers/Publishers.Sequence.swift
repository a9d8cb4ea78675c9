// Engine: Engines/SequenceSubscription.swift.

extension Sequence {
    /// A publisher that sends the elements of this sequence, in order, as they are requested,
    /// then finishes.
    ///
    /// <!-- marble sequence source: [1, 2, 3].publisher -->
    /// ```text
    /// [1, 2, 3].publisher:  [123|]     (unlimited demand: all at once, then finished)
    /// ```
    ///
    /// ![Marble diagram of sequence](marble-sequence)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.sink { print($0) }
    /// // Prints: 1, 2, 3 (one per line)
    /// ```
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers {
    /// A publisher that sends the elements of a sequence, then finishes.
    ///
    /// Elements go out only as demand allows ([S1]); the publisher finishes as soon as the sequence
    /// is exhausted, without waiting for more demand, and an empty sequence finishes at once
    /// ([S5]). A subscriber that requests one element at a time, from inside `receive(_:)` or by
    /// returning `.max(1)`, is served by a loop, not by recursion: a million elements do not grow
    /// the stack ([S8]).
    ///
    /// <!-- marble sequence-demand source demand=2: [1, 2, 3].publisher -->
    /// ```text
    /// elements:        1, 2, 3
    /// demand .max(2):  [12]     (3 and the completion wait for more demand)
    /// ```
    ///
    /// ![Marble diagram of sequence-demand](marble-sequence-demand)
    ///
    /// ```swift
    /// let c = (1...3).publisher.map { $0 * 2 }.sink { print($0) }
    /// // Prints: 2, 4, 6
    /// ```
    ///
    /// - Demand: requesting `.none` is accepted and does nothing, as in Combine ([S9]).
    /// - Threading: `request` and `cancel` may come from any thread; elements are delivered on the
    ///   thread whose request (or subscription) made them available, one caller at a time ([S3]).
    /// - Cancellation: stops delivery before the next element and releases the subscriber and the
    ///   sequence's iterator ([S6], [S7]).
    /// - Combine compatibility: as Combine. The operators Combine declares on
    ///   `Publishers.Sequence` itself are declared here too and return the same publishers:
    ///   `map`, `filter`, `scan`, `dropFirst`, `prefix`, `append`, ... give a
    ///   `Publishers.Sequence` (the chain stays one loop); `reduce`, `collect`, `contains`,
    ///   `allSatisfy`, `count` give a `Result.Publisher` (or a `Just`); `first`, `last`, `min`,
    ///   `max`, `output(at:)` give an `Optional.Publisher`. As in Combine, those that take a
    ///   closure or compute an answer read the sequence when they are called, not when someone
    ///   subscribes.
    /// - Complexity: O(1) per element, and no allocation per element.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S8]: doc:/Contract/StreamContract#S8
    /// [S9]: doc:/Contract/StreamContract#S9
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The sequence's element type.
        public typealias Output = Elements.Element

        /// The sequence whose elements are published.
        public let sequence: Elements

        /// Creates a publisher of `sequence`'s elements.
        ///
        /// - Parameter sequence: The sequence whose elements to send to each subscriber.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Gives `subscriber` a subscription that delivers the elements on demand.
        ///
        /// - Parameter subscriber: The subscriber that receives the elements and `.finished`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            publish(sequence, then: .finished, to: subscriber, name: "Sequence")
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}
