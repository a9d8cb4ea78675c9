import Streams

extension Effect {
    /// Makes this effect cancellable with ``cancel(id:)-(ID)``: any number of running effects may share
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
    /// <!-- example context: factFeatureCases -->
    /// ```swift
    /// case let .queryChanged(query):
    ///     return environment.search(query)
    ///         .cancellable(id: SearchID.self, cancelInFlight: true)
    /// ```
    ///
    /// - Parameters:
    ///   - id: Any hashable, sendable value (for a type, see ``cancellable(id:cancelInFlight:)-(Any.Type,_)``).
    ///     An `AnyHashable` is the value it wraps: `AnyHashable(x)` and `x` are one identifier.
    ///   - cancelInFlight: Whether to cancel the effects running under `id` when this one starts.
    ///     Only other effects are cancelled: a `cancellable(id:cancelInFlight: true)` nested inside
    ///     another with the same `id` does not cancel the effect it is part of.
    /// - Returns: The effect, cancellable under `id`.
    public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Effect {
        cancellable(key: CancelID(id), cancelInFlight: cancelInFlight)
    }

    /// Makes this effect cancellable with ``cancel(id:)-(Any.Type)``, under a type: the common
    /// way to name an effect (`enum SearchID {}`; `.cancellable(id: SearchID.self)`).
    ///
    /// The same as ``cancellable(id:cancelInFlight:)-(ID,_)`` with the type's identity as the
    /// identifier.
    ///
    /// ```swift
    /// enum SearchID {}
    /// let search = Effect<String>(value: "result").cancellable(id: SearchID.self, cancelInFlight: true)
    /// let stop = Effect<String>.cancel(id: SearchID.self)
    /// ```
    ///
    /// - Parameters:
    ///   - id: A type that names the effect.
    ///   - cancelInFlight: Whether to cancel the effects running under `id` when this one starts.
    /// - Returns: The effect, cancellable under `id`.
    public func cancellable(id: Any.Type, cancelInFlight: Bool = false) -> Effect {
        cancellable(key: CancelID(ObjectIdentifier(id)), cancelInFlight: cancelInFlight)
    }

    /// The effect, cancellable under `key`.
    private func cancellable(key: CancelID, cancelInFlight: Bool) -> Effect {
        Effect(
            operation: .contextual { context in
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
    /// <!-- example context: factFeatureCases -->
    /// ```swift
    /// case .onDisappear:
    ///     return .cancel(id: TimerID.self)
    /// ```
    ///
    /// - Parameter id: The identifier the effects to cancel were made cancellable under; an
    ///   `AnyHashable` is the value it wraps.
    /// - Returns: An effect that cancels, then finishes at once.
    public static func cancel<ID: Hashable & Sendable>(id: ID) -> Effect {
        cancel(keys: [CancelID(id)])
    }

    /// An effect that cancels the effects running under the type `id`, and keeps ones returned
    /// but not yet started from starting; it sends nothing.
    ///
    /// ```swift
    /// enum TimerID {}
    /// let stop = Effect<Int>.cancel(id: TimerID.self)
    /// ```
    ///
    /// - Parameter id: The type the effects to cancel were made cancellable under.
    /// - Returns: An effect that cancels, then finishes at once.
    public static func cancel(id: Any.Type) -> Effect {
        cancel(keys: [CancelID(ObjectIdentifier(id))])
    }

    /// An effect that cancels the effects running under each of `ids`; it sends nothing.
    ///
    /// - Parameter ids: The identifiers to cancel (values of any hashable, sendable types; an
    ///   `AnyHashable` is the value it wraps).
    /// - Returns: An effect that cancels, then finishes at once.
    public static func cancel(ids: [any Hashable & Sendable]) -> Effect {
        cancel(keys: ids.map { CancelID(AnyHashableSendable(erasing: $0)) })
    }

    /// An effect that cancels the effects running under each of the types `ids`; it sends
    /// nothing.
    ///
    /// - Parameter ids: The types to cancel.
    /// - Returns: An effect that cancels, then finishes at once.
    public static func cancel(ids: [Any.Type]) -> Effect {
        cancel(keys: ids.map { CancelID(ObjectIdentifier($0)) })
    }

    /// An effect that cancels the effects running under each of `keys`.
    private static func cancel(keys: [CancelID]) -> Effect {
        Effect(
            operation: .contextual { context in
                Deferred { () -> Empty<Output, Never> in
                    for key in keys { context.cancellations.cancel(key) }
                    return Empty()
                }.eraseToAnyPublisher()
            })
    }
}

/// A type-erased cancellation identifier: its type and its value, with `AnyHashable` unwrapped
/// (so `AnyHashable(x)` and `x` are one identifier, as in Composable Architecture).
package struct CancelID: Hashable, Sendable {
    let value: AnyHashableSendable

    init<ID: Hashable & Sendable>(_ id: ID) {
        value = AnyHashableSendable(id)
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
        if Base.self == AnyHashable.self {
            // `AnyHashable(x)` is `x` (Swift 5 code passes it; Swift 6 code can reach it
            // through an existential). Its base is hashable, and as sendable as the
            // `AnyHashable` that was handed over as one.
            let wrapped = (base as Any) as! AnyHashable
            self = AnyHashableSendable(erasing: wrapped.base as! any Hashable & Sendable)
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

    /// Before an effect under `id` starts: returns whether it may start (`id` was not cancelled
    /// since `epoch`). With `cancelInFlight`, takes out the effects running under `id` and
    /// cancels them.
    ///
    /// The starting effect is not registered yet, nor are the effects it is part of that are
    /// starting too: a `cancellable(id:cancelInFlight: true)` nested inside another under the
    /// same `id` cancels only the other effects, never the one it is part of ([A6]).
    ///
    /// [A6]: doc:/Contract/StoreContract#A6
    func prepare(id: CancelID, epoch: UInt64, cancelInFlight: Bool) -> Bool {
        lock.lock()
        guard epochs[id, default: 0] == epoch else {
            lock.unlock()
            return false
        }
        let inFlight = cancelInFlight ? running.removeValue(forKey: id) : nil
        lock.unlock()
        for other in inFlight?.values ?? [:].values { other.cancelByIdentifier() }
        return true
    }

    /// Registers an effect once it has started, unless `id` was cancelled since `epoch`;
    /// returns whether it was registered.
    func register(_ effect: CancellableEffectHandle, id: CancelID, epoch: UInt64) -> Bool {
        lock.withLock {
            guard epochs[id, default: 0] == epoch else { return false }
            running[id, default: [:]][ObjectIdentifier(effect)] = effect
            return true
        }
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

    /// Starts the effect in three steps: cancels the effects in flight (with `cancelInFlight`),
    /// subscribes to the work, then registers under `id`. Registering last keeps the effects this
    /// one is part of out of reach of a nested `cancelInFlight` under the same `id`, as in
    /// Composable Architecture; the epoch, checked at both ends, keeps a `cancel(id:)` that comes
    /// in between from being missed.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        guard registry.prepare(id: id, epoch: epoch, cancelInFlight: cancelInFlight) else {
            // Cancelled after it was returned, before it started: it never starts.
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        let subscription = CancellableEffectSubscription(downstream: subscriber, id: id, registry: registry)
        subscriber.receive(subscription: subscription)
        upstream.receive(subscriber: subscription)
        // An effect that ended while it was subscribed to is never registered; one that ends
        // while it registers is taken out again (`finish` is idempotent).
        guard !subscription.isEnded else { return }
        if registry.register(subscription, id: id, epoch: epoch) {
            if subscription.isEnded { registry.finish(subscription, id: id) }
        } else {
            subscription.cancelByIdentifier()
        }
    }
}

/// Stands between a cancellable effect's work and the store: passes everything through, and
/// when its identifier is cancelled, cancels the work and finishes the store's subscriber.
///
/// Values and the completion pass straight through (nothing is buffered, so what the work sends
/// while it is being subscribed to arrives, [A6]). A cancel by identifier that comes while a value
/// is being delivered on another thread finishes the subscriber right after that value, on
/// that thread, so the subscriber is never called twice at once ([S3]).
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [A6]: doc:/Contract/StoreContract#A6
final class CancellableEffectSubscription<Downstream: Subscriber>: CancellableEffectHandle, Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable  // all mutable state guarded by `lock`
where Downstream.Failure == Never {
    typealias Input = Downstream.Input
    typealias Failure = Never

    private let lock = Lock()
    // Guarded by `lock`:
    private var downstream: Downstream?
    /// The effect's subscription once `isSubscribed` and until `ended`, else a `NoSubscription`
    /// (Streams' one idiom for a subscription that may not be there yet).
    private var upstream: any Subscription = NoSubscription()
    private var isSubscribed = false
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

    /// Whether the effect finished or was cancelled.
    var isEnded: Bool { lock.withLock { ended } }

    // MARK: Upstream

    func receive(subscription: Subscription) {
        lock.lock()
        guard !ended, !isSubscribed else {
            lock.unlock()
            subscription.cancel()
            return
        }
        isSubscribed = true
        NoSubscription.hold(subscription, in: &upstream)
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
        let finished = NoSubscription.take(from: &upstream)
        lock.unlock()
        keepAlive(finished)  // let go of after unlocking
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
        guard isSubscribed else {
            pendingDemand += demand
            lock.unlock()
            return
        }
        let upstream = self.upstream
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
        let upstream = NoSubscription.take(from: &self.upstream)
        let downstream = self.downstream.take()
        lock.unlock()
        registry.finish(self, id: id)
        upstream.cancel()
        keepAlive(downstream)
    }

    // MARK: Registry

    override func cancelByIdentifier() {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        ended = true
        let upstream = NoSubscription.take(from: &self.upstream)
        let downstream: Downstream?
        if delivering {
            finishAfterDelivery = true
            downstream = nil
        } else {
            downstream = self.downstream.take()
        }
        lock.unlock()
        upstream.cancel()
        downstream?.receive(completion: .finished)
    }
}
