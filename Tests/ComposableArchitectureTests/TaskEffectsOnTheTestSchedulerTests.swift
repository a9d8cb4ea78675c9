import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

/// Effects made of async work (`.task`, `.run`) and timed on a `TestScheduler`: the task answers
/// on its own thread and hands its action to the scheduler at a moment the test cannot see;
/// `await scheduler.advance(by:until:)` waits for that work and runs it. No sleeps, no polling.
@MainActor
@Suite("Task effects timed on the TestScheduler: advance(by:until:)")
struct TaskEffectsOnTheTestSchedulerTests {
    enum ID: Hashable, Sendable { case search }

    /// Calls to an async service, from any thread.
    final class Calls: @unchecked Sendable {  // `entries` guarded by `lock`
        private let lock = Lock()
        private var entries: [String] = []
        func append(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    @Test func aDelayedTaskEffectDeliversOnceTheTaskHasAnswered() async {
        let scheduler = DispatchQueue.test
        let calls = Calls()
        let load = { @Sendable (name: String) async -> String in
            calls.append(name)
            await Task.yield()
            return "loaded \(name)"
        }
        let reducer = Reducer<[String], String, AnySchedulerOf<DispatchQueue>> { state, action, mainQueue in
            state.append(action)
            guard action == "load" else { return .none }
            return .task { await load("profile") }
                .deferred(for: .seconds(1), scheduler: mainQueue)
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: scheduler.eraseToAnyScheduler())
        let start = scheduler.now
        store.send("load") { $0 = ["load"] }
        await scheduler.advance(by: .milliseconds(999))
        #expect(calls.all == [])
        // The task starts at 1 s; its action comes back through the scheduler, at 1 s.
        await scheduler.advance(by: .milliseconds(1), until: { store.runningEffectCount == 0 })
        #expect(calls.all == ["profile"])
        #expect(scheduler.now == start.advanced(by: .seconds(1)))
        await store.receive("loaded profile") { $0.append("loaded profile") }
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aDebouncedTaskEffectSearchesOnlyTheLastQuery() async {
        let scheduler = DispatchQueue.test
        let calls = Calls()
        let search = { @Sendable (query: String) async -> String in
            calls.append(query)
            await Task.yield()
            return "results for \(query)"
        }
        let reducer = Reducer<[String], String, AnySchedulerOf<DispatchQueue>> { state, action, mainQueue in
            state.append(action)
            guard action.hasPrefix("query ") else { return .none }
            let query = String(action.dropFirst(6))
            return .task { await search(query) }
                .debounce(id: ID.search, for: .milliseconds(300), scheduler: mainQueue)
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: scheduler.eraseToAnyScheduler())
        store.send("query s") { $0 = ["query s"] }
        await scheduler.advance(by: .milliseconds(200))
        store.send("query sw") { $0.append("query sw") }
        await scheduler.advance(by: .milliseconds(299))
        #expect(calls.all == [])
        await scheduler.advance(by: .milliseconds(1), until: { store.runningEffectCount == 0 })
        #expect(calls.all == ["sw"])
        await store.receive("results for sw") { $0.append("results for sw") }

        // Later queries go the same way, one at a time.
        store.send("query swi") { $0.append("query swi") }
        await scheduler.advance(by: .milliseconds(300), until: { store.runningEffectCount == 0 })
        await store.receive("results for swi") { $0.append("results for swi") }
        #expect(calls.all == ["sw", "swi"])
    }

    @Test func aRunEffectsActionsReceivedOnTheSchedulerArriveInOrder() async {
        let scheduler = DispatchQueue.test
        let reducer = Reducer<[String], String, AnySchedulerOf<DispatchQueue>> { state, action, mainQueue in
            state.append(action)
            guard action == "start" else { return .none }
            return Effect<String>.run { send in
                for step in 1...3 {
                    await Task.yield()
                    send("step \(step)")
                }
            }
            .receive(on: mainQueue)
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: scheduler.eraseToAnyScheduler())
        store.send("start") { $0 = ["start"] }
        await scheduler.advance(until: { store.runningEffectCount == 0 })
        await store.receive("step 1") { $0.append("step 1") }
        await store.receive("step 2") { $0.append("step 2") }
        await store.receive("step 3") { $0.append("step 3") }
    }
}
