/// The base of the subscriptions of the operators that take their values from one source
/// publisher after another: `append`/`prepend` (`Publishers.Concatenate`), `catch`, `tryCatch`
/// and `retry`.
///
/// The downstream gets this one subscription for the whole stream, when the first source's
/// subscription arrives (as Combine does). Its demand is counted here: requested plus returned
/// from `receive(_:)`, minus delivered. Each request goes on to the live source; when a source
/// ends and the operator moves to the next one, the next is asked for everything still
/// outstanding in one request: unmet demand carries over, and the sources together are never
/// asked for more than the downstream wants ([S1]). A value beyond the count (only a source that
/// breaks [S1] sends one) is dropped.
///
/// Each source is subscribed with a ``SwitchingSourceSubscriber`` stamped with the source's
/// *generation*; once a source has completed, the generation moves on and anything that
/// source still sends is ignored ([S4]). A value or completion a source sends before its
/// subscription is ignored too, and a second subscription is cancelled ([S2]). Only one source is live at a time and the next one is
/// subscribed from the previous one's completion, so the downstream is only called from the
/// live source's signals, which never overlap ([S3]); `request` and `cancel` touch only the lock
/// and the live source's subscription, so they never call the downstream.
///
/// Subclasses (final) decide what comes next in ``sourceFinished(generation:)`` and
/// ``sourceFailed(_:generation:)``: subscribe the next source with `subscribe(_:generation:)`,
/// or end with ``finish(_:)``. What they need for that (the suffix, the handler, the publisher
/// to retry) is the `context`, guarded by the lock and let go, after unlocking, when the
/// stream ends ([S7]). A source's subscriber calls those two methods directly on the subclass,
/// after ``endSource(generation:)``: it is generic over the subclass (``SwitchingSourceParent``).
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
/// [S4]: doc:/Contract/StreamContract#S4
/// [S7]: doc:/Contract/StreamContract#S7
@usableFromInline
class SwitchingSubscription<Downstream: Subscriber, Context>: Subscription, CustomStringConvertible,
    @unchecked Sendable  // all mutable state is guarded by `lock`
{
    @usableFromInline final let lock = Lock()
    // `@exclusivity(unchecked)`: every access is under `lock`; the runtime's dynamic check
    // would only add cost per value.
    /// `nil` once the stream has ended.
    @exclusivity(unchecked) @usableFromInline final var downstream: Downstream?
    /// What the operator needs to reach its next source; `nil` once the stream has ended.
    @exclusivity(unchecked) @usableFromInline final var context: Context?
    /// The live source's subscription while `sourceAttached`, else a ``NoSubscription`` (the one
    /// idiom of the engines for a subscription that may not be there: NoSubscription.swift).
    @exclusivity(unchecked) @usableFromInline final var source: any Subscription = NoSubscription()
    /// Whether the current generation's source has sent its subscription.
    @exclusivity(unchecked) @usableFromInline final var sourceAttached = false
    /// The generation of the live (or next) source; signals stamped otherwise are ignored.
    @exclusivity(unchecked) @usableFromInline final var generation = 0
    /// The downstream's outstanding demand.
    @exclusivity(unchecked) @usableFromInline final var demand = Subscribers.Demand.none
    /// Whether the downstream has been given this subscription.
    @exclusivity(unchecked) @usableFromInline final var downstreamSubscribed = false
    /// Completed or cancelled.
    @exclusivity(unchecked) @usableFromInline final var isDone = false
    @usableFromInline final let name: StaticString
    /// Whether `request(.none)` is reported as an API violation ([S9]) rather than ignored.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    @usableFromInline final let reportsNoneRequest: Bool

    @inlinable
    init(downstream: Downstream, context: Context, name: StaticString, reportsNoneRequest: Bool = false) {
        self.downstream = downstream
        self.context = context
        self.name = name
        self.reportsNoneRequest = reportsNoneRequest
    }

    @usableFromInline var description: String { "\(name)" }

    // MARK: Sources' signals

    /// A source's subscription arrived. The first one also gives the downstream its
    /// subscription; then the source is asked for the outstanding demand.
    @inlinable
    final func attach(_ subscription: any Subscription, generation: Int) {
        lock.lock()
        guard !isDone, generation == self.generation, !sourceAttached else {
            lock.unlock()
            subscription.cancel()
            return
        }
        sourceAttached = true
        if !downstreamSubscribed {
            downstreamSubscribed = true
            let downstream = self.downstream
            lock.unlock()
            // Requests made in here are counted and reach the source just below, in one.
            downstream?.receive(subscription: self)
            lock.lock()
            if isDone {
                lock.unlock()
                subscription.cancel()
                return
            }
        }
        NoSubscription.hold(subscription, in: &source)
        let demand = self.demand
        lock.unlock()
        if demand != .none { subscription.request(demand) }
    }

    @inlinable
    final func deliver(_ value: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        guard !isDone, generation == self.generation, sourceAttached, demand != .none, let downstream else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        let more = downstream.receive(value)
        if more != .none {
            lock.lock()
            if !isDone { demand += more }
            lock.unlock()
        }
        return more
    }

    /// The source of `generation` completed: if it is the live one, moves on to the next
    /// generation and lets go of its subscription, and returns `true`; the source's subscriber
    /// then calls ``sourceFinished(generation:)`` or ``sourceFailed(_:generation:)``.
    @inlinable
    final func endSource(generation: Int) -> Bool {
        lock.lock()
        // A completion before the source's subscription is ignored, like one after it (S2).
        guard !isDone, generation == self.generation, sourceAttached else {
            lock.unlock()
            return false
        }
        self.generation += 1
        sourceAttached = false
        let ended = NoSubscription.take(from: &source)
        lock.unlock()
        keepAlive(ended)
        return true
    }

    // MARK: For subclasses

    /// The source of `generation` finished. Called without the lock held.
    @inlinable
    func sourceFinished(generation: Int) {
        fatalError("abstract")
    }

    /// The source of `generation` failed with `error`. Called without the lock held.
    @inlinable
    func sourceFailed<SourceFailure: Error>(_ error: SourceFailure, generation: Int) {
        fatalError("abstract")
    }

    /// Ends the stream: lets go of everything and sends `completion` downstream. Call without
    /// the lock held.
    @inlinable
    final func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        let downstream = self.downstream.take()
        let context = self.context.take()
        let source = NoSubscription.take(from: &self.source)
        lock.unlock()
        keepAlive(context, source)
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    final func request(_ demand: Subscribers.Demand) {
        if demand == .none {
            // S9: Combine's `catch` traps here; `append`/`prepend` and `retry` do nothing.
            if reportsNoneRequest {
                reportAPIViolation("S9", "\(name) was asked for .none; a request must be for at least one value")
            }
            return
        }
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        self.demand += demand
        // Between sources there is none: the next one gets this with the rest when it attaches.
        let source = self.source
        lock.unlock()
        source.request(demand)
    }

    @inlinable
    final func cancel() {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        let source = NoSubscription.take(from: &self.source)
        let downstream = self.downstream.take()
        let context = self.context.take()
        lock.unlock()
        source.cancel()
        keepAlive(downstream, context)
    }
}

/// What a ``SwitchingSourceSubscriber`` calls: the operator's own subscription class, a final
/// subclass of ``SwitchingSubscription``. The subscriber is generic over that class rather than
/// over the base, so that a source's completion reaches the operator's
/// ``SwitchingSubscription/sourceFinished(generation:)`` or
/// ``SwitchingSubscription/sourceFailed(_:generation:)`` by a direct call, specialized for the
/// operator's types, not through the base class's table, which runs the unspecialized body
/// (Docs/Performance.md, "The switching engine's sources call the operator directly").
@usableFromInline
protocol SwitchingSourceParent: AnyObject, CustomStringConvertible {
    associatedtype Downstream: Subscriber
    func attach(_ subscription: any Subscription, generation: Int)
    func deliver(_ value: Downstream.Input, generation: Int) -> Subscribers.Demand
    func endSource(generation: Int) -> Bool
    func sourceFinished(generation: Int)
    func sourceFailed<SourceFailure: Error>(_ error: SourceFailure, generation: Int)
}

extension SwitchingSubscription: SwitchingSourceParent {}

extension SwitchingSourceParent {
    /// The subscriber for the first source, which fails with `failureType`: the operator's
    /// `receive(subscriber:)` hands it to its upstream.
    @inlinable
    func firstSourceSubscriber<SourceFailure: Error>(
        failing failureType: SourceFailure.Type
    ) -> SwitchingSourceSubscriber<Self, SourceFailure> {
        SwitchingSourceSubscriber(parent: self, generation: 0)
    }

    /// Subscribes `publisher` as the source of `generation`. Call without the lock held.
    @inlinable
    func subscribe<Source: Publisher>(_ publisher: Source, generation: Int)
    where Source.Output == Downstream.Input {
        publisher.receive(
            subscriber: SwitchingSourceSubscriber<Self, Source.Failure>(parent: self, generation: generation))
    }
}

/// The subscriber a ``SwitchingSubscription`` subscribes each source with: it passes the
/// source's signals on, stamped with the source's generation. A struct: nothing is allocated
/// per source.
@usableFromInline
struct SwitchingSourceSubscriber<Parent: SwitchingSourceParent, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Parent.Downstream.Input

    @usableFromInline let parent: Parent
    @usableFromInline let generation: Int

    @inlinable
    init(parent: Parent, generation: Int) {
        self.parent = parent
        self.generation = generation
    }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }
    @usableFromInline var description: String { parent.description }

    @inlinable
    func receive(subscription: any Subscription) {
        parent.attach(subscription, generation: generation)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.deliver(input, generation: generation)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard parent.endSource(generation: generation) else { return }
        switch completion {
        case .finished: parent.sourceFinished(generation: generation)
        case .failure(let error): parent.sourceFailed(error, generation: generation)
        }
    }
}
