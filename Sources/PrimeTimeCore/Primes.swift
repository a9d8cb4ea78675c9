import Foundation

/// The arithmetic PrimeTime's features ask about: whether a number is prime, the nth prime, and
/// how to write "nth" in English. Pure functions, shared by the reducers and the live
/// environment.
public enum Primes {
    /// Whether `n` is a prime number (0, 1 and negative numbers are not).
    ///
    /// ```swift
    /// Primes.isPrime(7)   // true
    /// Primes.isPrime(9)   // false
    /// ```
    ///
    /// - Complexity: O(√n) divisions.
    public static func isPrime(_ n: Int) -> Bool {
        guard n >= 2 else { return false }
        if n < 4 { return true }
        if n % 2 == 0 { return false }
        var divisor = 3
        while divisor <= n / divisor {
            if n % divisor == 0 { return false }
            divisor += 2
        }
        return true
    }

    /// The largest `n` that ``nth(_:)`` answers: the millionth prime (15,485,863) takes a sieve of
    /// about 16 MB; much further, memory runs out.
    public static let largestN = 1_000_000

    /// The `n`th prime, counting from 1 (the 1st prime is 2); `nil` when `n` is less than 1 or
    /// greater than ``largestN``.
    ///
    /// It sieves up to an upper bound of the nth prime (`n (ln n + ln ln n)` for `n ≥ 6`,
    /// Rosser's theorem), so asking for the millionth prime takes a few megabytes and a few tens of
    /// milliseconds. Live, PrimeTime runs it on a background queue.
    ///
    /// ```swift
    /// Primes.nth(1)      // 2
    /// Primes.nth(6)      // 13
    /// Primes.nth(0)      // nil
    /// ```
    ///
    /// - Complexity: O(m log log m) time and O(m) memory, where m ≈ n ln n.
    public static func nth(_ n: Int) -> Int? {
        guard n >= 1, n <= largestN else { return nil }
        let bound: Int
        if n < 6 {
            bound = 11
        } else {
            let x = Double(n)
            bound = Int(x * (log(x) + log(log(x)))) + 1
        }
        var isComposite = [Bool](repeating: false, count: bound + 1)
        var found = 0
        for candidate in 2...bound where !isComposite[candidate] {
            found += 1
            if found == n { return candidate }
            var multiple = candidate * candidate
            while multiple <= bound {
                isComposite[multiple] = true
                multiple += candidate
            }
        }
        return nil  // Unreachable: the bound always holds n primes.
    }

    /// `n` as an English ordinal: `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, `-2nd`.
    public static func ordinal(_ n: Int) -> String {
        let lastTwo = n.magnitude % 100
        let suffix: String
        if (11...13).contains(lastTwo) {
            suffix = "th"
        } else {
            switch lastTwo % 10 {
            case 1: suffix = "st"
            case 2: suffix = "nd"
            case 3: suffix = "rd"
            default: suffix = "th"
            }
        }
        return "\(n)\(suffix)"
    }
}
