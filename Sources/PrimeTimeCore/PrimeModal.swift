import ComposableArchitecture

// "Is this prime?": a screen over the counter that says whether the count is prime, and saves it
// to (or removes it from) the favorite primes.

/// The "is this prime?" screen's state: the count it asks about and the favorites it edits. Both
/// are shared with other features (the app state keeps one copy of each).
public struct PrimeModalState: Equatable, Sendable {
    /// The number asked about.
    public var count: Int
    /// The favorite primes, in the order they were saved.
    public var favoritePrimes: [Int]

    /// A state for `count` with `favoritePrimes`.
    ///
    /// - Parameters:
    ///   - count: The number the modal is about.
    ///   - favoritePrimes: The favorite primes.
    public init(count: Int, favoritePrimes: [Int]) {
        self.count = count
        self.favoritePrimes = favoritePrimes
    }

    /// Whether the count is prime.
    public var isPrime: Bool { Primes.isPrime(count) }

    /// Whether the count is one of the favorites.
    public var isFavorite: Bool { favoritePrimes.contains(count) }
}

/// What the user does on the "is this prime?" screen.
public enum PrimeModalAction: Equatable, Sendable {
    /// Add the count to the favorites (when it is prime and not one already).
    case saveFavoritePrimeTapped
    /// Remove the count from the favorites (when it is one).
    case removeFavoritePrimeTapped
}

/// The "is this prime?" logic. Saving a number that is not prime, or is already a favorite, and
/// removing one that is not a favorite change nothing: the screen does not offer them, and the
/// reducer does not trust the screen.
@MainActor public let primeModalReducer = Reducer<PrimeModalState, PrimeModalAction, Void> { state, action, _ in
    switch action {
    case .saveFavoritePrimeTapped:
        if state.isPrime, !state.isFavorite {
            state.favoritePrimes.append(state.count)
        }
    case .removeFavoritePrimeTapped:
        state.favoritePrimes.removeAll { $0 == state.count }
    }
    return .none
}
