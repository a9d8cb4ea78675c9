import ComposableArchitecture
import Streams
import Testing

/// Actions sent to a scoped store whose state has gone away: they change nothing, never crash,
/// and are reported with a message naming the action and the reducer or scope.
@MainActor
@Suite("Scoped store after its state is gone")
struct ScopeAfterStateIsGoneTests {
    // MARK: A scope of optional state: the optional() reducer reports

    @Test func scopeOfOptionalStateSendsToTheOptionalReducerWhichReports() {
        let store = Store(initialState: AppState(), reducer: Self.appReducer, environment: ())
        let search = store.scope(state: \.search, action: AppAction.search)
        store.send(.open)
        search.send(.queryChanged("swift"))
        #expect(search.state == SearchState(query: "swift"))
        store.send(.close)
        #expect(search.state == nil)

        let reports = capturingReports {
            search.send(.queryChanged("combine"))
        }
        #expect(store.state.search == nil)
        #expect(search.state == nil)
        #expect(store.runningEffectCount == 0)
        #expect(reports == ["""
            An `optional()` reducer (ComposableArchitectureTests/ScopeAfterStateIsGoneTests.swift:\(Self.optionalLine)) \
            received an action while its state was nil: `SearchAction.queryChanged("combine")`. The action changed \
            nothing. An effect probably outlived the state it belongs to: cancel it when the state goes away \
            (`cancellable(id:)`, `cancel(id:)`).
            """])
    }

    // MARK: A scope of one element: the forEach reducer reports

    @Test func scopeOfAnElementThatWasRemovedSendsToTheForEachReducerWhichReports() {
        let store = Store(initialState: AppState(rows: [Row(id: 1), Row(id: 2)]), reducer: Self.appReducer, environment: ())
        let row = store.scope(state: { $0.rows.first { $0.id == 2 } }, action: { AppAction.row(id: 2, action: $0) })
        row.send(.tap)
        #expect(row.state == Row(id: 2, taps: 1))
        store.send(.removeRow(id: 2))
        #expect(row.state == nil)

        let reports = capturingReports {
            row.send(.tap)
        }
        #expect(store.state.rows == [Row(id: 1)])
        #expect(reports.count == 1)
        #expect(reports.first?.hasPrefix("""
            A `forEach` reducer (ComposableArchitectureTests/ScopeAfterStateIsGoneTests.swift:\(Self.forEachLine)) \
            received an action for an element that is not in its collection: id `2`, action `RowAction.tap`.
            """) == true)
    }

    // MARK: ifLet: the scope itself drops and reports

    @Test func ifLetCallsThenAndElseOnEachChangeBetweenNilAndNonNil() {
        let store = Store(initialState: AppState(), reducer: Self.appReducer, environment: ())
        var calls: [String] = []
        var children: [Store<SearchState, SearchAction>] = []
        let cancellable = store.scope(state: \.search, action: AppAction.search).ifLet(
            then: { calls.append("then \($0.state.query)"); children.append($0) },
            else: { calls.append("else") })
        #expect(calls == ["else"])
        store.send(.open)
        #expect(calls == ["else", "then "])
        children[0].send(.queryChanged("swift"))
        store.send(.search(.queryChanged("swifter")))
        #expect(calls == ["else", "then "])  // a change of the value is not a new child
        #expect(children[0].state.query == "swifter")
        store.send(.close)
        #expect(calls == ["else", "then ", "else"])
        #expect(children[0].state.query == "swifter")  // the last value, for a view being dismissed
        store.send(.open)
        #expect(calls == ["else", "then ", "else", "then "])
        cancellable.cancel()
        store.send(.close)
        #expect(calls == ["else", "then ", "else", "then "])
    }

    @Test func ifLetStoreAfterItsStateBecameNilDropsTheActionAndReportsIt() {
        let store = Store(initialState: AppState(), reducer: Self.appReducer, environment: ())
        var child: Store<SearchState, SearchAction>?
        let line = #line + 1
        let cancellable = store.scope(state: \.search, action: AppAction.search).ifLet(then: { child = $0 })
        store.send(.open)
        child?.send(.queryChanged("swift"))
        store.send(.close)
        let actionsBefore = store.state.actions

        let reports = capturingReports {
            child?.send(.queryChanged("combine"))
        }
        #expect(store.state.search == nil)
        #expect(store.state.actions == actionsBefore)  // the action never reached the app's reducer
        #expect(child?.state == SearchState(query: "swift"))
        #expect(reports == ["""
            A store made by `ifLet` (ComposableArchitectureTests/ScopeAfterStateIsGoneTests.swift:\(line)) received an \
            action after its state had become nil: `SearchAction.queryChanged("combine")`. The action was not sent and \
            changed nothing. Whoever holds this store (a view being dismissed?) outlived its state: let go of it when \
            `ifLet`'s `else` runs.
            """])
        _ = cancellable
    }

    @Test func ifLetOverTheRootStoresOwnOptionalState() {
        let reducer = Reducer<Int?, Int, Void> { state, action, _ in
            state = action < 0 ? nil : (state ?? 0) + action
            return .none
        }
        let store = Store(initialState: 1, reducer: reducer, environment: ())
        var child: Store<Int, Int>?
        let cancellable = store.ifLet(then: { child = $0 })
        child?.send(2)
        #expect(store.state == 3)
        #expect(child?.state == 3)
        store.send(-1)
        let reports = capturingReports {
            child?.send(5)
        }
        #expect(store.state == nil)
        #expect(child?.state == 3)
        #expect(reports.count == 1)
        #expect(reports.first?.contains("received an action after its state had become nil: `Int.5`") == true)
        _ = cancellable
    }

    @Test func ifLetKeepsTheStoreUntilItsCancellableGoesAndNothingLeaks() {
        weak var weakStore: Store<AppState, AppAction>?
        weak var weakChild: Store<SearchState, SearchAction>?
        var cancellable: AnyCancellable?
        do {
            let store = Store(initialState: AppState(), reducer: Self.appReducer, environment: ())
            weakStore = store
            var child: Store<SearchState, SearchAction>?
            cancellable = store.scope(state: \.search, action: AppAction.search).ifLet(then: { child = $0 })
            store.send(.open)
            weakChild = child
            #expect(weakChild != nil)
        }
        // The cancellable holds the store (like the scope it was called on) and `then`, whose
        // captured `child` holds the child.
        #expect(weakStore != nil)
        #expect(cancellable != nil)
        cancellable = nil
        #expect(weakStore == nil)
        #expect(weakChild == nil)
    }
}

// MARK: - Fixtures

extension ScopeAfterStateIsGoneTests {
    struct AppState: Equatable {
        var search: SearchState?
        var rows: [Row] = []
        var actions: [AppAction] = []
    }

    struct SearchState: Equatable {
        var query = ""
    }

    enum SearchAction: Equatable {
        case queryChanged(String)
    }

    struct Row: Equatable, Identifiable {
        let id: Int
        var taps = 0
    }

    enum RowAction: Equatable {
        case tap
    }

    enum AppAction: Equatable {
        case open, close
        case search(SearchAction)
        case row(id: Int, action: RowAction)
        case removeRow(id: Int)
    }

    static let optionalLine = #line + 6
    static let forEachLine = #line + 7
    static let appReducer = Reducer<AppState, AppAction, Void>.combine(
        Reducer<SearchState, SearchAction, Void> { state, action, _ in
            switch action { case .queryChanged(let query): state.query = query }
            return .none
        }.optional().pullback(state: \.search, action: /AppAction.search, environment: { _ in () }),
        Reducer<Row, RowAction, Void> { state, _, _ in state.taps += 1; return .none }
            .forEach(state: \.rows, action: /AppAction.row(id:action:), environment: { _ in () }),
        Reducer { state, action, _ in
            state.actions.append(action)
            switch action {
            case .open: state.search = SearchState()
            case .close: state.search = nil
            case .removeRow(let id): state.rows.removeAll { $0.id == id }
            case .search, .row: break
            }
            return .none
        })
}
