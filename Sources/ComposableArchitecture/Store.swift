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
/// let c = store.publisher(for: \.counter.count).sink { print("count:", $0) }
/// ```
///
/// What ``send(_:)`` guarantees (Docs/Contract.md, part 2):
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
    /// The engine, for a root store; `nil` for a scope.
    @usableFromInline let root: RootStore<State, Action>?
    /// Where a scope's actions go (its parent's `send`); `nil` for a root store.
    @usableFromInline let sendToParent: ((Action) -> StoreTask)?
    /// A scope's state, recomputed from its parent's each time the parent publishes; `nil` for
    /// a root store, which publishes through its engine.
    @usableFromInline let scopeSubject: CurrentValueSubject<State, Never>?
    /// The running effects of the store tree.
    @usableFromInline let effects: EffectBook
    /// A scope's observation of its parent's state.
    @usableFromInline var observation: AnyCancellable?

    /// A store running `reducer` with `environment`, starting from `initialState`.
    @MainActor
    @inlinable
    public convenience init<Environment>(
        initialState: State,
        reducer: Reducer<State, Action, Environment>,
        environment: Environment
    ) {
        self.init(root: RootStore(initialState: initialState) { state, action in
            reducer.run(&state, action, environment)
        })
    }

    @usableFromInline
    @MainActor
    init(root: RootStore<State, Action>) {
        self.root = root
        sendToParent = nil
        scopeSubject = nil
        effects = root.effects
    }

    @usableFromInline
    init(initialState: State, effects: EffectBook, sendToParent: @escaping (Action) -> StoreTask) {
        root = nil
        self.sendToParent = sendToParent
        scopeSubject = CurrentValueSubject(initialState)
        self.effects = effects
    }

    /// The current state. Read-only: only actions change it.
    @MainActor
    @inlinable
    public var state: State {
        if let root { return root.state }
        return scopeSubject!.value
    }

    /// The subject that publishes this store's state (a root store's starts publishing now).
    @inlinable
    @MainActor
    var subject: CurrentValueSubject<State, Never> {
        root?.observedSubject ?? scopeSubject!
    }

    /// Sends `action` to the reducer, runs it and everything it causes synchronously, and
    /// returns a handle on the effects it started (``StoreTask``).
    @MainActor
    @inlinable
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        if let root { return root.send(action) }
        return sendToParent!(action)
    }

    /// The state over time: the current state when subscribed, then the state after each
    /// outermost send. `store.publisher.user.name` is a publisher of a part of the state that
    /// sends only when that part changes.
    @MainActor
    public var publisher: StorePublisher<State> {
        StorePublisher(subject.eraseToAnyPublisher())
    }

    /// A publisher of the part of the state at `keyPath`: its current value when subscribed, then
    /// each change (duplicates removed). The same as `store.publisher.count`, for a property whose
    /// name is also an operator's (`count`, `first`, `min`, ...), which the dynamic member cannot
    /// reach.
    ///
    /// ```swift
    /// let c = store.publisher(for: \.count).sink { print("count:", $0) }
    /// ```
    @MainActor
    public func publisher<Value: Equatable>(for keyPath: KeyPath<State, Value>) -> StorePublisher<Value> {
        publisher[dynamicMember: keyPath]
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
    ///
    /// When the child's state can go away (optional state, an element of a collection), the
    /// scope's state becomes `nil` and the scope keeps sending actions to this store; the
    /// reducer that owns that state reports them: ``Reducer/optional(fileID:line:)`` and
    /// ``Reducer/forEach(state:action:environment:fileID:line:)`` say which action arrived for
    /// state that is gone, and change nothing. For a store of the value itself, which drops such
    /// actions at once and reports them, use ``ifLet(then:else:fileID:line:)``.
    @MainActor
    @inlinable
    public func scope<LocalState, LocalAction>(
        state toLocalState: @escaping (State) -> LocalState,
        action fromLocalAction: @escaping (LocalAction) -> Action
    ) -> Store<LocalState, LocalAction> {
        // Built here, where the types are known, so the parent's send is specialized.
        let child = Store<LocalState, LocalAction>(
            initialState: toLocalState(state), effects: effects,
            sendToParent: { [self] localAction in send(fromLocalAction(localAction)) })
        child.observe(subject, toLocalState)
        return child
    }

    /// Keeps this scope's state up to date with its parent's. The parent's subject holds the
    /// observation, which holds this store weakly: no cycle.
    @inlinable
    @MainActor
    func observe<ParentState>(_ parent: CurrentValueSubject<ParentState, Never>,
                              _ toLocalState: @escaping (ParentState) -> State) {
        observation = parent.dropFirst().sink { [weak self] parentState in
            self?.scopeSubject?.send(toLocalState(parentState))
        }
    }

    /// A store of part of this store's state and all of its actions.
    @MainActor
    @inlinable
    public func scope<LocalState>(state toLocalState: @escaping (State) -> LocalState) -> Store<LocalState, Action> {
        scope(state: toLocalState, action: { $0 })
    }

    /// The number of effects this store (its root) is running, for tests and debugging.
    @MainActor
    public var runningEffectCount: Int {
        effects.count
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
    /// `nil` when the action started no effect (the common case: nothing is allocated).
    @usableFromInline let record: TaskRecord?

    @usableFromInline
    nonisolated init(record: TaskRecord?) {
        self.record = record
    }

    /// Cancels the effects the action started (the ones still running).
    public func cancel() {
        guard let record, let effects = record.effects else { return }
        effects.cancel(record.ids)
    }

    /// Waits until every effect the action started has finished or been cancelled. Cancelling
    /// the waiting task cancels those effects.
    public func finish() async {
        guard let record, let effects = record.effects else { return }
        let ids = record.ids
        await withTaskCancellationHandler {
            await effects.waitUntilFinished(ids)
        } onCancel: {
            Task { @MainActor in effects.cancel(ids) }
        }
    }

    /// Whether every effect the action started has finished or been cancelled.
    public var isFinished: Bool {
        guard let record, let effects = record.effects else { return true }
        return record.ids.allSatisfy { !effects.isRunning($0) }
    }
}

/// The effects one action started. An action sent while another runs gets its record at once
/// and the ids when the loop gets to it.
@MainActor
@usableFromInline
final class TaskRecord {
    @usableFromInline var ids: [Int]
    @usableFromInline weak var effects: EffectBook?

    @usableFromInline
    init(ids: [Int], effects: EffectBook) {
        self.ids = ids
        self.effects = effects
    }
}

// MARK: - The root store's engine

/// Runs the reducer: the iterative send loop (A1–A3) and the effects (A4).
///
/// Inlinable, so that a store's `send` is compiled for the app's concrete state and action
/// types: a send whose reducer returns `.none` allocates nothing and costs little more than the
/// reducer.
@MainActor
@usableFromInline
final class RootStore<State, Action> {
    // Main-actor state touched only by `send`, which never overlaps itself (reentrant sends
    // return after queueing): no dynamic exclusivity checks on the per-action path.
    @exclusivity(unchecked) @usableFromInline var currentState: State
    @usableFromInline let reduce: (inout State, Action) -> Effect<Action>
    @usableFromInline let subject: CurrentValueSubject<State, Never>
    @usableFromInline let context = EffectContext()
    @usableFromInline let effects = EffectBook()
    /// Actions waiting to run, first in first out; a queued (reentrant) send's record.
    @exclusivity(unchecked) @usableFromInline var queue: [(action: Action, record: TaskRecord?)] = []
    @exclusivity(unchecked) @usableFromInline var isSending = false
    /// Whether anything observes the state (the store's publisher was asked for, or a scope
    /// made). Until then sends do not publish, which keeps a send close to the reducer's cost.
    @exclusivity(unchecked) @usableFromInline var isObserved = false
    @usableFromInline lazy var inbox = ActionInbox<Action> { [weak self] action in _ = self?.send(action) }

    @usableFromInline
    init(initialState: State, reduce: @escaping (inout State, Action) -> Effect<Action>) {
        currentState = initialState
        self.reduce = reduce
        subject = CurrentValueSubject(initialState)
    }

    @inlinable
    var state: State { currentState }

    /// The subject of the state, brought up to date: from now on every send publishes.
    @inlinable
    var observedSubject: CurrentValueSubject<State, Never> {
        if !isObserved {
            isObserved = true
            subject.send(currentState)
        }
        return subject
    }

    @inlinable
    func send(_ action: Action) -> StoreTask {
        if isSending {
            // Run by the loop below, which is already running (A1).
            let record = TaskRecord(ids: [], effects: effects)
            queue.append((action, record))
            return StoreTask(record: record)
        }
        isSending = true
        defer { isSending = false }
        var outermostIDs: [Int] = []
        var next = 0
        queue.append((action, nil))
        repeat {
            while next < queue.count {
                let (action, record) = queue[next]
                let effect = reduce(&currentState, action)
                if !effect.isNone, let id = start(effect) {
                    if next == 0 { outermostIDs.append(id) } else { record?.ids.append(id) }
                }
                next += 1
            }
            // Observers may send while the state is published: those actions run before this
            // send returns (A2), and the state is published again after them.
            if isObserved { subject.send(currentState) }
        } while next < queue.count
        queue.removeAll(keepingCapacity: true)
        return StoreTask(record: outermostIDs.isEmpty ? nil : TaskRecord(ids: outermostIDs, effects: effects))
    }

    /// Subscribes to an effect; returns its id while it runs, `nil` if it already finished.
    @inlinable
    func start(_ effect: Effect<Action>) -> Int? {
        guard let publisher = effect.publisher(in: context) else { return nil }
        let id = effects.nextID()
        let finished = Atomic<Bool>(false)
        let effects = self.effects
        let inbox = self.inbox
        // `@Sendable` keeps these closures off the main actor: an effect may call them from any
        // thread, and they hop to the main queue themselves.
        let cancellable = publisher.sink(
            receiveCompletion: { @Sendable [weak effects] _ in
                // Only a completion on the main queue can come while `start` subscribes (the
                // store runs there). One from another thread is recorded first and removed by
                // the hop below, after the actions it sent before (same queue, FIFO), so a
                // `StoreTask.finish()` waits for them.
                if MainQueue.isCurrent { finished.store(true, ordering: .releasing) }
                onMainQueue { effects?.finished(id) }
            },
            receiveValue: { @Sendable [inbox] action in
                inbox.deliver(action)
            })
        // An effect that completed while being subscribed to is never stored (A4).
        if finished.load(ordering: .acquiring) { return nil }
        effects.insert(cancellable, id: id)
        return id
    }
}

/// Runs `body` on the main actor: now when already on the main queue, else as soon as the main
/// queue gets to it (A9).
@usableFromInline
package func onMainQueue(_ body: @escaping @MainActor () -> Void) {
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
@usableFromInline
package final class ActionInbox<Action>: @unchecked Sendable {  // all fields guarded by `lock`
    @usableFromInline let lock = Lock()
    /// Delivered on the main queue, sent at once by the delivering call.
    @usableFromInline var immediate: [Action] = []
    /// Delivered from other threads, sent by one scheduled main-queue block.
    @usableFromInline var queued: [Action] = []
    @usableFromInline var scheduled = false
    @usableFromInline let send: @MainActor (Action) -> Void

    @usableFromInline
    package init(send: @escaping @MainActor (Action) -> Void) {
        self.send = send
    }

    @inlinable
    package func deliver(_ action: Action) {
        if MainQueue.isCurrent {
            lock.withLock { immediate.append(action) }
            MainActor.assumeIsolated { sendImmediate() }
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
                MainActor.assumeIsolated { sendQueued() }
            }
        }
    }

    /// Sends the actions delivered on the main queue, first in first out, until none is left.
    @inlinable
    @MainActor
    func sendImmediate() {
        while true {
            lock.lock()
            if immediate.isEmpty {
                lock.unlock()
                return
            }
            let action = immediate.removeFirst()
            lock.unlock()
            send(action)
        }
    }

    /// Sends the actions delivered from other threads, first in first out.
    @usableFromInline
    @MainActor
    func sendQueued() {
        while true {
            lock.lock()
            if queued.isEmpty {
                lock.unlock()
                return
            }
            let action = queued.removeFirst()
            lock.unlock()
            send(action)
        }
    }
}

/// The running effects of a store tree, each with an id, and the tasks waiting for them.
@MainActor
@usableFromInline
final class EffectBook {
    private var running: [Int: AnyCancellable] = [:]
    private var waiters: [Int: [CheckedContinuation<Void, Never>]] = [:]
    private var lastID = 0

    var count: Int { running.count }

    @usableFromInline
    func nextID() -> Int {
        lastID += 1
        return lastID
    }

    @usableFromInline
    func insert(_ cancellable: AnyCancellable, id: Int) {
        running[id] = cancellable
    }

    func isRunning(_ id: Int) -> Bool {
        running[id] != nil
    }

    /// An effect finished (or was cancelled): forget it at once (A4) and wake its waiters.
    @usableFromInline
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
