// Operators that Combine applies to the sequence of a `Publishers.Sequence` instead of adding a
// subscriber, so a chain on a sequence stays one loop.
//
// Only the overloads that change nothing observable are here: they take no closure, and the
// standard-library wrappers they return (`DropFirstSequence`, `PrefixSequence`) are lazy, so
// nothing runs and nothing is read from the sequence until a subscriber subscribes.
//
// Combine also overloads `first()`, `output(at:)` and `output(in:)` on sequences that are
// collections, but those evaluate when the operator is called (`first()` and `output(at:)` read
// an element into an `Optional.Publisher`, `output(in:)` copies a slice into an array), which runs
// a lazy collection's closures early, and they take collection indices rather than positions in
// the stream, which differ for slices. Those operators keep their general publishers here
// (`Publishers.First`, `Publishers.Output`), driven by the sequence's own loop.

extension Publishers.Sequence {
    /// Drops the first `count` elements of the sequence, as
    /// ``Publisher/dropFirst(_:)`` does with values, by publishing
    /// `DropFirstSequence(sequence, dropping: count)`.
    ///
    /// ```text
    /// [1, 2, 3, 4].publisher:  [1234|]
    ///                          dropFirst(2)
    /// output:                  [34|]
    /// ```
    ///
    /// ```swift
    /// let c = [1, 2, 3, 4].publisher.dropFirst(2).sink { print($0) }
    /// // Prints: 3, 4 (one per line)
    /// ```
    ///
    /// - Parameter count: How many elements to drop; 1 by default. It must not be negative (a
    ///   negative count stops the program with a message saying so).
    /// - Demand: as for any ``Publishers/Sequence``; the dropped elements are skipped when the
    ///   subscription starts and never count against demand.
    /// - Completion: `.finished` once the sequence is exhausted; when nothing is left after
    ///   dropping, at once, without waiting for demand (S5).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) to create; subscribing skips `count` elements.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        if count < 0 {
            fatalError("dropFirst(\(count)): the number of values to drop must not be negative")
        }
        return Publishers.Sequence<DropFirstSequence<Elements>, Failure>(
            sequence: DropFirstSequence(sequence, dropping: count))
    }

    /// Publishes at most the first `maxLength` elements of the sequence, as
    /// ``Publisher/prefix(_:)`` does with values, by publishing
    /// `PrefixSequence(sequence, maxLength: maxLength)`.
    ///
    /// ```text
    /// [1, 2, 3, 4].publisher:  [1234|]
    ///                          prefix(2)
    /// output:                  [12|]
    /// ```
    ///
    /// ```swift
    /// let c = (0...10).publisher.prefix(2).sink { print($0) }
    /// // Prints: 0, 1 (one per line)
    /// ```
    ///
    /// - Parameter maxLength: The most elements to publish; must not be negative (a negative
    ///   length stops the program with a message saying so).
    /// - Demand: as for any ``Publishers/Sequence``. Elements after the first `maxLength` are
    ///   never read from the sequence.
    /// - Completion: `.finished` right after the last element; `prefix(0)` finishes at once.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) to create and per element.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        if maxLength < 0 {
            fatalError("prefix(\(maxLength)): the maximum length must not be negative")
        }
        return Publishers.Sequence<PrefixSequence<Elements>, Failure>(
            sequence: PrefixSequence(sequence, maxLength: maxLength))
    }
}
