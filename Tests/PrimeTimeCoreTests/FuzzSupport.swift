import Foundation
import StreamsTesting

/// The seed for a fuzz test: `PRIMETIME_FUZZ_SEED` from the environment to repeat a run, else a
/// new random one. The test prints it first (so a crash's output has it) and puts it in every
/// failure message.
func fuzzSeed(_ test: String) -> UInt64 {
    let seed = ProcessInfo.processInfo.environment["PRIMETIME_FUZZ_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 0 ... .max)
    print("\(test): seed \(seed) (repeat with PRIMETIME_FUZZ_SEED=\(seed))")
    return seed
}

extension SplitMix64 {
    /// A random whole number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// `count` random bytes.
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0 ... .max, using: &self) }
    }

    /// One of `elements`.
    mutating func pick<T>(_ elements: [T]) -> T {
        elements[int(0...elements.count - 1)]
    }

    /// A number as text that is hard to parse: huge, signed, with a leading zero, in other notations.
    mutating func awkwardNumber() -> String {
        switch int(0...9) {
        case 0: return String(repeating: "9", count: int(19...400))
        case 1: return "-" + String(repeating: "9", count: int(19...400))
        case 2: return String(Int.max)
        case 3: return String(Int.min)
        case 4: return "9223372036854775808"
        case 5: return pick(["1e400", "-1e400", "1e-400", "0x1F", "1_000", "+7", "-0", "007", "2.0", "NaN", "Infinity"])
        case 6: return String(Int.random(in: Int.min ... Int.max, using: &self))
        case 7: return pick(["9223372036854775783", "18446744073709551557", "4294967291", "2147483647"])  // Big primes.
        default: return String(int(-1_000...1_000))
        }
    }

    /// A short run of text that is hard to handle: control characters, invalid or unusual Unicode.
    mutating func awkwardText() -> String {
        switch int(0...6) {
        case 0: return String(decoding: bytes(int(0...12)), as: UTF8.self)  // Invalid UTF-8 repaired.
        case 1: return pick(["\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\t", "\r", "\n", "\r\n", "\u{FEFF}", "\u{200B}"])
        case 2: return pick(["é", "e\u{301}", "🧮", "👨‍👩‍👧", "\u{202E}", "日本", "\u{FFFD}", "\u{10FFFF}"])
        case 3: return String(repeating: pick([" ", "\t", "x", "9", "#", ";", ":"]), count: int(1...2_000))
        case 4: return awkwardNumber()
        default: return pick(["del", "DEL", "inc", "+", "-", "p", "save", "save-file", "load", "q", "h", "n", "#", ":", " "])
        }
    }
}
