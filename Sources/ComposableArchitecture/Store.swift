import Observation
import Streams

/// Runs a feature: owns its state, runs its reducer for every action, starts the effects the
/// reducer returns and feeds their actions back in.
///
/// A store lives on the main actor, and so does its state: the state is only ever changed there
/// ([A9]), by the reducer. An effect may send actions from any thread; an action sent from
/// another thread is handed to the main queue and runs there, after what is running now.
///
/// ```swift
/// let store = Store(initialState: AppState(), reducer: appReducer, environment: .live)
/// store.send(.counter(.increment))
/// print(store.state.counter.count)   // 1
/// let c = store.publisher(for: \.counter.count).sink { print("count:", $0) }
/// ```
///
/// The store's rules are [A1]–[A12], in the [store contract](doc:/Contract/StoreContract). The send loop
/// that implements them is in one place, the root store's engine (`RootStore.swift`), which
/// `TestStore` drives too. What ``send(_:)`` guarantees:
/// - It is iterative ([A1]): an action sent while a send is running — by an effect, an observer of
///   the state, a deinit — is queued and run, first in first out, by the running loop; a million
///   actions chained through synchronous effects run without the stack growing.
/// - The queue is empty before the outermost `send` returns ([A2]), including actions sent while
///   the state is being published.
/// - Actions that effects send synchronously run within the same outermost send, breadth-first;
///   observers then see the state once, the final one ([A3]).
/// - Effects are tracked by id ([A4]): one that completes while it is being subscribed to is never
///   stored, and `Effect(value:)` is not even subscribed to; one that finishes or is cancelled
///   is removed at once; ``Effect/none`` allocates nothing; effects hold the store weakly, and
///   when the store goes away its running effects are cancelled.
///
/// ## Observing the state
///
/// A store is `Observable` (the Observation module): reading ``state`` (of the root store or of
/// a scope) inside `withObservationTracking` registers the read, and the tracking's `onChange`
/// is called once per outermost send, when its loop publishes: after every action the send
/// caused synchronously has run, never between two of them. It is also an `ObservableObject`: ``objectWillChange`` fires once
/// before each publication, while ``state`` still shows the state before it. A scope whose state
/// is `Equatable` publishes (and notifies) only when its state changed; the root store publishes
/// after every outermost send.
///
/// In a SwiftUI app on Apple platforms, hold the store in the view (or pass it down) and read
/// `store.state` in `body`: SwiftUI tracks the reads with Observation and re-evaluates `body`
/// after a send that changed what it read. Give child views a ``scope(state:action:)`` of the
/// store, so they are invalidated only by their own part of the state. Send actions from the
/// view's callbacks with ``send(_:)``.
///
/// Code written for Combine (a view model, a UIKit-style view controller) observes a
/// ``ViewStore`` of the store instead: it passes on only the states that changed (the root store
/// publishes after every send), and each part of its publisher sends only when that part changes.
///
/// <!-- example context: store -->
/// ```swift
/// let viewStore = ViewStore(store.scope(state: \.counter, action: AppAction.counter))
/// let c = viewStore.publisher(for: \.count).sink { print("count:", $0) }   // count: 0
/// viewStore.send(.increment)                                                // count: 1
/// ```
///
/// A store costs nothing for observation until something observes it: reading ``state``,
/// asking for ``publisher`` or ``objectWillChange``. A scope nobody observes never computes its
/// state: sending through it costs about what sending to the root does.
///
/// [A1]: doc:/Contract/StoreContract#A1
/// [A2]: doc:/Contract/StoreContract#A2
/// [A3]: doc:/Contract/StoreContract#A3
/// [A4]: doc:/Contract/StoreContract#A4
/// [A9]: doc:/Contract/StoreContract#A9
/// [A12]: doc:/Contract/StoreContract#A12
public final class Store<State, Action> {
    /// What this store is: the root of a store tree, which runs the reducer, or a scope of
    /// another store.
    @usableFromInline
    enum Role {
        /// A root store and its engine.
        case root(RootStore<State, Action>)
        /// A scope of another store.
        case scope(ScopeCore<State, Action>)
    }

    @usableFromInline let role: Role
    /// The running effects of the store tree.
    @usableFromInline let effects: RunningEffects
    /// Whether anything observes this store: from then on it is refreshed each time its parent
    /// publishes (a root store: after each outermost send).
    @usableFromInline var isObserved = false
    /// The observed scopes of this store, refreshed when it publishes.
    var children: [ChildScope<State>] = []
    /// Created when the store's publisher is first asked for.
    var stateSubject: CurrentValueSubject<State, Never>?
    /// Created when ``objectWillChange`` is first asked for.
    var willChange: ObservableObjectPublisher?
    @usableFromInline let registrar = ObservationRegistrar()

    /// A store running `reducer` with `environment`, starting from `initialState`.
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - reducer: The reducer that runs the feature.
    ///   - environment: The dependencies the reducer gets with each action.
    @MainActor
    @inlinable
    public convenience init<Environment>(
        initialState: State,
        reducer: Reducer<State, Action, Environment>,
        environment: Environment
    ) {
        self.init(
            root: RootStore(initialState: initialState) { state, action in
                reducer.run(&state, action, environment)
            })
    }

    /// A root store over `root` (a test store makes its own engine, to instrument it).
    @usableFromInline
    @MainActor
    package init(root: RootStore<State, Action>) {
        role = .root(root)
        effects = root.effects
    }

    @usableFromInline
    @MainActor
    init(scope: ScopeCore<State, Action>, effects: RunningEffects) {
        role = .scope(scope)
        self.effects = effects
    }

    /// The current state. Read-only: only actions change it.
    ///
    /// Reading it makes the store observed (it is kept up to date, and publishes, from then on)
    /// and registers the read with Observation.
    @MainActor
    @inlinable
    public var state: State {
        if !isObserved { startObserving() }
        registrar.access(self, keyPath: \.state)
        return currentState
    }

    /// The state, without registering the read.
    @MainActor
    @inlinable
    var currentState: State {
        switch role {
        case .root(let root): root.visibleState
        case .scope(let scope): scope.current ?? scope.compute()
        }
    }

    /// The subject that publishes this store's state.
    @MainActor
    var subject: CurrentValueSubject<State, Never> {
        if let stateSubject { return stateSubject }
        startObserving()
        let subject = CurrentValueSubject<State, Never>(currentState)
        stateSubject = subject
        return subject
    }

    /// Sends `action` to the reducer, runs it and everything it causes synchronously, and
    /// returns a handle on the effects it started (``StoreTask``).
    ///
    /// - Parameter action: The action to send.
    /// - Returns: A handle on the effects the action started: cancel them, or `await` their end.
    @MainActor
    @inlinable
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        switch role {
        case .root(let root): root.send(action)
        case .scope(let scope): scope.send(action)
        }
    }

    /// The state over time: the current state when subscribed, then the state after each
    /// outermost send (a scope of `Equatable` state: only when it changed).
    /// `store.publisher.user.name` is a publisher of a part of the state that sends only when
    /// that part changes.
    @MainActor
    public var publisher: StorePublisher<State> {
        StorePublisher(subject.eraseToAnyPublisher())
    }

    /// A publisher of the part of the state at `keyPath`: its current value when subscribed, then
    /// each change (duplicates removed). The same as `store.publisher.count`, for a property whose
    /// name is also an operator's (`count`, `first`, `min`, ...), which the dynamic member cannot
    /// reach.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// let c = store.publisher(for: \.count).sink { print("count:", $0) }
    /// ```
    ///
    /// - Parameter keyPath: The key path of the part of the state to publish.
    /// - Returns: A publisher of that part of the state.
    @MainActor
    public func publisher<Value: Equatable>(for keyPath: KeyPath<State, Value>) -> StorePublisher<Value> {
        publisher[dynamicMember: keyPath]
    }

    /// A store of part of this store's state and a subset of its actions, for a child feature's
    /// view ([A10]).
    ///
    /// The child's state is `toLocalState` applied to this store's state. It is computed when
    /// the child is first observed (its ``state`` read, its ``publisher`` or ``objectWillChange``
    /// asked for), then once each time this store publishes; a child nobody observes costs
    /// nothing. When the child's state is `Equatable`, the child publishes only when it changed.
    /// The child's actions are sent to the root store as `fromLocalAction(action)` (through the
    /// parents' transforms), directly: a send through five nested scopes costs about what one
    /// does. The child keeps its parent alive (it computes its state from it); the parent does
    /// not keep the child.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// let counterStore = appStore.scope(state: \.counter, action: AppAction.counter)
    /// ```
    ///
    /// When the child's state can go away (optional state, an element of a collection), the
    /// scope's state becomes `nil` and the scope keeps sending actions to this store; the
    /// reducer that owns that state reports them: ``Reducer/optional(fileID:line:)`` and
    /// the `forEach` reducers say which action arrived for
    /// state that is gone, and change nothing. For a store of the value itself, which drops such
    /// actions at once and reports them, use ``ifLet(then:else:fileID:line:)``.
    ///
    /// - Parameters:
    ///   - toLocalState: A closure that takes this store's state and returns the child's.
    ///   - fromLocalAction: A closure that takes a child action and returns the action to send to
    ///     this store.
    /// - Returns: A store of the child's state and actions.
    ///
    /// [A10]: doc:/Contract/StoreContract#A10
    @MainActor
    @inlinable
    public func scope<LocalState, LocalAction>(
        state toLocalState: @escaping (State) -> LocalState,
        action fromLocalAction: @escaping (LocalAction) -> Action
    ) -> Store<LocalState, LocalAction> {
        // Built here, where the types are known, so the sends are specialized.
        let send: (LocalAction) -> StoreTask
        switch role {
        case .root(let root):
            send = { [root] localAction in root.send(fromLocalAction(localAction)) }
        case .scope(let scope):
            let parentSend = scope.send
            send = { localAction in parentSend(fromLocalAction(localAction)) }
        }
        return scope(state: toLocalState, send: send)
    }

    /// A child store whose state is `toLocalState` of this store's and whose actions go to
    /// `send`.
    @MainActor
    @usableFromInline
    func scope<LocalState, LocalAction>(
        state toLocalState: @escaping (State) -> LocalState,
        send: @escaping (LocalAction) -> StoreTask
    ) -> Store<LocalState, LocalAction> {
        let core = ScopeCore<LocalState, LocalAction>(
            send: send,
            compute: { [self] in toLocalState(currentState) },
            attach: { [self] child in
                startObserving()
                children.append(
                    ChildScope { [weak child] state in
                        guard let child else { return false }
                        child.refresh(to: toLocalState(state))
                        return true
                    })
            })
        return Store<LocalState, LocalAction>(scope: core, effects: effects)
    }

    /// A store of part of this store's state and all of its actions.
    ///
    /// - Parameter toLocalState: A closure that takes this store's state and returns the child's.
    /// - Returns: A store of the child's state and this store's actions.
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

    // MARK: Publishing

    /// Makes this store observed: a root store starts publishing after each send; a scope
    /// computes its state and asks its parent (observing it in turn) to refresh it each time
    /// the parent publishes.
    @MainActor
    @usableFromInline
    func startObserving() {
        guard !isObserved else { return }
        isObserved = true
        switch role {
        case .root(let root):
            root.owner = self
            root.isObserved = true
        case .scope(let scope):
            scope.attach(self)
            scope.current = scope.compute()
        }
    }

    /// Publishes a root store's state, at the end of a round of its send loop.
    @MainActor
    @usableFromInline
    func publishRoot() {
        guard case .root(let root) = role else { return }
        willChange?.send()
        registrar.willSet(self, keyPath: \.state)
        if root.snapshot != nil { root.snapshot = root.state }
        registrar.didSet(self, keyPath: \.state)
        stateSubject?.send(root.state)
        refreshChildren(with: root.state)
    }

    /// Refreshes the observed scopes of this store from its new `state` (computed once for
    /// all of them).
    @MainActor
    func refreshChildren(with state: State) {
        guard !children.isEmpty else { return }
        var index = 0
        var lost = false
        // By index: a child may be observed for the first time while its siblings refresh.
        while index < children.count {
            if !children[index].refresh(state) {
                children[index].isGone = true
                lost = true
            }
            index += 1
        }
        if lost { children.removeAll { $0.isGone } }
    }
}

extension Store: Observable {}

extension Store: @MainActor ObservableObject {
    /// Fires once before each publication of the store's state (after each outermost send of a
    /// root store; when its state changed, for a scope of `Equatable` state), while ``state``
    /// still shows the state before it.
    ///
    /// Asking for it makes a root store keep the state it shows apart from the one its reducer
    /// changes (one copy of the state per send).
    @MainActor
    public var objectWillChange: ObservableObjectPublisher {
        if let willChange { return willChange }
        let publisher = ObservableObjectPublisher()
        willChange = publisher
        startObserving()
        if case .root(let root) = role, root.snapshot == nil { root.snapshot = root.state }
        return publisher
    }
}

extension Store {
    /// A scope's state, recomputed from its parent's: publishes it, unless it is `Equatable` and
    /// did not change.
    @MainActor
    func refresh(to new: State) {
        guard case .scope(let scope) = role else { return }
        if let isEqual = scope.isEqual, let old = scope.current, isEqual(old, new) { return }
        willChange?.send()
        registrar.willSet(self, keyPath: \.state)
        scope.current = new
        registrar.didSet(self, keyPath: \.state)
        stateSubject?.send(new)
        refreshChildren(with: new)
    }
}

/// A parent's reference to an observed child: how to refresh it from the parent's state. It
/// holds the child weakly (the parent does not keep its children) and answers `false` once the
/// child is gone.
struct ChildScope<ParentState> {
    let refresh: @MainActor (ParentState) -> Bool
    var isGone = false
}

/// What a scoped store is made of.
@MainActor
@usableFromInline
final class ScopeCore<State, Action> {
    /// Sends an action to the root store (through the parents' action transforms).
    @usableFromInline let send: (Action) -> StoreTask
    /// The state, computed from the parent's current state.
    @usableFromInline let compute: () -> State
    /// Asks the parent to refresh the given child (this scope's store) when it publishes.
    @usableFromInline let attach: (Store<State, Action>) -> Void
    /// `==`, when the state is `Equatable`.
    @usableFromInline let isEqual: ((State, State) -> Bool)?
    /// The state as last published, once the store is observed.
    @usableFromInline var current: State?

    @usableFromInline
    init(
        send: @escaping (Action) -> StoreTask, compute: @escaping () -> State,
        attach: @escaping (Store<State, Action>) -> Void
    ) {
        self.send = send
        self.compute = compute
        self.attach = attach
        isEqual = equality(of: State.self)
    }
}

/// `==` for `T`, when `T` is `Equatable` or `Void` (whose one value is always equal to itself:
/// a ``Store/stateless`` store never republishes).
func equality<T>(of type: T.Type) -> ((T, T) -> Bool)? {
    if type == Void.self { return { _, _ in true } }
    guard let equatable = type as? any Equatable.Type else { return nil }
    return equality(equatable, as: type)
}

private func equality<E: Equatable, T>(_: E.Type, as _: T.Type) -> (T, T) -> Bool {
    // `T` is `E`: the casts reinterpret a value as its own type.
    { lhs, rhs in unsafeBitCast(lhs, to: E.self) == unsafeBitCast(rhs, to: E.self) }
}
