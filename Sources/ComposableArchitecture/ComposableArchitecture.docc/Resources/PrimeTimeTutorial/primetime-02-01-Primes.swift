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
}
