import ComposableArchitecture
import Dispatch
import Foundation

/// The whole app's state. Each value is stored once: the count the counter changes is the count
/// the modal asks about, and the favorites the modal saves are the ones the list shows.
struct AppState: Equatable {
    var count = 0
    var favoritePrimes: [Int] = []
    var nthPrimeAlert: NthPrimeAlert?
    var isNthPrimeRequestInFlight = false

    /// The counter's part of the app state.
    var counter: CounterState {
        get {
            CounterState(count: count, nthPrimeAlert: nthPrimeAlert, isNthPrimeRequestInFlight: isNthPrimeRequestInFlight)
        }
        set {
            count = newValue.count
            nthPrimeAlert = newValue.nthPrimeAlert
            isNthPrimeRequestInFlight = newValue.isNthPrimeRequestInFlight
        }
    }

    /// The modal's part of the app state: the same count and favorites, read and written back.
    var primeModal: PrimeModalState {
        get { PrimeModalState(count: count, favoritePrimes: favoritePrimes) }
        set {
            count = newValue.count
            favoritePrimes = newValue.favoritePrimes
        }
    }
}

/// Every action of the app: one case per feature, holding that feature's action.
enum AppAction: Equatable {
    case counter(CounterAction)
    case primeModal(PrimeModalAction)
    case favoritePrimes(FavoritePrimesAction)
}

/// Everything the app needs from the outside world.
struct AppEnvironment {
    var nthPrime: (Int) -> Effect<Int?>
    var mainQueue: AnySchedulerOf<DispatchQueue>
    var favoritesFile: FavoritesFile
    var log: (String) -> Void

    /// The real world: the nth prime computed on a background queue after a pause (standing in
    /// for a web service), answers on the main queue, the favorites in `favorite-primes.json`,
    /// and the log on standard output.
    static var live: AppEnvironment {
        AppEnvironment(
            nthPrime: { n in
                Just(n)
                    .delay(for: .milliseconds(300), scheduler: DispatchQueue.global(qos: .userInitiated))
                    .map(Primes.nth)
                    .eraseToEffect()
            },
            mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
            favoritesFile: .live(url: URL(fileURLWithPath: "favorite-primes.json")),
            log: { print($0) }
        )
    }

    /// The counter's part of the environment.
    var counter: CounterEnvironment {
        CounterEnvironment(nthPrime: nthPrime, mainQueue: mainQueue)
    }
}

/// The app's logic: each feature pulled back to its part of the state, its case of the actions
/// and its part of the environment, and all of them combined into one reducer.
@MainActor let appReducer = Reducer<AppState, AppAction, AppEnvironment>.combine(
    counterReducer.pullback(state: \.counter, action: /AppAction.counter, environment: \.counter),
    primeModalReducer.pullback(state: \.primeModal, action: /AppAction.primeModal, environment: { _ in () }),
    favoritePrimesReducer.pullback(state: \.favoritePrimes, action: /AppAction.favoritePrimes, environment: \.favoritesFile)
)
