/// A small seeded random number generator (SplitMix64), for random tests that must be
/// repeatable: the same seed gives the same numbers on every machine and every run, so a failing
/// case can be replayed from the seed it prints.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let length = Int.random(in: 1...5, using: &random)
/// ```
///
/// Not for anything that needs unpredictable numbers.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose numbers are determined by `seed`.
    ///
    /// - Parameter seed: The number the sequence starts from.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next number of the sequence.
    ///
    /// - Returns: The next number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
