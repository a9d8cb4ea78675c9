import ComposableArchitecture

/// The whole app's state. Each value is stored once: the count the counter changes is the count
/// the modal asks about, and the favorites the modal saves are the ones the list shows.
struct AppState: Equatable {
    var count = 0
    var favoritePrimes: [Int] = []

    /// The counter's part of the app state.
    var counter: CounterState {
        get { CounterState(count: count) }
        set { count = newValue.count }
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
