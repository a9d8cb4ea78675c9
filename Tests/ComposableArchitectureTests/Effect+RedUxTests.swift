import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// RedUx's spellings (https://red-ux.vercel.app/effects), each doing what RedUx's document says.

/// A search feature written with RedUx's spellings.
enum RedUxSearch {
    struct State: Equatable {
        var query = ""
        var results: [String] = []
        var locations: [Int] = []
    }

    enum Action: Equatable {
        case queryChanged(String), fetchResults, didFetchResults([String])
        case startTracking, didReceiveLocation(Int), stopTracking
        case suggest(String), suggestion(String)
    }

    /// An API whose answers the test controls.
    struct API: Sendable {
        var search: @Sendable (String) async throws -> [String]
        var locations: @Sendable () -> AsyncStream<Int>
        var suggestions: @Sendable (String) -> AsyncStream<String>
    }

    @MainActor static let reducer = Reducer<State, Action, API> { state, action, api in
        switch action {
        case let .queryChanged(query):
            state.query = query
            return Effect(.fetchResults)
        case .fetchResults:
            let query = state.query
            return Effect(id: "search") {
                let results = try await api.search(query)
                return .didFetchResults(results)
            }
        case let .didFetchResults(results):
            state.results = results
            return .none
        case .startTracking:
            return Effect(id: "tracking") { emit, finish in
                for await location in api.locations() {
                    emit(.didReceiveLocation(location))
                }
                finish()
            }
        case let .didReceiveLocation(location):
            state.locations.append(location)
            return .none
        case .stopTracking:
            return Effect.cancel("tracking")
        case let .suggest(prefix):
            return api.suggestions(prefix).eraseToEffect(id: "suggestions").map(Action.suggestion)
        case let .suggestion(text):
            state.results.append(text)
            return .none
        }
    }
}

@MainActor
@Suite("Effect constructors: RedUx's spellings")
struct EffectRedUxTests {
    // MARK: - Effect(.action)

    @Test func anUnlabeledValueSendsItAtOnceWithinTheSend() {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "search" ? Effect("fetch") : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let task = store.send("search")
        #expect(store.state == ["search", "fetch"])
        #expect(task.isFinished)
    }

    @Test func anUnlabeledPublisherIsStillWrappedNotSent() {
        // With no contextual type, `Effect(publisher)` wraps the publisher: an effect of its values.
        let fromJust = Effect(Just(1))
        #expect(type(of: fromJust) == Effect<Int>.self)
        let fromAny = Effect(Just("a").eraseToAnyPublisher())
        #expect(type(of: fromAny) == Effect<String>.self)
        let fromEffect = Effect(fromJust)
        #expect(type(of: fromEffect) == Effect<Int>.self)
        var received: [Int] = []
        _ = fromEffect.sink { received.append($0) }
        #expect(received == [1])
        // With one, a publisher can still be the value of an effect of publishers.
        let ofPublishers: Effect<Just<Int>> = Effect(Just(2))
        var publishers: [Just<Int>] = []
        _ = ofPublishers.sink { publishers.append($0) }
        #expect(publishers.map(\.output) == [2])
    }

    // MARK: - Effect { ... }

    @Test(.timeLimit(.minutes(1))) func aClosureEffectSendsTheActionItReturns() async {
        let store = TestStore(
            initialState: RedUxSearch.State(), reducer: RedUxSearch.reducer,
            environment: RedUxSearch.API(search: { query in ["\(query) 1", "\(query) 2"] },
                                         locations: { AsyncStream { $0.finish() } },
                                         suggestions: { _ in AsyncStream { $0.finish() } }))
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        store.send(.queryChanged("swift")) { $0.query = "swift" }
        await store.receive(.fetchResults)
        await store.receive(.didFetchResults(["swift 1", "swift 2"])) { $0.results = ["swift 1", "swift 2"] }
    }

    @Test(.timeLimit(.minutes(1))) func aClosureEffectThatThrowsIsReportedAndFinishes() async {
        let effectLine = #line + 4
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "search" else { return .none }
            return Effect { () async throws -> String in throw Boom() }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let sendLine = #line + 2
        await expectFailures {
            await store.send("search") { $0 = ["search"] }.finish()
        } matching: { issue in
            issue.sourceLocation?.line == sendLine
                && issue.description.contains("""
                    An effect made by `Effect { ... }` at \
                    ComposableArchitectureTests/Effect+RedUxTests.swift:\(effectLine) threw an error that \
                    nothing handles: Boom().
                    """)
        }
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aClosureEffectSendsFromTheMainActor() async {
        let log = SendableLog<String>()
        let cancellable = Box<AnyCancellable>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Without a contextual type, name the action type: `Effect { "value" }` alone would be
            // read as `Effect(_:)` of the closure itself.
            cancellable.value = Effect<String> { "value" }.sink(
                receiveCompletion: { _ in done.resume() },
                receiveValue: { log.append("\($0) on the main queue: \(MainQueue.isCurrent)") })
        }
        #expect(log.entries == ["value on the main queue: true"])
    }

    // MARK: - Effect { emit, finish in ... }

    @Test(.timeLimit(.minutes(1))) func emitSendsEachActionAndFinishEndsTheEffect() async {
        let (locations, input) = AsyncStream<Int>.makeStream()
        let store = TestStore(
            initialState: RedUxSearch.State(), reducer: RedUxSearch.reducer,
            environment: RedUxSearch.API(search: { _ in [] }, locations: { locations },
                                         suggestions: { _ in AsyncStream { $0.finish() } }))
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let task = store.send(.startTracking)
        input.yield(1)
        await store.receive(.didReceiveLocation(1)) { $0.locations = [1] }
        input.yield(2)
        await store.receive(.didReceiveLocation(2)) { $0.locations = [1, 2] }
        #expect(!task.isFinished)
        input.finish()
        await task.finish()
    }

    @Test(.timeLimit(.minutes(1))) func theEffectEndsAtFinishNotWhenTheClosureReturns() async {
        let handles = Box<(emit: @Sendable (String) -> Void, finish: @Sendable () -> Void)>()
        let signals = Signals()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "start" else { return .none }
            return Effect { emit, finish in
                // A callback API: the closure sets it up and returns; the callback finishes.
                handles.value = (emit, finish)
                signals.send("set up")
            }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let task = store.send("start") { $0 = ["start"] }
        #expect(await signals.next() == ["set up"])
        #expect(!task.isFinished)
        handles.value?.emit("located")
        handles.value?.finish()
        handles.value?.emit("after finish")
        await store.receive("located") { $0.append("located") }
        await task.finish()
        #expect(store.state == ["start", "located"])
    }

    @Test(.timeLimit(.minutes(1))) func anEmitEffectThatThrowsIsReportedAndFinishes() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "start" else { return .none }
            return Effect { emit, _ in
                emit("first")
                throw Boom()
            }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let sendLine = #line + 2
        await expectFailures {
            await store.send("start") { $0 = ["start"] }.finish()
        } matching: { issue in
            issue.sourceLocation?.line == sendLine
                && issue.description.contains("An effect made by `Effect { emit, finish in ... }` at")
                && issue.description.contains("nothing handles: Boom().")
        }
        await store.receive("first") { $0.append("first") }
    }

    // MARK: - Effect(id:) and Effect.cancel(_:)

    @Test(.timeLimit(.minutes(1))) func anEffectWithTheIDOfARunningOneCancelsAndReplacesIt() async {
        let signals = Signals()
        let store = TestStore(
            initialState: RedUxSearch.State(), reducer: RedUxSearch.reducer,
            environment: RedUxSearch.API(
                search: { query in
                    if query == "s" {
                        signals.send("searching s")
                        await suspendUntilCancelled()
                        signals.send("s cancelled: \(Task.isCancelled)")
                        throw CancellationError()
                    }
                    return ["\(query) results"]
                },
                locations: { AsyncStream { $0.finish() } }, suggestions: { _ in AsyncStream { $0.finish() } }))
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        store.send(.queryChanged("s")) { $0.query = "s" }
        await store.receive(.fetchResults)
        #expect(await signals.next() == ["searching s"])
        store.send(.queryChanged("sw")) { $0.query = "sw" }
        await store.receive(.fetchResults)
        #expect(await signals.next() == ["s cancelled: true"])
        await store.receive(.didFetchResults(["sw results"])) { $0.results = ["sw results"] }
        await store.finish()
    }

    @Test(.timeLimit(.minutes(1))) func cancelWithAnUnlabeledIDCancelsTheEffect() async {
        let (locations, input) = AsyncStream<Int>.makeStream()
        let signals = Signals()
        input.onTermination = { signals.send("locations \($0)") }
        let store = TestStore(
            initialState: RedUxSearch.State(), reducer: RedUxSearch.reducer,
            environment: RedUxSearch.API(search: { _ in [] }, locations: { locations },
                                         suggestions: { _ in AsyncStream { $0.finish() } }))
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let task = store.send(.startTracking)
        input.yield(7)
        await store.receive(.didReceiveLocation(7)) { $0.locations = [7] }
        store.send(.stopTracking)
        #expect(task.isFinished)
        #expect(await signals.next() == ["locations cancelled"])
    }

    enum TrackingID {}

    @Test func theUnlabeledCancelTakesATypeToo() {
        let subject = PassthroughSubject<String, Never>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start": return subject.eraseToEffect().cancellable(id: TrackingID.self)
            case "stop": return .cancel(TrackingID.self)
            default: state.append(action); return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        subject.send("a")
        store.send("stop")
        subject.send("b")
        #expect(store.state == ["a"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func anAsyncSequenceErasedWithATypeReplacesTheRunningOne() async {
        let signals = Signals()
        let first = AsyncStream<String>.makeStream()
        let second = AsyncStream<String>.makeStream()
        first.continuation.onTermination = { signals.send("first \($0)") }
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "first": return first.stream.eraseToEffect(id: TrackingID.self)
            case "second": return second.stream.eraseToEffect(id: TrackingID.self)
            default: state.append(action); return .none
            }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let firstTask = store.send("first")
        first.continuation.yield("a")
        await store.receive("a") { $0 = ["a"] }
        let secondTask = store.send("second")
        #expect(firstTask.isFinished)
        #expect(await signals.next() == ["first cancelled"])
        second.continuation.finish()
        await secondTask.finish()
    }

    // MARK: - Effect.fireAndForget { ... }

    @Test(.timeLimit(.minutes(1))) func fireAndForgetTakesASyncOrAnAsyncClosure() async {
        final class Calls { var entries: [String] = [] }
        let calls = Calls()
        let asyncCalls = SendableLog<String>()
        let reducer = Reducer<Int, String, Void> { state, action, _ in
            state += 1
            switch action {
            case "call home":
                return Effect.fireAndForget {
                    calls.entries.append("called home")
                }
            case "call home later":
                return Effect.fireAndForget {
                    await Task.yield()
                    asyncCalls.append("called home later")
                }
            default:
                return .none
            }
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        // The synchronous closure runs within the send; the effect is over when it returns.
        let sync = store.send("call home")
        #expect(calls.entries == ["called home"])
        #expect(sync.isFinished)
        // The async one runs in a task, and the effect lasts as long as it does.
        await store.send("call home later").finish()
        #expect(asyncCalls.entries == ["called home later"])
    }

    // MARK: - eraseToEffect() and eraseToEffect(id:)

    @Test(.timeLimit(.minutes(1))) func anAsyncSequenceErasedWithAnIDReplacesTheRunningOne() async {
        let signals = Signals()
        let first = AsyncStream<String>.makeStream()
        let second = AsyncStream<String>.makeStream()
        first.continuation.onTermination = { signals.send("first \($0)") }
        let store = TestStore(
            initialState: RedUxSearch.State(), reducer: RedUxSearch.reducer,
            environment: RedUxSearch.API(search: { _ in [] }, locations: { AsyncStream { $0.finish() } },
                                         suggestions: { $0 == "s" ? first.stream : second.stream }))
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let firstTask = store.send(.suggest("s"))
        first.continuation.yield("swift")
        await store.receive(.suggestion("swift")) { $0.results = ["swift"] }
        let secondTask = store.send(.suggest("sw"))
        #expect(firstTask.isFinished)
        #expect(await signals.next() == ["first cancelled"])
        second.continuation.yield("swiftui")
        second.continuation.finish()
        await store.receive(.suggestion("swiftui")) { $0.results = ["swift", "swiftui"] }
        await secondTask.finish()
    }

    @Test(.timeLimit(.minutes(1))) func anAsyncSequenceErasedWithoutAnIDRunsBesideAnother() async {
        let first = AsyncStream<Int>.makeStream()
        let second = AsyncStream<Int>.makeStream()
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            switch action {
            case -1: return first.stream.eraseToEffect()
            case -2: return second.stream.eraseToEffect()
            default: state.append(action); return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let a = store.send(-1)
        let b = store.send(-2)
        first.continuation.yield(1)
        await store.waitForState([1])
        second.continuation.yield(2)
        await store.waitForState([1, 2])
        first.continuation.finish()
        second.continuation.finish()
        await a.finish()
        await b.finish()
    }
}
