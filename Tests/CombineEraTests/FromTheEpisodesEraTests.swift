// The shapes of the episodes' code that the article "From the episodes"
// (Sources/ComposableArchitecture/ComposableArchitecture.docc/FromTheEpisodes.md) starts from, in
// Swift 5 language mode with `import Streams` where the originals said `import Combine`. The
// article's blocks of era code are copied from this file and from `EpisodeStore.swift` /
// `EpisodeStoreTests.swift`; `FromTheEpisodesArticleTests` (in ComposableArchitectureTests)
// checks that they stay the same.
import Dispatch
import Streams
import Testing

// MARK: - Callback effects

/// The effect before Combine: a function that is given a callback and calls it with its action,
/// at once or later.
enum CallbackEra {
    struct Effect<A> {
        let run: (@escaping (A) -> Void) -> Void

        func map<B>(_ f: @escaping (A) -> B) -> Effect<B> {
            Effect<B> { callback in self.run { a in callback(f(a)) } }
        }
    }

    typealias Reducer<Value, Action> = (inout Value, Action) -> [Effect<Action>]

    final class Store<Value, Action> {
        private let reducer: Reducer<Value, Action>
        private(set) var value: Value

        init(initialValue: Value, reducer: @escaping Reducer<Value, Action>) {
            self.reducer = reducer
            self.value = initialValue
        }

        func send(_ action: Action) {
            let effects = reducer(&value, action)
            effects.forEach { effect in
                effect.run(self.send)
            }
        }
    }

    enum CounterAction: Equatable {
        case incrTapped, nthPrimeButtonTapped, nthPrimeResponse(Int?)
    }

    struct CounterState {
        var count = 0
        var alertNthPrime: Int?
    }

    static func nthPrime(_ n: Int, answerOn queue: DispatchQueue) -> Effect<Int?> {
        Effect { callback in
            DispatchQueue.global().async {
                var primes: [Int] = []
                var candidate = 2
                while primes.count < n {
                    if primes.allSatisfy({ candidate % $0 != 0 }) { primes.append(candidate) }
                    candidate += 1
                }
                let prime = primes.last
                queue.async { callback(prime) }
            }
        }
    }

    static func counterReducer(queue: DispatchQueue) -> Reducer<CounterState, CounterAction> {
        return { state, action in
            switch action {
            case .incrTapped:
                state.count += 1
                return []
            case .nthPrimeButtonTapped:
                return [nthPrime(state.count, answerOn: queue).map(CounterAction.nthPrimeResponse)]
            case let .nthPrimeResponse(prime):
                state.alertNthPrime = prime
                return []
            }
        }
    }
}

// MARK: - The crash: an effect that completes during `sink`

/// The episodes' first publisher store, before the fix that `EpisodeStore.swift` has: its
/// completion handler force-unwraps a cancellable that `sink` has not returned yet.
final class StoreBeforeTheFix<Value, Action> {
    private let reducer: Reducer<Value, Action>
    private(set) var value: Value
    private var effectCancellables: Set<AnyCancellable> = []

    init(initialValue: Value, reducer: @escaping Reducer<Value, Action>) {
        self.reducer = reducer
        self.value = initialValue
    }

    var runningEffects: Int { effectCancellables.count }

    func send(_ action: Action) {
        let effects = reducer(&value, action)
        effects.forEach { effect in
            var effectCancellable: AnyCancellable?
            effectCancellable = effect.sink(
                receiveCompletion: { [weak self] _ in
                    self?.effectCancellables.remove(effectCancellable!)
                },
                receiveValue: self.send
            )
            self.effectCancellables.insert(effectCancellable!)
        }
    }
}

// MARK: - A Redux-style store with middleware

/// The Redux shape: a reducer that only changes state, and middlewares that may answer an action
/// with a publisher of more actions.
enum ReduxEra {
    typealias Middleware<State, Action> = (State, Action) -> AnyPublisher<Action, Never>?

    final class Store<State, Action>: ObservableObject {
        @Published private(set) var state: State
        private let reducer: (inout State, Action) -> Void
        private let middlewares: [Middleware<State, Action>]
        private var cancellables: Set<AnyCancellable> = []

        init(initialState: State, reducer: @escaping (inout State, Action) -> Void,
             middlewares: [Middleware<State, Action>] = []) {
            self.state = initialState
            self.reducer = reducer
            self.middlewares = middlewares
        }

        var keptSubscriptions: Int { cancellables.count }

        func dispatch(_ action: Action) {
            reducer(&state, action)
            for middleware in middlewares {
                guard let publisher = middleware(state, action) else { continue }
                publisher
                    .sink(receiveValue: dispatch)
                    .store(in: &cancellables)
            }
        }
    }

    enum AnimalAction: Equatable {
        case fetchAnimal
        case animalLoaded(String)
    }

    struct AnimalState: Equatable {
        var currentAnimal = ""
    }

    static func animalReducer(state: inout AnimalState, action: AnimalAction) {
        switch action {
        case .fetchAnimal:
            state.currentAnimal = "Loading…"
        case let .animalLoaded(animal):
            state.currentAnimal = animal
        }
    }

    static let animalMiddleware: Middleware<AnimalState, AnimalAction> = { state, action in
        guard action == .fetchAnimal else { return nil }
        return Just("Cat")
            .map(AnimalAction.animalLoaded)
            .eraseToAnyPublisher()
    }
}

// MARK: - Process-wide cancellation identifiers

/// The era's `cancellable(id:)`: one dictionary of subscriptions for the whole process.
var cancellablesByID: [AnyHashable: Set<AnyCancellable>] = [:]

extension Effect {
    func cancellable(id: AnyHashable) -> Effect {
        Deferred { () -> PassthroughSubject<Output, Never> in
            let subject = PassthroughSubject<Output, Never>()
            let cancellable = self.subscribe(subject)
            cancellablesByID[id, default: []].insert(cancellable)
            return subject
        }
        .eraseToEffect()
    }

    static func cancel(id: AnyHashable) -> Effect {
        .fireAndForget {
            cancellablesByID[id]?.forEach { $0.cancel() }
            cancellablesByID[id] = nil
        }
    }
}

@Suite("From the episodes: the era's shapes, Swift 5 mode", .serialized)
struct FromTheEpisodesEraTests {
    @Test func theArrayOfEffectsStore() {
        let store = Store(initialValue: AppState(), reducer: appReducer)
        store.send(.counter(.incrTapped))
        store.send(.primeModal(.saveFavoritePrimeTapped))
        #expect(store.value.favoritePrimes == [1])
    }

    @Test func aPullbackOverAnEnumPropertyIgnoresOtherCases() {
        var state = AppState()
        let effects = appReducer(&state, .primeModal(.saveFavoritePrimeTapped))
        #expect(effects.isEmpty)
        #expect(state.favoritePrimes == [0])
        var action = AppAction.primeModal(.saveFavoritePrimeTapped)
        action.counter = .incrTapped  // the setter leaves another case alone
        #expect(action.primeModal == .saveFavoritePrimeTapped)
    }

    @Test func callbackEffectsComeBackThroughTheCallback() async {
        // The callback is the store's `send`: the answer re-enters the store on whatever queue
        // the effect calls it from (here the main queue, which the effect was given).
        var answered: CheckedContinuation<Void, Never>?
        let counterReducer = CallbackEra.counterReducer(queue: .main)
        let store = CallbackEra.Store(initialValue: CallbackEra.CounterState(count: 6)) { state, action in
            let effects = counterReducer(&state, action)
            if case .nthPrimeResponse = action { answered?.resume() }
            return effects
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            answered = continuation
            DispatchQueue.main.async { store.send(.nthPrimeButtonTapped) }
        }
        #expect(store.value.alertNthPrime == 13)
    }

    @Test func anEffectThatCompletesDuringSinkFindsNoCancellableYet() {
        // Why `StoreBeforeTheFix` crashes on `Just`, `sync` or `fireAndForget`: the completion
        // handler runs inside `sink`, before `sink` has returned the cancellable it would remove.
        var effectCancellable: AnyCancellable?
        var completed = false
        var cancellableWasThere = true
        effectCancellable = Just(1).sink(
            receiveCompletion: { _ in
                completed = true
                cancellableWasThere = effectCancellable != nil
            },
            receiveValue: { _ in })
        #expect(completed)
        #expect(!cancellableWasThere)
        #expect(effectCancellable != nil)
    }

    @Test func theStoreBeforeTheFixWorksForEffectsThatCompleteLater() {
        // The same store is fine when the effect completes after `sink` returned.
        let subject = PassthroughSubject<CounterAction, Never>()
        let store = StoreBeforeTheFix<Int, CounterAction>(initialValue: 0) { count, action in
            switch action {
            case .nthPrimeButtonTapped: return [subject.eraseToEffect()]
            case .incrTapped: count += 1; return []
            default: return []
            }
        }
        store.send(.nthPrimeButtonTapped)
        subject.send(.incrTapped)
        #expect(store.runningEffects == 1)
        subject.send(completion: .finished)
        #expect(store.value == 1)
        #expect(store.runningEffects == 0)
    }

    @Test func theReduxStoreKeepsEveryFinishedSubscription() {
        let store = ReduxEra.Store(initialState: ReduxEra.AnimalState(),
                                   reducer: ReduxEra.animalReducer,
                                   middlewares: [ReduxEra.animalMiddleware])
        store.dispatch(.fetchAnimal)
        store.dispatch(.fetchAnimal)
        store.dispatch(.fetchAnimal)
        #expect(store.state.currentAnimal == "Cat")
        // `store(in:)` never takes a finished subscription out: the set only grows.
        #expect(store.keptSubscriptions == 3)
    }

    @Test func processWideIDsLetOneStoreCancelAnothersEffects() {
        cancellablesByID = [:]
        defer { cancellablesByID = [:] }
        enum TimerID {}
        let ticks = PassthroughSubject<CounterAction, Never>()
        func reducer(count: inout Int, action: CounterAction) -> [Effect<CounterAction>] {
            switch action {
            case .nthPrimeButtonTapped: return [ticks.eraseToEffect().cancellable(id: ObjectIdentifier(TimerID.self))]
            case .decrTapped: return [Effect.cancel(id: ObjectIdentifier(TimerID.self))]
            case .incrTapped: count += 1; return []
            case .nthPrimeResponse: return []
            }
        }
        let first = Store(initialValue: 0, reducer: reducer)
        let second = Store(initialValue: 0, reducer: reducer)
        first.send(.nthPrimeButtonTapped)
        second.send(.nthPrimeButtonTapped)
        ticks.send(.incrTapped)
        first.send(.decrTapped)  // stops the first store's timer ... and the second's
        ticks.send(.incrTapped)
        #expect(first.value == 1)
        #expect(second.value == 1)
    }

    @Test func aCancelledEffectNeverCompletesSoTheStoreKeepsIt() {
        cancellablesByID = [:]
        defer { cancellablesByID = [:] }
        let ticks = PassthroughSubject<CounterAction, Never>()
        let store = Store(initialValue: 0) { (count: inout Int, action: CounterAction) -> [Effect<CounterAction>] in
            switch action {
            case .nthPrimeButtonTapped: return [ticks.eraseToEffect().cancellable(id: "ticks")]
            case .decrTapped: return [Effect.cancel(id: "ticks")]
            case .incrTapped: count += 1; return []
            case .nthPrimeResponse: return []
            }
        }
        store.send(.nthPrimeButtonTapped)
        store.send(.decrTapped)
        ticks.send(.incrTapped)
        #expect(store.value == 0)
        // The work was cancelled, but the subject the store subscribed to never completes.
        #expect(store.runningEffects == 1)
    }
}
