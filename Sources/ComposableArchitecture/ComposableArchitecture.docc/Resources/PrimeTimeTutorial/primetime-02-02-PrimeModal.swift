import ComposableArchitecture

/// The "is this prime?" modal's state: the number it asks about, and the favorites it edits.
struct PrimeModalState: Equatable {
    var count: Int
    var favoritePrimes: [Int]
}
