import ComposableArchitecture
import Foundation

/// What the user can do on the list of favorite primes.
enum FavoritePrimesAction: Equatable {
    case deleteFavoritePrimes(IndexSet)
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
