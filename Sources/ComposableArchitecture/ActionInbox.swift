import Dispatch
import Streams

/// Runs `body` on the main actor: now when already on the main queue, else as soon as the main
/// queue gets to it ([A9]).
///
/// [A9]: doc:/Contract/StoreContract#A9
@usableFromInline
package func onMainQueue(_ body: @escaping @MainActor () -> Void) {
    if MainQueue.isCurrent {
        MainActor.assumeIsolated(body)
    } else {
        DispatchQueue.main.async { MainActor.assumeIsolated(body) }
    }
}

/// Where effects deliver actions, from any thread ([A9]), each with the id of the effect that
/// sent it.
///
/// On the main queue an action is handed to the store at once, so actions that effects send
/// synchronously run within the send that started them ([A1]–[A3]). From another thread it is
/// queued here and one main-queue block hands over everything queued, in order. Actions need not
/// be `Sendable`: an effect hands each one over, and only the main actor uses it afterwards.
///
/// [A1]: doc:/Contract/StoreContract#A1
/// [A3]: doc:/Contract/StoreContract#A3
/// [A9]: doc:/Contract/StoreContract#A9
@usableFromInline
// `immediate`, `queued` and `scheduled` guarded by `lock`
package final class ActionInbox<Action>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// Delivered on the main queue: handed over at once by the delivering call (through this
    /// lock-guarded slot, which is how a non-`Sendable` action reaches the main actor).
    @usableFromInline var immediate: [(action: Action, sender: Int)] = []
    /// Delivered from other threads, handed over by one scheduled main-queue block.
    @usableFromInline var queued: [(action: Action, sender: Int)] = []
    @usableFromInline var scheduled = false
    @usableFromInline let send: @MainActor (Action, Int) -> Void

    @usableFromInline
    package init(send: @escaping @MainActor (_ action: Action, _ sender: Int) -> Void) {
        self.send = send
    }

    /// Hands `action`, sent by effect `sender`, to the store.
    @inlinable
    package func deliver(_ action: Action, from sender: Int) {
        if MainQueue.isCurrent {
            lock.withLock { immediate.append((action, sender)) }
            MainActor.assumeIsolated { sendImmediate() }
            return
        }
        lock.lock()
        queued.append((action, sender))
        let schedule = !scheduled
        scheduled = true
        lock.unlock()
        if schedule {
            DispatchQueue.main.async { [self] in
                lock.withLock { scheduled = false }
                MainActor.assumeIsolated { sendQueued() }
            }
        }
    }

    /// Hands over the actions delivered on the main queue, first in first out.
    @usableFromInline
    @MainActor
    func sendImmediate() {
        while true {
            lock.lock()
            if immediate.isEmpty {
                lock.unlock()
                return
            }
            let (action, sender) = immediate.removeFirst()
            lock.unlock()
            send(action, sender)
        }
    }

    /// Hands over the actions delivered from other threads, first in first out.
    @usableFromInline
    @MainActor
    func sendQueued() {
        while true {
            lock.lock()
            if queued.isEmpty {
                lock.unlock()
                return
            }
            let (action, sender) = queued.removeFirst()
            lock.unlock()
            send(action, sender)
        }
    }
}
