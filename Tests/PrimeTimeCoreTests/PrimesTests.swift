import PrimeTimeCore
import Testing
import StreamsTesting

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

    @Test func nthStopsAtTheLargestNItAnswers() {
        #expect(Primes.nth(Primes.largestN) == 15_485_863)
        #expect(Primes.nth(Primes.largestN + 1) == nil)
        #expect(Primes.nth(.max) == nil)
        #expect(NthPrimeAlert(n: Primes.largestN + 1, prime: nil).message
            == "The 1000001st prime is further than PrimeTime computes (up to the 1000000th).")
    }

    /// Above 2^20 ``Primes/isPrime(_:)`` runs Miller–Rabin: it agrees with trial division, is not
    /// fooled by Carmichael numbers or strong pseudoprimes, and answers at once for any `Int`.
    @Test func largeNumbersAreAnsweredExactlyAndAtOnce() {
        func byTrialDivision(_ n: Int) -> Bool {
            guard n >= 2 else { return false }
            var divisor = 2
            while divisor <= n / divisor {
                if n % divisor == 0 { return false }
                divisor += 1
            }
            return true
        }
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let n = Int.random(in: (1 << 20)...(1 << 30), using: &random)
            #expect(Primes.isPrime(n) == byTrialDivision(n), "\(n)")
        }
        // Carmichael numbers and strong pseudoprimes to several bases: composite.
        for n in [1_050_985, 3_215_031_751, 2_152_302_898_747, 3_474_749_660_383, 341_550_071_728_321,
                  3_825_123_056_546_413_051, 9_223_372_036_854_775_807, 1 << 62] {
            #expect(!Primes.isPrime(n), "\(n)")
        }
        for n in [1_048_583, 2_147_483_647, 4_294_967_291, 1_000_000_000_000_037, 9_223_372_036_854_775_783] {
            #expect(Primes.isPrime(n), "\(n)")
        }
        #expect(!Primes.isPrime(.min))
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
