// Engine: none. Each operator here makes a new `Optional.Publisher`, whose engine is
//   Engines/OneValueSubscription.swift.

// Operators that Combine declares on `Optional.Publisher` itself, so that a chain on an optional
// stays an `Optional.Publisher` (or becomes a `Just` or an `Empty`) instead of growing a wrapper
// per operator.
//
// They are evaluated eagerly, as in Combine: a closure runs at most once, when the operator is
// called (and not at all for `nil`), not when someone subscribes.
//
// As in Combine, an empty publisher (`nil`) stays empty through every operator except
// `collect()` (a `[]`) and `replaceEmpty(with:)` (a `Just`): `count()`, `allSatisfy`,
// `contains`, `reduce` and `scan` of `nil` publish nothing, where the general operators would
// publish `0`, `true`, `false` or the initial result.

extension Optional.Publisher {
    /// Transforms the value now, if any, and returns an `Optional.Publisher` of the result, as
    /// Combine does.
    ///
    /// `transform` runs once, when `map` is called, and not at all for `nil`.
    ///
    /// - Parameter transform: A closure that takes the value and returns a new one.
    /// - Returns: An `Optional.Publisher` of the value `transform` returned, empty for `nil`.
    @inlinable
    public func map<T>(_ transform: @escaping (Wrapped) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Transforms the value now, if any; returns an `Optional.Publisher` of the result, empty
    /// when `transform` returns `nil`, as Combine does.
    ///
    /// `transform` runs once, when `compactMap` is called, and not at all for `nil`.
    ///
    /// - Parameter transform: A closure that takes the value and returns a new one, or `nil`.
    /// - Returns: An `Optional.Publisher` of the value `transform` returned, empty if there was no
    ///   value or `transform` returned `nil`.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Wrapped) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// Tests the value now, if any; returns an `Optional.Publisher` of it, empty when
    /// `isIncluded` returns `false`, as Combine does.
    ///
    /// `isIncluded` runs once, when `filter` is called, and not at all for `nil`.
    ///
    /// - Parameter isIncluded: A closure that takes the value and returns whether to keep it.
    /// - Returns: An `Optional.Publisher` of the value, empty if there was none or `isIncluded`
    ///   returned `false`.
    @inlinable
    public func filter(_ isIncluded: @escaping (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Tests the value now, if any, and returns an `Optional.Publisher` of the answer, as Combine
    /// does. For `nil` it publishes nothing (not `true`).
    ///
    /// `predicate` runs once, when `allSatisfy` is called, and not at all for `nil`.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it satisfies the
    ///   condition.
    /// - Returns: An `Optional.Publisher` of the answer `predicate` gave, empty for `nil`.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Tests the value now, if any, and returns an `Optional.Publisher` of the answer, as Combine
    /// does. For `nil` it publishes nothing (not `false`).
    ///
    /// `predicate` runs once, when `contains(where:)` is called, and not at all for `nil`.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it is a match.
    /// - Returns: An `Optional.Publisher` of the answer `predicate` gave, empty for `nil`.
    @inlinable
    public func contains(where predicate: @escaping (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Returns an `Optional.Publisher` of a one-element array, or of `[]` for `nil`, as Combine
    /// does.
    ///
    /// - Returns: An `Optional.Publisher` of `[value]`, or of `[]` for `nil`.
    @inlinable
    public func collect() -> Optional<[Wrapped]>.Publisher {
        Optional<[Wrapped]>.Publisher(output.map { [$0] } ?? [])
    }

    /// Returns an `Optional.Publisher` of `1`, or an empty one for `nil` (not `0`), as Combine
    /// does.
    ///
    /// - Returns: An `Optional.Publisher` of `1`, empty for `nil`.
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Returns this publisher, as Combine does: its value, if any, is the smallest.
    /// `areInIncreasingOrder` is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values; not called, as there is at most
    ///   one value.
    /// - Returns: This publisher.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns this publisher, as Combine does: its value, if any, is the largest.
    /// `areInIncreasingOrder` is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values; not called, as there is at most
    ///   one value.
    /// - Returns: This publisher.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns an `Optional.Publisher` of the value, empty unless `count` is 0, as Combine does.
    ///
    /// - Parameter count: How many values to drop; must not be negative (a negative count stops
    ///   the program with a message saying so).
    /// - Returns: An `Optional.Publisher` of the value if `count` is 0, otherwise an empty one.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(checkedDropCount(count) == 0 ? output : nil)
    }

    /// Tests the value now, if any; returns an `Optional.Publisher` of it, empty when
    /// `predicate` says to drop it, as Combine does.
    ///
    /// `predicate` runs once, when `drop(while:)` is called, and not at all for `nil`.
    ///
    /// - Parameter predicate: A closure that takes the value and returns `true` to drop it.
    /// - Returns: An `Optional.Publisher` of the value, empty if there was none or `predicate`
    ///   returned `true`.
    @inlinable
    public func drop(while predicate: @escaping (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// Returns this publisher, as Combine does: its value, if any, is the first.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func first() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Tests the value now, if any; returns an `Optional.Publisher` of it, empty when it does
    /// not match, as Combine does.
    ///
    /// `predicate` runs once, when `first(where:)` is called, and not at all for `nil`.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it is the one to
    ///   publish.
    /// - Returns: An `Optional.Publisher` of the value, empty if there was none or `predicate`
    ///   returned `false`.
    @inlinable
    public func first(where predicate: @escaping (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Returns this publisher, as Combine does: its value, if any, is the last.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func last() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Tests the value now, if any; returns an `Optional.Publisher` of it, empty when it does
    /// not match, as Combine does.
    ///
    /// `predicate` runs once, when `last(where:)` is called, and not at all for `nil`.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it is the one to
    ///   publish.
    /// - Returns: An `Optional.Publisher` of the value, empty if there was none or `predicate`
    ///   returned `false`.
    @inlinable
    public func last(where predicate: @escaping (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Returns an `Empty` that finishes at once, as Combine does.
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    @inlinable
    public func ignoreOutput() -> Empty<Wrapped, Never> {
        Empty<Wrapped, Never>()
    }

    /// Returns an `Optional.Publisher` of the value when `index` is 0, and an empty one
    /// otherwise, as Combine does.
    ///
    /// - Parameter index: The position to publish; must not be negative (a negative index stops
    ///   the program with a message saying so).
    /// - Returns: An `Optional.Publisher` of the value if `index` is 0, otherwise an empty one.
    @inlinable
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(checkedOutputIndex(index) == 0 ? output : nil)
    }

    /// Returns an `Optional.Publisher` of the value when `range` contains position 0, and an
    /// empty one otherwise.
    ///
    /// ```swift
    /// let first = Optional(12).publisher.output(in: 0..<10)     // Optional.Publisher(12)
    /// let none = Optional(12).publisher.output(in: -10..<10)    // Optional.Publisher(nil)
    /// ```
    ///
    /// - Parameter range: The positions to publish. One that starts below 0 selects nothing:
    ///   there is no value before position 0, so no value is published.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one.
    /// - Combine compatibility: as Combine for ranges that start at 0 or later. Combine stops
    ///   the program for a range that starts below 0; this answers as Combine's `Just` does,
    ///   with an empty publisher, so the two one-value publishers agree.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        Optional<Wrapped>.Publisher(selectsFirstPosition(range) ? output : nil)
    }

    /// Returns an `Optional.Publisher` of the value, empty when `maxLength` is 0, as Combine
    /// does.
    ///
    /// - Parameter maxLength: The most values to publish; must not be negative (a negative length
    ///   stops the program with a message saying so).
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if `maxLength` is 0.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(checkedPrefixLength(maxLength) > 0 ? output : nil)
    }

    /// Tests the value now, if any; returns an `Optional.Publisher` of it, empty when
    /// `predicate` returns `false`, as Combine does.
    ///
    /// `predicate` runs once, when `prefix(while:)` is called, and not at all for `nil`.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether to publish it.
    /// - Returns: An `Optional.Publisher` of the value, empty if there was none or `predicate`
    ///   returned `false`.
    @inlinable
    public func prefix(while predicate: @escaping (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Combines `initialResult` with the value now, if any, and returns an `Optional.Publisher`
    /// of the result, as Combine does. For `nil` it publishes nothing (not `initialResult`).
    ///
    /// `nextPartialResult` runs once, when `reduce` is called, and not at all for `nil`.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the value, and returns the
    ///     result.
    /// - Returns: An `Optional.Publisher` of the result, empty for `nil`.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Wrapped) -> T) -> Optional<T>.Publisher
    {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the value now, if any, and returns an `Optional.Publisher`
    /// of the result, as Combine does.
    ///
    /// `nextPartialResult` runs once, when `scan` is called, and not at all for `nil`.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the value, and returns the
    ///     result.
    /// - Returns: An `Optional.Publisher` of the result, empty for `nil`.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Wrapped) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Returns this publisher, as Combine does: one value has no duplicates. `predicate` is
    /// never called.
    ///
    /// - Parameter predicate: A closure that tells whether a value repeats the one before; not
    ///   called, as there is at most one value.
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates(by predicate: @escaping (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns this publisher, as Combine does: it cannot fail, so there is nothing to replace.
    ///
    /// - Parameter output: The value that would replace a failure; unused.
    /// - Returns: This publisher.
    @inlinable
    public func replaceError(with output: Wrapped) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns a `Just` of the value, or of `output` for `nil`, as Combine does.
    ///
    /// - Parameter output: The value to publish if there is none.
    /// - Returns: A `Just` of the value, or of `output` for `nil`.
    @inlinable
    public func replaceEmpty(with output: Wrapped) -> Just<Wrapped> {
        Just<Wrapped>(self.output ?? output)
    }

    /// Returns this publisher, as Combine does: it cannot fail, so there is nothing to retry.
    ///
    /// - Parameter retries: How many times to retry after a failure; unused.
    /// - Returns: This publisher.
    @inlinable
    public func retry(_ retries: Int) -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// Compares the value, if any, with `output` now and returns an `Optional.Publisher` of the
    /// answer, as Combine does. For `nil` it publishes nothing (not `false`).
    ///
    /// - Parameter output: The value to compare this publisher's value with.
    /// - Returns: An `Optional.Publisher` of whether the two are equal, empty for `nil`.
    @inlinable
    public func contains(_ output: Wrapped) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// Returns this publisher, as Combine does: one value has no duplicates.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// Returns this publisher, as Combine does: its value, if any, is the smallest.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns this publisher, as Combine does: its value, if any, is the largest.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher {
        self
    }
}

// MARK: - Arguments of the positional operators

// The eager positional operators (here, on `Just` through these, and on `Publishers.Sequence`)
// check their argument as the general operators do, and stop the program with the same message.

/// `count`, checked as `Publisher.dropFirst(_:)` checks it.
@inlinable
func checkedDropCount(_ count: Int) -> Int {
    if count < 0 {
        fatalError("dropFirst(\(count)): the number of values to drop must not be negative")
    }
    return count
}

/// `maxLength`, checked as `Publisher.prefix(_:)` checks it.
@inlinable
func checkedPrefixLength(_ maxLength: Int) -> Int {
    if maxLength < 0 {
        fatalError("prefix(\(maxLength)): the maximum length must not be negative")
    }
    return maxLength
}

/// `index`, checked as `Publisher.output(at:)` checks it.
@inlinable
func checkedOutputIndex(_ index: Int) -> Int {
    if index < 0 {
        fatalError("output(at: \(index)): the index must not be negative; positions count the upstream's values from 0")
    }
    return index
}

/// Whether `range`, resolved against the stream positions `0..<Int.max` as Combine resolves it,
/// selects position 0 of a one-value publisher: it starts at 0 and is not empty. A range that
/// starts or ends below 0 selects nothing (and does not stop the program, as Combine's `Just`
/// does not).
@inlinable
func selectsFirstPosition<R: RangeExpression>(_ range: R) -> Bool where R.Bound == Int {
    // Resolving `..<(-1)` against 0..<Int.max would trap: it ends below 0, so it selects nothing.
    if range.relative(to: Int.min..<Int.max).upperBound <= 0 { return false }
    return range.relative(to: 0..<Int.max).lowerBound == 0
}
