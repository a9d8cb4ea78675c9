// Engine: none. Each operator here makes a new `Result.Publisher`, whose engine is
//   Engines/OneValueSubscription.swift.

// Operators that Combine declares on `Result.Publisher` itself, so that a chain on a result stays
// a `Result.Publisher` (or becomes an `Empty`) instead of growing a wrapper per operator.
//
// They are evaluated eagerly, as in Combine: a closure runs at most once, when the operator is
// called (and not at all for a failure, which passes through unchanged), not when someone
// subscribes. The `try` forms turn a thrown error into the failure of the returned publisher
// (S14), whose failure type is then `any Error`.

extension Result.Publisher {
    /// Transforms the success value now and returns a `Result.Publisher` of the result; a
    /// failure passes through, as Combine does.
    ///
    /// `transform` runs once, when `map` is called, and not at all for a failure.
    ///
    /// - Parameter transform: A closure that takes the success value and returns a new one.
    /// - Returns: A `Result.Publisher` of the value `transform` returned, or of this publisher's
    ///   failure.
    @inlinable
    public func map<T>(_ transform: @escaping (Success) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Transforms the success value now; a thrown error becomes the failure ([S14]), and a failure
    /// passes through, as Combine does.
    ///
    /// `transform` runs once, when `tryMap` is called, and not at all for a failure.
    ///
    /// - Parameter transform: A closure that takes the success value and returns a new one; it may
    ///   throw.
    /// - Returns: A `Result.Publisher` of the value `transform` returned, of the error it threw, or
    ///   of this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Success) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(tryMapResult(transform))
    }

    /// Transforms the failure now and returns a `Result.Publisher` with the new failure type; a
    /// success passes through, as Combine does.
    ///
    /// `transform` runs once, when `mapError` is called, and only for a failure.
    ///
    /// - Parameter transform: A closure that takes the failure and returns the error to fail with
    ///   instead.
    /// - Returns: A `Result.Publisher` of the success value, or of the error `transform` returned.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Result<Success, E>.Publisher {
        Result<Success, E>.Publisher(result.mapError(transform))
    }

    /// Tests the success value now and returns a `Result.Publisher` of the answer; a failure
    /// passes through, as Combine does.
    ///
    /// `predicate` runs once, when `allSatisfy` is called, and not at all for a failure.
    ///
    /// - Parameter predicate: A closure that takes the success value and returns whether it
    ///   satisfies the condition.
    /// - Returns: A `Result.Publisher` of the answer `predicate` gave, or of this publisher's
    ///   failure.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Tests the success value now; a thrown error becomes the failure ([S14]), and a failure
    /// passes through, as Combine does.
    ///
    /// `predicate` runs once, when `tryAllSatisfy` is called, and not at all for a failure.
    ///
    /// - Parameter predicate: A closure that takes the success value and returns whether it
    ///   satisfies the condition; it may throw.
    /// - Returns: A `Result.Publisher` of the answer `predicate` gave, of the error it threw, or of
    ///   this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Success) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(tryMapResult(predicate))
    }

    /// Tests the success value now and returns a `Result.Publisher` of the answer; a failure
    /// passes through, as Combine does.
    ///
    /// `predicate` runs once, when `contains(where:)` is called, and not at all for a failure.
    ///
    /// - Parameter predicate: A closure that takes the success value and returns whether it is a
    ///   match.
    /// - Returns: A `Result.Publisher` of the answer `predicate` gave, or of this publisher's
    ///   failure.
    @inlinable
    public func contains(where predicate: @escaping (Success) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Tests the success value now; a thrown error becomes the failure ([S14]), and a failure
    /// passes through, as Combine does.
    ///
    /// `predicate` runs once, when `tryContains(where:)` is called, and not at all for a failure.
    ///
    /// - Parameter predicate: A closure that takes the success value and returns whether it is a
    ///   match; it may throw.
    /// - Returns: A `Result.Publisher` of the answer `predicate` gave, of the error it threw, or of
    ///   this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryContains(where predicate: @escaping (Success) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(tryMapResult(predicate))
    }

    /// Returns a `Result.Publisher` of a one-element array; a failure passes through, as Combine
    /// does.
    ///
    /// - Returns: A `Result.Publisher` of `[value]`, or of this publisher's failure.
    @inlinable
    public func collect() -> Result<[Success], Failure>.Publisher {
        Result<[Success], Failure>.Publisher(result.map { [$0] })
    }

    /// Returns a `Result.Publisher` of `1`; a failure passes through, as Combine does.
    ///
    /// - Returns: A `Result.Publisher` of `1`, or of this publisher's failure.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// Returns this publisher, as Combine does: its value is the smallest.
    /// `areInIncreasingOrder` is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values; not called, as there is only
    ///   one value.
    /// - Returns: This publisher.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher
    {
        self
    }

    /// Returns this publisher, as Combine does: its value is the largest.
    /// `areInIncreasingOrder` is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values; not called, as there is only
    ///   one value.
    /// - Returns: This publisher.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Success, Success) -> Bool) -> Result<Success, Failure>.Publisher
    {
        self
    }

    /// Calls `areInIncreasingOrder` now with the success value twice, as Combine does, and
    /// returns a `Result.Publisher` of the value, or of the error it throws ([S14]); a failure
    /// passes through.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values that may throw; it is called
    ///   with the success value twice.
    /// - Returns: A `Result.Publisher` of the success value, of the error `areInIncreasingOrder`
    ///   threw, or of this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryMin(by areInIncreasingOrder: @escaping (Success, Success) throws -> Bool)
        -> Result<Success, any Error>.Publisher
    {
        Result<Success, any Error>.Publisher(
            tryMapResult { value in
                _ = try areInIncreasingOrder(value, value)
                return value
            })
    }

    /// Calls `areInIncreasingOrder` now with the success value twice, as Combine does, and
    /// returns a `Result.Publisher` of the value, or of the error it throws ([S14]); a failure
    /// passes through.
    ///
    /// - Parameter areInIncreasingOrder: An ordering of two values that may throw; it is called
    ///   with the success value twice.
    /// - Returns: A `Result.Publisher` of the success value, of the error `areInIncreasingOrder`
    ///   threw, or of this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryMax(by areInIncreasingOrder: @escaping (Success, Success) throws -> Bool)
        -> Result<Success, any Error>.Publisher
    {
        Result<Success, any Error>.Publisher(
            tryMapResult { value in
                _ = try areInIncreasingOrder(value, value)
                return value
            })
    }

    /// Returns this publisher, as Combine does: its value is the first.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func first() -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns this publisher, as Combine does: its value is the last.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func last() -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns an `Empty` that finishes at once, as Combine does.
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    /// - Combine compatibility: as Combine, which drops a failure here: `ignoreOutput()` of a
    ///   failed result finishes instead of failing (the general operator would pass the failure
    ///   on).
    @inlinable
    public func ignoreOutput() -> Empty<Success, Failure> {
        Empty<Success, Failure>()
    }

    /// Returns this publisher, as Combine does: one value has no duplicates. `predicate` is never
    /// called.
    ///
    /// - Parameter predicate: A closure that tells whether a value repeats the one before; not
    ///   called, as there is only one value.
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates(by predicate: @escaping (Success, Success) -> Bool)
        -> Result<Success, Failure>.Publisher
    {
        self
    }

    /// Calls `predicate` now with the success value twice, as Combine does, and returns a
    /// `Result.Publisher` of the value, or of the error `predicate` throws ([S14]); a failure
    /// passes through.
    ///
    /// - Parameter predicate: A closure that tells whether a value repeats the one before; it is
    ///   called with the success value twice, and may throw.
    /// - Returns: A `Result.Publisher` of the success value, of the error `predicate` threw, or of
    ///   this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryRemoveDuplicates(by predicate: @escaping (Success, Success) throws -> Bool)
        -> Result<Success, any Error>.Publisher
    {
        Result<Success, any Error>.Publisher(
            tryMapResult { value in
                _ = try predicate(value, value)
                return value
            })
    }

    /// Returns a `Result.Publisher` that cannot fail: of the success value, or of `output` in
    /// place of a failure, as Combine does.
    ///
    /// - Parameter output: The value to publish in place of a failure.
    /// - Returns: A `Result.Publisher` that cannot fail, of the success value or `output`.
    @inlinable
    public func replaceError(with output: Success) -> Result<Success, Never>.Publisher {
        switch result {
        case .success(let value): Result<Success, Never>.Publisher(value)
        case .failure: Result<Success, Never>.Publisher(output)
        }
    }

    /// Returns this publisher, as Combine does: it is never empty (a success has a value, a
    /// failure is not replaced).
    ///
    /// - Parameter output: The value that would replace an empty stream; unused.
    /// - Returns: This publisher.
    @inlinable
    public func replaceEmpty(with output: Success) -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns this publisher, as Combine does: subscribing again would give the same result,
    /// so a retried failure ends as the first one did.
    ///
    /// - Parameter retries: How many times to retry after a failure; it makes no difference.
    /// - Returns: This publisher.
    @inlinable
    public func retry(_ retries: Int) -> Result<Success, Failure>.Publisher {
        self
    }

    /// Combines `initialResult` with the success value now and returns a `Result.Publisher` of
    /// the result; a failure passes through, as Combine does.
    ///
    /// `nextPartialResult` runs once, when `reduce` is called, and not at all for a failure.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the success value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the success value, and
    ///     returns the result.
    /// - Returns: A `Result.Publisher` of the result, or of this publisher's failure.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Success) -> T)
        -> Result<T, Failure>.Publisher
    {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the success value now; a thrown error becomes the failure
    /// ([S14]), and a failure passes through, as Combine does.
    ///
    /// `nextPartialResult` runs once, when `tryReduce` is called, and not at all for a failure.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the success value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the success value, and
    ///     returns the result; it may throw.
    /// - Returns: A `Result.Publisher` of the result, of the error `nextPartialResult` threw, or of
    ///   this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Success) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the success value now and returns a `Result.Publisher` of
    /// the result; a failure passes through, as Combine does.
    ///
    /// `nextPartialResult` runs once, when `scan` is called, and not at all for a failure.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the success value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the success value, and
    ///     returns the result.
    /// - Returns: A `Result.Publisher` of the result, or of this publisher's failure.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Success) -> T)
        -> Result<T, Failure>.Publisher
    {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the success value now; a thrown error becomes the failure
    /// ([S14]), and a failure passes through, as Combine does.
    ///
    /// `nextPartialResult` runs once, when `tryScan` is called, and not at all for a failure.
    ///
    /// - Parameters:
    ///   - initialResult: The result to combine the success value with.
    ///   - nextPartialResult: A closure that takes `initialResult` and the success value, and
    ///     returns the result; it may throw.
    /// - Returns: A `Result.Publisher` of the result, of the error `nextPartialResult` threw, or of
    ///   this publisher's failure.
    ///
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Success) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(tryMapResult { try nextPartialResult(initialResult, $0) })
    }

    /// The result with `transform` applied to a success; a thrown error or the failure, as
    /// `any Error`.
    @inlinable
    func tryMapResult<T>(_ transform: (Success) throws -> T) -> Result<T, any Error> {
        switch result {
        case .success(let value): Result<T, any Error> { try transform(value) }
        case .failure(let error): .failure(error)
        }
    }
}

extension Result.Publisher where Success: Equatable {
    /// Compares the success value with `output` now and returns a `Result.Publisher` of the
    /// answer; a failure passes through, as Combine does.
    ///
    /// - Parameter output: The value to compare the success value with.
    /// - Returns: A `Result.Publisher` of whether the two are equal, or of this publisher's
    ///   failure.
    @inlinable
    public func contains(_ output: Success) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// Returns this publisher, as Combine does: one value has no duplicates.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates() -> Result<Success, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Success: Comparable {
    /// Returns this publisher, as Combine does: its value is the smallest.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func min() -> Result<Success, Failure>.Publisher {
        self
    }

    /// Returns this publisher, as Combine does: its value is the largest.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func max() -> Result<Success, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Failure == Never {
    /// Returns a `Result.Publisher` of the same value with the failure type `E`, as Combine
    /// does.
    ///
    /// - Parameter failureType: The failure type to declare, such as `URLError.self`.
    /// - Returns: A `Result.Publisher` of the same value, with the failure type `E`.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Success, E>.Publisher {
        Result<Success, E>.Publisher(result.get())
    }
}
