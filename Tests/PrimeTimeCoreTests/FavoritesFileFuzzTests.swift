import Foundation
@testable import PrimeTimeCore
import Testing
import StreamsTesting

/// Bad favorites files never crash PrimeTime: random bytes, damaged valid files, huge numbers,
/// deep nesting and invalid UTF-8 through the reader. Each gives the list (without the entries
/// that are not distinct primes, each one named), or a clear message naming the file; a corrupt
/// file on disk, or one with entries left out, is copied before anything else. Seeded (printed,
/// and in every failure message; `PRIMETIME_FUZZ_SEED` repeats a run) and bounded.
///
/// Since a file with some bad entries is read without them (issue 24), instead of being
/// rejected whole, the expectations for a list say so: what is read is distinct primes, and every
/// entry is either read or reported.
@Suite("Favorites file fuzzing")
struct FavoritesFileFuzzTests {
    /// Bytes that are hard to read as a list of primes.
    static func randomFile(_ random: inout SplitMix64) -> Data {
        switch random.int(0...7) {
        case 0:
            return Data(random.bytes(random.int(0...64)))
        case 1:
            // A valid file, damaged: bytes flipped, inserted, removed.
            var bytes = Array(FavoritesFile.encode(FavoritesTestMode.saveLoopLists[0].shuffled(using: &random)
                .prefix(random.int(0...20)).map { $0 }))
            for _ in 0..<random.int(1...4) {
                let at = random.int(0...bytes.count)
                switch random.int(0...2) {
                case 0 where at < bytes.count: bytes[at] = UInt8.random(in: 0 ... .max, using: &random)
                case 1: bytes.insert(random.pick(Array("[],-.e0123456789\"{}: \u{0}".utf8) + [0xFF, 0xC0]), at: at)
                default: if at < bytes.count { bytes.remove(at: at) }
                }
            }
            return Data(bytes)
        case 2:
            // Huge, signed and odd numbers in a list.
            let numbers = (0..<random.int(1...5)).map { _ in random.awkwardNumber() }
            return Data(("[" + numbers.joined(separator: ",") + "]").utf8)
        case 3:
            // Deep nesting, balanced or not, of lists or objects.
            let depth = random.pick([100, 511, 512, 513, 1_000, 10_000, random.int(1...20_000)])
            let (open, close) = random.int(0...1) == 0 ? ("[", "]") : ("{\"a\":", "}")
            let closing = random.int(0...2) == 0 ? random.int(0...depth) : depth
            return Data((String(repeating: open, count: depth) + "2" + String(repeating: close, count: closing)).utf8)
        case 4:
            // Invalid UTF-8 and odd encodings around a list.
            let junk: [[UInt8]] = [[0xFF, 0xFE], [0xFE, 0xFF], [0xEF, 0xBB, 0xBF], [0xC0, 0x80], [0xED, 0xA0, 0x80],
                                   [0xF4, 0x90, 0x80, 0x80], [0x80], [0x00]]
            return Data(random.pick(junk) + Array("[2,3]".utf8) + random.pick(junk))
        case 5:
            // Strings with escapes, lone surrogates, control characters.
            return Data(random.pick([#"["\ud800"]"#, #"["\u0000"]"#, #"[2, "\uDFFF\uD800"]"#, "[\"\u{1}\"]",
                                     #"{"2": 3}"#, "[2,3]x", "[2,3] [5]", "[[2],[3]]", "[true, null]", "[]]"]).utf8)
        case 6:
            // A very long valid-looking list (duplicates likely).
            let count = random.int(100...3_000)
            return Data(("[" + (0..<count).map { _ in String(random.pick([2, 3, 5, 7, 11, 13])) }.joined(separator: ",") + "]").utf8)
        default:
            return Data((0..<random.int(1...6)).map { _ in random.awkwardText() }.joined().utf8)
        }
    }

    @Test func theReaderAnswersEveryFileWithTheListOrAClearMessage() async {
        // A long synchronous loop: on a dedicated thread, so that it does not starve the tests
        // that wait for tasks meanwhile (see `onDedicatedThread`).
        await onDedicatedThread {
            let seed = fuzzSeed("theReaderAnswersEveryFileWithTheListOrAClearMessage")
            var random = SplitMix64(seed: seed)
            let clock = ContinuousClock()
            let start = clock.now
            var slowest: (Duration, Int) = (.zero, 0)
            for index in 0..<4_000 {
                let data = Self.randomFile(&random)
                let began = clock.now
                defer { if clock.now - began > slowest.0 { slowest = (clock.now - began, index) } }
                let result = FavoritesFile.decode(data, path: "/data/favorites.json")
                // Even a huge prime is checked at once (no trial division up to 3 billion).
                #expect(clock.now - began < .seconds(1), "seed \(seed), case \(index): slow")
                switch result {
                case .success(.missing):
                    Issue.record("seed \(seed), case \(index): bytes read as no file")
                case let .success(.primes(primes, skipped)):
                    #expect(primes.allSatisfy(Primes.isPrime) && Set(primes).count == primes.count,
                            "seed \(seed), case \(index)")
                    #expect(FavoritesFile.decode(FavoritesFile.encode(primes), path: "f") == .success(.primes(primes)),
                            "seed \(seed), case \(index)")
                    if let skipped {
                        // Every entry is read or reported, in order, and the report names the file.
                        let positions = skipped.entries.map(\.position)
                        #expect(!positions.isEmpty && positions == positions.sorted() && Set(positions).count == positions.count,
                                "seed \(seed), case \(index)")
                        #expect(skipped.kept == primes.count, "seed \(seed), case \(index)")
                        #expect(skipped.message.contains("/data/favorites.json") && skipped.message.contains("left out"),
                                "seed \(seed), case \(index)")
                        #expect(skipped.entries.allSatisfy { $0.entry.count <= 24 }, "seed \(seed), case \(index)")
                    }
                case let .failure(error):
                    #expect(error.kind == .notJSON || error.kind == .notPrimes, "seed \(seed), case \(index)")
                    #expect(error.path == "/data/favorites.json", "seed \(seed), case \(index)")
                    #expect(!error.reason.isEmpty, "seed \(seed), case \(index)")
                    #expect(error.message.contains("/data/favorites.json") && error.message.contains("saving overwrites it"),
                            "seed \(seed), case \(index)")
                }
            }
            #expect(clock.now - start < .seconds(30), "seed \(seed); slowest: case \(slowest.1), \(slowest.0)")
        }
    }

    @Test func hugePrimesAreReadAtOnce() {
        // Trial division took seconds for the largest 64-bit prime (a hang at launch).
        let clock = ContinuousClock()
        let began = clock.now
        #expect(Primes.isPrime(9_223_372_036_854_775_783))
        #expect(clock.now - began < .milliseconds(100))
        let file = "[9223372036854775783, 18446744073709551557, 4294967291]"
        // The second does not fit in an Int: it is left out, and the others are read. (Before
        // issue 24, the whole file was rejected.)
        let read = try? FavoritesFile.decode(Data(file.utf8), path: "f").get()
        #expect(read?.favorites == [9_223_372_036_854_775_783, 4_294_967_291])
        #expect(read?.skipped?.entries == [FavoritesFileSkippedEntry(position: 2, entry: "18446744073709551557", problem: .outOfRange)])
        #expect(FavoritesFile.decode(Data("[9223372036854775783, 4294967291]".utf8), path: "f")
            == .success(.primes([9_223_372_036_854_775_783, 4_294_967_291])))
        #expect((try? FavoritesFile.decode(Data("[9223372036854775807]".utf8), path: "f").get())?.skipped?.entries
            == [FavoritesFileSkippedEntry(position: 1, entry: "9223372036854775807", problem: .notPrime)])
    }

    /// Random corrupt files on disk: each read reports it, leaves it as it was, and keeps a
    /// byte-for-byte copy; so does a read that leaves entries out.
    @Test func corruptFilesOnDiskAreReportedAndCopied() throws {
        let seed = fuzzSeed("corruptFilesOnDiskAreReportedAndCopied")
        var random = SplitMix64(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("PrimeTimeFuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 0..<60 {
            let file = directory.appendingPathComponent("favorites-\(index).json")
            let data = Self.randomFile(&random)
            try data.write(to: file)
            let store = FavoritesFileStore(file: file)
            switch store.read() {
            case .success(.missing):
                Issue.record("seed \(seed), case \(index): a file read as no file")
            case let .success(.primes(_, skipped?)):
                #expect(skipped.message.hasSuffix("A copy is kept at \(file.path).corrupt."), "seed \(seed), case \(index)")
                #expect(FileManager.default.contents(atPath: file.path + ".corrupt") == data, "seed \(seed), case \(index)")
                #expect(FileManager.default.contents(atPath: file.path) == data, "seed \(seed), case \(index)")
            case .success(.primes(_, nil)):
                #expect(FileManager.default.contents(atPath: file.path + ".corrupt") == nil, "seed \(seed), case \(index)")
            case let .failure(error):
                #expect(error.message.hasSuffix("A copy is kept at \(file.path).corrupt."), "seed \(seed), case \(index)")
                #expect(FileManager.default.contents(atPath: file.path + ".corrupt") == data, "seed \(seed), case \(index)")
                #expect(FileManager.default.contents(atPath: file.path) == data, "seed \(seed), case \(index)")
            }
        }
    }
}
