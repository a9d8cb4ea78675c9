import PrimeTimeCore
import Testing

@Suite("Primes")
struct PrimesTests {
    @Test func isPrimeMatchesTrialDivisionBelow1000() {
        func slowIsPrime(_ n: Int) -> Bool { n >= 2 && (2..<n).allSatisfy { n % $0 != 0 } }
        for n in -10...1000 {
            #expect(Primes.isPrime(n) == slowIsPrime(n), "n = \(n)")
        }
    }

    @Test func isPrimeOfLargeNumbers() {
        #expect(Primes.isPrime(104_729))
        #expect(Primes.isPrime(2_147_483_647))          // 2^31 - 1
        #expect(!Primes.isPrime(104_730))
        #expect(!Primes.isPrime(104_729 * 104_723))     // the product of two large primes
        #expect(!Primes.isPrime(.min))
    }

    @Test func nthOfTheFirstTen() {
        #expect((1...10).map { Primes.nth($0) } == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29])
    }

    @Test func nthMatchesCountingPrimesUpTo3000() {
        let primes = (2...30_000).filter(Primes.isPrime)
        for (index, prime) in primes.prefix(3000).enumerated() {
            #expect(Primes.nth(index + 1) == prime, "n = \(index + 1)")
        }
    }

    @Test func nth10000thIs104729() {
        #expect(Primes.nth(10_000) == 104_729)
    }

    @Test func nthOfZeroAndNegativeIsNil() {
        #expect(Primes.nth(0) == nil)
        #expect(Primes.nth(-1) == nil)
        #expect(Primes.nth(.min) == nil)
    }

    @Test func ordinals() {
        let cases: [(Int, String)] = [
            (0, "0th"), (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"),
            (11, "11th"), (12, "12th"), (13, "13th"), (14, "14th"), (21, "21st"), (22, "22nd"),
            (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th"), (1_000_003, "1000003rd"),
            (-1, "-1st"), (-2, "-2nd"), (-11, "-11th"), (.min, "\(Int.min)th"),
        ]
        for (n, ordinal) in cases {
            #expect(Primes.ordinal(n) == ordinal)
        }
    }
}
