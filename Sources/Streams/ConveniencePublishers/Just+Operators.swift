// Engine: none. Each operator here makes a new `Just` (or `Result.Publisher`,
//   `Optional.Publisher`), whose engine is Engines/OneValueSubscription.swift.

// Operators that Combine declares on `Just` itself, so that a chain on a `Just` stays a `Just`,
// an `Optional.Publisher` (when the value may be filtered out), a `Result.Publisher` (when a
// closure may throw or the failure type changes), an `Empty` or a `Publishers.Sequence`,
// instead of growing a wrapper per operator.
//
// They are evaluated eagerly, as in Combine: a closure runs once, when the operator is called,
// not when someone subscribes. A side effect in it therefore happens at construction time, even
// if nobody ever subscribes, and happens only once however many subscribers there are.
//
// A `Just` is an `Optional.Publisher` that is never empty and a `Result.Publisher` that never
// fails: the operators whose answer is one of those are that publisher's operator applied to
// the value, so each rule (what an argument must be, how a thrown error becomes the failure) is
// written once, in `Optional.Publisher+Operators.swift` or `Result.Publisher+Operators.swift`.

extension Just {
    /// Transforms the value now and returns a `Just` of the result, as Combine does.
    ///
    /// `transform` runs once, when `map` is called, not when someone subscribes.
    ///
    /// <!-- marble just-map source: Just(1).map { $0 * 10 } -->
    /// ```text
    /// Just(1):  [1|]
    ///           map { $0 * 10 }
    /// output:   [a|]      (a = 10)
    /// ```
    ///
    /// ![Marble diagram of just-map](marble-just-map)
    ///
    /// - Parameter transform: A closure that takes the value and returns a new one.
    /// - Returns: A `Just` of the value `transform` returned.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// Transforms the value now; a thrown error becomes the failure of the returned
    /// `Result.Publisher` ([S14]), as Combine does.
    ///
    /// `transform` runs once, when `tryMap` is called.
    ///
    /// - Parameter transform: A closure that takes the value and returns a new one; it may throw.
    /// - Returns: A `Result.Publisher` of the value `transform` returned, or of the error it threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Result<T, any Error>.Publisher {
        asResult.tryMap(transform)
    }

    /// Transforms the value now and returns an `Optional.Publisher` of the result: empty when
    /// `transform` returns `nil`, as Combine does.
    ///
    /// `transform` runs once, when `compactMap` is called.
    ///
    /// - Parameter transform: A closure that takes the value and returns a new one, or `nil`.
    /// - Returns: An `Optional.Publisher` of the value `transform` returned, empty for `nil`.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Optional<T>.Publisher {
        asOptional.compactMap(transform)
    }

    /// Tests the value now and returns an `Optional.Publisher` of it, empty when `isIncluded`
    /// returns `false`, as Combine does.
    ///
    /// `isIncluded` runs once, when `filter` is called.
    ///
    /// - Parameter isIncluded: A closure that takes the value and returns whether to keep it.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if `isIncluded` returned
    ///   `false`.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Optional<Output>.Publisher {
        asOptional.filter(isIncluded)
    }

    /// Tests the value now and returns a `Just` of the answer, as Combine does: the only value
    /// decides.
    ///
    /// `predicate` runs once, when `allSatisfy` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it satisfies the
    ///   condition.
    /// - Returns: A `Just` of the answer `predicate` gave.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Tests the value now; returns a `Result.Publisher` of the answer, or of the error
    /// `predicate` throws ([S14]), as Combine does.
    ///
    /// `predicate` runs once, when `tryAllSatisfy` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it satisfies the
    ///   condition; it may throw.
    /// - Returns: A `Result.Publisher` of the answer `predicate` gave, or of the error it threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        asResult.tryAllSatisfy(predicate)
    }

    /// Tests the value now and returns a `Just` of the answer, as Combine does.
    ///
    /// `predicate` runs once, when `contains(where:)` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it is a match.
    /// - Returns: A `Just` of the answer `predicate` gave.
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Tests the value now; returns a `Result.Publisher` of the answer, or of the error
    /// `predicate` throws ([S14]), as Combine does.
    ///
    /// `predicate` runs once, when `tryContains(where:)` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it is a match; it
    ///   may throw.
    /// - Returns: A `Result.Publisher` of the answer `predicate` gave, or of the error it threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        asResult.tryContains(where: predicate)
    }

    /// Returns a `Just` of a one-element array, as Combine does.
    ///
    /// - Returns: A `Just` of `[output]`.
    @inlinable
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// Returns a `Just` of `1`, as Combine does: a `Just` always sends exactly one value.
    ///
    /// - Returns: A `Just` of `1`.
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Returns this `Just`, as Combine does: the only value is the smallest. `areInIncreasingOrder`
    /// is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values; not called, as there is only
    ///   one value.
    /// - Returns: This `Just`.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Returns this `Just`, as Combine does: the only value is the largest. `areInIncreasingOrder`
    /// is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values; not called, as there is only
    ///   one value.
    /// - Returns: This `Just`.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Returns an `Optional.Publisher` of the value, empty unless `count` is 0, as Combine does.
    ///
    /// - Parameter count: How many values to drop; must not be negative (a negative count stops
    ///   the program with a message saying so).
    /// - Returns: An `Optional.Publisher` of the value if `count` is 0, otherwise an empty one.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        asOptional.dropFirst(count)
    }

    /// Tests the value now and returns an `Optional.Publisher` of it, empty when `predicate`
    /// says to drop it, as Combine does.
    ///
    /// `predicate` runs once, when `drop(while:)` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns `true` to drop it.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if `predicate` returned
    ///   `true`.
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Optional<Output>.Publisher {
        asOptional.drop(while: predicate)
    }

    /// Returns this `Just`, as Combine does: its value is the first.
    ///
    /// - Returns: This `Just`.
    @inlinable
    public func first() -> Just<Output> {
        self
    }

    /// Tests the value now and returns an `Optional.Publisher` of it, empty when it does not
    /// match, as Combine does.
    ///
    /// `predicate` runs once, when `first(where:)` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it is the one to
    ///   publish.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if `predicate` returned
    ///   `false`.
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Optional<Output>.Publisher {
        asOptional.first(where: predicate)
    }

    /// Returns this `Just`, as Combine does: its value is the last.
    ///
    /// - Returns: This `Just`.
    @inlinable
    public func last() -> Just<Output> {
        self
    }

    /// Tests the value now and returns an `Optional.Publisher` of it, empty when it does not
    /// match, as Combine does.
    ///
    /// `predicate` runs once, when `last(where:)` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether it is the one to
    ///   publish.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if `predicate` returned
    ///   `false`.
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Optional<Output>.Publisher {
        asOptional.last(where: predicate)
    }

    /// Returns an `Empty` that finishes at once, as Combine does.
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> {
        Empty<Output, Never>()
    }

    /// Returns an `Optional.Publisher` of the value when `index` is 0, and an empty one
    /// otherwise, as Combine does.
    ///
    /// - Parameter index: The position to publish; must not be negative (a negative index stops
    ///   the program with a message saying so).
    /// - Returns: An `Optional.Publisher` of the value if `index` is 0, otherwise an empty one.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        asOptional.output(at: index)
    }

    /// Returns an `Optional.Publisher` of the value when `range` contains position 0, and an
    /// empty one otherwise.
    ///
    /// ```swift
    /// let first = Just(12).output(in: 0..<10)     // Optional.Publisher(12)
    /// let none = Just(12).output(in: -10..<10)    // Optional.Publisher(nil), as in Combine
    /// ```
    ///
    /// - Parameter range: The positions to publish. One that starts below 0 selects nothing, as
    ///   in Combine: the result is empty, and the program goes on.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one.
    /// - Combine compatibility: Combine publishes the value for any range that starts at 0, even
    ///   the empty `0..<0`; here an empty range publishes nothing, like the general operator.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        asOptional.output(in: range)
    }

    /// Returns an `Optional.Publisher` of the value, empty when `maxLength` is 0, as Combine
    /// does.
    ///
    /// - Parameter maxLength: The most values to publish; must not be negative (a negative length
    ///   stops the program with a message saying so).
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if `maxLength` is 0.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        asOptional.prefix(maxLength)
    }

    /// Tests the value now and returns an `Optional.Publisher` of it, empty when `predicate`
    /// returns `false`, as Combine does.
    ///
    /// `predicate` runs once, when `prefix(while:)` is called.
    ///
    /// - Parameter predicate: A closure that takes the value and returns whether to publish it.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if `predicate` returned
    ///   `false`.
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Optional<Output>.Publisher {
        asOptional.prefix(while: predicate)
    }

    /// Returns this `Just`, as Combine does: one value has no duplicates. `predicate` is never
    /// called.
    ///
    /// - Parameter predicate: A closure that tells whether a value repeats the one before; not
    ///   called, as there is only one value.
    /// - Returns: This `Just`.
    @inlinable
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Calls `predicate` now with the value twice, as Combine does, and returns a
    /// `Result.Publisher` of the value, or of the error `predicate` throws ([S14]).
    ///
    /// - Parameter predicate: A closure that tells whether a value repeats the one before; it is
    ///   called with the value twice, and may throw.
    /// - Returns: A `Result.Publisher` of the value, or of the error `predicate` threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool)
        -> Result<Output, any Error>.Publisher
    {
        asResult.tryRemoveDuplicates(by: predicate)
    }

    /// Returns this `Just`, as Combine does: it cannot fail, so there is nothing to replace.
    ///
    /// - Parameter output: The value that would replace a failure; unused.
    /// - Returns: This `Just`.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }

    /// Returns this `Just`, as Combine does: it cannot fail, so there is nothing to retry.
    ///
    /// - Parameter retries: How many times to retry after a failure; unused.
    /// - Returns: This `Just`.
    @inlinable
    public func retry(_ retries: Int) -> Just<Output> {
        self
    }

    /// Returns a `Result.Publisher` of the value with the failure type `E`, as Combine does.
    ///
    /// - Parameter failureType: The failure type to declare, such as `URLError.self`.
    /// - Returns: A `Result.Publisher` of the value, with the failure type `E`.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        asResult.setFailureType(to: failureType)
    }

    /// Returns a `Result.Publisher` of the value with the failure type `E`, as Combine does: a
    /// `Just` never fails, so `transform` is never called.
    ///
    /// - Parameter transform: A closure that would turn a failure into an `E`; never called.
    /// - Returns: A `Result.Publisher` of the value, with the failure type `E`.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// Returns this `Just`, as Combine does: it is never empty.
    ///
    /// - Parameter output: The value that would replace an empty stream; unused.
    /// - Returns: This `Just`.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        self
    }

    /// Combines `initialResult` with the value now and returns a `Result.Publisher` of the
    /// result, as Combine does.
    ///
    /// `nextPartialResult` runs once, when `reduce` is called.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the value, and returns the
    ///     result.
    /// - Returns: A `Result.Publisher` of the result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Result<T, Never>.Publisher
    {
        asResult.reduce(initialResult, nextPartialResult)
    }

    /// Combines `initialResult` with the value now; returns a `Result.Publisher` of the result,
    /// or of the error `nextPartialResult` throws ([S14]), as Combine does.
    ///
    /// `nextPartialResult` runs once, when `tryReduce` is called.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the value, and returns the
    ///     result; it may throw.
    /// - Returns: A `Result.Publisher` of the result, or of the error `nextPartialResult` threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        asResult.tryReduce(initialResult, nextPartialResult)
    }

    /// Combines `initialResult` with the value now and returns a `Result.Publisher` of the
    /// result, as Combine does.
    ///
    /// `nextPartialResult` runs once, when `scan` is called.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the value, and returns the
    ///     result.
    /// - Returns: A `Result.Publisher` of the result.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Result<T, Never>.Publisher
    {
        asResult.scan(initialResult, nextPartialResult)
    }

    /// Combines `initialResult` with the value now; returns a `Result.Publisher` of the result,
    /// or of the error `nextPartialResult` throws ([S14]), as Combine does.
    ///
    /// `nextPartialResult` runs once, when `tryScan` is called.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the value, and returns the
    ///     result; it may throw.
    /// - Returns: A `Result.Publisher` of the result, or of the error `nextPartialResult` threw.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        asResult.tryScan(initialResult, nextPartialResult)
    }

    /// Returns a `Publishers.Sequence` of `elements` followed by the value, as Combine does.
    ///
    /// - Parameter elements: The values to publish before this `Just`'s value.
    /// - Returns: A `Publishers.Sequence` of `elements`, then the value.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        prepend(elements)
    }

    /// Returns a `Publishers.Sequence` of `elements` followed by the value, as Combine does.
    /// `elements` is copied into an array now.
    ///
    /// - Parameter elements: The sequence whose elements to publish before this `Just`'s value.
    /// - Returns: A `Publishers.Sequence` of the elements of `elements`, then the value.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where S.Element == Output {
        var joined = Array(elements)
        joined.append(output)
        return Publishers.Sequence<[Output], Never>(sequence: joined)
    }

    /// Returns a `Publishers.Sequence` of the value followed by `elements`, as Combine does.
    ///
    /// - Parameter elements: The values to publish after this `Just`'s value.
    /// - Returns: A `Publishers.Sequence` of the value, then `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        append(elements)
    }

    /// Returns a `Publishers.Sequence` of the value followed by `elements`, as Combine does.
    /// `elements` is copied into an array now.
    ///
    /// - Parameter elements: The sequence whose elements to publish after this `Just`'s value.
    /// - Returns: A `Publishers.Sequence` of the value, then the elements of `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where S.Element == Output {
        var joined = [output]
        joined.append(contentsOf: elements)
        return Publishers.Sequence<[Output], Never>(sequence: joined)
    }
}

extension Just where Output: Equatable {
    /// Compares the value with `output` now and returns a `Just` of the answer, as Combine does.
    ///
    /// - Parameter output: The value to compare this `Just`'s value with.
    /// - Returns: A `Just` of whether the two are equal.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> {
        Just<Bool>(self.output == output)
    }

    /// Returns this `Just`, as Combine does: one value has no duplicates.
    ///
    /// - Returns: This `Just`.
    @inlinable
    public func removeDuplicates() -> Just<Output> {
        self
    }
}

extension Just where Output: Comparable {
    /// Returns this `Just`, as Combine does: the only value is the smallest.
    ///
    /// - Returns: This `Just`.
    @inlinable
    public func min() -> Just<Output> {
        self
    }

    /// Returns this `Just`, as Combine does: the only value is the largest.
    ///
    /// - Returns: This `Just`.
    @inlinable
    public func max() -> Just<Output> {
        self
    }
}

extension Just {
    /// The value as an `Optional.Publisher`, whose eager operators answer for `Just`'s.
    @inlinable var asOptional: Optional<Output>.Publisher { Optional<Output>.Publisher(output) }
    /// The value as a `Result.Publisher`, whose eager operators answer for `Just`'s.
    @inlinable var asResult: Result<Output, Never>.Publisher { Result<Output, Never>.Publisher(output) }
}
