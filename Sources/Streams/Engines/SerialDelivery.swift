import Synchronization

/// Serialized delivery: the queue and *drain token* with which everything that can be called
/// from several threads at once calls its subscriber one signal at a time, in order, without
/// holding a lock while it calls ([S3], [S8], [S11]). Subjects, the combining operators, `flatMap`,
/// `switchToLatest`, `buffer` and `receive(on:)` use it; the time operators have a small loop of
/// their own in `TimedSubscription`, so that each reads from its file and that one engine (the
/// guide `SerializedDelivery.md` tells the story; this is the reference).
///
/// ## State
///
/// A user keeps a ``SerialQueue`` (a ``FIFOQueue`` of pending items and the token flag) among
/// the state its own `lock` guards, and conforms to ``SerialDelivery``. The token is either
/// free or held by exactly one thread, the only one that calls out through ``deliver(_:)``:
///
///             take the token (it was free)          .stop: give it back, under the lock
///       free ─────────────────────────────▶ held ────────────────────────────────────▶ free
///                                            │ ▲
///                         .deliver(d): unlock │ │ deliver(d) returned demand: lock,
///                          and deliver(d)     ▼ │ ask nextStepLocked again
///                                          calling out
///                                            │
///       .leave (a step, or deliver's result) ▼
///       kept: the stream is over, or a scheduled pass carries on
///
/// Whoever has work under the lock and finds the token held only records it (appends to the
/// queue, adds demand, marks the stream ended) and returns: the holder's loop sees it at its
/// next ``nextStepLocked(returned:)``. Whoever finds it free takes it and runs the loop. A
/// request or a `send` made from inside ``deliver(_:)`` finds the token held, so it adds to the
/// running loop instead of recursing.
///
/// ## Locking
///
/// The engine has no lock of its own: ``SerialQueue`` is guarded by the user's `lock`, which is
/// never held while calling out. ``nextStepLocked(returned:)`` runs with the lock held and the
/// token taken: it decides what goes next (that is where users differ: whether a value needs
/// demand, whether a completion waits behind the values, what the stream lets go of) and takes
/// it out of its state. ``deliver(_:)`` runs with the lock released and the token held. One lock
/// round trip per delivered item, none per item for the loop itself; nothing is allocated per
/// item beyond what the queue's array grows to.
///
/// Payloads of ``DrainStep/stop(_:)`` and deliveries that ``deliver(_:)`` ignores are dropped
/// after unlocking: that is how a user lets go of what the stream ends with ([S7]) without
/// calling a `deinit` under its lock.
///
/// ## Performance
///
/// The hooks are protocol requirements met by the user's own class, and the loop is
/// `@inlinable`, so it is specialized for that class: the hooks are direct calls (declare them
/// and `serial` `final` in a class that has subclasses), and nothing is allocated or locked per
/// item beyond the one lock round trip above. Three things keep it cheap (measured in
/// `Docs/Performance.md`, "Serialized delivery", with the B1 and R1 benchmarks): the user's
/// state, `serial` above all, is `@exclusivity(unchecked)` (the lock makes every access
/// exclusive, and the protocol's `get set` accessor would otherwise be checked at run time on
/// every item); the loop consumes each ``DrainStep``, moving its delivery out; and a user's
/// `Delivery` stays small (a value and the downstream, a completion and the downstream): a
/// generic enum with large or nested payloads is destroyed through its type's metadata, about
/// 135 instructions per item. What a stream ends with is better taken under the lock in
/// ``deliver(_:)`` of the completion than carried in the delivery. A fast path (a value delivered straight away when the token is free and
/// nothing waits, as subjects and `merge` do) is ``SerialQueue/takeToken()``, the call, then
/// ``drainLocked()`` for whatever arrived meanwhile: the same two lock round trips a hand-written
/// loop needs.
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
/// [S11]: doc:/Contract/StreamContract#S11
@usableFromInline
struct SerialQueue<Item> {
    /// Items waiting for the token holder, oldest first.
    @usableFromInline var pending = FIFOQueue<Item>()
    /// The drain token: `true` while a thread is (or a scheduled pass will be) delivering.
    @usableFromInline var isDraining = false

    @inlinable
    init() {}

    /// Takes the token if it is free; `false` if someone holds it. Call with the lock held.
    @inlinable
    mutating func takeToken() -> Bool {
        if isDraining { return false }
        isDraining = true
        return true
    }
}

/// A drain token in an atomic word, for the users whose holder gives it back without their lock
/// when nobody left work for it: subjects, `merge`/`zip`/`combineLatest` and `flatMap`, which
/// implement the token hooks (``SerialDelivery/takeTokenLocked()``,
/// ``SerialDelivery/giveBackTokenLocked()``) with it instead of ``SerialQueue/isDraining``.
///
/// The word holds three flags:
/// - ``held``: a thread is delivering. Taken with the owner's lock held (``takeLocked()``), or,
///   by a PassthroughSubject's `send`, without it, only from exactly ``free``
///   (``takeIfClear()``).
/// - ``workLeft``: a thread found the token held and left work for the holder under the lock (a
///   value queued, the completion decided, a cancel); set in the same compare-and-swap.
/// - ``closed``: a flag for the owner (a subject: `send(completion:)` was called), kept across
///   takes and give-backs, so that the lock-free take sees it.
///
/// The holder, after a call out, gives the token back with one compare-and-swap
/// ``held`` → ``free`` (``giveBackIfIdle()``); when that fails, work was left, and it takes the
/// lock (``reclaimLocked()``) and runs the drain loop, which gives the token back under the lock
/// once the queue is empty (``giveBackLocked()``).
@usableFromInline
struct DrainToken: ~Copyable {
    @inlinable static var free: UInt8 { 0 }
    @inlinable static var held: UInt8 { 1 }
    @inlinable static var workLeft: UInt8 { 2 }
    @inlinable static var closed: UInt8 { 4 }

    @usableFromInline let state: Atomic<UInt8>

    /// A free token, or one `held` by the creating thread (which then gives the subscription to
    /// the downstream before anything is delivered, [S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    @inlinable
    init(held: Bool) { state = Atomic(held ? DrainToken.held : DrainToken.free) }

    /// With the lock held: takes the token if it is free (`true`); if it is held, marks work
    /// left for the holder (`false`).
    @inlinable
    func takeLocked() -> Bool {
        // The holder may give it back meanwhile, without the lock: compare and swap.
        var current = state.load(ordering: .acquiring)
        while true {
            let free = current & DrainToken.held == 0
            let desired = current | (free ? DrainToken.held : DrainToken.workLeft)
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: desired,
                successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
            if exchanged { return free }
            current = original
        }
    }

    /// ``takeLocked()`` for an owner that never takes the token without its lock: a free token
    /// has no holder to give it back meanwhile and no lock-free taker, so nobody else can write
    /// the word, and a plain store takes it (one atomic read-modify-write fewer).
    @inlinable
    func takeLockedWithoutRivals() -> Bool {
        let current = state.load(ordering: .acquiring)
        if current & DrainToken.held == 0 {
            state.store(current | DrainToken.held, ordering: .relaxed)
            return true
        }
        return takeLocked()
    }

    /// Without the lock: takes the token if the word is exactly ``free`` (nobody delivering, no
    /// work left, not closed).
    @inlinable
    func takeIfClear() -> Bool {
        state.compareExchange(expected: DrainToken.free, desired: DrainToken.held, ordering: .acquiring).exchanged
    }

    /// With the lock held and nothing left to do: gives the token back (``closed`` stays).
    /// Nobody else writes the word meanwhile: a lock-free take needs it ``free``, and every
    /// other writer holds the lock.
    @inlinable
    func giveBackLocked() {
        state.store(state.load(ordering: .relaxed) & DrainToken.closed, ordering: .releasing)
    }

    /// The holder, without the lock: gives the token back unless work was left for it or the
    /// owner closed meanwhile (`false`).
    @inlinable
    func giveBackIfIdle() -> Bool {
        state.compareExchange(expected: DrainToken.held, desired: DrainToken.free, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// The holder, without the lock: whether nobody has left work for it since it took the
    /// token (or last reclaimed it).
    @inlinable
    var isIdle: Bool { state.load(ordering: .acquiring) == DrainToken.held }

    /// The holder, with the lock taken after ``giveBackIfIdle()`` failed: clears the mark (the
    /// drain loop that follows sees all the work, under this lock).
    @inlinable
    func reclaimLocked() {
        state.store(state.load(ordering: .relaxed) & DrainToken.closed | DrainToken.held, ordering: .relaxed)
    }

    /// With the lock held: sets ``closed``.
    @inlinable
    func closeLocked() {
        state.bitwiseOr(DrainToken.closed, ordering: .relaxed)
    }
}

/// What ``SerialDelivery/deliver(_:)`` tells the drain loop.
@usableFromInline
enum DeliveryResult {
    /// Carry on: the subscriber returned this demand (passed to the next
    /// ``SerialDelivery/nextStepLocked(returned:)``).
    case returned(Subscribers.Demand)
    /// Return at once, keeping the token: the completion went out (nothing may follow it), or
    /// another pass took over.
    case leave
}

/// What the token holder does next, as ``SerialDelivery/nextStepLocked(returned:)`` decides:
/// ``deliver(_:)``, ``stop(_:)`` or ``leave``.
///
/// The drain loop switches on a step by consuming it (`switch consume step`), so a delivery is
/// moved out of it, not copied and then destroyed with the step: for a generic enum the compiler
/// does that through the type's metadata (Docs/Performance.md, "Serialized delivery").
@usableFromInline
enum DrainStep<Delivery> {
    /// Unlock, hand this to ``SerialDelivery/deliver(_:)``, lock again and ask for the next step.
    case deliver(Delivery)
    /// Nothing more can go now: give the token back, unlock, and return this (if any) to the
    /// caller of ``SerialDelivery/drainLocked()``, which acts on it or drops it after unlocking.
    case stop(Delivery?)
    /// Unlock and return, keeping the token: someone else carries on (a pass that is still to
    /// run, or one this thread is nested in).
    case leave
}

/// An object that serializes calls to its subscriber with a ``SerialQueue`` guarded by `lock`.
@usableFromInline
protocol SerialDelivery: AnyObject {
    /// What waits in the queue.
    associatedtype Item
    /// What the token holder hands out with the lock released: usually an item, or a
    /// completion with what the stream lets go of.
    associatedtype Delivery

    /// The lock that guards ``serial`` and the user's state.
    var lock: Lock { get }
    /// The queue and the token; guarded by ``lock``.
    var serial: SerialQueue<Item> { get set }

    /// With the lock held and the token taken: what goes next. `returned` is the demand the
    /// previous ``deliver(_:)`` of this loop returned (`.none` on the first step).
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Delivery>

    /// With the lock released and the token held: calls out, and says whether the loop goes on.
    func deliver(_ delivery: Delivery) -> DeliveryResult

    /// With the lock held: takes the token if it is free (`true`). By default
    /// ``SerialQueue/takeToken()``. A user whose token can also be taken without the lock
    /// (a subject's `send`) keeps it elsewhere and implements both token hooks.
    func takeTokenLocked() -> Bool

    /// With the lock held and nothing left to do: gives the token back. By default clears
    /// ``SerialQueue/isDraining``.
    func giveBackTokenLocked()
}

extension SerialDelivery {
    @inlinable
    func takeTokenLocked() -> Bool { serial.takeToken() }

    @inlinable
    func giveBackTokenLocked() { serial.isDraining = false }
}

extension SerialDelivery {
    /// The drain loop. Call with the lock held and the token taken; returns with the lock
    /// released, and the token given back unless a step said otherwise. Returns the payload of
    /// the ``DrainStep/stop(_:)`` that ended it.
    @inlinable
    @discardableResult
    func drainLocked() -> Delivery? {
        var returned = Subscribers.Demand.none
        while true {
            let step = nextStepLocked(returned: returned)
            switch consume step {
            case .deliver(let delivery):
                lock.unlock()
                switch deliver(delivery) {
                case .returned(let more): returned = more
                case .leave: return nil
                }
                lock.lock()
            case .stop(let last):
                giveBackTokenLocked()
                lock.unlock()
                return last
            case .leave:
                lock.unlock()
                return nil
            }
        }
    }

    /// Runs the drain loop if the token is free, else just unlocks (the holder will see what
    /// was recorded). Call with the lock held; returns with it released.
    @inlinable
    @discardableResult
    func unlockOrDrainLocked() -> Delivery? {
        guard takeTokenLocked() else {
            lock.unlock()
            return nil
        }
        return drainLocked()
    }

    /// Queues `item` and delivers it (with whatever is due before it) unless someone else is
    /// delivering. Call with the lock held; returns with it released.
    @inlinable
    @discardableResult
    func submitLocked(_ item: Item) -> Delivery? {
        serial.pending.append(item)
        return unlockOrDrainLocked()
    }
}
