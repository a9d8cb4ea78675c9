import ComposableArchitecture

/// The whole app's state. Each value is stored once: the count the counter changes is the count
/// the modal asks about, and the favorites the modal saves are the ones the list shows.
struct AppState: Equatable {
    var count = 0
    var favoritePrimes: [Int] = []
}
