import ComposableArchitecture

/// The "is this prime?" modal's state: the number it asks about, and the favorites it edits.
struct PrimeModalState: Equatable {
    var count: Int
    var favoritePrimes: [Int]
}

/// What the user can do on the modal.
enum PrimeModalAction: Equatable {
    case saveFavoritePrimeTapped
    case removeFavoritePrimeTapped
}

/// The modal's logic. It offers "save" only for a prime that is not a favorite yet, but the
/// reducer checks again: an action that makes no sense changes nothing.
@MainActor let primeModalReducer = Reducer<PrimeModalState, PrimeModalAction, Void> { state, action, _ in
    switch action {
    case .saveFavoritePrimeTapped:
        if Primes.isPrime(state.count), !state.favoritePrimes.contains(state.count) {
            state.favoritePrimes.append(state.count)
        }
        return .none

    case .removeFavoritePrimeTapped:
        state.favoritePrimes.removeAll { $0 == state.count }
        return .none
    }
}
