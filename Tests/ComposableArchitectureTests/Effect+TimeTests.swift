import ComposableArchitecture
import Dispatch
import StreamsTesting
import Testing

@MainActor
@Suite("Effect and time: deferred, debounce, throttle, timer (A8)")
struct EffectTimeTests {
    enum ID: Hashable, Sendable { case search, scroll, other, timer }

    /// Records the work an effect starts, on the main actor.
    final class Log { var entries: [String] = [] }

    // MARK: - deferred

    @Test func deferredWaitsBeforeStartingTheWork() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "start" else { return .none }
            return Effect.sync {
                log.entries.append("work started")
                return "done"
            }
            .deferred(for: .seconds(2), scheduler: scheduler)
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        #expect(store.runningEffectCount == 1)
        scheduler.advance(by: .milliseconds(1_999))
        #expect(log.entries == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(log.entries == ["work started"])
        #expect(store.state == ["start", "done"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func deferredCancelledWhileWaitingNeverStartsTheWork() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start":
                return Effect<String>.fireAndForget { log.entries.append("work started") }
                    .deferred(for: .seconds(1), scheduler: scheduler)
                    .cancellable(id: ID.other)
            case "cancel":
                return .cancel(id: ID.other)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        store.send("cancel")
        #expect(store.runningEffectCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(log.entries == [])
    }

    @Test func deferredNoneIsNone() {
        #expect(Effect<Int>.none.deferred(for: .seconds(1), scheduler: DispatchQueue.test).isNone)
    }

    // MARK: - A8: debounce

    @Test func a8_debounceDelaysStartingTheWork() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "search" else { return .none }
            return Effect.sync {
                log.entries.append("work started")
                return "results"
            }
            .debounce(id: ID.search, for: .seconds(1), scheduler: scheduler)
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("search")
        scheduler.advance(by: .milliseconds(999))
        #expect(log.entries == [])
        #expect(store.state == ["search"])
        scheduler.advance(by: .milliseconds(1))
        #expect(log.entries == ["work started"])
        #expect(store.state == ["search", "results"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a8_debounceCancelsAPendingOneWithTheSameID() {
        let scheduler = DispatchQueue.test
        let log = Log()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action.hasPrefix("query ") else { return .none }
            let query = action.dropFirst(6)
            return Effect.sync {
                log.entries.append("searched \(query)")
                return "results \(query)"
            }
            .debounce(id: ID.search, for: .seconds(1), scheduler: scheduler)
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("query a")
        scheduler.advance(by: .milliseconds(500))
        store.send("query b")
        #expect(store.runningEffectCount == 1)
        // The first would have started now, had it not been replaced.
        scheduler.advance(by: .milliseconds(500))
        #expect(log.entries == [])
        scheduler.advance(by: .milliseconds(500))
        #expect(log.entries == ["searched b"])
        #expect(store.state == ["query a", "query b", "results b"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a8_debounceUnderOtherIDsDoesNotCancel() {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "search": return Effect(value: "searched").debounce(id: ID.search, for: .seconds(1), scheduler: scheduler)
            case "other": return Effect(value: "othered").debounce(id: ID.other, for: .seconds(1), scheduler: scheduler)
            default: state.append(action); return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("search")
        store.send("other")
        scheduler.advance(by: .seconds(1))
        #expect(store.state == ["searched", "othered"])
    }

    @Test(.timeLimit(.minutes(1))) func a8_debounceDeliversOnTheGivenScheduler() async {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "start" else { return .none }
            return subject.eraseToEffect().debounce(id: ID.search, for: .seconds(1), scheduler: scheduler)
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        await scheduler.advance(by: .seconds(1))  // the work starts: the subject is subscribed
        // The work sends from another thread; the action waits for the scheduler.
        await Task.detached { subject.send("from the background") }.value
        #expect(store.state == ["start"])
        await scheduler.advance()
        #expect(store.state == ["start", "from the background"])
    }

    @Test func debouncedSearchIsReplacedByID() {
        struct State: Equatable {
            var query = ""
            var results: [String] = []
        }
        enum Action { case queryChanged(String), searchResponse(String) }
        let scheduler = DispatchQueue.test
        let log = Log()
        /// A search that takes 500 ms on `scheduler`.
        func search(_ query: String) -> Effect<String> {
            Deferred { () -> Publishers.Delay<Just<String>, TestSchedulerOf<DispatchQueue>> in
                log.entries.append("searching \(query)")
                return Just("results for \(query)").delay(for: .milliseconds(500), scheduler: scheduler)
            }
            .eraseToEffect()
        }
        let reducer = Reducer<State, Action, Void> { state, action, _ in
            switch action {
            case .queryChanged(let query):
                state.query = query
                return search(query)
                    .map(Action.searchResponse)
                    .debounce(id: ID.search, for: .milliseconds(300), scheduler: scheduler)
            case .searchResponse(let results):
                state.results.append(results)
                return .none
            }
        }
        let store = Store(initialState: State(), reducer: reducer, environment: ())
        // Typing: each keystroke replaces the waiting search.
        for query in ["s", "sw", "swi"] {
            store.send(.queryChanged(query))
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(log.entries == [])
        scheduler.advance(by: .milliseconds(200))  // 300 ms after "swi"
        #expect(log.entries == ["searching swi"])
        // Typing again while that search runs replaces it too.
        store.send(.queryChanged("swift"))
        scheduler.advance(by: .seconds(2))
        #expect(log.entries == ["searching swi", "searching swift"])
        #expect(store.state.results == ["results for swift"])
        #expect(store.runningEffectCount == 0)
    }

    // MARK: - A8: throttle

    /// A store whose action `"x"` returns `Effect(value: "sent x")` throttled under `id` (one
    /// second) with `latest`; `"id:x"` throttles under `ID.other` instead.
    func throttlingStore(_ scheduler: TestSchedulerOf<DispatchQueue>, latest: Bool) -> Store<[String], String> {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            if action.hasPrefix("sent ") {
                state.append(action)
                return .none
            }
            let id = action.hasPrefix("id:") ? ID.other : ID.scroll
            return Effect(value: "sent \(action)").throttle(id: id, for: .seconds(1), scheduler: scheduler, latest: latest)
        }
        return Store(initialState: [], reducer: reducer, environment: ())
    }

    @Test func a8_throttleSendsTheFirstAtOnceAndTheLatestWhenTheWindowCloses() {
        let scheduler = DispatchQueue.test
        let store = throttlingStore(scheduler, latest: true)
        store.send("a")
        scheduler.advance()
        #expect(store.state == ["sent a"])
        scheduler.advance(by: .milliseconds(300))
        store.send("b")
        scheduler.advance(by: .milliseconds(300))
        store.send("c")
        scheduler.advance()
        #expect(store.state == ["sent a"])
        scheduler.advance(by: .milliseconds(399))
        #expect(store.state == ["sent a"])
        scheduler.advance(by: .milliseconds(1))  // one second after "a"
        #expect(store.state == ["sent a", "sent c"])
        #expect(store.runningEffectCount == 0)
        // The next window opened when "c" was sent; after it, an action goes at once.
        scheduler.advance(by: .seconds(1))
        store.send("d")
        scheduler.advance()
        #expect(store.state == ["sent a", "sent c", "sent d"])
    }

    @Test func a8_throttleWithLatestFalseKeepsTheFirstHeldAction() {
        let scheduler = DispatchQueue.test
        let store = throttlingStore(scheduler, latest: false)
        store.send("a")
        scheduler.advance(by: .milliseconds(300))
        store.send("b")
        scheduler.advance(by: .milliseconds(300))
        store.send("c")
        scheduler.advance(by: .milliseconds(400))
        #expect(store.state == ["sent a", "sent b"])
        scheduler.advance(by: .seconds(5))
        #expect(store.state == ["sent a", "sent b"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func a8_throttleKeepsItsStatePerID() {
        let scheduler = DispatchQueue.test
        let store = throttlingStore(scheduler, latest: true)
        store.send("a")
        store.send("id:a")
        scheduler.advance()
        // Each identifier has its own window: both went at once.
        #expect(store.state == ["sent a", "sent id:a"])
        store.send("b")
        store.send("id:b")
        scheduler.advance(by: .seconds(1))
        #expect(store.state == ["sent a", "sent id:a", "sent b", "sent id:b"])
    }

    @Test func a8_throttleStateBelongsToOneStoreTree() {
        let scheduler = DispatchQueue.test
        let first = throttlingStore(scheduler, latest: true)
        let second = throttlingStore(scheduler, latest: true)
        first.send("a")
        scheduler.advance()
        second.send("a")
        scheduler.advance()
        #expect(first.state == ["sent a"])
        #expect(second.state == ["sent a"])
    }

    @Test(.timeLimit(.minutes(1))) func a8_throttleDeliversOnTheGivenScheduler() async {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "start" else { return .none }
            return subject.eraseToEffect().throttle(id: ID.scroll, for: .seconds(1), scheduler: scheduler, latest: true)
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        await Task.detached { subject.send("from the background") }.value
        #expect(store.state == ["start"])
        await scheduler.advance()
        #expect(store.state == ["start", "from the background"])
    }

    @Test func throttleSendsOneHeldActionPerWindowFromOneEffect() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            guard action == "start" else {
                state.append(action)
                return .none
            }
            return subject.eraseToEffect().throttle(id: ID.scroll, for: .seconds(1), scheduler: scheduler, latest: true)
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        for value in ["a", "b", "c", "d"] {
            subject.send(value)
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(store.state == ["a"])
        scheduler.advance(by: .milliseconds(600))  // the window of "a" closes
        #expect(store.state == ["a", "d"])
        scheduler.advance(by: .seconds(3))
        #expect(store.state == ["a", "d"])
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(store.runningEffectCount == 0)
    }

    @Test func throttleCancelledByIDDropsTheHeldAction() {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "cancel":
                return .cancel(id: ID.scroll)
            case let action where action.hasPrefix("sent "):
                state.append(action)
                return .none
            default:
                return Effect(value: "sent \(action)")
                    .throttle(id: ID.scroll, for: .seconds(1), scheduler: scheduler, latest: true)
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("a")
        scheduler.advance(by: .milliseconds(500))
        store.send("b")
        scheduler.advance()
        #expect(store.runningEffectCount == 1)
        store.send("cancel")
        #expect(store.runningEffectCount == 0)
        scheduler.advance(by: .seconds(1))
        #expect(store.state == ["sent a"])
        // Nothing held is left behind for the next window.
        store.send("c")
        scheduler.advance(by: .seconds(3))
        #expect(store.state == ["sent a", "sent c"])
    }

    // MARK: - timer

    @Test func timerTicksUntilCancelledByID() {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<[Int], String, Void> { state, action, _ in
            switch action {
            case "start":
                return Effect.timer(id: ID.timer, every: .seconds(1), on: scheduler).map { _ in "tick" }
            case "stop":
                return .cancel(id: ID.timer)
            default:
                state.append(state.count + 1)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        scheduler.advance(by: .milliseconds(999))
        #expect(store.state == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(store.state == [1])
        scheduler.advance(by: .seconds(2))
        #expect(store.state == [1, 2, 3])
        store.send("stop")
        #expect(store.runningEffectCount == 0)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(store.state == [1, 2, 3])
    }

    @Test func timerTicksAreTheSchedulersTime() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var ticks: [DispatchQueue.SchedulerTimeType.Stride] = []
        let cancellable = Effect.timer(id: ID.timer, every: .seconds(2), on: scheduler)
            .sink { ticks.append(start.distance(to: $0)) }
        scheduler.advance(by: .seconds(6))
        #expect(ticks == [.seconds(2), .seconds(4), .seconds(6)])
        cancellable.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func timerStartedAgainReplacesTheRunningOne() {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<Int, String, Void> { state, action, _ in
            switch action {
            case "start": return Effect.timer(id: ID.timer, every: .seconds(1), on: scheduler).map { _ in "tick" }
            default: state += 1; return .none
            }
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        store.send("start")
        store.send("start")
        #expect(store.runningEffectCount == 1)
        scheduler.advance(by: .seconds(3))
        #expect(store.state == 3)
    }
}
