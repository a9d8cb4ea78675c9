import ComposableArchitecture
import Foundation

/// What the user can do on the list of favorite primes.
enum FavoritePrimesAction: Equatable {
    case deleteFavoritePrimes(IndexSet)
}

/// The favorites file, as the feature sees it: one way to read the list, one way to write it.
/// The app passes the real file; a test passes closures of its own.
struct FavoritesFile {
    /// Reads the list: `nil` when there is no file (or it is not a list of numbers).
    var load: () -> [Int]?
    /// Writes the list, replacing the file.
    var save: ([Int]) -> Void
}

/// The favorites list's logic. Its whole state is the list.
@MainActor let favoritePrimesReducer = Reducer<[Int], FavoritePrimesAction, Void> { favoritePrimes, action, _ in
    switch action {
    case let .deleteFavoritePrimes(indexSet):
        for index in indexSet.reversed() where index < favoritePrimes.count {
            favoritePrimes.remove(at: index)
        }
        return .none
    }
}
