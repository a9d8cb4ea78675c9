/// A feature's logic: how an action changes the state, and which effect it starts.
///
/// A reducer is a pure function `(inout State, Action, Environment) -> Effect<Action>`. The
/// environment holds the feature's dependencies (API clients, schedulers, ...), so tests can
/// substitute them. Reducers compose: ``combine(_:)-(Reducer<State,Action,Environment>...)`` runs several on the same
/// state; ``pullback(state:action:environment:)-(_,CasePath<GlobalAction,Action>,_)`` turns a child
/// feature's reducer into one that works on the whole app's state and actions.
///
/// A reducer holds closures and is not `Sendable`; declare a global one on the main actor, where
/// stores run it: `@MainActor let counterReducer = Reducer<...> { ... }`.
///
/// <!-- example context: counter -->
/// ```swift
/// @MainActor let counterReducer = Reducer<CounterState, CounterAction, Void> { state, action, _ in
///     switch action {
///     case .increment:
///         state.count += 1
///         return .none
///     case .decrement:
///         state.count -= 1
///         return .none
///     }
/// }
/// ```
public struct Reducer<State, Action, Environment> {
    private let reducer: (inout State, Action, Environment) -> Effect<Action>

    /// A reducer from a function.
    ///
    /// - Parameter reducer: A function that changes the state for an action and returns the effect
    ///   to start.
    public init(_ reducer: @escaping (inout State, Action, Environment) -> Effect<Action>) {
        self.reducer = reducer
    }

    /// Runs the reducer: changes `state` for `action` and returns the effect to start.
    ///
    /// - Parameters:
    ///   - state: The state to change.
    ///   - action: The action to handle.
    ///   - environment: The feature's dependencies.
    /// - Returns: The effect to start.
    public func run(_ state: inout State, _ action: Action, _ environment: Environment) -> Effect<Action> {
        reducer(&state, action, environment)
    }

    /// Runs the reducer, as ``run(_:_:_:)``.
    ///
    /// - Parameters:
    ///   - state: The state to change.
    ///   - action: The action to handle.
    ///   - environment: The feature's dependencies.
    /// - Returns: The effect to start.
    public func callAsFunction(_ state: inout State, _ action: Action, _ environment: Environment) -> Effect<Action> {
        reducer(&state, action, environment)
    }

    /// The reducer that does nothing.
    public static var empty: Reducer {
        Reducer { _, _, _ in .none }
    }

    /// Runs `reducers` in order on the same state and merges their effects ([A12]).
    ///
    /// ```swift
    /// let appReducer = Reducer<AppState, AppAction, AppEnvironment>.combine(
    ///     counterReducer.pullback(state: \.counter, action: /AppAction.counter, environment: { $0.counter }),
    ///     favoritesReducer.pullback(state: \.favorites, action: /AppAction.favorites, environment: { $0.favorites }))
    /// ```
    ///
    /// - Parameter reducers: The reducers to run, in order.
    /// - Returns: One reducer that runs them all.
    ///
    /// [A12]: doc:/Contract/StoreContract#A12
    public static func combine(_ reducers: Reducer...) -> Reducer {
        combine(reducers)
    }

    /// Runs `reducers` in order on the same state and merges their effects ([A12]).
    ///
    /// - Parameter reducers: The reducers to run, in order.
    /// - Returns: One reducer that runs them all.
    ///
    /// [A12]: doc:/Contract/StoreContract#A12
    public static func combine(_ reducers: [Reducer]) -> Reducer {
        Reducer { state, action, environment in
            .merge(reducers.map { $0.reducer(&state, action, environment) })
        }
    }

    /// Runs this reducer, then `other`, on the same state, and merges their effects.
    ///
    /// - Parameter other: The reducer to run after this one.
    /// - Returns: One reducer that runs both.
    public func combined(with other: Reducer) -> Reducer {
        .combine(self, other)
    }

    /// Turns this child reducer into one on a parent's state and actions ([A12]).
    ///
    /// The parent reducer runs this one only for actions that are `action`'s case, on the part
    /// of the parent's state at `state`, with the environment `environment` makes from the
    /// parent's; the child's effects are mapped back into parent actions. Other actions leave
    /// the state alone and return ``Effect/none``.
    ///
    /// ```swift
    /// let appReducer: Reducer<AppState, AppAction, AppEnvironment> = counterReducer.pullback(
    ///     state: \AppState.counter,
    ///     action: /AppAction.counter,
    ///     environment: { $0.counter })
    /// ```
    ///
    /// - Parameters:
    ///   - toLocalState: The key path from the parent's state to this reducer's.
    ///   - toLocalAction: The case path from the parent's actions to this reducer's.
    ///   - toLocalEnvironment: A closure that takes the parent's environment and returns this
    ///     reducer's.
    /// - Returns: A reducer on the parent's state, actions and environment.
    ///
    /// [A12]: doc:/Contract/StoreContract#A12
    public func pullback<GlobalState, GlobalAction, GlobalEnvironment>(
        state toLocalState: WritableKeyPath<GlobalState, State>,
        action toLocalAction: CasePath<GlobalAction, Action>,
        environment toLocalEnvironment: @escaping (GlobalEnvironment) -> Environment
    ) -> Reducer<GlobalState, GlobalAction, GlobalEnvironment> {
        Reducer<GlobalState, GlobalAction, GlobalEnvironment> { globalState, globalAction, globalEnvironment in
            guard let localAction = toLocalAction.extract(from: globalAction) else { return .none }
            return reducer(&globalState[keyPath: toLocalState], localAction, toLocalEnvironment(globalEnvironment))
                .map(toLocalAction.embed)
        }
    }

    /// Turns this child reducer into one on a parent's state and actions, with the child's
    /// actions reached through an optional property of the parent's action enum (the "enum
    /// property" form).
    ///
    /// <!-- example file-scope -->
    /// ```swift
    /// extension AppAction {
    ///     var counter: CounterAction? {
    ///         get { if case let .counter(action) = self { action } else { nil } }
    ///         set { if let newValue { self = .counter(newValue) } }
    ///     }
    /// }
    /// ```
    ///
    /// ```swift
    /// let appReducer = counterReducer.pullback(state: \AppState.counter, action: \AppAction.counter, environment: { $0 })
    /// ```
    ///
    /// - Parameters:
    ///   - toLocalState: The key path from the parent's state to this reducer's.
    ///   - toLocalAction: The key path of the parent action's optional property that holds this
    ///     reducer's action.
    ///   - toLocalEnvironment: A closure that takes the parent's environment and returns this
    ///     reducer's.
    /// - Returns: A reducer on the parent's state, actions and environment.
    public func pullback<GlobalState, GlobalAction, GlobalEnvironment>(
        state toLocalState: WritableKeyPath<GlobalState, State>,
        action toLocalAction: WritableKeyPath<GlobalAction, Action?>,
        environment toLocalEnvironment: @escaping (GlobalEnvironment) -> Environment
    ) -> Reducer<GlobalState, GlobalAction, GlobalEnvironment> {
        Reducer<GlobalState, GlobalAction, GlobalEnvironment> { globalState, globalAction, globalEnvironment in
            guard let localAction = globalAction[keyPath: toLocalAction] else { return .none }
            return reducer(&globalState[keyPath: toLocalState], localAction, toLocalEnvironment(globalEnvironment))
                .map { localAction in
                    var globalAction = globalAction
                    globalAction[keyPath: toLocalAction] = localAction
                    return globalAction
                }
        }
    }

    /// Turns this reducer into one on optional state: it runs while the state is there.
    ///
    /// An action that arrives while the state is `nil` changes nothing, starts nothing and is
    /// reported (``RuntimeIssues``) with a message naming the action and where this reducer was
    /// made — usually an effect that outlived the feature that started it:
    ///
    /// > An `optional()` reducer (App/Search.swift:42) received an action while its state was
    /// > nil: `SearchAction.response("swift")`. The action changed nothing. An effect probably
    /// > outlived the state it belongs to: cancel it when the state goes away
    /// > (`cancellable(id:)`, `cancel(id:)`).
    ///
    /// The same happens to an action sent to a scoped store of that state after it became `nil`
    /// (`store.scope(state: \.search, action: AppAction.search)`): the scope sends it on, and
    /// this reducer reports it.
    ///
    /// ```swift
    /// let appReducer = searchReducer.optional().pullback(state: \AppState.search, action: /AppAction.search, environment: { $0 })
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file to name in the report; the caller's by default.
    ///   - line: The line to name in the report; the caller's by default.
    /// - Returns: A reducer on optional state that runs this one while the state is not `nil`.
    public func optional(fileID: StaticString = #fileID, line: UInt = #line) -> Reducer<State?, Action, Environment> {
        Reducer<State?, Action, Environment> { state, action, environment in
            guard state != nil else {
                RuntimeIssues.report(
                    """
                    An `optional()` reducer (\(fileID):\(line)) received an action while its state was nil: \
                    `\(describe(action))`. The action changed nothing. An effect probably outlived the state it \
                    belongs to: cancel it when the state goes away (`cancellable(id:)`, `cancel(id:)`).
                    """)
                return .none
            }
            return reducer(&state!, action, environment)
        }
    }

    /// Turns this reducer on one element into one on a collection of identifiable elements: an
    /// action tagged with an element's `id` runs on that element.
    ///
    /// An action for an `id` that is no longer in the collection changes nothing and is reported
    /// (``RuntimeIssues``) with a message naming the action, the `id` and where this reducer was
    /// made:
    ///
    /// > A `forEach` reducer (App/Todos.swift:30) received an action for an element that is not
    /// > in its collection: id `3`, action `TodoAction.toggle`. The action changed nothing. An
    /// > effect probably outlived the element it belongs to: cancel it when the element is removed.
    ///
    /// The same happens to an action sent to a scoped store of a removed element (a row's store).
    ///
    /// ```swift
    /// let appReducer = todoReducer.forEach(state: \AppState.todos, action: /AppAction.todo(id:action:), environment: { $0 })
    /// ```
    ///
    /// - Parameters:
    ///   - toLocalState: The key path from the parent's state to the array of elements.
    ///   - toLocalAction: The case path from the parent's actions to an element's `id` and action.
    ///   - toLocalEnvironment: A closure that takes the parent's environment and returns this
    ///     reducer's.
    ///   - fileID: The file to name in the report; the caller's by default.
    ///   - line: The line to name in the report; the caller's by default.
    /// - Returns: A reducer on the parent's state, actions and environment.
    public func forEach<GlobalState, GlobalAction, GlobalEnvironment>(
        state toLocalState: WritableKeyPath<GlobalState, [State]>,
        action toLocalAction: CasePath<GlobalAction, (State.ID, Action)>,
        environment toLocalEnvironment: @escaping (GlobalEnvironment) -> Environment,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Reducer<GlobalState, GlobalAction, GlobalEnvironment> where State: Identifiable {
        Reducer<GlobalState, GlobalAction, GlobalEnvironment> { globalState, globalAction, globalEnvironment in
            guard let (id, localAction) = toLocalAction.extract(from: globalAction) else { return .none }
            guard let index = globalState[keyPath: toLocalState].firstIndex(where: { $0.id == id }) else {
                RuntimeIssues.report(
                    """
                    A `forEach` reducer (\(fileID):\(line)) received an action for an element that is not in its \
                    collection: id `\(id)`, action `\(describe(localAction))`. The action changed nothing. An effect \
                    probably outlived the element it belongs to: cancel it when the element is removed.
                    """)
                return .none
            }
            return reducer(
                &globalState[keyPath: toLocalState][index], localAction, toLocalEnvironment(globalEnvironment)
            )
            .map { toLocalAction.embed((id, $0)) }
        }
    }
}

extension Reducer {
    /// Turns this reducer on one element into one on an ``IdentifiedArray`` of elements: an
    /// action tagged with an element's `id` runs on that element, found in O(1).
    ///
    /// The element's effects are mapped back into parent actions tagged with the same id. An
    /// action for an `id` that is no longer in the collection changes nothing and is reported
    /// (``RuntimeIssues``) with a message naming the action, the `id` and where this reducer was
    /// made, as the array form's is:
    ///
    /// > A `forEach` reducer (App/Todos.swift:30) received an action for an element that is not
    /// > in its collection: id `3`, action `TodoAction.toggle`. The action changed nothing. An
    /// > effect probably outlived the element it belongs to: cancel it when the element is removed.
    ///
    /// The same happens to an action sent to a store of a removed element made with
    /// ``Store/scope(state:action:)``; a store made with ``Store/scope(id:state:action:fileID:line:)``
    /// drops such an action itself.
    ///
    /// ```swift
    /// struct AppState { var todos: IdentifiedArrayOf<Todo> = [] }
    /// enum AppAction { case todo(id: Todo.ID, action: TodoAction) }
    ///
    /// let appReducer = todoReducer.forEach(state: \AppState.todos, action: /AppAction.todo(id:action:), environment: { $0 })
    /// ```
    ///
    /// - Parameters:
    ///   - toLocalState: The key path from the parent's state to the identified array of elements.
    ///   - toLocalAction: The case path from the parent's actions to an element's `id` and action.
    ///   - toLocalEnvironment: A closure that takes the parent's environment and returns this
    ///     reducer's.
    ///   - fileID: The file to name in the report; the caller's by default.
    ///   - line: The line to name in the report; the caller's by default.
    /// - Returns: A reducer on the parent's state, actions and environment.
    public func forEach<GlobalState, GlobalAction, GlobalEnvironment, ID: Hashable>(
        state toLocalState: WritableKeyPath<GlobalState, IdentifiedArray<ID, State>>,
        action toLocalAction: CasePath<GlobalAction, (ID, Action)>,
        environment toLocalEnvironment: @escaping (GlobalEnvironment) -> Environment,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Reducer<GlobalState, GlobalAction, GlobalEnvironment> {
        Reducer<GlobalState, GlobalAction, GlobalEnvironment> { globalState, globalAction, globalEnvironment in
            guard let (id, localAction) = toLocalAction.extract(from: globalAction) else { return .none }
            guard let index = globalState[keyPath: toLocalState].index(id: id) else {
                RuntimeIssues.report(
                    """
                    A `forEach` reducer (\(fileID):\(line)) received an action for an element that is not in its \
                    collection: id `\(id)`, action `\(describe(localAction))`. The action changed nothing. An effect \
                    probably outlived the element it belongs to: cancel it when the element is removed.
                    """)
                return .none
            }
            return run(&globalState[keyPath: toLocalState][index], localAction, toLocalEnvironment(globalEnvironment))
                .map { toLocalAction.embed((id, $0)) }
        }
    }
}

/// `Type.case(...)`, as a message shows an action.
func describe<Value>(_ value: Value) -> String {
    let text = String(describing: value)
    let type = String(describing: Value.self)
    return text.hasPrefix(type) ? text : "\(type).\(text)"
}
