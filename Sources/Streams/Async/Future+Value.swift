// Engine: none. The whole operator is in this file.

extension Future where Failure == Never {
    /// The future's value, awaited: `let x = await future.value`.
    ///
    /// Subscribes to the future and returns its value as soon as the promise has been called
    /// (at once, if it already has). Every caller gets the same value ([S12]).
    ///
    /// <!-- marble future-value-promise scheduler source row=1: Future<String, Never> { promise in scheduler.atTick(3) { promise(.success("a")) } } -->
    /// <!-- marble future-value scheduler source async row=2: recordingAwait(on: Future<String, Never> { promise in scheduler.atTick(3) { promise(.success("a")) } }) { await $0.value } -->
    /// ```text
    /// future:  ---[a|]       (the promise is called at tick 3)
    /// value:   ---a          (an await from tick 0 returns a at tick 3)
    /// ```
    ///
    /// ```swift
    /// let future = Future<Int, Never> { promise in
    ///     DispatchQueue.global().async { promise(.success(42)) }
    /// }
    /// print(await future.value)
    /// // Prints: 42
    /// ```
    ///
    /// - Demand: asks the future for its one value.
    /// - Completion: returns when the promise is called.
    /// - Cancellation: cancelling the awaiting task does not end the wait: a future always
    ///   produces its value, and this property waits for it.
    /// - Threading: runs on the caller's executor (`nonisolated(nonsending)`), so an actor can
    ///   await a value that is not `Sendable`; the promise may be called from any thread.
    /// - Combine compatibility: as Combine (which does not document cancellation).
    /// - Complexity: O(1): one suspension until the future has its result.
    ///
    /// [S12]: doc:/Contract/StreamContract#S12
    nonisolated(nonsending) public var value: Output {
        get async {
            switch await awaitedResult {
            case .success(let value): value
            }
        }
    }
}

extension Future {
    /// The future's value, awaited, or its failure, thrown: `let x = try await future.value`.
    ///
    /// Subscribes to the future and returns its value, or throws its error, as soon as the
    /// promise has been called (at once, if it already has). Every caller gets the same result
    /// ([S12]).
    ///
    /// <!-- marble future-value-throwing-promise scheduler source row=1: Future<String, MarbleFailure> { promise in scheduler.atTick(3) { promise(.failure(MarbleFailure())) } } -->
    /// <!-- marble future-value-throwing scheduler source async row=2: recordingAwait(on: Future<String, MarbleFailure> { promise in scheduler.atTick(3) { promise(.failure(MarbleFailure())) } }) { try await $0.value } -->
    /// ```text
    /// future:  ---^          (the promise is called with a failure at tick 3)
    /// value:   ---^          (an await from tick 0 throws at tick 3)
    /// ```
    ///
    /// ```swift
    /// struct Boom: Error {}
    /// let future = Future<Int, Boom> { promise in promise(.failure(Boom())) }
    /// do { _ = try await future.value } catch { print(error) }
    /// // Prints: Boom()
    /// ```
    ///
    /// - Demand: asks the future for its one value.
    /// - Completion: returns the value, or throws the failure, when the promise is called.
    /// - Cancellation: cancelling the awaiting task does not end the wait (it does not throw
    ///   `CancellationError`): the property waits for the future's result.
    /// - Threading: runs on the caller's executor (`nonisolated(nonsending)`), so an actor can
    ///   await a value that is not `Sendable`; the promise may be called from any thread.
    /// - Combine compatibility: as Combine (which does not document cancellation).
    /// - Complexity: O(1): one suspension until the future has its result.
    ///
    /// [S12]: doc:/Contract/StreamContract#S12
    nonisolated(nonsending) public var value: Output {
        get async throws {
            try await awaitedResult.get()
        }
    }

    /// Waits for the promise to be called, on the caller's executor.
    nonisolated(nonsending) var awaitedResult: Result<Output, Failure> {
        get async {
            let waiter = FutureValueWaiter<Output, Failure>()
            await withUnsafeContinuation { waiter.wait($0, for: core) }
            return waiter.take()
        }
    }
}

/// Waits for a future's result on behalf of an `await`: the continuation is resumed exactly once,
/// by whoever finds it under the lock with the result there.
final class FutureValueWaiter<Output, Failure: Error>: FutureSubscriptionBase<Output, Failure>,
    @unchecked Sendable  // `continuation`, `result` guarded by `lock`
{
    let lock = Lock()
    var continuation: UnsafeContinuation<Void, Never>?
    var result: Result<Output, Failure>?

    /// Parks `continuation` and attaches to `core`, which hands over the result now or later.
    func wait(_ continuation: UnsafeContinuation<Void, Never>, for core: FutureCore<Output, Failure>) {
        lock.withLock { self.continuation = continuation }
        core.attach(self)
    }

    override func resultArrived(_ result: Result<Output, Failure>) {
        lock.lock()
        self.result = result
        let continuation = self.continuation.take()
        lock.unlock()
        continuation?.resume()
    }

    /// The result, once the continuation was resumed.
    func take() -> Result<Output, Failure> {
        lock.withLock { result! }
    }
}
