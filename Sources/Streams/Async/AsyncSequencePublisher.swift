// Engine: none. The whole operator is in this file.

// MARK: - AsyncSequencePublisher

/// A publisher that sends the elements of an asynchronous sequence, pulling each one only
/// when the subscriber has asked for it.
///
/// On the first request a task starts iterating the sequence. Before each `next()` it waits
/// until there is outstanding demand, so the sequence is never asked for an element nobody
/// wants. When the sequence ends the publisher finishes; when it throws, the publisher fails
/// with the error. Cancelling the subscription cancels the task (a sequence that honours
/// cancellation stops at once). Each subscription iterates the sequence anew.
///
/// <!-- marble AsyncSequencePublisher-init scheduler source async demand=2 demand=2@3: AsyncSequencePublisher(AsyncStream<String> { c in c.yield("1"); c.yield("2"); c.yield("3"); c.finish() }) -->
/// ```text
/// sequence: 1, 2, 3, end
///           AsyncSequencePublisher(sequence), subscriber asking for .max(2), at tick 3 for .max(2) more
/// output:   [12]--[3|]    (the third element is pulled only after the second request)
/// ```
///
/// ```swift
/// let stream = AsyncStream<Int> { continuation in
///     for n in 1...3 { continuation.yield(n) }
///     continuation.finish()
/// }
/// let c = AsyncSequencePublisher(stream).sink { print($0) }
/// // Prints, from the iterating task: 1
/// //                                  2
/// //                                  3
/// ```
///
/// - Demand: one `next()` per unit of demand, never ahead of it. Since a sequence tells that
///   it has ended only when asked for an element, `.finished` arrives once the subscriber has
///   asked for one more element than there are (an unlimited subscriber always has).
/// - Completion: `.finished` when the sequence ends; `.failure(error)` when it throws.
/// - Cancellation: cancels the iterating task and lets go of the subscriber ([S6], [S7]); nothing
///   is delivered afterwards. Asking for `.none` is an API violation ([S9]).
/// - Threading: values and the completion are delivered from the iterating task (Swift's
///   global concurrent executor), one at a time ([S3]); use `receive(on:)` to move them.
/// - Combine compatibility: not in Combine. The sequence must be `Sendable` (it is iterated
///   in a task of its own). A top-level type of Streams rather than an `AsyncSequence.publisher`
///   property or a member of `Publishers`: a library may declare those names itself, and must
///   compile unchanged against Streams (and `.publisher` on a type that is both a `Sequence`
///   and an `AsyncSequence` stays the synchronous `Sequence` one).
/// - Complexity: O(1) per element, and a suspension while the subscriber has no demand.
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
/// [S9]: doc:/Contract/StreamContract#S9
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
    /// The sequence's elements.
    public typealias Output = Base.Element
    /// The error the sequence throws (`Never` for one that cannot throw).
    public typealias Failure = Base.Failure

    /// The sequence whose elements are sent.
    public let base: Base

    /// Creates a publisher of `base`'s elements.
    ///
    /// - Parameter base: The asynchronous sequence to iterate, anew for each subscription.
    @inlinable
    public init(_ base: Base) {
        self.base = base
    }

    /// Gives `subscriber` a subscription that iterates the sequence as it asks for elements.
    ///
    /// - Parameter subscriber: The subscriber that receives the sequence's elements and the
    ///   completion.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: AsyncSequenceSubscription(base: base, downstream: subscriber))
    }
}

extension AsyncSequencePublisher: Sendable {}

// MARK: - Subscription

/// The iterating half of ``AsyncSequenceSubscription``, without the downstream's type: the
/// iterating task captures this class, so it carries no metatype of a non-Sendable type.
///
/// Demand, the task and the sequence sit behind ``lock``. The task starts on the first request.
/// Before each element it takes one unit of demand, or parks in ``demandWaiter`` until a request
/// (resumed with `true`, the unit taken for it) or a cancel (resumed with `false`). Whoever takes
/// the waiter out under the lock resumes it, so it is resumed exactly once.
@usableFromInline
// all mutable state guarded by `lock`
class AsyncSequenceIteration<Base: AsyncSequence & Sendable>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// Handed to the task when it starts.
    @usableFromInline var base: Base?
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var started = false
    /// Cancelled or completed.
    @usableFromInline var done = false
    @usableFromInline var task: Task<Void, Never>?
    @usableFromInline var demandWaiter: UnsafeContinuation<Bool, Never>?

    @inlinable
    init(base: Base) {
        self.base = base
    }

    /// Adds demand, wakes the task if it waits for it, and starts it on the first request.
    @usableFromInline
    func addDemand(_ demand: Subscribers.Demand) {
        lock.lock()
        if done {
            lock.unlock()
            return
        }
        self.demand += demand
        let waiter = demandWaiter.take()
        if waiter != nil { self.demand -= 1 }
        let start = !started
        started = true
        lock.unlock()
        waiter?.resume(returning: true)
        if start { launch() }
    }

    /// Marks the iteration done and stops the task; `false` if it was done already.
    @usableFromInline
    func stop() -> Bool {
        lock.lock()
        if done {
            lock.unlock()
            return false
        }
        done = true
        let task = self.task.take()
        let waiter = demandWaiter.take()
        let base = self.base.take()
        lock.unlock()
        keepAlive(base)
        task?.cancel()
        waiter?.resume(returning: false)
        return true
    }

    func launch() {
        let task = Task { await self.iterate() }
        lock.lock()
        if done {
            lock.unlock()
            task.cancel()
            return
        }
        self.task = task
        lock.unlock()
    }

    /// The task's loop: one unit of demand, one element, until the end, a failure or a cancel.
    func iterate() async {
        guard let base = lock.withLock({ base.take() }) else { return }
        var iterator = base.makeAsyncIterator()
        while await takeDemand() {
            let element: Base.Element?
            do throws(Base.Failure) {
                element = try await iterator.next(isolation: nil)
            } catch {
                end(.failure(error))
                return
            }
            guard let element else {
                end(.finished)
                return
            }
            deliver(element)
        }
    }

    /// Takes one unit of demand, waiting for a request if there is none; `false` once cancelled.
    func takeDemand() async -> Bool {
        lock.lock()
        if done {
            lock.unlock()
            return false
        }
        if demand > 0 {
            demand -= 1
            lock.unlock()
            return true
        }
        lock.unlock()
        return await withUnsafeContinuation { continuation in
            lock.lock()
            if done {
                lock.unlock()
                continuation.resume(returning: false)
            } else if demand > 0 {
                demand -= 1
                lock.unlock()
                continuation.resume(returning: true)
            } else {
                demandWaiter = continuation
                lock.unlock()
            }
        }
    }

    /// Marks the iteration done after the sequence ended; `false` if it was done already.
    func finish() -> Bool {
        lock.withLock {
            if done { return false }
            done = true
            task = nil
            return true
        }
    }

    /// Sends an element downstream (from the task).
    @usableFromInline func deliver(_ element: Base.Element) { fatalError("abstract") }
    /// Sends the completion downstream (from the task).
    @usableFromInline func end(_ completion: Subscribers.Completion<Base.Failure>) { fatalError("abstract") }
}

/// The subscription of ``AsyncSequencePublisher``: the iteration and the downstream.
///
/// Only the iterating task calls the downstream, so calls never overlap ([S3]), and a request
/// from inside `receive(_:)` only adds demand ([S8]). The downstream is guarded by the
/// iteration's lock.
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S8]: doc:/Contract/StreamContract#S8
@usableFromInline
final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>:
    AsyncSequenceIteration<Base>, Subscription, CustomStringConvertible,
    @unchecked Sendable  // `downstream` guarded by the inherited `lock`
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    @usableFromInline var downstream: Downstream?

    @inlinable
    init(base: Base, downstream: Downstream) {
        self.downstream = downstream
        super.init(base: base)
    }

    @usableFromInline var description: String { "AsyncSequencePublisher" }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "AsyncSequencePublisher") else { return }
        addDemand(demand)
    }

    @usableFromInline
    func cancel() {
        guard stop() else { return }
        let downstream = lock.withLock { self.downstream.take() }
        keepAlive(downstream)
    }

    @usableFromInline
    override func deliver(_ element: Base.Element) {
        lock.lock()
        guard !done, let downstream else {
            lock.unlock()
            return
        }
        lock.unlock()
        let more = downstream.receive(element)
        guard more > 0 else { return }
        lock.withLock {
            if !done { demand += more }
        }
    }

    @usableFromInline
    override func end(_ completion: Subscribers.Completion<Base.Failure>) {
        guard finish() else { return }
        let downstream = lock.withLock { self.downstream.take() }
        downstream?.receive(completion: completion)
    }
}
