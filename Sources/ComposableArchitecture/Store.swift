import Dispatch
import Synchronization

/// Runs a feature: owns its state, runs its reducer for every action, starts the effects the
/// reducer returns and feeds their actions back in.
///
/// A store lives on the main actor, and so does its state: the state is only ever changed there
/// (A9), by the reducer. An effect may send actions from any thread; an action sent from
/// another thread is handed to the main queue and runs there, after what is running now.
///
/// ```swift
/// let store = Store(initialState: AppState(), reducer: appReducer, environment: .live)
/// store.send(.counter(.increment))
/// store.state.counter.count   // 1
/// let c = store.publisher.counter.count.sink { print("count:", $0) }
/// ```
///
/// What ``send(_:)`` guarantees (CONTRACT.md, part 2):
/// - It is iterative (A1): an action sent while a send is running — by an effect, an observer of
///   the state, a deinit — is queued and run, first in first out, by the running loop; a million
///   actions chained through synchronous effects run without the stack growing.
/// - The queue is empty before the outermost `send` returns (A2), including actions sent while
///   the state is being published.
/// - Actions that effects send synchronously run within the same outermost send, breadth-first;
///   observers then see the state once, the final one (A3).
/// - Effects are tracked in a set of cancellables (A4): one that completes while it is being
///   subscribed to is never stored; one that finishes or is cancelled is removed at once; ``Effect/none``
///   allocates nothing; effects hold the store weakly, and when the store goes away its running
///   effects are cancelled.
public final class Store<State, Action> {
    private let core: StoreCore<State, Action>

    /// A store running `reducer` with `environment`, starting from `initialState`.
    @MainActor
    public convenience init<Environment>(
        initialState: State,
        reducer: Reducer<State, Action, Environment>,
        environment: Environment
    ) {
        self.init(core: RootStoreCore(initialState: initialState) { state, action in
            reducer.run(&state, action, environment)
        })
    }

    private init(core: StoreCore<State, Action>) {
        self.core = core
    }

    /// The current state. Read-only: only actions change it.
    @MainActor
    public var state: State { core.state }

    /// Sends `action` to the reducer, runs it and everything it causes synchronously, and
    /// returns a handle on the effects it started (``StoreTask``).
    @MainActor
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        core.send(action)
    }

    /// The state over time: the current state when subscribed, then the state after each
    /// outermost send. `store.publisher.counter.count` is a publisher of a part of the state that
    /// sends only when that part changes.
    @MainActor
    public var publisher: StorePublisher<State> {
        StorePublisher(core.subject.eraseToAnyPublisher())
    }

    /// A store of part of this store's state and a subset of its actions, for a child feature's
    /// view (A10).
    ///
    /// The child's state is `toLocalState` applied to this store's state, computed once each
    /// time this store publishes its state; the child's actions are sent to this store as
    /// `fromLocalAction(action)` and run by the root store. The child keeps its parent alive
    /// (it sends to it); the parent does not keep the child.
    ///
    /// ```swift
    /// let counterStore = appStore.scope(state: \.counter, action: AppAction.counter)
    /// ```
    @MainActor
    public func scope<LocalState, LocalAction>(
        state toLocalState: @escaping (State) -> LocalState,
        action fromLocalAction: @escaping (LocalAction) -> Action
    ) -> Store<LocalState, LocalAction> {
        Store<LocalState, LocalAction>(core: ScopedStoreCore(parent: core, toLocalState: toLocalState,
                                                             fromLocalAction: fromLocalAction))
    }

    /// A store of part of this store's state and all of its actions.
    @MainActor
    public func scope<LocalState>(state toLocalState: @escaping (State) -> LocalState) -> Store<LocalState, Action> {
        scope(state: toLocalState, action: { $0 })
    }

    /// The number of effects this store (its root) is running, for tests and debugging.
    @MainActor
    public var runningEffectCount: Int {
        core.effects.count
    }
}

/// A handle on the effects one ``Store/send(_:)`` started: cancel them, or wait until they have
/// all finished.
///
/// ```swift
/// let task = store.send(.refresh)
/// await task.finish()       // the refresh effects are done
/// ```
@MainActor
public struct StoreTask: Sendable {
    /// Filled in by the send loop: an action sent while another runs starts its effects later.
    let started: EffectIDs
    weak var effects: EffectBook?

    var ids: [Int] { started.ids }

    /// Cancels the effects the action started (the ones still running).
    public func cancel() {
        effects?.cancel(ids)
    }

    /// Waits until every effect the action started has finished or been cancelled. Cancelling
    /// the waiting task cancels those effects.
    public func finish() async {
        guard let effects else { return }
        await withTaskCancellationHandler {
            await effects.waitUntilFinished(ids)
        } onCancel: {
            Task { @MainActor in effects.cancel(ids) }
        }
    }

    /// Whether every effect the action started has finished or been cancelled.
    public var isFinished: Bool {
        guard let effects else { return true }
        return ids.allSatisfy { !effects.isRunning($0) }
    }
}

// MARK: - Cores

/// What a store is: the root, which runs the reducer, or a scope of another store.
@MainActor
class StoreCore<State, Action> {
    let subject: CurrentValueSubject<State, Never>
    var state: State { subject.value }
    var effects: EffectBook { fatalError("abstract") }

    init(initialState: State) {
        subject = CurrentValueSubject(initialState)
    }

    func send(_ action: Action) -> StoreTask { fatalError("abstract") }
}

@MainActor
final class RootStoreCore<State, Action>: StoreCore<State, Action> {
    private var currentState: State
    private let reduce: (inout State, Action) -> Effect<Action>
    private let context = EffectContext()
    private let book = EffectBook()
    /// Actions waiting to run, first in first out, with the list of effect ids each started.
    private var queue: [(Action, EffectIDs)] = []
    private var head = 0
    private var isSending = false
    private lazy var inbox = ActionInbox<Action> { [weak self] action in _ = self?.send(action) }

    override var effects: EffectBook { book }

    init(initialState: State, reduce: @escaping (inout State, Action) -> Effect<Action>) {
        currentState = initialState
        self.reduce = reduce
        super.init(initialState: initialState)
    }

    override func send(_ action: Action) -> StoreTask {
        let started = EffectIDs()
        queue.append((action, started))
        if isSending {
            // Run by the loop below, which is already running (A1).
            return StoreTask(started: started, effects: book)
        }
        isSending = true
        defer { isSending = false }
        repeat {
            while head < queue.count {
                let (action, startedBy) = queue[head]
                head += 1
                let effect = reduce(&currentState, action)
                start(effect, recordingIn: startedBy)
            }
            queue.removeAll(keepingCapacity: true)
            head = 0
            // Observers may send while the state is published: those actions run before this
            // send returns (A2), and the state is published again after them.
            subject.send(currentState)
        } while head < queue.count
        return StoreTask(started: started, effects: book)
    }

    private func start(_ effect: Effect<Action>, recordingIn started: EffectIDs) {
        guard let publisher = effect.publisher(in: context) else { return }  // .none: nothing at all
        let id = book.nextID()
        let finished = Atomic<Bool>(false)
        let book = self.book
        let inbox = self.inbox
        // `@Sendable` keeps these closures off the main actor: an effect may call them from any
        // thread, and they hop to the main queue themselves.
        let cancellable = publisher.sink(
            receiveCompletion: { @Sendable [weak book] _ in
                finished.store(true, ordering: .releasing)
                onMainQueue { book?.finished(id) }
            },
            receiveValue: { @Sendable [inbox] action in
                inbox.deliver(action)
            })
        // An effect that completed while being subscribed to is never stored (A4).
        if !finished.load(ordering: .acquiring) {
            book.insert(cancellable, id: id)
            started.ids.append(id)
        }
    }
}

@MainActor
final class ScopedStoreCore<State, Action, ParentState, ParentAction>: StoreCore<State, Action> {
    private let parent: StoreCore<ParentState, ParentAction>
    private let fromLocalAction: (Action) -> ParentAction
    private var observation: AnyCancellable?

    override var effects: EffectBook { parent.effects }

    init(parent: StoreCore<ParentState, ParentAction>,
         toLocalState: @escaping (ParentState) -> State,
         fromLocalAction: @escaping (Action) -> ParentAction) {
        self.parent = parent
        self.fromLocalAction = fromLocalAction
        super.init(initialState: toLocalState(parent.state))
        // The parent's subject holds this observation, which holds the child weakly: no cycle.
        observation = parent.subject.dropFirst().sink { [weak self] parentState in
            self?.subject.send(toLocalState(parentState))
        }
    }

    override func send(_ action: Action) -> StoreTask {
        parent.send(fromLocalAction(action))
    }
}

/// Runs `body` on the main actor: now when already on the main queue, else as soon as the main
/// queue gets to it (A9).
func onMainQueue(_ body: @escaping @MainActor () -> Void) {
    if MainQueue.isCurrent {
        MainActor.assumeIsolated(body)
    } else {
        DispatchQueue.main.async { MainActor.assumeIsolated(body) }
    }
}

/// Where effects deliver actions, from any thread (A9).
///
/// On the main queue an action is sent at once, so actions that effects send synchronously run
/// within the send that started them (A1–A3). From another thread it is queued here and one
/// main-queue block sends everything queued, in order. Actions need not be `Sendable`: an effect
/// hands each one over, and only the main actor uses it afterwards.
final class ActionInbox<Action>: @unchecked Sendable {  // all fields guarded by `lock`
    private let lock = Lock()
    /// Delivered on the main queue, sent at once by the delivering call.
    private var immediate: [Action] = []
    /// Delivered from other threads, sent by one scheduled main-queue block.
    private var queued: [Action] = []
    private var scheduled = false
    private let send: @MainActor (Action) -> Void

    init(send: @escaping @MainActor (Action) -> Void) {
        self.send = send
    }

    func deliver(_ action: Action) {
        if MainQueue.isCurrent {
            lock.withLock { immediate.append(action) }
            MainActor.assumeIsolated { sendAll(from: \.immediate) }
            return
        }
        lock.lock()
        queued.append(action)
        let schedule = !scheduled
        scheduled = true
        lock.unlock()
        if schedule {
            DispatchQueue.main.async { [self] in
                lock.withLock { scheduled = false }
                MainActor.assumeIsolated { sendAll(from: \.queued) }
            }
        }
    }

    /// Sends the actions in `list`, first in first out, until it is empty.
    @MainActor
    private func sendAll(from list: ReferenceWritableKeyPath<ActionInbox, [Action]>) {
        while let action = lock.withLock({ self[keyPath: list].isEmpty ? nil : self[keyPath: list].removeFirst() }) {
            send(action)
        }
    }
}

/// The effect ids one action started; filled in while the send loop runs.
@MainActor
final class EffectIDs {
    var ids: [Int] = []
}

/// The running effects of a store tree, each with an id, and the tasks waiting for them.
@MainActor
final class EffectBook {
    private var running: [Int: AnyCancellable] = [:]
    private var waiters: [Int: [CheckedContinuation<Void, Never>]] = [:]
    private var lastID = 0

    var count: Int { running.count }

    func nextID() -> Int {
        lastID += 1
        return lastID
    }

    func insert(_ cancellable: AnyCancellable, id: Int) {
        running[id] = cancellable
    }

    func isRunning(_ id: Int) -> Bool {
        running[id] != nil
    }

    /// An effect finished (or was cancelled): forget it at once (A4) and wake its waiters.
    func finished(_ id: Int) {
        running[id] = nil
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume() }
    }

    func cancel(_ ids: [Int]) {
        for id in ids {
            running.removeValue(forKey: id)?.cancel()
            for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume() }
        }
    }

    func waitUntilFinished(_ ids: [Int]) async {
        for id in ids where running[id] != nil {
            await withCheckedContinuation { waiters[id, default: []].append($0) }
        }
    }
}
