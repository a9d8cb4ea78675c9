/// Arithmetic on primes, for the features that ask about them.
enum Primes {
    /// Whether `n` is prime: greater than 1, and divisible by no number but 1 and itself.
    static func isPrime(_ n: Int) -> Bool {
        guard n > 1 else { return false }
        var divisor = 2
        while divisor <= n / divisor {
            if n.isMultiple(of: divisor) { return false }
            divisor += 1
        }
        return true
    }

    /// The `n`th prime (the 1st is 2, the 6th is 13), or `nil` when `n` is less than 1. It tries
    /// every number in turn: slow for a large `n`, which is why the app runs it off the main queue.
    static func nth(_ n: Int) -> Int? {
        guard n > 0 else { return nil }
        var found = 0
        var candidate = 1
        while found < n {
            candidate += 1
            if isPrime(candidate) { found += 1 }
        }
        return candidate
    }
}
