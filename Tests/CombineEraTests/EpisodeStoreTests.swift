// The episodes' app, run on Streams in Swift 5 language mode: a counter with a prime modal and
// an "nth prime" effect that computes off the main queue and comes back with
// `receive(on: DispatchQueue.main)`.
import Dispatch
import Streams
import Testing

struct AppState {
    var count = 0
    var favoritePrimes: [Int] = []
    var alertNthPrime: Int?
    var log: [String] = []
}

enum AppAction {
    case counter(CounterAction)
    case primeModal(PrimeModalAction)

    var counter: CounterAction? {
        get { guard case let .counter(value) = self else { return nil }; return value }
        set { guard case .counter = self, let newValue = newValue else { return }; self = .counter(newValue) }
    }
    var primeModal: PrimeModalAction? {
        get { guard case let .primeModal(value) = self else { return nil }; return value }
        set { guard case .primeModal = self, let newValue = newValue else { return }; self = .primeModal(newValue) }
    }
}

enum CounterAction: Equatable {
    case decrTapped, incrTapped, nthPrimeButtonTapped, nthPrimeResponse(Int?)
}

enum PrimeModalAction: Equatable {
    case saveFavoritePrimeTapped, removeFavoritePrimeTapped
}

struct CounterState {
    var count: Int
    var alertNthPrime: Int?
}

extension AppState {
    var counterView: CounterState {
        get { CounterState(count: count, alertNthPrime: alertNthPrime) }
        set { count = newValue.count; alertNthPrime = newValue.alertNthPrime }
    }
    var primeModal: AppState {
        get { self }
        set { self = newValue }
    }
}

func nthPrime(_ n: Int) -> Effect<Int?> {
    Deferred {
        Future<Int?, Never> { callback in
            DispatchQueue.global().async {
                var primes: [Int] = []
                var candidate = 2
                while primes.count < n {
                    if primes.allSatisfy({ candidate % $0 != 0 }) { primes.append(candidate) }
                    candidate += 1
                }
                callback(.success(primes.last))
            }
        }
    }
    .receive(on: DispatchQueue.main)
    .eraseToEffect()
}

func counterReducer(state: inout CounterState, action: CounterAction) -> [Effect<CounterAction>] {
    switch action {
    case .decrTapped:
        state.count -= 1
        return []
    case .incrTapped:
        state.count += 1
        return []
    case .nthPrimeButtonTapped:
        return [nthPrime(state.count).map(CounterAction.nthPrimeResponse).eraseToEffect()]
    case let .nthPrimeResponse(prime):
        state.alertNthPrime = prime
        return []
    }
}

func primeModalReducer(state: inout AppState, action: PrimeModalAction) -> [Effect<PrimeModalAction>] {
    switch action {
    case .saveFavoritePrimeTapped:
        state.favoritePrimes.append(state.count)
        return []
    case .removeFavoritePrimeTapped:
        state.favoritePrimes.removeAll { $0 == state.count }
        return []
    }
}

func logging(
    _ reducer: @escaping Reducer<AppState, AppAction>
) -> Reducer<AppState, AppAction> {
    return { value, action in
        let effects = reducer(&value, action)
        let description = "\(action)"
        return [Effect.fireAndForget { logLines.append(description) }] + effects
    }
}

/// What `logging` printed, for the test to read (main queue only).
nonisolated(unsafe) var logLines: [String] = []

let appReducer: Reducer<AppState, AppAction> = combine(
    pullback(counterReducer, value: \.counterView, action: \.counter),
    pullback(primeModalReducer, value: \.primeModal, action: \.primeModal)
)

@Suite("Combine-era store, Swift 5 mode", .serialized)
struct EpisodeStoreTests {
    @Test func theCounterAndItsViewStayInSync() {
        let store = Store(initialValue: AppState(), reducer: appReducer)
        let counterStore = store.view(value: { $0.count }, action: { AppAction.counter($0) })
        var seen: [Int] = []
        let cancellable = counterStore.$value.sink { seen.append($0) }
        counterStore.send(.incrTapped)
        counterStore.send(.incrTapped)
        store.send(.counter(.decrTapped))
        #expect(store.value.count == 1)
        #expect(counterStore.value == 1)
        // A send through the view publishes twice, as with Combine: once when the parent's value
        // reaches the view through `$value.sink`, once when the view's reducer writes its
        // `inout` value back. A send to the parent publishes once.
        #expect(seen == [0, 1, 1, 2, 2, 1])
        cancellable.cancel()
    }

    @Test func objectWillChangeFiresBeforeEachChange() {
        let store = Store(initialValue: AppState(), reducer: appReducer)
        var countsSeenAtWillChange: [Int] = []
        var cancellables: Set<AnyCancellable> = []
        store.objectWillChange
            .sink { countsSeenAtWillChange.append(store.value.count) }
            .store(in: &cancellables)
        store.send(.counter(.incrTapped))
        store.send(.primeModal(.saveFavoritePrimeTapped))
        // willSet: the observer runs before the new value is stored.
        #expect(countsSeenAtWillChange == [0, 1])
        #expect(store.value.favoritePrimes == [1])
    }

    @Test func anEffectComesBackOnTheMainQueue() async {
        let store = Store(initialValue: AppState(count: 6), reducer: appReducer)
        let arrived: Void = await withCheckedContinuation { continuation in
            var cancellable: AnyCancellable?
            cancellable = store.$value
                .dropFirst()
                .first { $0.alertNthPrime != nil }
                .sink { _ in
                    cancellable?.cancel()
                    continuation.resume()
                }
            DispatchQueue.main.async { store.send(.counter(.nthPrimeButtonTapped)) }
        }
        _ = arrived
        // `$value` sends in the property's willSet, so the sink ran before the store stored the
        // new value; the send is still running on the main queue. Read once the queue has moved on.
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(store.value.alertNthPrime == 13)
        // The effect's completion reaches the main queue after its value: give the queue a few
        // turns (bounded) to deliver it, then the store has let go of the effect.
        for _ in 0..<100 where store.runningEffects > 0 {
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        }
        #expect(store.runningEffects == 0)
    }

    @Test func fireAndForgetEffectsCompleteDuringSinkAndAreNotKept() {
        logLines = []
        let store = Store(initialValue: AppState(), reducer: logging(appReducer))
        store.send(.counter(.incrTapped))
        store.send(.primeModal(.saveFavoritePrimeTapped))
        #expect(logLines == ["counter(CombineEraTests.CounterAction.incrTapped)",
                             "primeModal(CombineEraTests.PrimeModalAction.saveFavoritePrimeTapped)"])
        #expect(store.runningEffects == 0)
    }

    @Test func assignToPublishedKeepsTwoObjectsInSync() {
        final class Model: ObservableObject {
            @Published var count = 0
            @Published var label = ""
        }
        let model = Model()
        model.$count.map { "count: \($0)" }.assign(to: &model.$label)
        model.count = 3
        #expect(model.label == "count: 3")
    }
}
