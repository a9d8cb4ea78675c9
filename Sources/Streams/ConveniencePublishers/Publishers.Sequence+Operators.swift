// Engine: none. Each operator here makes a new `Publishers.Sequence` (or a one-value publisher),
//   whose engine is Engines/SequenceSubscription.swift.

// Operators that Combine declares on `Publishers.Sequence` itself: they work on the sequence
// instead of adding a subscriber, so a chain on a sequence stays one `Publishers.Sequence` (one
// loop), or becomes the `Result.Publisher`, `Optional.Publisher`, `Just` or `Empty` of its
// answer.
//
// Only `dropFirst`, `prefix` and `setFailureType` stay lazy: they wrap the sequence, and nothing
// is read from it until someone subscribes. All the others are evaluated eagerly, as in Combine:
// they read the sequence (all of it, or as much as the answer needs: `drop(while:)` up to the
// first element kept) and run their closure when the operator is called, not when someone
// subscribes; `append` and `prepend` build the joined collection then. So a side effect in the
// closure happens at construction time, once, however many subscribers there are; a lazy
// collection's own closures run then too; and a single-pass sequence is consumed then. An
// infinite sequence never returns from `map`, `filter`, `reduce`, ... (as in Combine); use
// `Publishers.Map(upstream:transform:)` and its kin, which stay lazy, for those.

extension Publishers.Sequence {
    /// Drops the first `count` elements of the sequence, as
    /// ``Publisher/dropFirst(_:)`` does with values, by publishing
    /// `DropFirstSequence(sequence, dropping: count)`.
    ///
    /// <!-- marble sequence-dropFirst source: [1, 2, 3, 4].publisher.dropFirst(2) -->
    /// ```text
    /// [1, 2, 3, 4].publisher:  [1234|]
    ///                          dropFirst(2)
    /// output:                  [34|]
    /// ```
    ///
    /// ![Marble diagram of sequence-dropFirst](marble-sequence-dropFirst)
    ///
    /// ```swift
    /// let c = [1, 2, 3, 4].publisher.dropFirst(2).sink { print($0) }
    /// // Prints: 3, 4 (one per line)
    /// ```
    ///
    /// - Parameter count: How many elements to drop; 1 by default. It must not be negative (a
    ///   negative count stops the program with a message saying so).
    /// - Returns: A `Publishers.Sequence` of the elements after the first `count`.
    /// - Demand: as for any ``Publishers/Sequence``; the dropped elements are skipped when the
    ///   subscription starts and never count against demand.
    /// - Completion: `.finished` once the sequence is exhausted; when nothing is left after
    ///   dropping, at once, without waiting for demand ([S5]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) to create; subscribing skips `count` elements.
    ///
    /// [S5]: doc:/Contract/StreamContract#S5
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(
            sequence: DropFirstSequence(sequence, dropping: checkedDropCount(count)))
    }

    /// Publishes at most the first `maxLength` elements of the sequence, as
    /// ``Publisher/prefix(_:)`` does with values, by publishing
    /// `PrefixSequence(sequence, maxLength: maxLength)`.
    ///
    /// <!-- marble sequence-prefix source: [1, 2, 3, 4].publisher.prefix(2) -->
    /// ```text
    /// [1, 2, 3, 4].publisher:  [1234|]
    ///                          prefix(2)
    /// output:                  [12|]
    /// ```
    ///
    /// ![Marble diagram of sequence-prefix](marble-sequence-prefix)
    ///
    /// ```swift
    /// let c = (0...10).publisher.prefix(2).sink { print($0) }
    /// // Prints: 0, 1 (one per line)
    /// ```
    ///
    /// - Parameter maxLength: The most elements to publish; must not be negative (a negative
    ///   length stops the program with a message saying so).
    /// - Returns: A `Publishers.Sequence` of the first `maxLength` elements.
    /// - Demand: as for any ``Publishers/Sequence``. Elements after the first `maxLength` are
    ///   never read from the sequence.
    /// - Completion: `.finished` right after the last element; `prefix(0)` finishes at once.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) to create and per element.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(
            sequence: PrefixSequence(sequence, maxLength: checkedPrefixLength(maxLength)))
    }
}

extension Publishers.Sequence {
    /// Transforms every element now and returns a `Publishers.Sequence` of the results, as
    /// Combine does.
    ///
    /// `transform` runs on every element when `map` is called, not when someone subscribes.
    ///
    /// ```swift
    /// let doubled: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { $0 * 2 }
    /// // doubled.sequence == [2, 4, 6]
    /// ```
    ///
    /// - Parameter transform: A closure that takes an element and returns a new one.
    /// - Returns: A `Publishers.Sequence` of the results, in order.
    @inlinable
    public func map<T>(_ transform: @escaping (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Transforms every element now and returns a `Publishers.Sequence` of the non-`nil`
    /// results, as Combine does.
    ///
    /// `transform` runs on every element when `compactMap` is called.
    ///
    /// - Parameter transform: A closure that takes an element and returns a new one, or `nil` to
    ///   drop it.
    /// - Returns: A `Publishers.Sequence` of the non-`nil` results, in order.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Elements.Element) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Tests every element now and returns a `Publishers.Sequence` of those included, as
    /// Combine does.
    ///
    /// `isIncluded` runs on every element when `filter` is called.
    ///
    /// - Parameter isIncluded: A closure that takes an element and returns whether to keep it.
    /// - Returns: A `Publishers.Sequence` of the elements `isIncluded` kept, in order.
    @inlinable
    public func filter(_ isIncluded: @escaping (Elements.Element) -> Bool)
        -> Publishers.Sequence<[Elements.Element], Failure>
    {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Accumulates the elements now and returns a `Publishers.Sequence` of every intermediate
    /// result, as Combine does.
    ///
    /// `nextPartialResult` runs on every element when `scan` is called.
    ///
    /// - Parameters:
    ///   - initialResult: The result the first element is combined with.
    ///   - nextPartialResult: A closure that takes the result so far and the next element, and
    ///     returns the new result.
    /// - Returns: A `Publishers.Sequence` of each new result, in order.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T)
        -> Publishers.Sequence<[T], Failure>
    {
        var accumulator = initialResult
        var results: [T] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            accumulator = nextPartialResult(accumulator, element)
            results.append(accumulator)
        }
        return Publishers.Sequence<[T], Failure>(sequence: results)
    }

    /// Replaces the `nil` elements with `output` now, as Combine does.
    ///
    /// - Parameter output: The element to publish in place of each `nil`.
    /// - Returns: A `Publishers.Sequence` of the elements, with `output` in place of each `nil`.
    /// - Combine compatibility: as Combine, the result is a sequence of the *optional* element
    ///   type (`[T?]`, none of them `nil`), so its `Output` stays `T?`; the general
    ///   ``Publisher/replaceNil(with:)`` publishes `T`.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
    where Elements.Element == T? {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Drops the elements before the first that `predicate` rejects, now, and publishes the
    /// rest of the sequence, as Combine does.
    ///
    /// `predicate` runs when `drop(while:)` is called, on the leading elements up to the first
    /// it rejects.
    ///
    /// - Parameter predicate: A closure that takes an element and returns `true` to drop it,
    ///   `false` to keep it and all that follow.
    /// - Returns: A `Publishers.Sequence` of the elements from the first that `predicate` rejects
    ///   on.
    @inlinable
    public func drop(
        while predicate: @escaping (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// Takes the leading elements that `predicate` accepts, now, and returns a
    /// `Publishers.Sequence` of them, as Combine does.
    ///
    /// `predicate` runs when `prefix(while:)` is called, up to the first element it rejects.
    ///
    /// - Parameter predicate: A closure that takes an element and returns `true` to keep it,
    ///   `false` to stop there.
    /// - Returns: A `Publishers.Sequence` of the elements before the first that `predicate`
    ///   rejects.
    @inlinable
    public func prefix(
        while predicate: @escaping (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
    }

    /// Returns an `Empty` that finishes at once, as Combine does; the sequence is not read.
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    @inlinable
    public func ignoreOutput() -> Empty<Elements.Element, Failure> {
        Empty<Elements.Element, Failure>()
    }

    /// Returns the same sequence with the failure type `E`, as Combine does, so the chain stays
    /// one loop. Unlike the general ``Publisher/setFailureType(to:)``, it also changes a
    /// failure type that is not `Never`: a sequence publisher never fails.
    ///
    /// - Parameter error: The failure type to declare, such as `URLError.self`.
    /// - Returns: A `Publishers.Sequence` of the same sequence, with the failure type `E`.
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }

    /// Tests the elements now and returns a `Result.Publisher` of the answer (`true` for an
    /// empty sequence), as Combine does.
    ///
    /// `predicate` runs when `allSatisfy` is called, up to the first element it rejects.
    ///
    /// - Parameter predicate: A closure that takes an element and returns whether it satisfies the
    ///   condition.
    /// - Returns: A `Result.Publisher` of whether every element satisfies `predicate`.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
    }

    /// Tests the elements now; returns a `Result.Publisher` of the answer, or of the error
    /// `predicate` throws ([S14]), as Combine does.
    ///
    /// `predicate` runs when `tryAllSatisfy` is called, up to the first element it rejects or
    /// throws on.
    ///
    /// - Parameter predicate: A closure that takes an element and returns whether it satisfies the
    ///   condition; it may throw.
    /// - Returns: A `Result.Publisher` of whether every element satisfies `predicate`, or of the
    ///   error it threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Elements.Element) throws -> Bool)
        -> Result<Bool, any Error>.Publisher
    {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// Searches the elements now and returns a `Result.Publisher` of the answer, as Combine
    /// does.
    ///
    /// `predicate` runs when `contains(where:)` is called, up to the first element it accepts.
    ///
    /// - Parameter predicate: A closure that takes an element and returns whether it is a match.
    /// - Returns: A `Result.Publisher` of whether any element satisfies `predicate`.
    @inlinable
    public func contains(where predicate: @escaping (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
    }

    /// Searches the elements now; returns a `Result.Publisher` of the answer, or of the error
    /// `predicate` throws ([S14]), as Combine does.
    ///
    /// `predicate` runs when `tryContains(where:)` is called, up to the first element it
    /// accepts or throws on.
    ///
    /// - Parameter predicate: A closure that takes an element and returns whether it is a match; it
    ///   may throw.
    /// - Returns: A `Result.Publisher` of whether any element satisfies `predicate`, or of the
    ///   error it threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryContains(where predicate: @escaping (Elements.Element) throws -> Bool)
        -> Result<Bool, any Error>.Publisher
    {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// Copies the elements into an array now and returns a `Result.Publisher` of it, as Combine
    /// does.
    ///
    /// - Returns: A `Result.Publisher` of an array of the elements.
    @inlinable
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        Result<[Elements.Element], Failure>.Publisher(.success(Array(sequence)))
    }

    /// Combines the elements now and returns a `Result.Publisher` of the result
    /// (`initialResult` for an empty sequence), as Combine does.
    ///
    /// `nextPartialResult` runs on every element when `reduce` is called.
    ///
    /// - Parameters:
    ///   - initialResult: The result to start from; also the result of an empty sequence.
    ///   - nextPartialResult: A closure that takes the result so far and the next element, and
    ///     returns the new result.
    /// - Returns: A `Result.Publisher` of the final result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T)
        -> Result<T, Failure>.Publisher
    {
        Result<T, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// Combines the elements now; returns a `Result.Publisher` of the result, or of the error
    /// `nextPartialResult` throws ([S14]), as Combine does.
    ///
    /// `nextPartialResult` runs when `tryReduce` is called, up to the element it throws on.
    ///
    /// - Parameters:
    ///   - initialResult: The result to start from; also the result of an empty sequence.
    ///   - nextPartialResult: A closure that takes the result so far and the next element, and
    ///     returns the new result; it may throw.
    /// - Returns: A `Result.Publisher` of the final result, or of the error `nextPartialResult`
    ///   threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Removes consecutive repeated elements now and returns a `Publishers.Sequence` of the
    /// rest, as Combine does.
    ///
    /// - Returns: A `Publishers.Sequence` of the elements without consecutive repeats.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var kept: [Elements.Element] = []
        for element in sequence where kept.last != element {
            kept.append(element)
        }
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: kept)
    }

    /// Searches the elements for `output` now and returns a `Result.Publisher` of the answer,
    /// as Combine does.
    ///
    /// - Parameter output: The element to look for.
    /// - Returns: A `Result.Publisher` of whether the sequence contains `output`.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// Finds the smallest element now and returns an `Optional.Publisher` of it, empty for an
    /// empty sequence, as Combine does.
    ///
    /// `areInIncreasingOrder` runs when `min(by:)` is called.
    ///
    /// - Parameter areInIncreasingOrder: A closure that takes two elements and returns whether the
    ///   first comes before the second.
    /// - Returns: An `Optional.Publisher` of the smallest element by `areInIncreasingOrder`, empty
    ///   for an empty sequence.
    @inlinable
    public func min(
        by areInIncreasingOrder: @escaping (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// Finds the largest element now and returns an `Optional.Publisher` of it, empty for an
    /// empty sequence, as Combine does.
    ///
    /// `areInIncreasingOrder` runs when `max(by:)` is called.
    ///
    /// - Parameter areInIncreasingOrder: A closure that takes two elements and returns whether the
    ///   first comes before the second.
    /// - Returns: An `Optional.Publisher` of the largest element by `areInIncreasingOrder`, empty
    ///   for an empty sequence.
    @inlinable
    public func max(
        by areInIncreasingOrder: @escaping (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// Finds the first matching element now and returns an `Optional.Publisher` of it, empty
    /// when none matches, as Combine does.
    ///
    /// `predicate` runs when `first(where:)` is called, up to the first element it accepts.
    ///
    /// - Parameter predicate: A closure that takes an element and returns whether it is a match.
    /// - Returns: An `Optional.Publisher` of the first element that satisfies `predicate`, empty if
    ///   none does.
    @inlinable
    public func first(where predicate: @escaping (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Finds the smallest element now and returns an `Optional.Publisher` of it, empty for an
    /// empty sequence, as Combine does.
    ///
    /// - Returns: An `Optional.Publisher` of the smallest element, empty for an empty sequence.
    @inlinable
    public func min() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min())
    }

    /// Finds the largest element now and returns an `Optional.Publisher` of it, empty for an
    /// empty sequence, as Combine does.
    ///
    /// - Returns: An `Optional.Publisher` of the largest element, empty for an empty sequence.
    @inlinable
    public func max() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Returns an `Optional.Publisher` of the collection's first element, empty for an empty
    /// collection, as Combine does.
    ///
    /// - Returns: An `Optional.Publisher` of the first element, empty for an empty collection.
    @inlinable
    public func first() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first)
    }

    /// Returns an `Optional.Publisher` of the element at `index`, empty when `index` is not a
    /// valid index of the collection, as Combine does.
    ///
    /// - Parameter index: An index of the collection, not a position in the stream: for an
    ///   array they are the same, but for a slice or a range such as `5..<10` the first element
    ///   is at `startIndex` (5), as in Combine.
    /// - Returns: An `Optional.Publisher` of the element at `index`, empty if `index` is not valid.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Returns a `Result.Publisher` of the number of elements, as Combine does.
    ///
    /// - Returns: A `Result.Publisher` of the number of elements.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }

    /// Copies the elements at the indices in `range` into an array now and publishes them, as
    /// Combine does.
    ///
    /// - Parameter range: Indices of the collection, not positions in the stream (see
    ///   ``output(at:)``). A range that reaches outside the collection is clamped to its
    ///   indices, giving what the general ``Publisher/output(in:)`` gives for an array.
    /// - Returns: A `Publishers.Sequence` of the elements at the indices in `range`.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        let valid = range.clamped(to: sequence.startIndex..<sequence.endIndex)
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[valid]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Returns an `Optional.Publisher` of the collection's last element, empty for an empty
    /// collection, as Combine does.
    ///
    /// - Returns: An `Optional.Publisher` of the last element, empty for an empty collection.
    @inlinable
    public func last() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last)
    }

    /// Finds the last matching element now, searching from the end, and returns an
    /// `Optional.Publisher` of it, empty when none matches, as Combine does.
    ///
    /// `predicate` runs when `last(where:)` is called, from the last element back to the first
    /// it accepts.
    ///
    /// - Parameter predicate: A closure that takes an element and returns whether it is a match.
    /// - Returns: An `Optional.Publisher` of the last element that satisfies `predicate`, empty if
    ///   none does.
    @inlinable
    public func last(where predicate: @escaping (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Returns a `Just` of the number of elements, as Combine does.
    ///
    /// - Returns: A `Just` of the number of elements.
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Returns a `Publishers.Sequence` of `elements` followed by the sequence's own, as Combine
    /// does: one collection, built now.
    ///
    /// <!-- marble sequence-prepend source: [3, 4].publisher.prepend(1, 2) -->
    /// ```text
    /// [3, 4].publisher:  [34|]
    ///                    prepend(1, 2)
    /// output:            [1234|]
    /// ```
    ///
    /// ![Marble diagram of sequence-prepend](marble-sequence-prepend)
    ///
    /// - Parameter elements: The elements to publish before the sequence's own.
    /// - Returns: A `Publishers.Sequence` of `elements`, then the sequence's elements.
    @inlinable
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Returns a `Publishers.Sequence` of `elements` followed by the sequence's own, as Combine
    /// does: one collection, built now, so `elements` is read once, when `prepend` is called.
    ///
    /// - Parameter elements: The sequence whose elements to publish before the sequence's own.
    /// - Returns: A `Publishers.Sequence` of the elements of `elements`, then the sequence's
    ///   elements.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var joined = Elements()
        joined.append(contentsOf: elements)
        joined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// Returns a `Publishers.Sequence` of `publisher`'s elements followed by the sequence's
    /// own, as Combine does: one collection, built now.
    ///
    /// - Parameter publisher: The sequence publisher whose elements to publish before this one's.
    /// - Returns: A `Publishers.Sequence` of `publisher`'s elements, then this one's.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        publisher.append(sequence)
    }

    /// Returns a `Publishers.Sequence` of the sequence's elements followed by `elements`, as
    /// Combine does: one collection, built now.
    ///
    /// <!-- marble sequence-append source: [1, 2].publisher.append(3, 4) -->
    /// ```text
    /// [1, 2].publisher:  [12|]
    ///                    append(3, 4)
    /// output:            [1234|]
    /// ```
    ///
    /// ![Marble diagram of sequence-append](marble-sequence-append)
    ///
    /// - Parameter elements: The elements to publish after the sequence's own.
    /// - Returns: A `Publishers.Sequence` of the sequence's elements, then `elements`.
    @inlinable
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Returns a `Publishers.Sequence` of the sequence's elements followed by `elements`, as
    /// Combine does: one collection, built now, so `elements` is read once, when `append` is
    /// called.
    ///
    /// - Parameter elements: The sequence whose elements to publish after the sequence's own.
    /// - Returns: A `Publishers.Sequence` of the sequence's elements, then the elements of
    ///   `elements`.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// Returns a `Publishers.Sequence` of the sequence's elements followed by `publisher`'s, as
    /// Combine does: one collection, built now.
    ///
    /// - Parameter publisher: The sequence publisher whose elements to publish after this one's.
    /// - Returns: A `Publishers.Sequence` of this one's elements, then `publisher`'s.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
