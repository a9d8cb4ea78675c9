import ComposableArchitecture
import Dispatch
import StreamsTesting
import Testing

/// `Store.stateless` (sends, shows nothing) and `Store.actionless` (shows, sends nothing).
@MainActor
@Suite("Store: stateless and actionless")
struct StoreStatelessTests {
    struct LoadState: Equatable {
        var count = 0
        var isLoading = false
    }

    enum LoadAction: Equatable { case increment, touch, load, loaded }

    static func makeStore(_ scheduler: TestSchedulerOf<DispatchQueue>) -> Store<LoadState, LoadAction> {
        Store(initialState: LoadState(), reducer: Reducer { state, action, _ in
            switch action {
            case .increment:
                state.count += 1
                return .none
            case .touch:
                return .none
            case .load:
                state.isLoading = true
                return Effect(value: .loaded).deferred(for: .seconds(1), scheduler: scheduler)
            case .loaded:
                state.isLoading = false
                return .none
            }
        }, environment: ())
    }

    @Test func aStatelessStoreSendsToItsStoreAndReturnsItsTask() {
        let scheduler = DispatchQueue.test
        let store = Self.makeStore(scheduler)
        let stateless: Store<Void, LoadAction> = store.stateless
        stateless.send(.increment)
        #expect(store.state.count == 1)

        let task = stateless.send(.load)
        #expect(store.state.isLoading)
        #expect(!task.isFinished)
        scheduler.advance(by: .seconds(1))
        #expect(task.isFinished)
        #expect(store.state == LoadState(count: 1, isLoading: false))
    }

    @Test func aStatelessStoreObservedDirectlyNeverPublishesAgain() {
        let store = Self.makeStore(DispatchQueue.test)
        let stateless = store.stateless
        var published = 0
        var willChange = 0
        let c1 = stateless.publisher.sink { _ in published += 1 }
        let c2 = stateless.objectWillChange.sink { willChange += 1 }
        stateless.send(.increment)
        store.send(.increment)
        #expect(published == 1)  // the state when subscribed; `()` never changes
        #expect(willChange == 0)
        _ = (c1, c2)
    }

    @Test func aStatelessStoreKeepsItsStoreAlive() {
        weak var weakStore: Store<LoadState, LoadAction>?
        var stateless: Store<Void, LoadAction>?
        do {
            let store = Self.makeStore(DispatchQueue.test)
            weakStore = store
            stateless = store.stateless
        }
        #expect(weakStore != nil)
        stateless?.send(.increment)
        #expect(weakStore?.state.count == 1)
        stateless = nil
        #expect(weakStore == nil)
    }

    @Test func anActionlessStoreShowsTheStateAndPublishesOnlyChanges() {
        let store = Self.makeStore(DispatchQueue.test)
        let actionless: Store<LoadState, Never> = store.actionless
        var seen: [Int] = []
        let c = actionless.publisher.sink { seen.append($0.count) }
        store.send(.touch)
        store.send(.increment)
        #expect(seen == [0, 1])
        #expect(actionless.state == store.state)
        _ = c
    }
}
