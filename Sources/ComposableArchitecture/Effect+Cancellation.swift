import Streams

extension Effect {
    /// Makes this effect cancellable with ``cancel(id:)``: any number of running effects may share
    /// `id`, and cancelling it cancels them all.
    ///
    /// An identifier is keyed by its type and its value (`1 as Int` and `"1"` differ), and it
    /// belongs to the store that runs the effect and its scopes: another store, or another test,
    /// using the same identifier is unaffected. It survives `map`, `merge`, `concatenate`,
    /// `pullback` and `combine`.
    ///
    /// Cancelling *completes* the effect (the store stops tracking it at once) and cancels its
    /// work. A `cancel(id:)` wins even over an effect that has not started yet: one returned
    /// earlier in the same batch of actions, or waiting behind another effect in a
    /// `concatenate`, never starts once its identifier has been cancelled after it was returned.
    /// Values the effect sends while it is being subscribed to are never lost, and
    /// `cancellable(id:)` may be nested.
    ///
    /// <!-- marble effect-cancellable: u in runEffects(u[1]) { $0 == "s" ? effect(u[0]).cancellable(id: "search") : .cancel(id: "search") } -->
    /// ```text
    /// effect:   -a---b---c-|
    ///           cancellable(id: Search.self)
    /// actions:  s---[x|]         (s starts the effect; x returns .cancel(id: Search.self))
    /// output:   -a--[;|]         (cancelled and finished at once; b, c never come)
    /// ```
    ///
    /// ```swift
    /// case let .queryChanged(query):
    ///     return environment.search(query)
    ///         .cancellable(id: SearchID.self, cancelInFlight: true)
    /// ```
    ///
    /// - Parameters:
    ///   - id: Any hashable, sendable value; a type (`SearchID.self`) is common.
    ///   - cancelInFlight: Whether to cancel the effects running under `id` when this one starts.
    public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Effect {
        let key = CancelID(id)
        return Effect(operation: .contextual { context in
            // Stamped when the store starts the effect tree, so a cancel that comes after that
            // but before this effect subscribes still wins.
            let epoch = context.cancellations.epoch(of: key)
            return CancellableEffect(
                upstream: self.publisherOrEmpty(in: context), id: key, epoch: epoch,
                cancelInFlight: cancelInFlight, registry: context.cancellations
            ).eraseToAnyPublisher()
        })
    }

    /// An effect that cancels the effects running under `id`, and keeps ones returned but not yet
    /// started from starting; it sends nothing.
    ///
    /// ```swift
    /// case .onDisappear:
    ///     return .cancel(id: TimerID.self)
    /// ```
    public static func cancel<ID: Hashable & Sendable>(id: ID) -> Effect {
        cancel(ids: [AnyHashableSendable(id)])
    }

    /// An effect that cancels the effects running under each of `ids`; it sends nothing.
    public static func cancel(ids: [any Hashable & Sendable]) -> Effect {
        let keys = ids.map { CancelID(AnyHashableSendable(erasing: $0)) }
        return Effect(operation: .contextual { context in
            Deferred { () -> Empty<Output, Never> in
                for key in keys { context.cancellations.cancel(key) }
                return Empty()
            }.eraseToAnyPublisher()
        })
    }
}

/// A type-erased cancellation identifier: its type and its value.
package struct CancelID: Hashable, Sendable {
    let type: ObjectIdentifier
    let value: AnyHashableSendable

    init<ID: Hashable & Sendable>(_ id: ID) {
        if let erased = id as? AnyHashableSendable {
            self = CancelID(erased: erased)
        } else {
            type = ObjectIdentifier(ID.self)
            value = AnyHashableSendable(id)
        }
    }

    private init(erased: AnyHashableSendable) {
        type = erased.type
        value = erased
    }
}

/// A hashable, sendable box that keeps the type of the value it holds.
package struct AnyHashableSendable: Hashable, Sendable {
    let type: ObjectIdentifier
    let base: any Hashable & Sendable
    private let isEqual: @Sendable (any Hashable & Sendable) -> Bool

    init<Base: Hashable & Sendable>(_ base: Base) {
        if let erased = base as? AnyHashableSendable {
            self = erased
            return
        }
        self.type = ObjectIdentifier(Base.self)
        self.base = base
        self.isEqual = { other in (other as? Base) == base }
    }

    init(erasing base: any Hashable & Sendable) {
        func open<Base: Hashable & Sendable>(_ base: Base) -> AnyHashableSendable { AnyHashableSendable(base) }
        self = open(base)
    }

    package static func == (lhs: AnyHashableSendable, rhs: AnyHashableSendable) -> Bool {
        lhs.type == rhs.type && lhs.isEqual(rhs.base)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(base)
    }
}

/// The cancellable effects of one store tree, by identifier.
package final class CancellationRegistry: @unchecked Sendable {  // `running`, `epochs` guarded by `lock`
    private let lock = Lock()
    private var running: [CancelID: [ObjectIdentifier: CancellableEffectHandle]] = [:]
    /// How many times each identifier was cancelled with `cancel(id:)`.
    private var epochs: [CancelID: UInt64] = [:]

    init() {}

    /// The number of `cancel(id:)` calls for `id` so far.
    func epoch(of id: CancelID) -> UInt64 {
        lock.withLock { epochs[id, default: 0] }
    }

    /// Registers a starting effect, unless `id` was cancelled since `epoch`; returns whether it
    /// may start. With `cancelInFlight`, first takes out the effects already running under `id`
    /// and cancels them.
    func start(_ effect: CancellableEffectHandle, id: CancelID, epoch: UInt64, cancelInFlight: Bool) -> Bool {
        lock.lock()
        guard epochs[id, default: 0] == epoch else {
            lock.unlock()
            return false
        }
        let inFlight = cancelInFlight ? running.removeValue(forKey: id) : nil
        running[id, default: [:]][ObjectIdentifier(effect)] = effect
        lock.unlock()
        for other in inFlight?.values ?? [:].values { other.cancelByIdentifier() }
        return true
    }

    /// Forgets an effect that finished or was cancelled.
    func finish(_ effect: CancellableEffectHandle, id: CancelID) {
        lock.lock()
        running[id]?[ObjectIdentifier(effect)] = nil
        if running[id]?.isEmpty == true { running[id] = nil }
        lock.unlock()
    }

    /// Cancels every effect running under `id`, and keeps those already returned from starting.
    func cancel(_ id: CancelID) {
        lock.lock()
        epochs[id, default: 0] += 1
        let effects = running.removeValue(forKey: id)
        lock.unlock()
        for effect in effects?.values ?? [:].values { effect.cancelByIdentifier() }
    }

    /// The number of cancellable effects running (for tests).
    package var runningCount: Int {
        lock.withLock { running.values.reduce(0) { $0 + $1.count } }
    }
}

/// A running cancellable effect, as the registry sees it.
class CancellableEffectHandle: @unchecked Sendable {  // subclasses guard their state with a lock
    func cancelByIdentifier() {}
}

/// The publisher behind ``Effect/cancellable(id:cancelInFlight:)``.
struct CancellableEffect<Output>: Publisher {
    typealias Failure = Never
    let upstream: AnyPublisher<Output, Never>
    let id: CancelID
    let epoch: UInt64
    let cancelInFlight: Bool
    let registry: CancellationRegistry

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let subscription = CancellableEffectSubscription(downstream: subscriber, id: id, registry: registry)
        guard registry.start(subscription, id: id, epoch: epoch, cancelInFlight: cancelInFlight) else {
            // Cancelled after it was returned, before it started: it never starts.
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        subscriber.receive(subscription: subscription)
        upstream.receive(subscriber: subscription)
    }
}

/// Stands between a cancellable effect's work and the store: passes everything through, and
/// when its identifier is cancelled, cancels the work and finishes the store's subscriber.
///
/// Values and the completion pass straight through (nothing is buffered, so what the work sends
/// while it is being subscribed to arrives, A6). A cancel by identifier that comes while a value
/// is being delivered on another thread finishes the subscriber right after that value, on
/// that thread, so the subscriber is never called twice at once (S3).
final class CancellableEffectSubscription<Downstream: Subscriber>: CancellableEffectHandle, Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable  // all mutable state guarded by `lock`
where Downstream.Failure == Never {
    typealias Input = Downstream.Input
    typealias Failure = Never

    private let lock = Lock()
    // Guarded by `lock`:
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var pendingDemand = Subscribers.Demand.none
    private var delivering = false
    private var finishAfterDelivery = false
    private var ended = false

    private let id: CancelID
    private let registry: CancellationRegistry

    init(downstream: Downstream, id: CancelID, registry: CancellationRegistry) {
        self.downstream = downstream
        self.id = id
        self.registry = registry
    }

    var description: String { "CancellableEffect" }

    // MARK: Upstream

    func receive(subscription: Subscription) {
        lock.lock()
        guard !ended, upstream == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        let demand = pendingDemand
        pendingDemand = .none
        lock.unlock()
        if demand != .none { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !ended, let downstream else {
            lock.unlock()
            return .none
        }
        delivering = true
        lock.unlock()
        let demand = downstream.receive(input)
        lock.lock()
        delivering = false
        guard finishAfterDelivery else {
            lock.unlock()
            return demand
        }
        let finishing = self.downstream.take()
        lock.unlock()
        finishing?.receive(completion: .finished)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.lock()
        guard !ended, let downstream = self.downstream.take() else {
            lock.unlock()
            return
        }
        ended = true
        upstream = nil
        lock.unlock()
        registry.finish(self, id: id)
        downstream.receive(completion: completion)
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "A cancellable effect") else { return }
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        guard let upstream else {
            pendingDemand += demand
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        ended = true
        let upstream = self.upstream.take()
        let downstream = self.downstream.take()
        lock.unlock()
        registry.finish(self, id: id)
        upstream?.cancel()
        _ = downstream
    }

    // MARK: Registry

    override func cancelByIdentifier() {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        ended = true
        let upstream = self.upstream.take()
        let downstream: Downstream?
        if delivering {
            finishAfterDelivery = true
            downstream = nil
        } else {
            downstream = self.downstream.take()
        }
        lock.unlock()
        upstream?.cancel()
        downstream?.receive(completion: .finished)
    }
}
