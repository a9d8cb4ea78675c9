import ComposableArchitecture
import Observation
import Synchronization
import Testing

/// `Store` is `Observable` (Observation) and an `ObservableObject`: one notification per
/// outermost send (A3), never in the middle of one; scopes of `Equatable` state notify only when
/// their state changed.
@MainActor
@Suite("Store observation")
struct StoreObservationTests {
    struct AppState: Equatable {
        var count = 0
        var name = ""
    }

    /// Counts reducer runs and the notifications that arrived, with the number of reducer runs
    /// at the time of each notification.
    final class Probe: Sendable {
        let reducerRuns = Atomic<Int>(0)
        let notifications = Atomic<Int>(0)
        let runsAtLastNotification = Atomic<Int>(-1)

        func notified() {
            notifications.add(1, ordering: .relaxed)
            runsAtLastNotification.store(reducerRuns.load(ordering: .relaxed), ordering: .relaxed)
        }
    }

    /// "increment" changes `count`; "chain" increments three times through synchronous
    /// effects; anything else renames.
    static func reducer(_ probe: Probe) -> Reducer<AppState, String, Void> {
        Reducer { state, action, _ in
            probe.reducerRuns.add(1, ordering: .relaxed)
            switch action {
            case "increment":
                state.count += 1
                return .none
            case "chain":
                return .merge(Effect(value: "increment"), ["increment", "increment"].publisher.eraseToEffect())
            default:
                state.name = action
                return .none
            }
        }
    }

    /// Tracks `read` once (Observation's tracking is one-shot): `probe` counts the change.
    func track(_ probe: Probe, _ read: () -> Void) {
        withObservationTracking(read, onChange: { probe.notified() })
    }

    @Test func readingTheStateInsideTrackingNotifiesOncePerSend() {
        let probe = Probe()
        let store = Store(initialState: AppState(), reducer: Self.reducer(probe), environment: ())
        track(probe) { _ = store.state.count }
        store.send("increment")
        #expect(probe.notifications.load(ordering: .relaxed) == 1)

        // A send whose effects send more actions synchronously: still one notification, after
        // all four reducer runs.
        track(probe) { _ = store.state }
        let runsBefore = probe.reducerRuns.load(ordering: .relaxed)
        store.send("chain")
        #expect(probe.notifications.load(ordering: .relaxed) == 2)
        #expect(probe.runsAtLastNotification.load(ordering: .relaxed) == runsBefore + 4)
        #expect(store.state.count == 4)
    }

    @Test func withoutTrackingNothingIsNotified() {
        let probe = Probe()
        let store = Store(initialState: AppState(), reducer: Self.reducer(probe), environment: ())
        track(probe) { _ = store.runningEffectCount }
        store.send("increment")
        #expect(probe.notifications.load(ordering: .relaxed) == 0)
    }

    @Test func aScopedStoreNotifiesOnlyWhenItsStateChanged() {
        let probe = Probe()
        let store = Store(initialState: AppState(), reducer: Self.reducer(probe), environment: ())
        let counter = store.scope(state: \.count)
        track(probe) { _ = counter.state }
        store.send("renamed")  // the count did not change
        #expect(probe.notifications.load(ordering: .relaxed) == 0)
        counter.send("chain")  // three increments: one notification, after all of them
        #expect(probe.notifications.load(ordering: .relaxed) == 1)
        #expect(probe.runsAtLastNotification.load(ordering: .relaxed) == 5)
        #expect(counter.state == 3)
    }

    @Test func aNestedScopeNotifiesThroughAParentNobodyElseObserves() {
        let probe = Probe()
        let store = Store(initialState: AppState(), reducer: Self.reducer(probe), environment: ())
        let name = store.scope(state: { $0 }).scope(state: \.name)
        track(probe) { _ = name.state }
        store.send("increment")
        #expect(probe.notifications.load(ordering: .relaxed) == 0)
        store.send("Blob")
        #expect(probe.notifications.load(ordering: .relaxed) == 1)
        #expect(name.state == "Blob")
    }

    @Test func objectWillChangeFiresOnceBeforeEachPublicationWhileTheOldStateShows() {
        let probe = Probe()
        let store = Store(initialState: AppState(), reducer: Self.reducer(probe), environment: ())
        var seen: [Int] = []
        let observation = store.objectWillChange.sink { seen.append(store.state.count) }
        store.send("increment")
        #expect(seen == [0])
        #expect(store.state.count == 1)
        store.send("chain")
        #expect(seen == [0, 1])
        #expect(store.state.count == 4)
        _ = observation
    }

    @Test func objectWillChangeFiresAgainForActionsSentDuringThePublication() {
        let probe = Probe()
        let store = Store(initialState: AppState(), reducer: Self.reducer(probe), environment: ())
        var seen: [Int] = []
        let willChange = store.objectWillChange.sink { seen.append(store.state.count) }
        // An observer of the state sends once more (A2): a second round, a second publication.
        let published = store.publisher(for: \.count).sink { count in
            if count == 1 { store.send("increment") }
        }
        store.send("increment")
        #expect(seen == [0, 1])
        #expect(store.state.count == 2)
        _ = (willChange, published)
    }

    @Test func aScopesObjectWillChangeFiresOnlyWhenItsStateChanges() {
        let probe = Probe()
        let store = Store(initialState: AppState(), reducer: Self.reducer(probe), environment: ())
        let counter = store.scope(state: \.count)
        var seen: [Int] = []
        let observation = counter.objectWillChange.sink { seen.append(counter.state) }
        store.send("renamed")
        #expect(seen == [])
        store.send("increment")
        #expect(seen == [0])
        #expect(counter.state == 1)
        _ = observation
    }
}
