import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// The examples of the article "Testing"
// (Sources/StreamsTesting/StreamsTesting.docc/Testing.md), run as written; `GuideSnippetTests`
// checks that the article's blocks are the same as here.

/// The article's feature: a stopwatch that ticks every second on an injected scheduler.
enum Stopwatch {
    struct State: Equatable {
        var seconds = 0
        var isRunning = false
    }

    enum Action: Equatable {
        case start, tick, stop
    }

    struct Environment {
        var mainQueue: AnySchedulerOf<DispatchQueue>
    }

    enum TimerID: Hashable, Sendable { case timer }

    @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
        switch action {
        case .start:
            state.isRunning = true
            return Effect.timer(id: TimerID.timer, every: .seconds(1), on: environment.mainQueue)
                .map { _ in .tick }
        case .tick:
            state.seconds += 1
            return .none
        case .stop:
            state.isRunning = false
            return .cancel(id: TimerID.timer)
        }
    }
}

@MainActor
@Suite("Testing guide")
struct TestingGuideTests {
    struct Boom: Error {}

    // MARK: Virtual time

    @Test func debounceOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        var output: [String] = []
        let cancellable = subject
            .debounce(for: .seconds(1), scheduler: scheduler)
            .sink { output.append($0) }
        subject.send("a")
        scheduler.advance(by: .milliseconds(500))
        #expect(output == [])
        subject.send("b")
        scheduler.advance(by: .seconds(1))
        #expect(output == ["b"])
        _ = cancellable
    }

    @Test func runMovesTheClockToEachPieceOfWork() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var output: [Int] = []
        let cancellable = [3, 1, 2].publisher
            .flatMap { n in Just(n).delay(for: .seconds(n), scheduler: scheduler) }
            .sink { output.append($0) }
        #expect(scheduler.pendingCount == 6)  // each delay schedules its value and its completion
        scheduler.run()
        #expect(output == [1, 2, 3])
        #expect(scheduler.now == start.advanced(by: .seconds(3)))
        _ = cancellable
    }

    @Test func advanceUntilWaitsForWorkATaskSchedules() async {
        let scheduler = DispatchQueue.test
        var output: [String] = []
        let (answers, continuation) = AsyncStream<String>.makeStream()
        let cancellable = AsyncSequencePublisher(answers)
            .receive(on: scheduler)
            .sink { output.append($0) }
        continuation.yield("hello")
        await scheduler.advance(until: { output == ["hello"] })
        #expect(output == ["hello"])
        _ = cancellable
    }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles([1, 2, 3].publisher, "[123|]")
        assertMarbles("-1-2-3-4-|", { $0.compactMap { Int($0) }.filter { $0 % 2 == 0 } }, "---2---4-|")
        assertMarbles("-a-b-c-|", { $0.first() }, "-[;a|]")
    }

    @Test func marblesOnVirtualTime() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a-b-----|", on: scheduler,
                      { $0.debounce(for: .seconds(2), scheduler: scheduler) },
                      "-----b---|")
        assertMarbles(on: scheduler, Just(1).delay(for: .seconds(2), scheduler: scheduler), "--[1|]")
    }

    @Test func marblesWithSeveralInputs() {
        assertMarbles(["-1---3-|",
                       "---2---|"],
                      { $0[0].merge(with: $0[1]) },
                      "-1-2-3-|")
    }

    // MARK: Demand, cancellation and the contract

    @Test func recordingSubscriberAndTestPublisher() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.prefix(2).subscribe(subscriber)
        _ = upstream.send(1)
        subscriber.request(.max(1))
        _ = upstream.send(2)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(1)), .cancelled])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contractChecks() {
        checkContract({ (1...500).publisher.map { $0 * 2 } }, requestingNone: .isIgnored)
        checkIgnoresMisbehavingUpstream({ $0.dropFirst(1) }, value: 1, failure: Boom())
    }

    // MARK: TestStore

    @Test func theStopwatchTicksUntilStopped() {
        let scheduler = DispatchQueue.test
        let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch.reducer,
                              environment: Stopwatch.Environment(mainQueue: scheduler.eraseToAnyScheduler()))
        store.send(.start) { $0.isRunning = true }
        scheduler.advance(by: .seconds(2))
        store.receive(.tick) { $0.seconds = 1 }
        store.receive(.tick) { $0.seconds = 2 }
        store.send(.stop) { $0.isRunning = false }
    }

    @Test func aTaskCancelsWhatItsActionStarted() {
        let scheduler = DispatchQueue.test
        let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch.reducer,
                              environment: Stopwatch.Environment(mainQueue: scheduler.eraseToAnyScheduler()))
        let task = store.send(.start) { $0.isRunning = true }
        scheduler.advance(by: .seconds(1))
        store.receive(.tick) { $0.seconds = 1 }
        task.cancel()
        #expect(store.runningEffectCount == 0)
    }

    @Test func nonExhaustive() {
        let scheduler = DispatchQueue.test
        let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch.reducer,
                              environment: Stopwatch.Environment(mainQueue: scheduler.eraseToAnyScheduler()))
        store.exhaustivity = .off
        store.send(.start)
        scheduler.advance(by: .seconds(5))
        store.send(.stop) { $0.isRunning = false }
        #expect(store.state.seconds == 5)
    }

    @Test func anUnassertedChangeFails() {
        let scheduler = DispatchQueue.test
        let store = TestStore(initialState: Stopwatch.State(), reducer: Stopwatch.reducer,
                              environment: Stopwatch.Environment(mainQueue: scheduler.eraseToAnyScheduler()))
        expectFailures {  // the failure is expected here: captured, not recorded
            store.send(.start)  // fails the test: isRunning changed, and the test did not say so
        }
        store.send(.stop) { $0.isRunning = false }
    }

    @Test func asyncEffects() async {
        let store = TestStore(initialState: FromTheEpisodes.Search.State(), reducer: FromTheEpisodes.Search.reducer,
                              environment: FromTheEpisodes.Search.Environment(search: { query in [query.uppercased()] }))
        // The search runs in a task: give it time on a loaded machine (a passing test never waits this long).
        store.timeout = .seconds(30)
        store.send(.queryChanged("swift")) { $0.query = "swift" }
        await store.receive(.response(["SWIFT"])) { $0.results = ["SWIFT"] }
        await store.finish()
    }
}
