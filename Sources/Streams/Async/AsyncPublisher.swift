// MARK: - values

extension Publisher where Failure == Never {
    /// The publisher's values as an asynchronous sequence, to read with `for await`.
    ///
    /// Each `next()` of the sequence's iterator asks the publisher for one value and waits for
    /// it; the loop ends (`nil`) when the publisher finishes. The publisher is subscribed when
    /// the iterator is made (when the `for await` loop starts), and it is asked for nothing
    /// while the loop's body runs: a publisher that sends whether asked or not, like a
    /// ``PassthroughSubject``, loses the values it sends meanwhile (put a buffer in front to keep
    /// them).
    ///
    /// ```text
    /// upstream: -1-2-3-|
    ///           values    (next() asks for one value at a time)
    /// loop:     -1-2-3-|  (the body runs with 1, 2, 3; the loop ends at |)
    /// ```
    ///
    /// ```swift
    /// for await value in [1, 2, 3].publisher.map({ $0 * 10 }).values {
    ///     print(value)
    /// }
    /// // Prints: 10
    /// //         20
    /// //         30
    /// ```
    ///
    /// - Demand: `.max(1)` per `next()`, never more (S16).
    /// - Completion: `.finished` ends the sequence (`next()` returns `nil`).
    /// - Cancellation: cancelling the task that waits in `next()` cancels the subscription, and
    ///   that `next()` and every later one return `nil` (S16). Dropping the iterator (leaving the
    ///   loop with `break`) cancels the subscription too.
    /// - Threading: `next()` may be called from any task or actor; the values are handed over
    ///   under a lock.
    /// - Combine compatibility: as Combine (which does not document that leaving the loop
    ///   cancels the subscription).
    /// - Complexity: one lock and one continuation per value.
    @inlinable
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

extension Publisher {
    /// The publisher's values as an asynchronous sequence that throws the publisher's failure,
    /// to read with `for try await`.
    ///
    /// As the non-throwing `values`, except that a failure of the publisher is
    /// thrown by `next()`; after it, `next()` returns `nil`.
    ///
    /// ```text
    /// upstream: -1-2-^
    ///           values
    /// loop:     -1-2-^    (the body runs with 1, 2; then the loop throws)
    /// ```
    ///
    /// ```swift
    /// struct Boom: Error {}
    /// do {
    ///     let numbers = [1, 2, 0].publisher.tryMap { n -> Int in
    ///         if n == 0 { throw Boom() }
    ///         return n
    ///     }
    ///     for try await value in numbers.values {
    ///         print(value)
    ///     }
    /// } catch {
    ///     print("failed:", error)
    /// }
    /// // Prints: 1
    /// //         2
    /// //         failed: Boom()
    /// ```
    ///
    /// - Demand: `.max(1)` per `next()`, never more (S16).
    /// - Completion: `.finished` ends the sequence; `.failure(error)` is thrown by `next()`.
    /// - Cancellation: cancelling the waiting task cancels the subscription; `next()` then
    ///   returns `nil` (it does not throw `CancellationError`). Dropping the iterator cancels too.
    /// - Threading: as the non-throwing `values`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: one lock and one continuation per value.
    @inlinable
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// A publisher's values as an asynchronous sequence: the type of the non-throwing `values`
/// for publishers that cannot fail.
///
/// Iterating subscribes to the publisher; each `next()` asks it for exactly one value. Values
/// the publisher sends while no `next()` is waiting are not kept (see
/// the non-throwing `values`).
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The publisher's output.
    public typealias Element = P.Output
    /// The sequence cannot fail.
    public typealias Failure = Never

    /// The publisher whose values are read.
    @usableFromInline let publisher: P

    /// Wraps `publisher` as an asynchronous sequence.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator that reads its values.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(AsyncIteration(publisher))
    }

    /// Reads the values of an ``AsyncPublisher``, one request per `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let iteration: AsyncIteration<P.Output, Never>

        @inlinable
        init(_ iteration: AsyncIteration<P.Output, Never>) {
            self.iteration = iteration
        }

        /// Asks the publisher for one value and waits for it; `nil` once the publisher has
        /// finished or the task is cancelled.
        @inlinable
        public mutating func next() async -> P.Output? {
            await next(isolation: nil)
        }

        /// Asks the publisher for one value and waits for it, staying on `actor`; `nil` once the
        /// publisher has finished or the task is cancelled.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            switch await iteration.next(isolation: actor) {
            case .success(let value): value
            }
        }
    }
}

/// A publisher's values as an asynchronous sequence that throws its failure: the type of
/// the throwing `values`.
///
/// Iterating subscribes to the publisher; each `next()` asks it for exactly one value; a failure
/// is thrown. Values the publisher sends while no `next()` is waiting are not kept.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The publisher's output.
    public typealias Element = P.Output
    /// Any error: the publisher's failure.
    public typealias Failure = any Error

    /// The publisher whose values are read.
    @usableFromInline let publisher: P

    /// Wraps `publisher` as an asynchronous sequence.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator that reads its values.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(AsyncIteration(publisher))
    }

    /// Reads the values of an ``AsyncThrowingPublisher``, one request per `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let iteration: AsyncIteration<P.Output, P.Failure>

        @inlinable
        init(_ iteration: AsyncIteration<P.Output, P.Failure>) {
            self.iteration = iteration
        }

        /// Asks the publisher for one value and waits for it; throws the publisher's failure;
        /// `nil` once the publisher has finished (or failed) or the task is cancelled.
        @inlinable
        public mutating func next() async throws -> P.Output? {
            try await next(isolation: nil)
        }

        /// Asks the publisher for one value and waits for it, staying on `actor`; throws the
        /// publisher's failure; `nil` once the publisher has finished (or failed) or the task is
        /// cancelled.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> P.Output? {
            try await iteration.next(isolation: actor).get()
        }
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}
extension AsyncThrowingPublisher: Sendable where P: Sendable {}

// MARK: - The iteration

/// What an iterator holds: the subscriber, which it cancels when the last copy of the iterator
/// goes away (a `for await` loop left with `break`), so that the subscription is not kept alive
/// by the publisher.
@usableFromInline
final class AsyncIteration<Output, Failure: Error>: Sendable {
    @usableFromInline let subscriber = AsyncIterationSubscriber<Output, Failure>()

    @inlinable
    init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        publisher.receive(subscriber: subscriber)
    }

    deinit {
        subscriber.cancel()
    }

    /// Waits for the next value: `.success(nil)` at the end, `.failure` once for a failure.
    @inlinable
    func next(isolation actor: isolated (any Actor)?) async -> Result<Output?, Failure> {
        let subscriber = self.subscriber
        await withTaskCancellationHandler {
            await withUnsafeContinuation { subscriber.park($0) }
        } onCancel: {
            subscriber.cancel()
        }
        return subscriber.take()
    }
}

/// The subscriber behind an async iterator: a state machine under a lock that asks for one
/// value per `next()` and wakes the waiting `next()` exactly once.
///
/// The waiting `next()` is a continuation kept in ``continuation``; whoever takes it out under
/// the lock (a value, the completion, or a cancel) resumes it, so it is resumed exactly once.
/// The value itself waits in ``value`` and the `next()` takes it after waking: it never
/// crosses the continuation, so `Output` need not be `Sendable`.
@usableFromInline
final class AsyncIterationSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable  // all mutable state guarded by `lock`
{
    @usableFromInline
    enum State {
        /// The publisher has not sent its subscription yet; `waiting`: a `next()` is waiting.
        case awaitingSubscription(waiting: Bool)
        /// Subscribed; no `next()` is waiting.
        case idle(Subscription)
        /// Subscribed; a `next()` is waiting, and `.max(1)` was requested for it.
        case waiting(Subscription)
        /// Finished, failed (the failure in ``failure`` until reported) or cancelled.
        case ended
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var state = State.awaitingSubscription(waiting: false)
    @usableFromInline var continuation: UnsafeContinuation<Void, Never>?
    @usableFromInline var value: Input?
    @usableFromInline var failure: Failure?

    @inlinable init() {}

    @usableFromInline var description: String { "AsyncPublisher" }

    // MARK: The iterator's side

    /// Parks the `next()` of the caller, asking for a value; resumes it at once when a value or
    /// the end is already there.
    @inlinable
    func park(_ continuation: UnsafeContinuation<Void, Never>) {
        lock.lock()
        if value != nil {
            lock.unlock()
            continuation.resume()
            return
        }
        if self.continuation != nil {
            lock.unlock()
            fatalError("AsyncPublisher: next() called while another next() of the same iterator is waiting")
        }
        var request: Subscription?
        switch state {
        case .ended:
            lock.unlock()
            continuation.resume()
            return
        case .awaitingSubscription:
            state = .awaitingSubscription(waiting: true)
        case .idle(let subscription):
            state = .waiting(subscription)
            request = subscription
        case .waiting:
            // Not reached: `.waiting` always has a parked `next()`, caught above.
            break
        }
        self.continuation = continuation
        lock.unlock()
        request?.request(.max(1))
    }

    /// What the woken `next()` returns: the value, or the end (the failure once, then `nil`).
    @inlinable
    func take() -> Result<Input?, Failure> {
        lock.lock()
        defer { lock.unlock() }
        if let value = value.take() { return .success(value) }
        if let failure = failure.take() { return .failure(failure) }
        return .success(nil)
    }

    /// Cancels the subscription and ends the sequence; a waiting `next()` returns `nil`.
    @inlinable
    func cancel() {
        lock.lock()
        var subscription: Subscription?
        switch state {
        case .ended:
            lock.unlock()
            return
        case .idle(let s), .waiting(let s):
            subscription = s
        case .awaitingSubscription:
            break
        }
        state = .ended
        let continuation = self.continuation.take()
        lock.unlock()
        subscription?.cancel()
        continuation?.resume()
    }

    // MARK: The publisher's side

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let waiting) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = waiting ? .waiting(subscription) : .idle(subscription)
        lock.unlock()
        if waiting { subscription.request(.max(1)) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // Only a value that was asked for has a `next()` waiting for it; any other is dropped.
        guard case .waiting(let subscription) = state, let continuation = self.continuation.take() else {
            lock.unlock()
            return .none
        }
        state = .idle(subscription)
        value = input
        lock.unlock()
        continuation.resume()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        if case .ended = state {
            lock.unlock()
            return
        }
        state = .ended
        if case .failure(let error) = completion { failure = error }
        let continuation = self.continuation.take()
        lock.unlock()
        continuation?.resume()
    }
}
