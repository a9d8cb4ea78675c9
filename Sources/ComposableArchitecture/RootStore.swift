import Dispatch
import Streams

/// The engine of a root store: the one send loop, which implements rules [A1]–[A4] of the
/// [store contract](doc:/Contract/StoreContract) (iterative, drained before `send` returns, breadth-first with one
/// publication per round, effect bookkeeping that never leaks).
///
/// Inlinable, so that a store's `send` is compiled for the app's concrete state and action
/// types: a send whose reducer returns `.none` allocates nothing and costs little more than the
/// reducer. ``Store`` and `TestStore` both run their reducer here; a test store watches the loop
/// through ``instrumentation``.
///
/// [A1]: doc:/Contract/StoreContract#A1
/// [A4]: doc:/Contract/StoreContract#A4
@MainActor
@usableFromInline
package final class RootStore<State, Action> {
    /// An action waiting to run.
    @usableFromInline
    struct Queued {
        @usableFromInline var action: Action
        /// The handle a re-entrant `send` returned; `nil` for actions from effects.
        @usableFromInline var record: TaskRecord?
        /// The id of the effect that sent the action; 0 when it was sent to the store.
        @usableFromInline var sender: Int

        @inlinable
        init(action: Action, record: TaskRecord?, sender: Int) {
            self.action = action
            self.record = record
            self.sender = sender
        }
    }

    /// What a test store learns from the loop.
    @usableFromInline
    package struct Instrumentation {
        /// Before the reducer runs `action`, sent by effect `sender` (0: sent to the store).
        package var willRun: @MainActor (_ action: Action, _ sender: Int) -> Void
        /// After the reducer ran `action` and its effect was started: the state before and
        /// after, the effect's id (when it returned one) and whether it is still running.
        package var didRun:
            @MainActor (
                _ action: Action, _ sender: Int, _ before: State, _ after: State,
                _ effect: (id: Int, isRunning: Bool)?
            ) -> Void

        /// What a test store learns from the loop.
        package init(
            willRun: @escaping @MainActor (_ action: Action, _ sender: Int) -> Void,
            didRun:
                @escaping @MainActor (
                    _ action: Action, _ sender: Int, _ before: State, _ after: State,
                    _ effect: (id: Int, isRunning: Bool)?
                ) -> Void
        ) {
            self.willRun = willRun
            self.didRun = didRun
        }
    }

    // Main-actor state touched only by `send`, which never overlaps itself (re-entrant sends
    // return after queueing): no dynamic exclusivity checks on the per-action path.
    /// The state the reducer changes.
    @exclusivity(unchecked) @usableFromInline package var state: State
    /// While the store's `objectWillChange` is observed: the state as last published, which is
    /// what the store shows (so `objectWillChange` fires before the change is visible).
    @exclusivity(unchecked) @usableFromInline var snapshot: State?
    @usableFromInline let reduce: (inout State, Action) -> Effect<Action>
    @usableFromInline package let context = EffectContext()
    @usableFromInline package let effects = RunningEffects()
    /// Actions sent while the loop runs, first in first out.
    @exclusivity(unchecked) @usableFromInline var queue: [Queued] = []
    @exclusivity(unchecked) @usableFromInline package var isSending = false
    /// Whether anything observes the store tree. Until then a send publishes nothing.
    @exclusivity(unchecked) @usableFromInline var isObserved = false
    /// The root store, which publishes the state once something observes it.
    @exclusivity(unchecked) @usableFromInline weak var owner: Store<State, Action>?
    /// Set by a test store.
    @exclusivity(unchecked) @usableFromInline package var instrumentation: Instrumentation?
    @usableFromInline lazy var inbox = ActionInbox<Action> { [weak self] action, sender in
        self?.receive(action, from: sender)
    }

    @usableFromInline
    package init(initialState: State, reduce: @escaping (inout State, Action) -> Effect<Action>) {
        state = initialState
        self.reduce = reduce
    }

    /// The state the store shows.
    @inlinable
    var visibleState: State {
        snapshot ?? state
    }

    /// Sends `action` ([A1]–[A3]): runs it, the actions its effects send synchronously and the ones
    /// sent while the state is published, then returns. A send from inside the loop is queued.
    ///
    /// [A1]: doc:/Contract/StoreContract#A1
    /// [A3]: doc:/Contract/StoreContract#A3
    @inlinable
    package func send(_ action: Action) -> StoreTask {
        if isSending {
            // Run by the loop below, which is already running (A1).
            let record = TaskRecord(ids: [], effects: effects)
            queue.append(Queued(action: action, record: record, sender: 0))
            return StoreTask(record: record)
        }
        return run(action, sender: 0)
    }

    /// An action from effect `sender` (on the main queue).
    @inlinable
    func receive(_ action: Action, from sender: Int) {
        if isSending {
            queue.append(Queued(action: action, record: nil, sender: sender))
        } else {
            _ = run(action, sender: sender)
        }
    }

    /// The loop. Its first step is here, small enough to be inlined into `send`: most sends run
    /// one action whose reducer returns `.none`, with nothing queued and nobody observing, and
    /// return from here; the rest of the loop is ``runQueued(outermostID:)``.
    @inlinable
    func run(_ action: Action, sender: Int) -> StoreTask {
        isSending = true
        // The first action runs without being queued: most sends queue nothing.
        var outermostID: Int?
        if let instrumentation {
            outermostID = runInstrumented(action, sender: sender, instrumentation)
        } else {
            let effect = reduce(&state, action)
            if effect.isNone {
                if queue.isEmpty && !isObserved {
                    isSending = false
                    return StoreTask(record: nil)
                }
            } else if let started = start(effect), started.isRunning {
                outermostID = started.id
            }
        }
        return runQueued(outermostID: outermostID)
    }

    /// The rest of the loop: runs the queued actions and publishes the state, in rounds, until
    /// nothing is queued.
    @inlinable
    func runQueued(outermostID: Int?) -> StoreTask {
        var next = 0
        repeat {
            while next < queue.count {
                let item = queue[next]
                next += 1
                let runningID: Int?
                if let instrumentation {
                    runningID = runInstrumented(item.action, sender: item.sender, instrumentation)
                } else {
                    let effect = reduce(&state, item.action)
                    if !effect.isNone, let started = start(effect), started.isRunning {
                        runningID = started.id
                    } else {
                        runningID = nil
                    }
                }
                if let runningID { item.record?.ids.append(runningID) }
            }
            // Observers may send while the state is published: those actions run before this
            // send returns (A2), and the state is published again after them.
            if isObserved { owner?.publishRoot() }
        } while next < queue.count
        if next > 0 { queue.removeAll(keepingCapacity: true) }
        isSending = false
        guard let outermostID else { return StoreTask(record: nil) }
        return StoreTask(record: TaskRecord(ids: [outermostID], effects: effects))
    }

    /// Runs one action for a test store; returns its effect's id while it runs.
    @usableFromInline
    func runInstrumented(_ action: Action, sender: Int, _ instrumentation: Instrumentation) -> Int? {
        let before = state
        instrumentation.willRun(action, sender)
        let effect = reduce(&state, action)
        let started = effect.isNone ? nil : start(effect)
        instrumentation.didRun(action, sender, before, state, started)
        guard let started, started.isRunning else { return nil }
        return started.id
    }

    /// Starts an effect; returns its id and whether it is still running.
    ///
    /// An effect made by `Effect(value:)` is not subscribed to: its action is queued at once.
    /// Any other effect gets a subscriber, which is stored only if the effect has not finished
    /// once subscribed to ([A4]).
    ///
    /// [A4]: doc:/Contract/StoreContract#A4
    @inlinable
    func start(_ effect: Effect<Action>) -> (id: Int, isRunning: Bool)? {
        let id = effects.nextID()
        if case .value(let box) = effect.operation {
            queue.append(Queued(action: box.value, record: nil, sender: id))
            return (id, false)
        }
        guard let publisher = effect.publisher(in: context) else { return nil }
        let subscriber = StoreEffectSubscriber(id: id, inbox: inbox, effects: effects)
        publisher.receive(subscriber: subscriber)
        if subscriber.hasFinishedOnMainQueue { return (id, false) }
        effects.insert(AnyCancellable(subscriber), id: id)
        return (id, true)
    }
}
