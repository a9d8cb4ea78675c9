// Engine: none. The iterator's subscriber, a state machine under a lock, is in this file.

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
    /// <!-- marble values-loop scheduler async: recordingLoop(over: $0.assertNoFailure().values) -->
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
    /// - Demand: `.max(1)` per `next()`, never more ([S16]).
    /// - Completion: `.finished` ends the sequence (`next()` returns `nil`).
    /// - Cancellation: cancelling the task that waits in `next()` cancels the subscription, and
    ///   that `next()`, every other waiting one and every later one return `nil` ([S16]); a task
    ///   cancelled before its first `next()` gets `nil` at once, and a subscription that comes
    ///   after the cancel is cancelled. Dropping the iterator (leaving the loop with `break`)
    ///   cancels the subscription too.
    /// - Threading: `next()` may be called from any task or actor; the values are handed over
    ///   under a lock. Copies of one iterator used from several tasks share one subscription:
    ///   `next()` calls waiting at the same time each ask for one value and are served in the
    ///   order they were made, as in Combine. A value that comes before the subscription, and
    ///   anything after the end, is ignored ([S2]); a completion that comes before the
    ///   subscription ends the sequence, as in Combine (a subscription after it is cancelled).
    /// - Combine compatibility: as Combine (which does not document that leaving the loop
    ///   cancels the subscription).
    /// - Complexity: O(1) per value: one suspension of the iterating task per value.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S16]: doc:/Contract/StreamContract#S16
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
    /// <!-- marble values-throwing-loop scheduler async: recordingLoop(over: $0.values) -->
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
    /// - Demand: `.max(1)` per `next()`, never more ([S16]).
    /// - Completion: `.finished` ends the sequence; `.failure(error)` is thrown by `next()`.
    /// - Cancellation: cancelling the waiting task cancels the subscription; `next()` then
    ///   returns `nil` (it does not throw `CancellationError`). Dropping the iterator cancels too.
    ///   A failure goes to the first waiting `next()`; other waiting ones return `nil`.
    /// - Threading: as the non-throwing `values`.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value: one suspension of the iterating task per value.
    ///
    /// [S16]: doc:/Contract/StreamContract#S16
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
    ///
    /// - Parameter publisher: The publisher, which cannot fail, whose values to iterate.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator that reads its values.
    ///
    /// - Returns: An iterator over the publisher's values.
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
        ///
        /// - Returns: The next value, or `nil` at the end.
        @inlinable
        public mutating func next() async -> P.Output? {
            await next(isolation: nil)
        }

        /// Asks the publisher for one value and waits for it, staying on `actor`; `nil` once the
        /// publisher has finished or the task is cancelled.
        ///
        /// - Parameter actor: The actor to stay isolated to while waiting, or `nil`.
        /// - Returns: The next value, or `nil` at the end.
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
    ///
    /// - Parameter publisher: The publisher whose values to iterate.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator that reads its values.
    ///
    /// - Returns: An iterator over the publisher's values.
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
        ///
        /// - Returns: The next value, or `nil` at the end.
        @inlinable
        public mutating func next() async throws -> P.Output? {
            try await next(isolation: nil)
        }

        /// Asks the publisher for one value and waits for it, staying on `actor`; throws the
        /// publisher's failure; `nil` once the publisher has finished (or failed) or the task is
        /// cancelled.
        ///
        /// - Parameter actor: The actor to stay isolated to while waiting, or `nil`.
        /// - Returns: The next value, or `nil` at the end.
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
    /// Several `next()` calls may wait at once (from different tasks holding copies of the
    /// iterator): each has a ticket, and they are served in the order they were made.
    @inlinable
    func next(isolation actor: isolated (any Actor)?) async -> Result<Output?, Failure> {
        let subscriber = self.subscriber
        var ticket = 0
        await withTaskCancellationHandler {
            await withUnsafeContinuation { ticket = subscriber.enqueue($0) }
        } onCancel: {
            subscriber.cancel()
        }
        return subscriber.take(ticket)
    }
}

/// The subscriber behind an async iterator: a state machine under a lock that asks for one
/// value per `next()` ([S16]) and wakes each waiting `next()` exactly once, in the order they
/// were made.
///
/// Each `next()` gets a ticket: a slot in ``slots``, which holds its continuation while it
/// waits and its result once served. Values and the completion serve the waiting slots in
/// order; whoever serves a slot under the lock (a value, the completion, or a cancel) resumes
/// its continuation after unlocking, so it is resumed exactly once. The woken `next()` takes its
/// result from its own slot: the value never crosses the continuation, so `Output` need not be
/// `Sendable`. In the usual case of one `next()` at a time, the slot array keeps its capacity and
/// nothing is allocated per value.
///
/// A value before the subscription is dropped, and every `next()` waiting then returns `nil`, as
/// in Combine (a later `next()` waits for the subscription). Anything after the end, and a value
/// nobody asked for, are ignored; a second subscription is cancelled ([S2]). A completion before the subscription ends
/// the sequence, as Combine's iterator does, and the subscription is cancelled when it comes. Cancelling (the task of a waiting
/// `next()`, or dropping the iterator) cancels the subscription and every waiting `next()`
/// returns `nil`; cancelling before the subscription arrives ends the sequence and the
/// subscription is cancelled when it comes.
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S16]: doc:/Contract/StreamContract#S16
@usableFromInline
final class AsyncIterationSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable  // all mutable state guarded by `lock`
{
    // An explicit state machine, the subscription in its `subscribed` case: it needs no
    // `NoSubscription` placeholder (Engines/NoSubscription.swift).
    @usableFromInline
    enum State {
        /// The publisher has not sent its subscription yet; `demand` values were asked for
        /// meanwhile, and are requested when it comes.
        case awaitingSubscription(demand: Int)
        /// Subscribed.
        case subscribed(Subscription)
        /// Finished, failed (the failure in ``failure`` until reported) or cancelled.
        case ended
    }

    /// One `next()`'s ticket.
    @usableFromInline
    enum Slot {
        /// Waiting for a value or the end.
        case waiting(UnsafeContinuation<Void, Never>)
        /// Served; the woken `next()` has not taken its result yet.
        case ready(Result<Input?, Failure>)
        /// Taken; removed once every earlier slot is taken too.
        case taken
    }

    @usableFromInline let lock = Lock()
    @usableFromInline var state = State.awaitingSubscription(demand: 0)
    /// The slots of the tickets from ``base`` on; every slot before ``firstWaiting`` is served.
    @usableFromInline var slots: [Slot] = []
    /// The ticket of `slots[0]`.
    @usableFromInline var base = 0
    /// The index in ``slots`` of the next slot to serve.
    @usableFromInline var firstWaiting = 0
    /// A failure that came while no `next()` was waiting: the next `next()` throws it.
    @usableFromInline var failure: Failure?

    @inlinable init() {}

    @usableFromInline var description: String { "AsyncPublisher" }

    // MARK: The iterator's side

    /// Takes a ticket for the caller's `next()` and asks for a value for it; serves it at once
    /// when the sequence has ended. Returns the ticket.
    @inlinable
    func enqueue(_ continuation: UnsafeContinuation<Void, Never>) -> Int {
        lock.lock()
        let ticket = base + slots.count
        switch state {
        case .ended:
            let result: Result<Input?, Failure> = failure.take().map { .failure($0) } ?? .success(nil)
            slots.append(.ready(result))
            firstWaiting += 1
            lock.unlock()
            continuation.resume()
        case .awaitingSubscription(let demand):
            slots.append(.waiting(continuation))
            state = .awaitingSubscription(demand: demand + 1)
            lock.unlock()
        case .subscribed(let subscription):
            slots.append(.waiting(continuation))
            lock.unlock()
            subscription.request(.max(1))
        }
        return ticket
    }

    /// What the woken `next()` with `ticket` returns: the value, or the end (the failure once,
    /// then `nil`).
    @inlinable
    func take(_ ticket: Int) -> Result<Input?, Failure> {
        lock.lock()
        defer { lock.unlock() }
        let index = ticket - base
        guard case .ready(let result) = slots[index] else { return .success(nil) }
        slots[index] = .taken
        while case .taken? = slots.first {
            slots.removeFirst()
            base += 1
            firstWaiting -= 1
        }
        return result
    }

    /// Cancels the subscription and ends the sequence; every waiting `next()` returns `nil`.
    @inlinable
    func cancel() {
        lock.lock()
        var subscription: Subscription?
        switch state {
        case .ended:
            lock.unlock()
            return
        case .subscribed(let s):
            subscription = s
        case .awaitingSubscription:
            break
        }
        state = .ended
        let woken = serveAllWaiting(first: .success(nil))
        lock.unlock()
        subscription?.cancel()
        for continuation in woken { continuation.resume() }
    }

    /// Serves every waiting slot, the first with `first` and the others with the end. Under
    /// the lock; the caller resumes the continuations after unlocking.
    @inlinable
    func serveAllWaiting(first: Result<Input?, Failure>) -> [UnsafeContinuation<Void, Never>] {
        var woken: [UnsafeContinuation<Void, Never>] = []
        while firstWaiting < slots.count {
            if case .waiting(let continuation) = slots[firstWaiting] {
                woken.append(continuation)
                slots[firstWaiting] = .ready(woken.count == 1 ? first : .success(nil))
            }
            firstWaiting += 1
        }
        return woken
    }

    // MARK: The publisher's side

    @inlinable
    func receive(subscription: Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let demand) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        if demand > 0 { subscription.request(.max(demand)) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        if case .awaitingSubscription = state {
            // A broken upstream (S2): the value is dropped and, as in Combine, every `next()`
            // waiting returns `nil` rather than wait for a subscription that may never come.
            // The sequence does not end: a later `next()` waits for the subscription.
            state = .awaitingSubscription(demand: 0)
            let woken = serveAllWaiting(first: .success(nil))
            lock.unlock()
            for continuation in woken { continuation.resume() }
            return .none
        }
        // Only a value that was asked for has a `next()` waiting for it; any other is dropped.
        guard case .subscribed = state, firstWaiting < slots.count,
            case .waiting(let continuation) = slots[firstWaiting]
        else {
            lock.unlock()
            return .none
        }
        slots[firstWaiting] = .ready(.success(input))
        firstWaiting += 1
        lock.unlock()
        continuation.resume()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // S2: a completion after the end is ignored. One before the subscription ends the
        // sequence, as in Combine; the subscription is cancelled when it comes.
        if case .ended = state {
            lock.unlock()
            return
        }
        state = .ended
        let first: Result<Input?, Failure>
        switch completion {
        case .finished:
            first = .success(nil)
        case .failure(let error):
            first = .failure(error)
        }
        let woken = serveAllWaiting(first: first)
        // A failure with no `next()` waiting is thrown by the next one.
        if woken.isEmpty, case .failure(let error) = completion { failure = error }
        lock.unlock()
        for continuation in woken { continuation.resume() }
    }
}
