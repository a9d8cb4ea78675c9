import ComposableArchitecture
import Streams
import Testing

/// `store.scope(id:state:action:)`: a store of one element of an identified collection.
@MainActor
@Suite("Store of one element")
struct StoreElementTests {
    struct Row: Equatable, Identifiable {
        let id: Int
        var taps = 0
    }

    enum RowAction: Equatable {
        case tap
        case tapLater
    }

    struct ListState: Equatable {
        var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2), Row(id: 3)]
    }

    enum ListAction: Equatable {
        case row(id: Int, action: RowAction)
        case remove(id: Int)
        case add(id: Int)
        case reverse
    }

    static let rowReducer = Reducer<Row, RowAction, Void> { state, action, _ in
        switch action {
        case .tap:
            state.taps += 1
            return .none
        case .tapLater:
            return Effect(value: .tap)
        }
    }

    static let listReducer = Reducer<ListState, ListAction, Void>.combine(
        rowReducer.forEach(state: \.rows, action: /ListAction.row(id:action:), environment: { $0 }),
        Reducer { state, action, _ in
            switch action {
            case .row: break
            case let .remove(id): state.rows.remove(id: id)
            case let .add(id): state.rows.append(Row(id: id))
            case .reverse: state.rows.reverse()
            }
            return .none
        })

    func makeStore() -> Store<ListState, ListAction> {
        Store(initialState: ListState(), reducer: Self.listReducer, environment: ())
    }

    @Test func aStoreOfTheElementWithTheIDFollowsItAndSendsTaggedActions() {
        let store = makeStore()
        let row = store.scope(id: 2, state: \.rows, action: ListAction.row(id:action:))
        #expect(row?.state == Row(id: 2))
        row?.send(.tap)
        #expect(store.state.rows[id: 2]?.taps == 1)
        #expect(row?.state == Row(id: 2, taps: 1))
        row?.send(.tapLater)  // its effect's action comes back tagged with the id
        #expect(row?.state == Row(id: 2, taps: 2))
        store.send(.row(id: 2, action: .tap))
        #expect(row?.state == Row(id: 2, taps: 3))
        store.send(.reverse)  // found by id, wherever it moves
        #expect(row?.state == Row(id: 2, taps: 3))
        store.send(.row(id: 1, action: .tap))
        #expect(store.state.rows.map(\.taps) == [0, 3, 1])
    }

    @Test func publishesTheElementAfterEachSend() {
        let store = makeStore()
        let row = store.scope(id: 3, state: \.rows, action: ListAction.row(id:action:))!
        var seen: [Int] = []
        let cancellable = row.publisher.taps.sink { seen.append($0) }
        store.send(.row(id: 3, action: .tap))
        store.send(.row(id: 1, action: .tap))  // another row: this one's taps do not change
        row.send(.tap)
        #expect(seen == [0, 1, 2])
        cancellable.cancel()
    }

    @Test func noElementWithTheIDGivesNoStore() {
        let store = makeStore()
        #expect(store.scope(id: 9, state: \.rows, action: ListAction.row(id:action:)) == nil)
    }

    @Test func afterItsElementIsRemovedTheStoreKeepsTheLastValueAndStopsUpdating() {
        let store = makeStore()
        let row = store.scope(id: 2, state: \.rows, action: ListAction.row(id:action:))!
        var published: [Row] = []
        let cancellable = row.publisher.sink { published.append($0) }
        row.send(.tap)
        store.send(.remove(id: 2))
        #expect(row.state == Row(id: 2, taps: 1))
        store.send(.row(id: 1, action: .tap))
        store.send(.reverse)
        #expect(row.state == Row(id: 2, taps: 1))
        #expect(store.state.rows.ids == [3, 1])
        #expect(published == [Row(id: 2), Row(id: 2, taps: 1)])  // nothing after the removal
        cancellable.cancel()
    }

    @Test func anActionSentAfterItsElementIsRemovedIsDroppedAndReported() {
        let store = makeStore()
        let line = #line + 1
        let row = store.scope(id: 2, state: \.rows, action: ListAction.row(id:action:))!
        store.send(.remove(id: 2))
        let reports = capturingReports {
            row.send(.tapLater)
        }
        #expect(store.state == ListState(rows: [Row(id: 1), Row(id: 3)]))
        #expect(store.runningEffectCount == 0)
        // The store drops it: the forEach reducer never sees it (it would report "not in its collection").
        #expect(reports == ["""
            A store made by `ifLet` (ComposableArchitectureTests/Store+ElementTests.swift:\(line)) received an \
            action after its state had become nil: `RowAction.tapLater`. The action was not sent and changed \
            nothing. Whoever holds this store (a view being dismissed?) outlived its state: let go of it when \
            `ifLet`'s `else` runs.
            """])
    }

    @Test func anElementAddedAgainWithTheSameIDIsFollowedAgain() {
        let store = makeStore()
        let row = store.scope(id: 2, state: \.rows, action: ListAction.row(id:action:))!
        row.send(.tap)
        store.send(.remove(id: 2))
        store.send(.add(id: 2))
        #expect(row.state == Row(id: 2))
        let reports = capturingReports { row.send(.tap) }
        #expect(reports.isEmpty)
        #expect(store.state.rows[id: 2]?.taps == 1)
    }

    @Test func theElementsStoreDoesNotKeepItsParentAliveByAccidentAndIsNotKeptByIt() {
        weak var weakRow: Store<Row, RowAction>?
        weak var weakStore: Store<ListState, ListAction>?
        do {
            let store = makeStore()
            weakStore = store
            do {
                let row = store.scope(id: 1, state: \.rows, action: ListAction.row(id:action:))
                weakRow = row
                #expect(weakRow != nil)
            }
            #expect(weakRow == nil)  // the parent does not keep the child
            store.send(.row(id: 1, action: .tap))
        }
        #expect(weakStore == nil)
    }

    @Test func theElementsStoreKeepsItsParentAliveWhileHeld() {
        var row: Store<Row, RowAction>?
        weak var weakStore: Store<ListState, ListAction>?
        do {
            let store = makeStore()
            weakStore = store
            row = store.scope(id: 1, state: \.rows, action: ListAction.row(id:action:))
        }
        #expect(weakStore != nil)
        row?.send(.tap)
        #expect(weakStore?.state.rows[id: 1]?.taps == 1)
        row = nil
        #expect(weakStore == nil)
    }
}
