import ComposableArchitecture
import Streams
import StreamsTesting
import Testing

@MainActor
@Suite("Reducer")
struct ReducerTests {
    // MARK: empty

    @Test func emptyChangesNothingAndStartsNothing() {
        var state = [1, 2]
        let effect = Reducer<[Int], Int, Void>.empty.run(&state, 3, ())
        #expect(state == [1, 2])
        #expect(effect.isNone)
    }

    // MARK: combine

    @Test func combineRunsInOrderOnTheSameState() {
        let combined = Reducer.combine(log("a"), log("b"), log("c"))
        var state: [String] = []
        _ = combined.run(&state, "x", ())
        #expect(state == ["a:x", "b:x", "c:x"])

        // Each reducer sees what the ones before it did.
        let double = Reducer<Int, Void, Void> { state, _, _ in state *= 2; return .none }
        let increment = Reducer<Int, Void, Void> { state, _, _ in state += 1; return .none }
        var number = 1
        _ = Reducer.combine(double, increment).run(&number, (), ())
        #expect(number == 3)
        number = 1
        _ = Reducer.combine(increment, double).run(&number, (), ())
        #expect(number == 4)
    }

    @Test func combineOfAnArrayAndCombinedWithRunInOrderToo() {
        var state: [String] = []
        _ = Reducer.combine([log("a"), log("b"), log("c")]).run(&state, "x", ())
        #expect(state == ["a:x", "b:x", "c:x"])
        state = []
        _ = log("a").combined(with: log("b")).combined(with: log("c")).run(&state, "y", ())
        #expect(state == ["a:y", "b:y", "c:y"])
        state = []
        _ = Reducer<[String], String, Void>.combine([]).run(&state, "z", ())
        #expect(state == [])
    }

    @Test func combineMergesTheEffects() {
        // Both effects run at once: the second one's value arrives before the first one's.
        let start = { (subject: PassthroughSubject<String, Never>, name: String) in
            Reducer<[String], String, Void> { state, action, _ in
                if action == "start" { return subject.eraseToEffect() }
                state.append("\(name):\(action)")
                return .none
            }
        }
        typealias Log = Reducer<[String], String, Void>
        let combinations: [(Log, Log) -> Log] = [
            { .combine($0, $1) }, { .combine([$0, $1]) }, { $0.combined(with: $1) },
        ]
        for combine in combinations {
            let first = PassthroughSubject<String, Never>()
            let second = PassthroughSubject<String, Never>()
            let reducer = combine(start(first, "a"), start(second, "b"))
            let store = Store(initialState: [], reducer: reducer, environment: ())
            store.send("start")
            #expect(store.runningEffectCount == 1)  // the merged effect
            second.send("2")
            first.send("1")
            #expect(store.state == ["a:2", "b:2", "a:1", "b:1"])
            first.send(completion: .finished)
            #expect(store.runningEffectCount == 1)  // still running: `second` has not finished
            second.send(completion: .finished)
            #expect(store.runningEffectCount == 0)
        }
    }

    @Test func combineOfReducersThatStartNothingStartsNothing() {
        let effect = Reducer.combine(log("a"), .empty, log("b")).combined(with: .empty)
        var state: [String] = []
        #expect(effect.run(&state, "x", ()).isNone)
    }

    // MARK: pullback along a case path

    @Test func pullbackRunsTheChildOnItsStateForItsActionsOnly() {
        let (child, calls) = counter()
        let app: Reducer<AppState, AppAction, AppEnvironment> =
            child.pullback(state: \.count, action: /AppAction.counter, environment: { $0.step })
        var state = AppState()
        let ignored = app.run(&state, .rename("x"), AppEnvironment())
        #expect(ignored.isNone)
        #expect(state == AppState())
        #expect(calls.value == 0)
        _ = app.run(&state, .counter(.increment), AppEnvironment(step: 5))
        #expect(state.count == 5)
        #expect(state.name == "")
        #expect(calls.value == 1)
    }

    @Test func pullbackMapsTheChildsEffectsBackIntoAppActions() {
        let (child, _) = counter()
        let app = Reducer.combine(
            child.pullback(state: \AppState.count, action: /AppAction.counter, environment: { $0.step }),
            recordActions())
        let store = Store(initialState: AppState(), reducer: app, environment: AppEnvironment())
        store.send(.counter(.incrementLater))
        #expect(store.state.count == 1)
        #expect(store.state.actions == [.counter(.incrementLater), .counter(.increment)])
    }

    // MARK: pullback along an action's optional property

    @Test func pullbackThroughAnEnumPropertyRunsTheChildForItsActionsOnly() {
        let (child, calls) = counter()
        let app: Reducer<AppState, AppAction, AppEnvironment> =
            child.pullback(state: \.count, action: \.counterAction, environment: { $0.step })
        var state = AppState()
        #expect(app.run(&state, .rename("x"), AppEnvironment()).isNone)
        #expect(state == AppState())
        #expect(calls.value == 0)
        _ = app.run(&state, .counter(.increment), AppEnvironment(step: 2))
        #expect(state.count == 2)
        #expect(calls.value == 1)
    }

    @Test func pullbackThroughAnEnumPropertyMapsEffectsBack() {
        let (child, _) = counter()
        let app = Reducer.combine(
            child.pullback(state: \AppState.count, action: \AppAction.counterAction, environment: { $0.step }),
            recordActions())
        let store = Store(initialState: AppState(), reducer: app, environment: AppEnvironment())
        store.send(.counter(.incrementLater))
        #expect(store.state.count == 1)
        #expect(store.state.actions == [.counter(.incrementLater), .counter(.increment)])
    }

    // MARK: optional()

    @Test func optionalRunsWhileTheStateIsThere() {
        let (child, calls) = counter()
        let optional = child.optional()
        var state: Int? = 3
        let reports = capturingReports {
            _ = optional.run(&state, .increment, 4)
        }
        #expect(state == 7)
        #expect(calls.value == 1)
        #expect(reports.isEmpty)
    }

    @Test func optionalWithNilStateChangesNothingStartsNothingAndReportsTheActionAndTheReducer() {
        let (child, calls) = counter()
        let line = #line + 1
        let optional = child.optional()
        var state: Int?
        var effect: Effect<CounterAction> = .none
        let reports = capturingReports {
            effect = optional.run(&state, .incrementLater, 1)
        }
        #expect(state == nil)
        #expect(effect.isNone)
        #expect(calls.value == 0)
        #expect(reports == ["""
            An `optional()` reducer (ComposableArchitectureTests/ReducerTests.swift:\(line)) received an action \
            while its state was nil: `CounterAction.incrementLater`. The action changed nothing. An effect probably \
            outlived the state it belongs to: cancel it when the state goes away (`cancellable(id:)`, `cancel(id:)`).
            """])
    }

    @Test func optionalPulledBackInAStore() {
        let (child, _) = counter()
        let app = Reducer.combine(
            child.optional().pullback(state: \AppState.optionalCount, action: /AppAction.counter, environment: { $0.step }),
            recordActions())
        let store = Store(initialState: AppState(), reducer: app, environment: AppEnvironment())
        let reports = capturingReports {
            store.send(.counter(.incrementLater))
        }
        #expect(store.state.optionalCount == nil)
        #expect(store.state.actions == [.counter(.incrementLater)])  // no effect ran
        #expect(store.runningEffectCount == 0)
        #expect(reports.count == 1)
        #expect(reports.first?.contains("while its state was nil: `CounterAction.incrementLater`") == true)
    }

    // MARK: forEach

    @Test func forEachRunsOnTheElementWithTheID() {
        let todos = todoReducer.forEach(state: \TodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 })
        var state = TodosState.three
        let reports = capturingReports {
            _ = todos.run(&state, .todo(id: 2, action: .toggle), ())
        }
        #expect(state.todos.map(\.isDone) == [false, true, false])
        #expect(reports.isEmpty)
        _ = todos.run(&state, .other, ())
        #expect(state.todos.map(\.isDone) == [false, true, false])
    }

    @Test func forEachTagsTheElementsEffectsWithItsID() {
        let todos = todoReducer.forEach(state: \TodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 })
        let store = Store(initialState: TodosState.three, reducer: todos, environment: ())
        store.send(.todo(id: 3, action: .toggleLater))
        #expect(store.state.todos.map(\.isDone) == [false, false, true])
        store.send(.todo(id: 1, action: .toggleLater))
        #expect(store.state.todos.map(\.isDone) == [true, false, true])
    }

    @Test func forEachWithAMissingIDChangesNothingAndReportsTheIDAndTheAction() {
        let line = #line + 1
        let todos = todoReducer.forEach(state: \TodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 })
        var state = TodosState.three
        var effect: Effect<TodosAction> = .none
        let reports = capturingReports {
            effect = todos.run(&state, .todo(id: 4, action: .toggleLater), ())
        }
        #expect(state == TodosState.three)
        #expect(effect.isNone)
        #expect(reports == ["""
            A `forEach` reducer (ComposableArchitectureTests/ReducerTests.swift:\(line)) received an action for an \
            element that is not in its collection: id `4`, action `TodoAction.toggleLater`. The action changed \
            nothing. An effect probably outlived the element it belongs to: cancel it when the element is removed.
            """])
    }

    @Test func forEachElementRemovedWhileItsEffectRuns() {
        // The classic: a row starts an effect, the row is deleted, the effect answers.
        let answers = PassthroughSubject<TodoAction, Never>()
        let row = Reducer<Todo, TodoAction, Void> { state, action, _ in
            switch action {
            case .toggle: state.isDone.toggle(); return .none
            case .toggleLater: return answers.eraseToEffect()
            }
        }
        let todos = Reducer.combine(
            row.forEach(state: \TodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 }),
            Reducer { state, action, _ in
                if case .other = action { state.todos.removeAll { $0.id == 2 } }
                return .none
            })
        let store = Store(initialState: TodosState.three, reducer: todos, environment: ())
        store.send(.todo(id: 2, action: .toggleLater))
        store.send(.other)
        let reports = capturingReports {
            answers.send(.toggle)
        }
        #expect(store.state.todos.map(\.id) == [1, 3])
        #expect(store.state.todos.map(\.isDone) == [false, false])
        #expect(reports.count == 1)
        #expect(reports.first?.contains("id `2`, action `TodoAction.toggle`") == true)
    }

    // MARK: middleware

    @Test func middlewareRunsAfterTheReducerOnTheNewState() {
        let seen = Shared<[Int]>([])
        let reducer = Reducer<Int, String, Void> { state, _, _ in
            state += 1
            return .none
        }.middleware { state, _, _ in
            seen.value.append(state)
            return .none
        }
        var state = 0
        #expect(reducer.run(&state, "a", ()).isNone)
        _ = reducer.run(&state, "b", ())
        #expect(seen.value == [1, 2])
        #expect(state == 2)
    }

    @Test func middlewaresRunInOrderAndTheirEffectsAreMergedWithTheReducers() {
        let log = Shared<[String]>([])
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "go" ? Effect(value: "from reducer") : .none
        }
        let first: Middleware<[String], String, Void> = { state, action, _ in
            log.value.append("first saw \(action) after \(state.count)")
            return action == "go" ? Effect(value: "from first") : .none
        }
        let second: Middleware<[String], String, Void> = { state, action, _ in
            log.value.append("second saw \(action) after \(state.count)")
            return action == "go" ? Effect(value: "from second") : .none
        }
        let store = Store(initialState: [], reducer: reducer.middleware(first, second), environment: ())
        store.send("go")
        #expect(store.state == ["go", "from reducer", "from first", "from second"])
        #expect(log.value == [
            "first saw go after 1", "second saw go after 1",
            "first saw from reducer after 2", "second saw from reducer after 2",
            "first saw from first after 3", "second saw from first after 3",
            "first saw from second after 4", "second saw from second after 4",
        ])
    }

    @Test func middlewareEffectsRunConcurrentlyWithTheReducers() {
        let fromReducer = PassthroughSubject<String, Never>()
        let fromMiddleware = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            if action == "start" { return fromReducer.eraseToEffect() }
            state.append(action)
            return .none
        }.middleware { _, action, _ in
            action == "start" ? fromMiddleware.eraseToEffect() : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        fromMiddleware.send("m")
        fromReducer.send("r")
        #expect(store.state == ["m", "r"])
    }
}

// MARK: - Fixtures

extension ReducerTests {
    struct AppState: Equatable {
        var count = 0
        var optionalCount: Int?
        var name = ""
        var actions: [AppAction] = []
    }

    enum AppAction: Equatable {
        case counter(CounterAction)
        case rename(String)

        /// The "enum property" form of the `counter` case.
        var counterAction: CounterAction? {
            get { if case .counter(let action) = self { action } else { nil } }
            set { if let newValue { self = .counter(newValue) } }
        }
    }

    enum CounterAction: Equatable {
        case increment
        /// Increments through an effect.
        case incrementLater
    }

    struct AppEnvironment {
        var step = 1
    }

    /// A counter that adds its environment's step, and how many times it ran.
    func counter() -> (Reducer<Int, CounterAction, Int>, Shared<Int>) {
        let calls = Shared(0)
        let reducer = Reducer<Int, CounterAction, Int> { state, action, step in
            calls.value += 1
            switch action {
            case .increment:
                state += step
                return .none
            case .incrementLater:
                return Effect(value: .increment)
            }
        }
        return (reducer, calls)
    }

    /// Appends every action to `state.actions`.
    func recordActions() -> Reducer<AppState, AppAction, AppEnvironment> {
        Reducer { state, action, _ in
            state.actions.append(action)
            return .none
        }
    }

    /// Appends `"name:action"` to the state.
    func log(_ name: String) -> Reducer<[String], String, Void> {
        Reducer { state, action, _ in
            state.append("\(name):\(action)")
            return .none
        }
    }

    struct Todo: Equatable, Identifiable {
        let id: Int
        var isDone = false
    }

    enum TodoAction: Equatable {
        case toggle
        /// Toggles through an effect.
        case toggleLater
    }

    struct TodosState: Equatable {
        var todos: [Todo]

        static let three = TodosState(todos: [Todo(id: 1), Todo(id: 2), Todo(id: 3)])
    }

    enum TodosAction: Equatable {
        case todo(id: Int, action: TodoAction)
        case other
    }

    var todoReducer: Reducer<Todo, TodoAction, Void> {
        Reducer { state, action, _ in
            switch action {
            case .toggle:
                state.isDone.toggle()
                return .none
            case .toggleLater:
                return Effect(value: .toggle)
            }
        }
    }
}

/// A mutable value for a test's closures to share.
final class Shared<Value> {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The runtime issues `body` reported.
@MainActor
func capturingReports(_ body: () -> Void) -> [String] {
    let reports = SendableLog<String>()
    RuntimeIssues.$handler.withValue({ reports.append($0) }) {
        body()
    }
    return reports.entries
}

// MARK: - forEach over an IdentifiedArray

extension ReducerTests {
    struct IdentifiedTodosState: Equatable {
        var todos: IdentifiedArrayOf<Todo>

        static let three = IdentifiedTodosState(todos: [Todo(id: 1), Todo(id: 2), Todo(id: 3)])
    }

    @Test func forEachByIDRunsOnTheElementWithTheID() {
        let todos = todoReducer.forEach(
            state: \IdentifiedTodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 })
        var state = IdentifiedTodosState.three
        let reports = capturingReports {
            _ = todos.run(&state, .todo(id: 2, action: .toggle), ())
        }
        #expect(state.todos.map(\.isDone) == [false, true, false])
        #expect(reports.isEmpty)
        let effect = todos.run(&state, .other, ())
        #expect(effect.isNone)
        #expect(state == IdentifiedTodosState(todos: [Todo(id: 1), Todo(id: 2, isDone: true), Todo(id: 3)]))
    }

    @Test func forEachByIDTagsTheElementsEffectsWithItsID() {
        let todos = todoReducer.forEach(
            state: \IdentifiedTodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 })
        let store = Store(initialState: IdentifiedTodosState.three, reducer: todos, environment: ())
        store.send(.todo(id: 3, action: .toggleLater))
        #expect(store.state.todos.map(\.isDone) == [false, false, true])
        store.send(.todo(id: 1, action: .toggleLater))
        #expect(store.state.todos.map(\.isDone) == [true, false, true])
    }

    @Test func forEachByIDWithAnIDKeyPathOfAnyHashableProperty() {
        struct Setting: Equatable { var key: String; var on = false }
        enum SettingsAction { case setting(key: String, action: Void) }
        let toggle = Reducer<Setting, Void, Void> { state, _, _ in state.on.toggle(); return .none }
        let settings = toggle.forEach(
            state: \IdentifiedArray<String, Setting>.self, action: /SettingsAction.setting(key:action:),
            environment: { $0 })
        var state = IdentifiedArray([Setting(key: "wifi"), Setting(key: "bluetooth")], id: \Setting.key)
        _ = settings.run(&state, .setting(key: "bluetooth", action: ()), ())
        #expect(state.map(\.on) == [false, true])
    }

    @Test func forEachByIDWithAMissingIDChangesNothingAndReportsTheIDAndTheAction() {
        let line = #line + 1
        let todos = todoReducer.forEach(
            state: \IdentifiedTodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 })
        var state = IdentifiedTodosState.three
        var effect: Effect<TodosAction> = .none
        let reports = capturingReports {
            effect = todos.run(&state, .todo(id: 4, action: .toggleLater), ())
        }
        #expect(state == IdentifiedTodosState.three)
        #expect(effect.isNone)
        // The same message as the array form's.
        #expect(reports == ["""
            A `forEach` reducer (ComposableArchitectureTests/ReducerTests.swift:\(line)) received an action for an \
            element that is not in its collection: id `4`, action `TodoAction.toggleLater`. The action changed \
            nothing. An effect probably outlived the element it belongs to: cancel it when the element is removed.
            """])
    }

    @Test func forEachByIDElementRemovedWhileItsEffectRunsReportsTheLateAnswer() {
        let answers = PassthroughSubject<TodoAction, Never>()
        let row = Reducer<Todo, TodoAction, Void> { state, action, _ in
            switch action {
            case .toggle: state.isDone.toggle(); return .none
            case .toggleLater: return answers.eraseToEffect()
            }
        }
        let todos = Reducer.combine(
            row.forEach(state: \IdentifiedTodosState.todos, action: /TodosAction.todo(id:action:), environment: { $0 }),
            Reducer { state, action, _ in
                if case .other = action { state.todos.remove(id: 2) }
                return .none
            })
        let store = Store(initialState: IdentifiedTodosState.three, reducer: todos, environment: ())
        store.send(.todo(id: 2, action: .toggleLater))
        store.send(.other)
        let reports = capturingReports {
            answers.send(.toggle)
        }
        #expect(store.state.todos.ids == [1, 3])
        #expect(store.state.todos.map(\.isDone) == [false, false])
        #expect(reports.count == 1)
        #expect(reports.first?.contains("id `2`, action `TodoAction.toggle`") == true)
    }
}
