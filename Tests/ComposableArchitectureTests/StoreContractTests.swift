import ComposableArchitecture
import Dispatch
import StreamsTesting
import Testing

/// One test (at least) per rule of the store contract (Docs/Contract.docc/StoreContract.md),
/// named after the rule.
@MainActor
@Suite("Store contract (A1–A10, A12)")
struct StoreContractTests {
    // MARK: A1 — send is iterative

    @Test func a1_millionChainedSynchronousActionsDoNotGrowTheStack() {
        struct State {
            var count = 0
            var lowest = UInt.max
            var highest = UInt.min
        }
        let reducer = Reducer<State, Int, Void> { state, n, _ in
            state.count += 1
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            state.lowest = min(state.lowest, address)
            state.highest = max(state.highest, address)
            return n < 1_000_000 ? Effect(value: n + 1) : .none
        }
        let store = Store(initialState: State(), reducer: reducer, environment: ())
        store.send(1)
        #expect(store.state.count == 1_000_000)
        #expect(store.state.highest - store.state.lowest < 16_384)
        #expect(store.runningEffectCount == 0)
    }

    @Test func a1_actionsSentDuringASendAreQueuedFirstInFirstOut() {
        final class Log { var entries: [String] = [] }
        let log = Log()
        var store: Store<Int, String>!
        let reducer = Reducer<Int, String, Void> { state, action, _ in
            log.entries.append(action)
            if action == "a" {
                // From inside the reducer's effect, synchronously.
                return .merge(Effect(value: "b"), Effect(value: "c"))
            }
            return .none
        }
        store = Store(initialState: 0, reducer: reducer, environment: ())
        store.send("a")
        #expect(log.entries == ["a", "b", "c"])
    }

    // MARK: A2 — the queue is drained before the outermost send returns

    @Test func a2_actionsSentWhileStateIsPublishedRunBeforeSendReturns() {
        let reducer = Reducer<Int, Int, Void> { state, action, _ in
            state += action
            return .none
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        var published: [Int] = []
        let observation = store.publisher.sink { value in
            published.append(value)
            if value == 1 { store.send(10) }
        }
        store.send(1)
        #expect(store.state == 11)
        #expect(published == [0, 1, 11])
        _ = observation
    }

    // MARK: A3 — synchronous effect actions run in the same send, breadth-first; one publication

    @Test func a3_breadthFirstOrderAndOneFinalPublication() {
        final class Log { var entries: [String] = [] }
        let log = Log()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            switch action {
            case "root": return .merge(Effect(value: "a"), Effect(value: "b"))
            case "a": return Effect(value: "a1")
            case "b": return Effect(value: "b1")
            default: return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let observation = store.publisher.dropFirst().sink { log.entries.append($0.joined(separator: ",")) }
        store.send("root")
        #expect(store.state == ["root", "a", "b", "a1", "b1"])
        #expect(log.entries == ["root,a,b,a1,b1"])
        _ = observation
    }

    // MARK: A4 — effect bookkeeping never leaks

    @Test func a4_effectCompletingWhileSubscribedIsNeverStored() {
        let reducer = Reducer<Int, Int, Void> { state, action, _ in
            state += 1
            return action == 0 ? Effect(value: 1) : .none
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        store.send(0)
        #expect(store.runningEffectCount == 0)
    }

    @Test func a4_synchronousEffectsLeaveNoRunningEffectsEntry() {
        final class Probe { var countsSeen: [Int] = [] }
        let probe = Probe()
        var store: Store<Int, String>!
        let reducer = Reducer<Int, String, Void> { state, action, _ in
            state += 1
            // Runs while the loop is still going: a stored effect would be counted here.
            probe.countsSeen.append(store.runningEffectCount)
            switch action {
            case "value": return Effect(value: "from value")
            case "sequence": return ["one", "two"].publisher.eraseToEffect()
            case "merged": return .merge(Effect(value: "x"), Just("y").eraseToEffect())
            default: return .none
            }
        }
        store = Store(initialState: 0, reducer: reducer, environment: ())
        for action in ["value", "sequence", "merged"] {
            let task = store.send(action)
            #expect(task.isFinished)
            #expect(store.runningEffectCount == 0)
        }
        #expect(store.state == 8)
        #expect(probe.countsSeen == Array(repeating: 0, count: 8))
    }

    @Test func a4_finishedAndCancelledEffectsAreRemovedAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let reducer = Reducer<Int, String, Void> { state, action, _ in
            switch action {
            case "start": return subject.map { _ in "tick" }.eraseToEffect()
            default:
                state += 1
                return .none
            }
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        let task = store.send("start")
        #expect(store.runningEffectCount == 1)
        subject.send(1)
        #expect(store.state == 1)
        task.cancel()
        #expect(store.runningEffectCount == 0)

        store.send("start")
        #expect(store.runningEffectCount == 1)
        subject.send(completion: .finished)
        #expect(store.runningEffectCount == 0)
    }

    @Test func a4_effectsDoNotKeepTheStoreAliveAndAreCancelledWithIt() {
        let upstream = TestPublisher<Int, Never>()
        weak var weakStore: Store<Int, Int>?
        do {
            let reducer = Reducer<Int, Int, Void> { state, action, _ in
                state = action
                return action == 0 ? upstream.eraseToEffect() : .none
            }
            let store = Store(initialState: -1, reducer: reducer, environment: ())
            weakStore = store
            store.send(0)
            upstream.send(5)
            #expect(store.state == 5)
        }
        #expect(weakStore == nil)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func a4_noneStartsNothing() {
        let reducer = Reducer<Int, Int, Void> { state, action, _ in
            state += action
            return .none
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        let task = store.send(1)
        #expect(store.runningEffectCount == 0)
        #expect(task.isFinished)
        #expect(Effect<Int>.none.isNone)
    }

    // MARK: A5 — cancellation by id

    enum ID: Hashable, Sendable { case timer, search }

    @Test func a5_cancelCancelsEveryEffectSharingTheID() {
        let a = PassthroughSubject<String, Never>()
        let b = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start":
                return .merge(
                    a.eraseToEffect().cancellable(id: ID.timer),
                    b.eraseToEffect().cancellable(id: ID.timer))
            case "stop":
                return .cancel(id: ID.timer)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        a.send("a1")
        b.send("b1")
        store.send("stop")
        a.send("a2")
        b.send("b2")
        #expect(store.state == ["a1", "b1"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a5_cancelInFlightCancelsTheEarlierOnes() {
        let subjects = [PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>()]
        let reducer = Reducer<[String], Int, Void> { state, action, _ in
            if action < 2 {
                return subjects[action].map { "\(action):\($0)" }.eraseToEffect()
                    .cancellable(id: ID.search, cancelInFlight: true)
                    .map { _ in 9 }
            }
            state.append("\(action)")
            return .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send(0)
        store.send(1)
        subjects[0].send("x")
        subjects[1].send("y")
        #expect(store.state == ["9"])
        #expect(store.runningEffectCount == 1)
    }

    @Test func a5_cancelBeforeTheEffectStartsStillWins() {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start":
                // The cancellable effect waits behind another one; the cancel comes first.
                return .concatenate(
                    Just("waiting").delay(for: .seconds(1), scheduler: scheduler).eraseToEffect(),
                    Effect(value: "late").cancellable(id: ID.timer))
            case "cancel":
                return .cancel(id: ID.timer)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        store.send("cancel")
        scheduler.advance(by: .seconds(1))
        #expect(store.state == ["waiting"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a5_cancelInTheSameBatchWinsWhateverTheOrder() {
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "both":
                return .merge(.cancel(id: ID.timer), subject.eraseToEffect().cancellable(id: ID.timer))
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("both")
        subject.send("x")
        #expect(store.state == [])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a5_aCancelWhileTheEffectIsStartingWins() {
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start":
                // The cancel runs while the cancellable effect subscribes to its work, before it
                // is registered under the id.
                return Effect.merge(.cancel(id: ID.timer), subject.eraseToEffect()).cancellable(id: ID.timer)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        subject.send("x")
        #expect(store.state == [])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a5_cancellingIsIdempotent() {
        let reducer = Reducer<Int, Int, Void> { _, _, _ in .merge(.cancel(id: ID.timer), .cancel(id: ID.timer)) }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        store.send(0)
        store.send(0)
        #expect(store.runningEffectCount == 0)
    }

    // MARK: A6 — the cancellable wrapper is transparent

    @Test func a6_synchronousValuesAreNotLostAndNestingWorks() {
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            if action == 0 {
                return [1, 2, 3].publisher.eraseToEffect()
                    .cancellable(id: ID.timer)
                    .cancellable(id: ID.search)
            }
            state.append(action)
            return .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send(0)
        #expect(store.state == [1, 2, 3])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a6_nestedCancelInFlightUnderTheSameIDDoesNotCancelItself() {
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            if action == 0 {
                return Effect(value: 42)
                    .cancellable(id: "id", cancelInFlight: true)
                    .cancellable(id: "id", cancelInFlight: true)
            }
            state.append(action)
            return .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send(0)
        #expect(store.state == [42])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a6_nestedCancelInFlightStillCancelsTheEarlierEffectAndObeysCancel() {
        let subjects = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            switch action {
            case 0, 1:
                return subjects[action].eraseToEffect()
                    .cancellable(id: ID.search, cancelInFlight: true)
                    .map { $0 + 100 }
                    .cancellable(id: ID.search, cancelInFlight: true)
            case -1:
                return .cancel(id: ID.search)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send(0)
        subjects[0].send(1)
        #expect(store.state == [101])
        #expect(store.runningEffectCount == 1)
        store.send(1)  // replaces the first effect, both of its layers
        subjects[0].send(2)
        subjects[1].send(3)
        #expect(store.state == [101, 103])
        #expect(store.runningEffectCount == 1)
        store.send(-1)
        subjects[1].send(4)
        #expect(store.state == [101, 103])
        #expect(store.runningEffectCount == 0)
    }

    // MARK: A7 — ids belong to one store tree

    @Test func a7_twoStoresWithTheSameIDDoNotInterfere() {
        let first = PassthroughSubject<String, Never>()
        let second = PassthroughSubject<String, Never>()
        func reducer(_ subject: PassthroughSubject<String, Never>) -> Reducer<[String], String, Void> {
            Reducer { state, action, _ in
                switch action {
                case "start": return subject.eraseToEffect().cancellable(id: ID.timer)
                case "stop": return .cancel(id: ID.timer)
                default:
                    state.append(action)
                    return .none
                }
            }
        }
        let storeA = Store(initialState: [], reducer: reducer(first), environment: ())
        let storeB = Store(initialState: [], reducer: reducer(second), environment: ())
        storeA.send("start")
        storeB.send("start")
        storeA.send("stop")
        first.send("a")
        second.send("b")
        #expect(storeA.state == [])
        #expect(storeB.state == ["b"])
    }

    @Test func a7_idsAreKeyedByTypeAndValue() {
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start": return subject.eraseToEffect().cancellable(id: 1)
            case "stop string": return .cancel(id: "1")
            case "stop int": return .cancel(id: 1)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        store.send("stop string")
        subject.send("still running")
        store.send("stop int")
        subject.send("stopped")
        #expect(store.state == ["still running"])
    }

    /// How `AnyHashable(id)` reaches the library: Swift 5 code passes it as an identifier
    /// directly; in Swift 6 code it can come through an existential.
    nonisolated static func wrapped(_ id: some Hashable & Sendable) -> any Hashable & Sendable {
        (AnyHashable(id) as Any) as! any Hashable & Sendable
    }

    /// How an identifier is made cancellable, and how it is cancelled, in the tests below.
    enum Spelling: CaseIterable, Sendable { case plain, anyHashable }

    @Test(arguments: Spelling.allCases, Spelling.allCases)
    func a7_anIDIsTheSameIDHoweverItIsWrapped(registered: Spelling, cancelledAs: Spelling) {
        func id(_ spelling: Spelling) -> any Hashable & Sendable {
            spelling == .plain ? ID.timer : Self.wrapped(ID.timer)
        }
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start": return subject.eraseToEffect().cancellable(id: id(registered))
            case "stop one": return .cancel(id: id(cancelledAs))
            case "stop all": return .cancel(ids: [id(cancelledAs)])
            default:
                state.append(action)
                return .none
            }
        }
        for stop in ["stop one", "stop all"] {
            let store = Store(initialState: [], reducer: reducer, environment: ())
            store.send("start")
            subject.send("running")
            store.send(stop)
            subject.send("cancelled")
            #expect(store.state == ["running"], "\(stop)")
            #expect(store.runningEffectCount == 0, "\(stop)")
        }
    }

    @Test(arguments: Spelling.allCases, Spelling.allCases)
    func a7_aWrappedIDMatchesInTheTimeOperators(registered: Spelling, cancelledAs: Spelling) {
        func id(_ spelling: Spelling) -> any Hashable & Sendable {
            spelling == .plain ? "time" : Self.wrapped("time")
        }
        let scheduler = DispatchQueue.test
        func debounced(_ id: some Hashable & Sendable, _ value: String) -> Effect<String> {
            Effect(value: value).debounce(id: id, for: .seconds(1), scheduler: scheduler)
        }
        func timer(_ id: some Hashable & Sendable) -> Effect<String> {
            Effect.timer(id: id, every: .seconds(1), on: scheduler).map { _ in "tick" }
        }
        func throttled(_ id: some Hashable & Sendable, _ value: String) -> Effect<String> {
            Effect(value: value).throttle(id: id, for: .seconds(10), scheduler: scheduler, latest: true)
        }
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "debounce a": return debounced(id(registered), "a")
            case "debounce b": return debounced(id(cancelledAs), "b")
            case "timer": return timer(id(registered))
            case "throttle x": return throttled(id(registered), "x")
            case "throttle y": return throttled(id(cancelledAs), "y")
            case "throttle z": return throttled(id(cancelledAs), "z")
            case "stop": return .cancel(id: id(cancelledAs))
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        // A debounce under one spelling replaces the one waiting under the other.
        store.send("debounce a")
        store.send("debounce b")
        scheduler.advance(by: .seconds(1))
        #expect(store.state == ["b"])
        // A timer under one spelling is stopped by a cancel under the other.
        store.send("timer")
        scheduler.advance(by: .seconds(1))
        store.send("stop")
        scheduler.advance(by: .seconds(5))
        #expect(store.state == ["b", "tick"])
        // Throttled effects under both spellings share one window: y is held, then replaced by z.
        store.send("throttle x")
        store.send("throttle y")
        store.send("throttle z")
        scheduler.advance(by: .seconds(10))
        #expect(store.state == ["b", "tick", "x", "z"])
        #expect(store.runningEffectCount == 0)
    }

    enum SearchID {}
    enum OtherID {}

    @Test func a7_aTypeIsAnID() {
        let subjects = [PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>()]
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start search": return subjects[0].eraseToEffect().cancellable(id: SearchID.self)
            case "start other": return subjects[1].eraseToEffect().cancellable(id: OtherID.self, cancelInFlight: true)
            case "stop search": return .cancel(id: SearchID.self)
            case "stop both": return .cancel(ids: [SearchID.self, OtherID.self])
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start search")
        store.send("start other")
        store.send("stop search")
        subjects[0].send("search")
        subjects[1].send("other")
        #expect(store.state == ["other"])
        store.send("start search")
        store.send("stop both")
        subjects[0].send("search")
        subjects[1].send("other")
        #expect(store.state == ["other"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a7_aTypeIsAnIDInTheTimeOperators() {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "debounce a", "debounce b":
                return Effect(value: String(action.suffix(1)))
                    .debounce(id: SearchID.self, for: .seconds(1), scheduler: scheduler)
            case "timer":
                return Effect.timer(id: OtherID.self, every: .seconds(1), on: scheduler).map { _ in "tick" }
            case "stop timer":
                return .cancel(id: OtherID.self)
            case "throttle x", "throttle y":
                return Effect(value: String(action.suffix(1)))
                    .throttle(id: SearchID.self, for: .seconds(10), scheduler: scheduler, latest: false)
            case "stop throttle":
                return .cancel(id: SearchID.self)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("debounce a")
        store.send("debounce b")
        scheduler.advance(by: .seconds(1))
        #expect(store.state == ["b"])
        store.send("timer")
        scheduler.advance(by: .seconds(2))
        store.send("stop timer")
        scheduler.advance(by: .seconds(2))
        #expect(store.state == ["b", "tick", "tick"])
        store.send("throttle x")
        scheduler.advance()  // x is sent, and opens a window
        store.send("throttle y")  // held until the window closes...
        store.send("stop throttle")  // ...and dropped
        scheduler.advance(by: .seconds(10))
        #expect(store.state == ["b", "tick", "tick", "x"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a7_idsWorkThroughPullbackAndCombine() {
        enum AppAction {
            case child(String)
            case other
        }
        let subject = PassthroughSubject<String, Never>()
        let child = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start": return subject.eraseToEffect().cancellable(id: ID.timer)
            case "stop": return .cancel(id: ID.timer)
            default:
                state.append(action)
                return .none
            }
        }
        let app = Reducer<[String], AppAction, Void>.combine(
            child.pullback(state: \.self, action: /AppAction.child, environment: { _ in () }),
            .empty)
        let store = Store(initialState: [], reducer: app, environment: ())
        store.send(.child("start"))
        subject.send("x")
        store.send(.child("stop"))
        subject.send("y")
        #expect(store.state == ["x"])
    }

    // MARK: A9 — state changes only on the main actor

    @Test func a9_actionsFromAnotherThreadRunOnTheMainQueue() async {
        final class Probe: @unchecked Sendable { var onMain: [Bool] = [] }
        let probe = Probe()
        let reducer = Reducer<Int, Int, Void> { state, action, _ in
            probe.onMain.append(MainQueue.isCurrent)
            state = action
            if action == 0 {
                return Future { promise in
                    DispatchQueue.global().async { promise(.success(1)) }
                }.eraseToEffect()
            }
            return .none
        }
        let store = Store(initialState: -1, reducer: reducer, environment: ())
        // finish() returns once the effect's completion has reached the main queue, which is
        // after the action it sent from the other thread.
        await store.send(0).finish()
        #expect(store.state == 1)
        #expect(probe.onMain == [true, true])
    }

    // MARK: A10 — scope

    @Test func a10_scopedStoreSendsToTheRootAndComputesStateOncePerSend() {
        struct AppState {
            var count = 0
            var name = ""
        }
        enum AppAction {
            case increment
            case rename(String)
        }
        let reducer = Reducer<AppState, AppAction, Void> { state, action, _ in
            switch action {
            case .increment: state.count += 1
            case .rename(let name): state.name = name
            }
            return .none
        }
        let store = Store(initialState: AppState(), reducer: reducer, environment: ())
        final class Counter { var transforms = 0 }
        let counter = Counter()
        let child = store.scope(
            state: { (state: AppState) -> Int in
                counter.transforms += 1
                return state.count
            }, action: { (_: Void) in AppAction.increment })
        // A scope nobody observes computes nothing; reading its state starts observing it.
        child.send(())
        #expect(counter.transforms == 0)
        #expect(child.state == 1)
        #expect(counter.transforms == 1)
        store.send(.increment)
        let before = counter.transforms
        child.send(())
        child.send(())
        #expect(store.state.count == 4)
        #expect(child.state == 4)
        #expect(counter.transforms - before == 2)
    }

    @Test func a10_scopeOfEquatableStateDoesNotRepublishWhenItDidNotChange() {
        struct AppState {
            var count = 0
            var name = ""
        }
        let reducer = Reducer<AppState, String, Void> { state, action, _ in
            if action == "increment" { state.count += 1 } else { state.name = action }
            return .none
        }
        let store = Store(initialState: AppState(), reducer: reducer, environment: ())
        let child = store.scope(state: \.count)
        let grandchild = child.scope(state: { $0 * 10 })
        var counts: [Int] = []
        var tens: [Int] = []
        let observations = [
            child.publisher.sink { counts.append($0) },
            grandchild.publisher.sink { tens.append($0) },
        ]
        store.send("renamed")
        store.send("renamed again")
        store.send("increment")
        store.send("renamed once more")
        #expect(counts == [0, 1])
        #expect(tens == [0, 10])
        _ = observations
    }

    @Test func a10_aSendThroughNestedScopesReachesTheRootOnce() {
        final class Log { var actions: [Int] = [] }
        let log = Log()
        let reducer = Reducer<Int, Int, Void> { state, action, _ in
            log.actions.append(action)
            state += action
            return .none
        }
        let root = Store(initialState: 0, reducer: reducer, environment: ())
        let deep = root.scope(state: { $0 }, action: { $0 + 1 })
            .scope(state: { $0 }, action: { $0 * 10 })
            .scope(state: { $0 }, action: { $0 + 2 })
        deep.send(1)
        #expect(log.actions == [31])
        #expect(deep.state == 31)
    }

    @Test func a10_childDoesNotKeepTheParentAliveByAccidentNorOutliveItsEffects() {
        weak var weakParent: Store<Int, Int>?
        weak var weakChild: Store<Int, Int>?
        let upstream = TestPublisher<Int, Never>()
        do {
            let reducer = Reducer<Int, Int, Void> { state, action, _ in
                state = action
                return action == 0 ? upstream.eraseToEffect() : .none
            }
            let parent = Store(initialState: -1, reducer: reducer, environment: ())
            let child = parent.scope(state: { $0 })
            weakParent = parent
            weakChild = child
            child.send(0)
            #expect(parent.runningEffectCount == 1)
        }
        #expect(weakChild == nil)
        #expect(weakParent == nil)
        #expect(upstream.history.last == .cancelled)
    }

    // MARK: A12 — combine and pullback

    @Test func a12_combineRunsInOrderAndMergesEffects() {
        let first = Reducer<[String], String, Void> { state, action, _ in
            state.append("first:\(action)")
            return action == "go" ? Effect(value: "from first") : .none
        }
        let second = Reducer<[String], String, Void> { state, action, _ in
            state.append("second:\(action)")
            return action == "go" ? Effect(value: "from second") : .none
        }
        let store = Store(initialState: [], reducer: .combine(first, second), environment: ())
        store.send("go")
        #expect(
            store.state == [
                "first:go", "second:go",
                "first:from first", "second:from first",
                "first:from second", "second:from second",
            ])
    }

    @Test func a12_pullbackIgnoresOtherActionsAndMapsEffectsBack() {
        enum AppAction: Equatable {
            case counter(Int)
            case other
        }
        struct AppState {
            var counter = 0
            var others = 0
        }
        let counter = Reducer<Int, Int, Void> { state, action, _ in
            state += action
            return action == 1 ? Effect(value: 10) : .none
        }
        let app = Reducer<AppState, AppAction, Void>.combine(
            counter.pullback(state: \.counter, action: /AppAction.counter, environment: { _ in () }),
            Reducer { state, action, _ in
                if action == .other { state.others += 1 }
                return .none
            })
        let store = Store(initialState: AppState(), reducer: app, environment: ())
        store.send(.other)
        #expect(store.state.counter == 0)
        store.send(.counter(1))
        #expect(store.state.counter == 11)
        #expect(store.state.others == 1)
    }
}
