import Foundation

/// The arithmetic PrimeTime's features ask about: whether a number is prime, the nth prime, and
/// how to write "nth" in English. Pure functions, shared by the reducers and the live
/// environment.
public enum Primes {
    /// Whether `n` is a prime number (0, 1 and negative numbers are not).
    ///
    /// ```swift
    /// assert(Primes.isPrime(7))
    /// assert(!Primes.isPrime(9))
    /// ```
    ///
    /// Below 2^20 it divides by odd numbers up to √n; above, it runs the Miller–Rabin test with
    /// the first twelve primes as witnesses, which is exact for every 64-bit number. So any `Int`,
    /// even a huge one read from a favorites file, is answered at once.
    ///
    /// - Parameter n: The number to test.
    /// - Returns: `true` if `n` is prime.
    /// - Complexity: O(√n) divisions below 2^20; O(log n) multiplications above.
    public static func isPrime(_ n: Int) -> Bool {
        guard n >= 2 else { return false }
        if n < 4 { return true }
        if n % 2 == 0 { return false }
        if n >= 1 << 20 { return millerRabin(UInt64(n)) }
        var divisor = 3
        while divisor <= n / divisor {
            if n % divisor == 0 { return false }
            divisor += 2
        }
        return true
    }

    /// The Miller–Rabin test of an odd `n` ≥ 2^20, with the witnesses 2, 3, ..., 37: deterministic
    /// below 3.3 × 10^24, so for every `UInt64`.
    private static func millerRabin(_ n: UInt64) -> Bool {
        let witnesses: [UInt64] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
        for witness in witnesses where n % witness == 0 { return false }  // n > 37.
        var d = n - 1
        var squarings = 0
        while d & 1 == 0 {
            d >>= 1
            squarings += 1
        }
        nextWitness: for witness in witnesses {
            var x = power(witness, d, modulo: n)
            if x == 1 || x == n - 1 { continue }
            for _ in 1..<squarings {
                x = multiply(x, x, modulo: n)
                if x == n - 1 { continue nextWitness }
            }
            return false
        }
        return true
    }

    /// `a * b % m` without overflow (`a` and `b` less than `m`).
    private static func multiply(_ a: UInt64, _ b: UInt64, modulo m: UInt64) -> UInt64 {
        m.dividingFullWidth(a.multipliedFullWidth(by: b)).remainder
    }

    /// `base` to the `exponent`, modulo `m`.
    private static func power(_ base: UInt64, _ exponent: UInt64, modulo m: UInt64) -> UInt64 {
        var result: UInt64 = 1
        var base = base % m
        var exponent = exponent
        while exponent > 0 {
            if exponent & 1 == 1 { result = multiply(result, base, modulo: m) }
            base = multiply(base, base, modulo: m)
            exponent >>= 1
        }
        return result
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
    /// assert(Primes.nth(1) == 2)
    /// assert(Primes.nth(6) == 13)
    /// assert(Primes.nth(0) == nil)
    /// ```
    ///
    /// - Parameter n: Which prime, counting from 1.
    /// - Returns: The `n`th prime, or `nil` when `n` is out of range.
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
    ///
    /// - Parameter n: The number.
    /// - Returns: `n` with its English ordinal suffix.
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
