import ComposableArchitecture
import Dispatch
import Observation
import StreamsTesting
import Synchronization
import Testing

/// `ViewStore`: a store's state with the duplicates removed (publisher, `objectWillChange`,
/// Observation), sends, and waits on the state (`send(_:while:)`, `yield(while:)`).
@MainActor
@Suite("ViewStore")
struct ViewStoreTests {
    struct ViewState: Equatable {
        var count = 0
        var name = ""
        var isLoading = false
        var step = 0
    }

    enum ViewAction: Equatable {
        /// `count += 1`.
        case increment
        /// Renames.
        case rename(String)
        /// Changes nothing.
        case touch
        /// Three increments through synchronous effects.
        case chain
        /// Starts loading: a `progress` after half a second and `loaded` after a second, on the
        /// scheduler.
        case refresh
        /// `step += 1`, still loading.
        case progress
        /// `step += 1`, done loading.
        case loaded
    }

    static func reducer(_ scheduler: TestSchedulerOf<DispatchQueue>) -> Reducer<ViewState, ViewAction, Void> {
        Reducer { state, action, _ in
            switch action {
            case .increment:
                state.count += 1
                return .none
            case .rename(let name):
                state.name = name
                return .none
            case .touch:
                return .none
            case .chain:
                return .merge(Effect(value: .increment), [.increment, .increment].publisher.eraseToEffect())
            case .refresh:
                state.isLoading = true
                return .merge(
                    Effect(value: .progress).deferred(for: .milliseconds(500), scheduler: scheduler),
                    Effect(value: .loaded).deferred(for: .seconds(1), scheduler: scheduler))
            case .progress:
                state.step += 1
                return .none
            case .loaded:
                state.step += 1
                state.isLoading = false
                return .none
            }
        }
    }

    static func makeStore(_ scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test) -> Store<ViewState, ViewAction> {
        Store(initialState: ViewState(), reducer: reducer(scheduler), environment: ())
    }

    /// What a task did, on the main actor.
    final class Log { var entries: [String] = [] }

    // MARK: - State and dynamic members

    @Test func stateAndDynamicMembersShowTheStoresState() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        #expect(viewStore.state == ViewState())
        viewStore.send(.increment)
        viewStore.send(.rename("Blob"))
        #expect(viewStore.count == 1)
        #expect(viewStore.name == "Blob")
        #expect(viewStore.state == store.state)
    }

    @Test func sendReturnsTheStoresTask() async {
        let scheduler = DispatchQueue.test
        let store = Self.makeStore(scheduler)
        let viewStore = ViewStore(store)
        #expect(viewStore.send(.increment).isFinished)
        let task = viewStore.send(.refresh)
        #expect(!task.isFinished)
        #expect(store.runningEffectCount == 1)
        task.cancel()
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
    }

    // MARK: - The publisher

    @Test func theEquatableInitPublishesTheCurrentStateThenOnlyChanges() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        var fromStore: [ViewState] = []
        var fromViewStore: [ViewState] = []
        let c1 = store.publisher.sink { fromStore.append($0) }
        let c2 = viewStore.publisher.sink { fromViewStore.append($0) }
        #expect(fromViewStore == [ViewState()])

        // The store publishes after every send; the view store only when the state changed.
        viewStore.send(.touch)
        #expect(fromStore.count == 2)
        #expect(fromViewStore == [ViewState()])

        viewStore.send(.increment)
        #expect(fromViewStore == [ViewState(), ViewState(count: 1)])
        _ = (c1, c2)
    }

    @Test func aSendAndEverythingItCausesIsPublishedOnceWithTheFinalState() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        var seen: [Int] = []
        let c = viewStore.publisher.sink { seen.append($0.count) }
        viewStore.send(.chain)
        #expect(seen == [0, 3])
        _ = c
    }

    @Test func whenAValueArrivesTheStateAlreadyShowsIt() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        var mismatches = 0
        let c = viewStore.publisher.sink { if $0 != viewStore.state { mismatches += 1 } }
        viewStore.send(.increment)
        viewStore.send(.chain)
        #expect(mismatches == 0)
        _ = c
    }

    @Test func aPartOfThePublisherSendsOnlyWhenThatPartChanges() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        var names: [String] = []
        var counts: [Int] = []
        let c1 = viewStore.publisher.name.sink { names.append($0) }
        let c2 = viewStore.publisher(for: \.count).sink { counts.append($0) }
        viewStore.send(.increment)
        viewStore.send(.rename("Blob"))
        viewStore.send(.increment)
        #expect(names == ["", "Blob"])
        #expect(counts == [0, 1, 2])
        _ = (c1, c2)
    }

    @Test func removeDuplicatesDecidesWhatIsPassedOn() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store, removeDuplicates: { $0.count == $1.count })
        var seen: [ViewState] = []
        let c = viewStore.publisher.sink { seen.append($0) }
        viewStore.send(.rename("Blob"))
        // The view store keeps the state it last passed on: the rename is a duplicate for it.
        #expect(seen == [ViewState()])
        #expect(viewStore.name == "")
        #expect(store.state.name == "Blob")
        viewStore.send(.increment)
        #expect(seen == [ViewState(), ViewState(count: 1, name: "Blob")])
        #expect(viewStore.name == "Blob")
        _ = c
    }

    @Test func anObserverThatSendsSeesTheNextStateAfterItReturns() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        var seen: [Int] = []
        let c = viewStore.publisher(for: \.count).sink { count in
            seen.append(count)
            if count == 1 { viewStore.send(.increment) }
        }
        viewStore.send(.increment)
        #expect(seen == [0, 1, 2])
        #expect(viewStore.count == 2)
        _ = c
    }

    // MARK: - objectWillChange

    @Test func objectWillChangeFiresOncePerChangeBeforeItIsVisible() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        var seen: [Int] = []
        let c = viewStore.objectWillChange.sink { seen.append(viewStore.count) }
        viewStore.send(.touch)
        #expect(seen == [])
        viewStore.send(.increment)
        #expect(seen == [0])
        #expect(viewStore.count == 1)
        viewStore.send(.chain)
        #expect(seen == [0, 1])
        #expect(viewStore.count == 4)
        _ = c
    }

    @Test func objectWillChangeFollowsRemoveDuplicates() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store, removeDuplicates: { $0.name == $1.name })
        var fired = 0
        let c = viewStore.objectWillChange.sink { fired += 1 }
        viewStore.send(.increment)
        viewStore.send(.chain)
        #expect(fired == 0)
        viewStore.send(.rename("Blob"))
        #expect(fired == 1)
        _ = c
    }

    // MARK: - Observation

    /// Counts the changes Observation told of.
    final class Changes: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    func track(_ changes: Changes, _ read: () -> Void) {
        withObservationTracking(read, onChange: { changes.count.add(1, ordering: .relaxed) })
    }

    @Test func aReadOfADynamicMemberIsToldOncePerChange() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        let changes = Changes()
        track(changes) { _ = viewStore.count }
        viewStore.send(.touch)
        #expect(changes.value == 0)
        viewStore.send(.chain)
        #expect(changes.value == 1)

        track(changes) { _ = viewStore.state }
        viewStore.send(.increment)
        #expect(changes.value == 2)
        #expect(viewStore.count == 4)
    }

    @Test func observationFollowsRemoveDuplicates() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store, removeDuplicates: { $0.name == $1.name })
        let changes = Changes()
        track(changes) { _ = viewStore.state }
        viewStore.send(.increment)
        #expect(changes.value == 0)
        viewStore.send(.rename("Blob"))
        #expect(changes.value == 1)
    }

    @Test func withoutAReadNothingIsTold() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        let changes = Changes()
        track(changes) { _ = store.runningEffectCount }
        viewStore.send(.increment)
        #expect(changes.value == 0)
    }

    // MARK: - send(_:while:) and yield(while:)

    /// Starts `body` in a task and returns once the task has run up to its first suspension
    /// (the main actor runs one job at a time: the task's first job ends where it suspends).
    func started(_ body: @escaping @MainActor () async -> Void) async -> Task<Void, Never> {
        let (signals, signal) = AsyncStream<Void>.makeStream()
        let task = Task { @MainActor in
            signal.yield()
            await body()
        }
        for await _ in signals { break }
        return task
    }

    @Test func sendWhileSuspendsUntilThePredicateIsFalse() async {
        let scheduler = DispatchQueue.test
        let store = Self.makeStore(scheduler)
        let viewStore = ViewStore(store)
        let log = Log()
        let task = await started {
            await viewStore.send(.refresh, while: \.isLoading)
            log.entries.append("resumed at step \(viewStore.step)")
        }
        #expect(viewStore.isLoading)

        // A change that keeps the predicate true: still waiting.
        await scheduler.advance(by: .milliseconds(500))
        #expect(viewStore.step == 1)
        await Task.yield()
        #expect(log.entries == [])

        await scheduler.advance(by: .milliseconds(500))
        await task.value
        #expect(log.entries == ["resumed at step 2"])
        #expect(!viewStore.isLoading)
    }

    @Test func sendWhileReturnsAtOnceWhenThePredicateIsAlreadyFalse() async {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        await viewStore.send(.increment, while: \.isLoading)
        #expect(viewStore.count == 1)
    }

    @Test func cancellingSendWhileStopsWaitingAndCancelsTheEffects() async {
        let scheduler = DispatchQueue.test
        let store = Self.makeStore(scheduler)
        let viewStore = ViewStore(store)
        let task = await started {
            await viewStore.send(.refresh, while: \.isLoading)
        }
        #expect(store.runningEffectCount == 1)
        task.cancel()
        await task.value
        #expect(store.runningEffectCount == 0)
        await scheduler.advance(by: .seconds(1))
        #expect(viewStore.state == ViewState(isLoading: true))
    }

    @Test func yieldWhileWaitsForAStateThePredicateRejects() async {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        let log = Log()
        let task = await started {
            await viewStore.yield(while: { $0.count < 2 })
            log.entries.append("resumed at \(viewStore.count)")
        }
        viewStore.send(.increment)
        viewStore.send(.rename("Blob"))
        await Task.yield()
        #expect(log.entries == [])

        viewStore.send(.increment)
        await task.value
        #expect(log.entries == ["resumed at 2"])
    }

    @Test func yieldWhileReturnsAtOnceWhenThePredicateIsAlreadyFalse() async {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        await viewStore.yield(while: { $0.count > 0 })
        #expect(viewStore.count == 0)
    }

    @Test func cancellingYieldWhileStopsWaiting() async {
        let store = Self.makeStore()
        let viewStore = ViewStore(store)
        let task = await started {
            await viewStore.yield(while: { $0.count < 2 })
        }
        task.cancel()
        await task.value
        #expect(viewStore.count == 0)
    }

    // MARK: - Lifetimes

    @Test func aSubscriptionKeepsTheViewStoreAliveUntilItIsCancelled() {
        let store = Self.makeStore()
        weak var weakViewStore: ViewStore<ViewState, ViewAction>?
        var seen: [Int] = []
        var subscription: AnyCancellable?
        do {
            let viewStore = ViewStore(store)
            weakViewStore = viewStore
            subscription = viewStore.publisher(for: \.count).sink { seen.append($0) }
        }
        store.send(.increment)
        #expect(seen == [0, 1])
        #expect(weakViewStore != nil)
        subscription?.cancel()
        subscription = nil
        #expect(weakViewStore == nil)
    }

    @Test func theStoreDoesNotKeepTheViewStoreButTheViewStoreKeepsTheStore() {
        weak var weakStore: Store<ViewState, ViewAction>?
        weak var weakViewStore: ViewStore<ViewState, ViewAction>?
        var viewStore: ViewStore<ViewState, ViewAction>?
        do {
            let store = Self.makeStore()
            weakStore = store
            viewStore = ViewStore(store)
            weakViewStore = viewStore
        }
        #expect(weakStore != nil)
        viewStore?.send(.increment)
        #expect(viewStore?.count == 1)
        viewStore = nil
        #expect(weakViewStore == nil)
        #expect(weakStore == nil)
    }

    // MARK: - Stores that only send or only show

    @Test func aViewStoreOfAStatelessStoreOnlySends() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store.stateless)
        var published = 0
        var willChange = 0
        let c1 = viewStore.publisher.sink { published += 1 }
        let c2 = viewStore.objectWillChange.sink { willChange += 1 }
        viewStore.send(.increment)
        viewStore.send(.chain)
        #expect(store.state.count == 4)
        #expect(published == 1)
        #expect(willChange == 0)
        _ = (c1, c2)
    }

    @Test func aViewStoreOfAnActionlessStoreShowsTheState() {
        let store = Self.makeStore()
        let viewStore = ViewStore(store.actionless)
        var seen: [Int] = []
        let c = viewStore.publisher(for: \.count).sink { seen.append($0) }
        store.send(.increment)
        #expect(seen == [0, 1])
        #expect(viewStore.state == store.state)
        _ = c
    }

    // MARK: - README

    @Test func readmeViewModelShowsTheCountAndSends() {
        let store = Store(initialState: CounterState(), reducer: counterReducer, environment: .live)
        let model = CounterViewModel(store: store)
        #expect(model.countLabel == "0")
        model.incrementButtonTapped()
        #expect(model.countLabel == "1")
        #expect(store.state == CounterState(count: 1, fact: "1 is a number"))
    }
}

// `CounterViewModel` is README's view model itself, compiled as written into
// DocExamples.generated.swift (Scripts/extract-examples).
