import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// Example: the async/await effect style. A search field whose query is debounced by identifier
// and whose in-flight search (a `.task`) is replaced by a newer one; a stream of locations fed
// back by a `.run` effect until the stream finishes or the effect is cancelled; a fire-and-forget
// analytics call. The services run in real tasks; the test controls when they answer, so every
// outcome is decided by the test, not by timing.

/// The async feature's types.
enum AsyncEffectsExample {
    struct Location: Equatable, Sendable {
        var latitude: Double
        var longitude: Double
    }

    struct State: Equatable {
        var query = ""
        var results: [String] = []
        var isSearching = false
        var locations: [Location] = []
        var isTracking = false
    }

    enum Action: Equatable {
        case queryChanged(String)
        case search
        case searchResponse(query: String, results: [String])
        case startTracking
        case stopTracking
        case location(Location)
        case trackingEnded
        case shareTapped
    }

    struct Environment {
        var search: @Sendable (String) async -> [String]
        var locations: @Sendable () -> AsyncStream<Location>
        var analytics: @Sendable (String) async -> Void
        var mainQueue: AnySchedulerOf<DispatchQueue>
    }

    enum CancelID: Hashable, Sendable { case debounce, search, location }

    @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
        switch action {
        case .queryChanged(let query):
            state.query = query
            guard !query.isEmpty else {
                state.results = []
                state.isSearching = false
                return .cancel(ids: [CancelID.debounce, CancelID.search])
            }
            // Typing restarts the wait: only a query left alone for 300 ms is searched.
            return Effect(value: .search)
                .debounce(id: CancelID.debounce, for: .milliseconds(300), scheduler: environment.mainQueue)
        case .search:
            state.isSearching = true
            let query = state.query
            let search = environment.search
            // A newer search replaces the one in flight.
            return .task { .searchResponse(query: query, results: await search(query)) }
                .cancellable(id: CancelID.search, cancelInFlight: true)
        case let .searchResponse(_, results):
            state.isSearching = false
            state.results = results
            return .none
        case .startTracking:
            state.isTracking = true
            let locations = environment.locations
            return .run { send in
                for await location in locations() {
                    send(.location(location))
                }
                send(.trackingEnded)
            }
            .cancellable(id: CancelID.location, cancelInFlight: true)
        case .stopTracking:
            state.isTracking = false
            return .cancel(id: CancelID.location)
        case .location(let location):
            state.locations.append(location)
            return .none
        case .trackingEnded:
            state.isTracking = false
            return .none
        case .shareTapped:
            let analytics = environment.analytics
            let query = state.query
            return .fireAndForget { await analytics("shared \(query)") }
        }
    }

    /// What the services tell the test, in order.
    struct Events: Sendable {
        let stream: AsyncStream<String>
        let continuation: AsyncStream<String>.Continuation

        init() {
            (stream, continuation) = AsyncStream<String>.makeStream()
        }

        func send(_ event: String) {
            continuation.yield(event)
        }

        /// The next `count` events, or those that came within `timeout` (a failing test then
        /// fails at once instead of at the suite's time limit; the events stop after a timeout).
        func next(_ count: Int = 1, timeout: Duration = .seconds(10)) async -> [String] {
            let stream = self.stream
            let events = Recorder<String>()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in stream where events.append(event) == count { return }
                }
                group.addTask { try? await Task.sleep(for: timeout) }
                await group.next()
                group.cancelAll()
            }
            return events.all
        }
    }

    /// A search service that answers when the test says so, and gives up when its task is
    /// cancelled. Tells `events` when a search starts and when one is cancelled.
    final class SearchServer: @unchecked Sendable {  // `pending` and `cancelled` guarded by `lock`
        private let lock = Lock()
        private var pending: [String: CheckedContinuation<[String], Never>] = [:]
        private var cancelled: Set<String> = []
        let events = Events()

        func search(_ query: String) async -> [String] {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let alreadyCancelled = lock.withLock {
                        if cancelled.contains(query) { return true }
                        pending[query] = continuation
                        return false
                    }
                    if alreadyCancelled {
                        continuation.resume(returning: [])
                    } else {
                        events.send("started \(query)")
                    }
                }
            } onCancel: {
                let continuation = lock.withLock {
                    cancelled.insert(query)
                    return pending.removeValue(forKey: query)
                }
                continuation?.resume(returning: [])
                events.send("cancelled \(query)")
            }
        }

        /// Answers the search for `query` with `results`.
        func respond(to query: String, with results: [String]) {
            let continuation = lock.withLock { pending.removeValue(forKey: query) }
            continuation?.resume(returning: results)
        }
    }

    /// A thread-safe list.
    final class Recorder<Element: Sendable>: @unchecked Sendable {  // `elements` guarded by `lock`
        private let lock = Lock()
        private var elements: [Element] = []

        /// Appends `element`; returns how many there are now.
        @discardableResult
        func append(_ element: Element) -> Int {
            lock.withLock {
                elements.append(element)
                return elements.count
            }
        }

        var all: [Element] { lock.withLock { elements } }
    }

    /// Analytics calls, recorded.
    final class Analytics: Sendable {
        let calls = Recorder<String>()

        func track(_ event: String) async {
            await Task.yield()
            calls.append(event)
        }

        var events: [String] { calls.all }
    }
}

@MainActor
@Suite("Example: async/await effects — a debounced search replaced by id, a location stream, fire-and-forget",
       .timeLimit(.minutes(1)))
struct AsyncEffectsExampleTests {
    typealias State = AsyncEffectsExample.State
    typealias Location = AsyncEffectsExample.Location

    let scheduler = DispatchQueue.test
    let server = AsyncEffectsExample.SearchServer()
    let analytics = AsyncEffectsExample.Analytics()

    func makeStore(
        locations: @escaping @Sendable () -> AsyncStream<Location> = { AsyncStream { $0.finish() } }
    ) -> TestStore<State, AsyncEffectsExample.Action, AsyncEffectsExample.Environment> {
        let server = self.server
        let analytics = self.analytics
        let store = TestStore(
            initialState: State(), reducer: AsyncEffectsExample.reducer,
            environment: AsyncEffectsExample.Environment(
                search: { await server.search($0) },
                locations: locations,
                analytics: { await analytics.track($0) },
                mainQueue: scheduler.eraseToAnyScheduler()))
        // Waits end as soon as the action arrives; the bound only matters on a loaded machine.
        store.timeout = .seconds(10)
        return store
    }

    // MARK: Search: debounced by id, the in-flight search replaced

    @Test func theSearchIsDebouncedAndOnlyTheLastResultArrives() async {
        let store = makeStore()
        store.send(.queryChanged("s")) { $0.query = "s" }
        await scheduler.advance(by: .milliseconds(200))
        store.send(.queryChanged("sw")) { $0.query = "sw" }
        // "s" would have been searched now, had "sw" not replaced it; "sw" is not due yet.
        await scheduler.advance(by: .milliseconds(299))
        await scheduler.advance(by: .milliseconds(1))
        await store.receive(.search) { $0.isSearching = true }
        // The first search the server sees is "sw": "s" never started.
        #expect(await server.events.next() == ["started sw"])

        // Typing on while "sw" is in flight: the search for "swi" replaces it.
        store.send(.queryChanged("swi")) { $0.query = "swi" }
        await scheduler.advance(by: .milliseconds(300))
        await store.receive(.search)
        #expect(await server.events.next(2) == ["cancelled sw", "started swi"])

        server.respond(to: "swi", with: ["Swift", "Swiftly"])
        await store.receive(.searchResponse(query: "swi", results: ["Swift", "Swiftly"])) {
            $0.isSearching = false
            $0.results = ["Swift", "Swiftly"]
        }
        await store.finish()
        #expect(store.runningEffectCount == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func clearingTheQueryCancelsThePendingAndTheInFlightSearch() async {
        let store = makeStore()
        store.send(.queryChanged("c")) { $0.query = "c" }
        await scheduler.advance(by: .milliseconds(300))
        await store.receive(.search) { $0.isSearching = true }
        #expect(await server.events.next() == ["started c"])
        store.send(.queryChanged("ca")) { $0.query = "ca" }
        #expect(store.runningEffectCount == 2)  // "c" in flight, "ca" waiting

        store.send(.queryChanged("")) {
            $0.query = ""
            $0.isSearching = false
        }
        #expect(await server.events.next() == ["cancelled c"])
        #expect(store.runningEffectCount == 0)
        await scheduler.advance(by: .seconds(1))
        #expect(scheduler.pendingCount == 0)
        await store.finish()
    }

    @Test func aTaskEffectDebouncedDirectlyDeliversOnTheScheduler() async {
        // `.task { }.debounce(id:)`: the work starts after the wait and its action is delivered
        // on the scheduler, so the test runs the scheduler once the task has answered.
        let server = self.server
        let search = { @Sendable (query: String) in await server.search(query) }
        let reducer = Reducer<[String], String, AnySchedulerOf<DispatchQueue>> { state, action, mainQueue in
            state.append(action)
            guard action.hasPrefix("query ") else { return .none }
            let query = String(action.dropFirst(6))
            return .task { "results for \(query): \(await search(query).joined(separator: ", "))" }
                .debounce(id: AsyncEffectsExample.CancelID.search, for: .milliseconds(300), scheduler: mainQueue)
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: scheduler.eraseToAnyScheduler())
        store.send("query a") { $0 = ["query a"] }
        await scheduler.advance(by: .milliseconds(100))
        store.send("query ab") { $0.append("query ab") }
        await scheduler.advance(by: .milliseconds(300))
        #expect(await server.events.next() == ["started ab"])
        server.respond(to: "ab", with: ["abacus"])
        // The task answers on its own thread, then hands its action to the scheduler: wait for
        // that (no sleeping) and run it; the clock does not move.
        await scheduler.advance(until: { store.runningEffectCount == 0 })
        await store.receive("results for ab: abacus") { $0.append("results for ab: abacus") }
        #expect(store.runningEffectCount == 0)
    }

    // MARK: A stream of locations

    @Test func locationsAreFedBackUntilTheStreamFinishes() async {
        let path = [Location(latitude: 48.85, longitude: 2.35), Location(latitude: 48.86, longitude: 2.34),
                    Location(latitude: 48.87, longitude: 2.33)]
        let store = makeStore(locations: {
            AsyncStream { continuation in
                for location in path { continuation.yield(location) }
                continuation.finish()
            }
        })
        store.send(.startTracking) { $0.isTracking = true }
        await store.receive(.location(path[0])) { $0.locations = [path[0]] }
        await store.receive(.location(path[1])) { $0.locations = Array(path[..<2]) }
        await store.receive(.location(path[2])) { $0.locations = path }
        await store.receive(.trackingEnded) { $0.isTracking = false }
        await store.finish()
        #expect(store.runningEffectCount == 0)
    }

    @Test func cancellingTheLocationStreamStopsIt() async {
        let (stream, continuation) = AsyncStream<Location>.makeStream()
        let events = AsyncEffectsExample.Events()
        continuation.onTermination = { termination in
            events.send("terminated \(termination)")
        }
        let store = makeStore(locations: { stream })
        let here = Location(latitude: 1, longitude: 2)
        store.send(.startTracking) { $0.isTracking = true }
        continuation.yield(here)
        await store.receive(.location(here)) { $0.locations = [here] }

        store.send(.stopTracking) { $0.isTracking = false }
        #expect(store.runningEffectCount == 0)
        // The task iterating the stream was cancelled, which ended the stream.
        #expect(await events.next() == ["terminated cancelled"])
        if case .terminated = continuation.yield(Location(latitude: 3, longitude: 4)) {} else {
            Issue.record("the stream still takes locations after the effect was cancelled")
        }
        await store.finish()
        #expect(store.state.locations == [here])
    }

    @Test func startingTrackingAgainReplacesTheRunningStream() async {
        let events = AsyncEffectsExample.Events()
        let streams = AsyncEffectsExample.Recorder<AsyncStream<Location>.Continuation>()
        let store = makeStore(locations: {
            let (stream, continuation) = AsyncStream<Location>.makeStream()
            let number = streams.append(continuation)
            continuation.onTermination = { termination in events.send("stream \(number) \(termination)") }
            events.send("stream \(number) started")
            return stream
        })
        store.send(.startTracking) { $0.isTracking = true }
        #expect(await events.next() == ["stream 1 started"])
        store.send(.startTracking)
        #expect(await events.next(2).sorted() == ["stream 1 cancelled", "stream 2 started"])
        let second = streams.all[1]
        let there = Location(latitude: 5, longitude: 6)
        second.yield(there)
        second.finish()
        await store.receive(.location(there)) { $0.locations = [there] }
        await store.receive(.trackingEnded) { $0.isTracking = false }
        await store.finish()
        #expect(store.runningEffectCount == 0)
    }

    // MARK: Fire and forget

    @Test func aFireAndForgetCallRunsAndSendsNothing() async {
        let store = makeStore()
        store.send(.queryChanged("swift")) { $0.query = "swift" }
        let share = store.send(.shareTapped)
        await share.finish()
        #expect(share.isFinished)
        #expect(analytics.events == ["shared swift"])
        // The search the query started is still waiting for its debounce: cancel it by clearing.
        store.send(.queryChanged("")) { $0.query = "" }
        await store.finish()
        #expect(store.runningEffectCount == 0)
        #expect(analytics.events == ["shared swift"])
    }
}
