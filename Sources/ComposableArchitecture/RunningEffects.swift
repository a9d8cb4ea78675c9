import Dispatch
import Streams

/// The running effects of a store tree (the subscriptions to effects that have not finished),
/// each with an id, and the tasks waiting for them.
///
/// An effect that finished while the store subscribed to it is never entered here ([A4]); one that
/// finishes or is cancelled later leaves at once. When the store tree goes away, so does this
/// book, and the effects still in it are cancelled.
///
/// [A4]: doc:/Contract/StoreContract#A4
@MainActor
@usableFromInline
package final class RunningEffects {
    private var running: [Int: AnyCancellable] = [:]
    private var waiters: [Int: [CheckedContinuation<Void, Never>]] = [:]
    // Main-actor state, touched by one `start` at a time: no dynamic exclusivity check per send.
    @exclusivity(unchecked) @usableFromInline var lastID = 0
    /// Called each time an effect finishes or is cancelled (a test store wakes its waiting
    /// steps with it).
    package var onChange: (@MainActor () -> Void)?

    @usableFromInline
    init() {}

    /// The number of running effects.
    package var count: Int { running.count }

    /// A new effect id (ids are never reused).
    @inlinable
    func nextID() -> Int {
        lastID &+= 1
        return lastID
    }

    @usableFromInline
    func insert(_ cancellable: AnyCancellable, id: Int) {
        running[id] = cancellable
    }

    /// Whether effect `id` is still running.
    package func isRunning(_ id: Int) -> Bool {
        running[id] != nil
    }

    /// An effect finished (or was cancelled): forget it at once ([A4]) and wake its waiters.
    ///
    /// [A4]: doc:/Contract/StoreContract#A4
    @usableFromInline
    func finished(_ id: Int) {
        running[id] = nil
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume() }
        onChange?()
    }

    /// Cancels the effects `ids` (the ones still running) and forgets them.
    package func cancel(_ ids: [Int]) {
        var cancelled: [AnyCancellable] = []
        for id in ids {
            if let cancellable = running.removeValue(forKey: id) { cancelled.append(cancellable) }
            for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume() }
        }
        for cancellable in cancelled { cancellable.cancel() }
        if !cancelled.isEmpty { onChange?() }
    }

    /// Cancels every running effect.
    package func cancelAll() {
        cancel(Array(running.keys))
    }

    /// The ids of the running effects, oldest first.
    package var ids: [Int] {
        running.keys.sorted()
    }

    func waitUntilFinished(_ ids: [Int]) async {
        for id in ids where running[id] != nil {
            await withCheckedContinuation { waiters[id, default: []].append($0) }
        }
    }
}

/// The store's subscriber to one effect: it hands the effect's actions to the store ([A9]) and
/// tells the running effects when the effect is done.
///
/// It is its own cancellable: an effect that finishes while it is being subscribed to costs no
/// `AnyCancellable` and no entry in ``RunningEffects`` ([A4]).
///
/// [A4]: doc:/Contract/StoreContract#A4
/// [A9]: doc:/Contract/StoreContract#A9
@usableFromInline
// mutable fields guarded by `lock`
final class StoreEffectSubscriber<Action>: Subscriber, Cancellable, @unchecked Sendable {
    @usableFromInline typealias Input = Action
    @usableFromInline typealias Failure = Never

    @usableFromInline let combineIdentifier = CombineIdentifier()
    let id: Int
    let inbox: ActionInbox<Action>
    weak let effects: RunningEffects?
    let lock = Lock()
    /// The effect's subscription once `isSubscribed` and until it ends (`isDone`), else a
    /// `NoSubscription` (Streams' one idiom for a subscription that may not be there yet).
    private var subscription: any Subscription = NoSubscription()
    /// Whether the effect's subscription has arrived.
    private var isSubscribed = false
    /// Whether the effect finished or was cancelled.
    private var isDone = false
    /// Whether it finished on the main queue: only then can it have finished while `start`
    /// subscribed to it (the store runs there).
    private var finishedOnMainQueue = false

    @usableFromInline
    init(id: Int, inbox: ActionInbox<Action>, effects: RunningEffects) {
        self.id = id
        self.inbox = inbox
        self.effects = effects
    }

    /// Whether the effect finished on the main queue (read by `start` right after subscribing).
    @usableFromInline
    var hasFinishedOnMainQueue: Bool {
        lock.withLock { finishedOnMainQueue }
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isSubscribed, !isDone else {
            lock.unlock()
            subscription.cancel()  // S2: a second subscription, or one after the end
            return
        }
        isSubscribed = true
        NoSubscription.hold(subscription, in: &self.subscription)
        lock.unlock()
        subscription.request(.unlimited)
    }

    @usableFromInline
    func receive(_ input: Action) -> Subscribers.Demand {
        let active = lock.withLock { isSubscribed && !isDone }
        if active { inbox.deliver(input, from: id) }
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Never>) {
        let onMainQueue = MainQueue.isCurrent
        lock.lock()
        guard isSubscribed, !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        finishedOnMainQueue = onMainQueue
        let finished = NoSubscription.take(from: &subscription)
        lock.unlock()
        keepAlive(finished)  // let go of after unlocking
        let id = self.id
        if onMainQueue {
            MainActor.assumeIsolated { effects?.finished(id) }
        } else {
            // After the actions this effect sent from its thread (same queue, first in first
            // out), so a `StoreTask.finish()` waits for them.
            DispatchQueue.main.async { [weak effects] in
                MainActor.assumeIsolated { effects?.finished(id) }
            }
        }
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        let subscription = NoSubscription.take(from: &self.subscription)
        isDone = true
        lock.unlock()
        subscription.cancel()
    }
}
