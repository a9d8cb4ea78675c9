import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// This library's side of the article "From the episodes"
// (Sources/ComposableArchitecture/ComposableArchitecture.docc/FromTheEpisodes.md): the article's
// blocks of this library's code are copied from here (the era's code is in
// Tests/CombineEraTests), and `GuideSnippetTests` checks that they stay the same.

/// The article's features, each in a namespace of its own.
enum FromTheEpisodes {
    enum Counter {
        struct State: Equatable {
            var count = 0
            var alertNthPrime: Int?
        }

        enum Action: Equatable {
            case decrTapped, incrTapped, nthPrimeButtonTapped, nthPrimeResponse(Int?)
        }

        struct Environment {
            var nthPrime: (Int) -> Effect<Int?>
        }

        @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
            switch action {
            case .decrTapped:
                state.count -= 1
                return .none
            case .incrTapped:
                state.count += 1
                return .none
            case .nthPrimeButtonTapped:
                return environment.nthPrime(state.count).map(Action.nthPrimeResponse)
            case let .nthPrimeResponse(prime):
                state.alertNthPrime = prime
                return .none
            }
        }
    }

    enum PrimeModal {
        enum Action: Equatable {
            case saveFavoritePrimeTapped, removeFavoritePrimeTapped
        }

        @MainActor static let reducer = Reducer<App.State, Action, Void> { state, action, _ in
            switch action {
            case .saveFavoritePrimeTapped:
                state.favoritePrimes.append(state.count)
            case .removeFavoritePrimeTapped:
                state.favoritePrimes.removeAll { $0 == state.count }
            }
            return .none
        }
    }

    enum App {
        struct State: Equatable {
            var count = 0
            var alertNthPrime: Int?
            var favoritePrimes: [Int] = []

            var counter: Counter.State {
                get { Counter.State(count: count, alertNthPrime: alertNthPrime) }
                set { (count, alertNthPrime) = (newValue.count, newValue.alertNthPrime) }
            }
        }

        enum Action: Equatable {
            case counter(Counter.Action)
            case primeModal(PrimeModal.Action)
        }

        struct Environment {
            var counter: Counter.Environment
        }

        @MainActor static let reducer = Reducer<State, Action, Environment>.combine(
            Counter.reducer.pullback(state: \.counter, action: /Action.counter, environment: \.counter),
            PrimeModal.reducer.pullback(state: \.self, action: /Action.primeModal, environment: { _ in () })
        )
    }

    /// The n-th prime (1-based), or `nil` for `n < 1`.
    static func nthPrimeNumber(_ n: Int) -> Int? {
        var primes: [Int] = []
        var candidate = 2
        while primes.count < n {
            if primes.allSatisfy({ candidate % $0 != 0 }) { primes.append(candidate) }
            candidate += 1
        }
        return primes.last
    }

    enum Callbacks {
        static func nthPrime(_ n: Int) -> Effect<Int?> {
            .future { callback in
                DispatchQueue.global().async {
                    callback(nthPrimeNumber(n))
                }
            }
        }
    }

    enum Favorites {
        struct State: Equatable {
            var primes: [Int] = []
            var fact: String?
        }

        enum Action: Equatable {
            case loadTapped, loaded([Int]?), saveTapped, factTapped, factResponse(String)
        }

        struct Environment {
            var load: () -> [Int]?
            var save: ([Int]) -> Void
            var fact: (Int) -> AnyPublisher<String, Never>
        }

        @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
            switch action {
            case .loadTapped:
                return .sync { .loaded(environment.load()) }
            case let .loaded(primes):
                state.primes = primes ?? []
                return .none
            case .saveTapped:
                let primes = state.primes
                return .fireAndForget { environment.save(primes) }
            case .factTapped:
                return environment.fact(state.primes.count).map(Action.factResponse).eraseToEffect()
            case let .factResponse(fact):
                state.fact = fact
                return .none
            }
        }
    }

    enum Animals {
        struct State: Equatable {
            var currentAnimal = ""
        }

        enum Action: Equatable {
            case fetchAnimal
            case animalLoaded(String)
        }

        struct Environment {
            var fetchAnimal: () -> AnyPublisher<String, Never>
        }

        @MainActor static let animalReducer = Reducer<State, Action, Environment> { state, action, _ in
            switch action {
            case .fetchAnimal:
                state.currentAnimal = "Loading…"
            case let .animalLoaded(animal):
                state.currentAnimal = animal
            }
            return .none
        }

        @MainActor static let animalMiddleware: Middleware<State, Action, Environment> = { state, action, environment in
            guard action == .fetchAnimal else { return .none }
            return environment.fetchAnimal()
                .map(Action.animalLoaded)
                .eraseToEffect()
        }

        @MainActor static let reducer = animalReducer.middleware(animalMiddleware)
    }

    enum Search {
        struct State: Equatable {
            var query = ""
            var results: [String] = []
        }

        enum Action: Equatable {
            case queryChanged(String)
            case response([String])
            case cancelTapped
        }

        struct Environment {
            var search: @Sendable (String) async -> [String]
        }

        enum CancelID: Hashable, Sendable { case search }

        @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
            switch action {
            case let .queryChanged(query):
                state.query = query
                let search = environment.search
                return .task { .response(await search(query)) }
                    .cancellable(id: CancelID.search, cancelInFlight: true)
            case let .response(results):
                state.results = results
                return .none
            case .cancelTapped:
                return .cancel(id: CancelID.search)
            }
        }
    }

    enum RedUx {
        struct State: Equatable {
            var query = ""
            var results: [String] = []
            var locations: [String] = []
        }

        enum Action: Equatable {
            case queryChanged(String), fetchResults, didFetchResults([String]), cancelSearchTapped
            case startTracking, didReceiveLocation(String), watchServerEvents, callHomeTapped
        }

        struct Environment: Sendable {
            var search: @Sendable (String) async throws -> [String]
            var locations: @Sendable () -> AsyncStream<String>
            var serverEvents: @Sendable () -> AsyncStream<Action>
            var callHome: @Sendable () -> Void
        }

        @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
            switch action {
            case let .queryChanged(query):
                state.query = query
                return Effect(.fetchResults)
            case .fetchResults:
                let query = state.query
                return Effect(id: "search") {
                    let results = try await environment.search(query)
                    return .didFetchResults(results)
                }
            case let .didFetchResults(results):
                state.results = results
                return .none
            case .cancelSearchTapped:
                return Effect.cancel("search")
            case .startTracking:
                return Effect { emit, finish in
                    for await location in environment.locations() {
                        emit(.didReceiveLocation(location))
                    }
                    finish()
                }
            case let .didReceiveLocation(location):
                state.locations.append(location)
                return .none
            case .watchServerEvents:
                return environment.serverEvents().eraseToEffect(id: "server-events")
            case .callHomeTapped:
                return Effect.fireAndForget {
                    environment.callHome()
                }
            }
        }
    }
}

extension FromTheEpisodes.App.Action {
    var counter: FromTheEpisodes.Counter.Action? {
        get { if case let .counter(action) = self { action } else { nil } }
        set { if let newValue, case .counter = self { self = .counter(newValue) } }
    }
}

extension Reducer {
    func logging(_ log: @escaping (String) -> Void) -> Reducer {
        Reducer { state, action, environment in
            let effect = self.run(&state, action, environment)
            let description = "\(action)"
            return .merge(.fireAndForget { log(description) }, effect)
        }
    }
}

@MainActor
@Suite("From the episodes: this library's shapes")
struct FromTheEpisodesTests {
    typealias Counter = FromTheEpisodes.Counter
    typealias App = FromTheEpisodes.App

    static let liveLike = App.Environment(counter: Counter.Environment(nthPrime: { n in
        .sync { FromTheEpisodes.nthPrimeNumber(n) }
    }))

    @Test func oneStoreOneEffectPerAction() {
        let environment = App.Environment(counter: Counter.Environment(nthPrime: { n in
            .sync { FromTheEpisodes.nthPrimeNumber(n) }
        }))
        let store = Store(initialState: App.State(), reducer: App.reducer, environment: environment)
        store.send(.counter(.incrTapped))
        store.send(.primeModal(.saveFavoritePrimeTapped))
        #expect(store.state.favoritePrimes == [1])
        // The synchronous `.sync` effect's answer runs within the same send, and is not kept.
        store.send(.counter(.nthPrimeButtonTapped))
        #expect(store.state.alertNthPrime == 2)
        #expect(store.runningEffectCount == 0)
    }

    @Test func aPullbackThroughAnEnumPropertyStillWorks() {
        let viaProperty = Counter.reducer.pullback(
            state: \App.State.counter, action: \App.Action.counter, environment: \App.Environment.counter)
        var state = App.State()
        _ = viaProperty.run(&state, .counter(.incrTapped), FromTheEpisodesTests.liveLike)
        _ = viaProperty.run(&state, .primeModal(.saveFavoritePrimeTapped), FromTheEpisodesTests.liveLike)
        #expect(state == App.State(count: 1))
    }

    @Test func aLoggingHigherOrderReducer() {
        final class Lines { var all: [String] = [] }
        let lines = Lines()
        let store = Store(initialState: App.State(), reducer: App.reducer.logging { lines.all.append($0) },
                          environment: FromTheEpisodesTests.liveLike)
        store.send(.counter(.incrTapped))
        #expect(lines.all == ["counter(ComposableArchitectureTests.FromTheEpisodes.Counter.Action.incrTapped)"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func aCallbackEffectAnswersFromAnotherThread() async {
        let environment = App.Environment(counter: Counter.Environment(nthPrime: FromTheEpisodes.Callbacks.nthPrime))
        let store = TestStore(initialState: App.State(count: 6), reducer: App.reducer, environment: environment)
        store.send(.counter(.nthPrimeButtonTapped))
        await store.receive(.counter(.nthPrimeResponse(13))) { $0.alertNthPrime = 13 }
    }

    @Test func syncFireAndForgetAndErasedPublishersCompleteDuringTheSend() {
        final class Disk { var primes: [Int]? = [2, 3] }
        let disk = Disk()
        let environment = FromTheEpisodes.Favorites.Environment(
            load: { disk.primes }, save: { disk.primes = $0 },
            fact: { n in Just("\(n) primes").eraseToAnyPublisher() })
        let store = TestStore(initialState: FromTheEpisodes.Favorites.State(),
                              reducer: FromTheEpisodes.Favorites.reducer, environment: environment)
        store.send(.loadTapped)
        store.receive(.loaded([2, 3])) { $0.primes = [2, 3] }
        store.send(.factTapped)
        store.receive(.factResponse("2 primes")) { $0.fact = "2 primes" }
        disk.primes = nil
        store.send(.saveTapped)
        #expect(disk.primes == [2, 3])
        // Each effect completed while the store subscribed to it: none is kept (A4).
        #expect(store.runningEffectCount == 0)
    }

    @Test func aMiddlewareIsAnEffectAfterTheReducer() {
        typealias Animals = FromTheEpisodes.Animals
        let scheduler = DispatchQueue.test
        let environment = Animals.Environment(fetchAnimal: {
            Just("Cat").delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
        })
        let store = TestStore(initialState: Animals.State(), reducer: Animals.reducer, environment: environment)
        store.send(.fetchAnimal) { $0.currentAnimal = "Loading…" }
        #expect(store.runningEffectCount == 1)
        scheduler.advance(by: .seconds(1))
        store.receive(.animalLoaded("Cat")) { $0.currentAnimal = "Cat" }
        // The finished fetch is let go at once, unlike a `Set<AnyCancellable>` filled by `store(in:)`.
        #expect(store.runningEffectCount == 0)
    }

    @Test func anAsyncSearchAnswers() async {
        let store = TestStore(initialState: FromTheEpisodes.Search.State(), reducer: FromTheEpisodes.Search.reducer,
                              environment: FromTheEpisodes.Search.Environment(search: { query in [query.uppercased()] }))
        store.timeout = .seconds(30)  // the search runs in a task; a passing test never waits this long
        store.send(.queryChanged("swift")) { $0.query = "swift" }
        await store.receive(.response(["SWIFT"])) { $0.results = ["SWIFT"] }
    }

    @Test func cancellingBeforeTheAnswerDropsIt() async {
        let (environment, gate) = FromTheEpisodesTests.gatedSearch()
        let store = TestStore(initialState: FromTheEpisodes.Search.State(), reducer: FromTheEpisodes.Search.reducer,
                              environment: environment)
        store.send(.queryChanged("swift")) { $0.query = "swift" }
        #expect(store.runningEffectCount == 1)
        store.send(.cancelTapped)
        #expect(store.runningEffectCount == 0)
        gate.yield()
        gate.finish()
        await store.finish()
    }

    /// A search that answers once the test opens its gate, or never if its task is cancelled.
    static func gatedSearch() -> (FromTheEpisodes.Search.Environment, AsyncStream<Void>.Continuation) {
        let (gate, opener) = AsyncStream<Void>.makeStream()
        return (FromTheEpisodes.Search.Environment(search: { query in
            for await _ in gate { return [query] }
            return []
        }), opener)
    }

    @Test func redUxSpellingsDoWhatRedUxSays() async {
        typealias RedUx = FromTheEpisodes.RedUx
        let (locations, newLocation) = AsyncStream<String>.makeStream()
        let calls = SendableLog<String>()
        let environment = RedUx.Environment(
            search: { query in [query + " 1", query + " 2"] },
            locations: { locations },
            serverEvents: { AsyncStream { $0.yield(.didReceiveLocation("pushed")); $0.finish() } },
            callHome: { calls.append("called home") })
        let store = TestStore(initialState: RedUx.State(), reducer: RedUx.reducer, environment: environment)
        store.timeout = .seconds(30)  // the effects run in tasks; a passing test never waits this long
        store.send(.queryChanged("swift")) { $0.query = "swift" }
        await store.receive(.fetchResults)
        await store.receive(.didFetchResults(["swift 1", "swift 2"])) { $0.results = ["swift 1", "swift 2"] }
        let tracking = store.send(.startTracking)
        newLocation.yield("Lyon")
        await store.receive(.didReceiveLocation("Lyon")) { $0.locations = ["Lyon"] }
        newLocation.finish()
        await tracking.finish()
        store.send(.watchServerEvents)
        await store.receive(.didReceiveLocation("pushed")) { $0.locations = ["Lyon", "pushed"] }
        store.send(.callHomeTapped)
        #expect(calls.entries == ["called home"])
        await store.finish()
    }

    @Test func aRedUxSearchWithTheSameIDReplacesTheRunningOne() async {
        typealias RedUx = FromTheEpisodes.RedUx
        let environment = RedUx.Environment(
            search: { _ in
                await suspendUntilCancelled()
                throw CancellationError()
            },
            locations: { AsyncStream { $0.finish() } }, serverEvents: { AsyncStream { $0.finish() } }, callHome: {})
        let store = TestStore(initialState: RedUx.State(), reducer: RedUx.reducer, environment: environment)
        store.send(.queryChanged("s")) { $0.query = "s" }
        await store.receive(.fetchResults)
        #expect(store.runningEffectCount == 1)
        store.send(.queryChanged("sw")) { $0.query = "sw" }
        await store.receive(.fetchResults)
        // The second search replaced the first.
        #expect(store.runningEffectCount == 1)
        store.send(.cancelSearchTapped)
        #expect(store.runningEffectCount == 0)
    }

    @Test func twoStoresUsingTheSameIDDoNotCancelEachOther() async {
        let (firstEnvironment, firstGate) = FromTheEpisodesTests.gatedSearch()
        let (secondEnvironment, secondGate) = FromTheEpisodesTests.gatedSearch()
        let first = TestStore(initialState: FromTheEpisodes.Search.State(), reducer: FromTheEpisodes.Search.reducer,
                              environment: firstEnvironment)
        let second = TestStore(initialState: FromTheEpisodes.Search.State(), reducer: FromTheEpisodes.Search.reducer,
                               environment: secondEnvironment)
        first.send(.queryChanged("a")) { $0.query = "a" }
        second.timeout = .seconds(30)  // the search runs in a task; a passing test never waits this long
        second.send(.queryChanged("b")) { $0.query = "b" }
        first.send(.cancelTapped)
        #expect(first.runningEffectCount == 0)
        #expect(second.runningEffectCount == 1)
        secondGate.yield()
        await second.receive(.response(["b"])) { $0.results = ["b"] }
        firstGate.finish()
        secondGate.finish()
    }
}
