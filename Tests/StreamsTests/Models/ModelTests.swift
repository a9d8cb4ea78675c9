import Foundation
import Streams
import StreamsTesting
import Testing

/// Random pipelines against the reference models (`ReferenceModels.swift`): each case is a
/// random source, 1–5 random operators, a random demand plan and maybe a cancel, run in Streams
/// and compared with the model's trace; every case also checks that the subscriber and its
/// subscription are let go after the end (leaks).
///
/// Seeded and reproducible: a failing case is shrunk and printed with its seed. To replay it:
/// `STREAMS_MODEL_SEED=<seed> swift test --filter ModelTests`. `STREAMS_MODEL_CASES=<n>` runs
/// more (or fewer) cases than the default 30,000.
@Suite struct ModelTests {
    static let defaultCases = 30_000
    static let masterSeed: UInt64 = 0x5EED_0F_57_12EA_0513

    /// The seeds of the cases to run: the one given in `STREAMS_MODEL_SEED`, or
    /// `STREAMS_MODEL_CASES` (default 30,000) seeds from the master seed.
    static func seeds() -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["STREAMS_MODEL_SEED"] {
            let seed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            if let seed { return [seed] }
        }
        let count = environment["STREAMS_MODEL_CASES"].flatMap { Int($0) } ?? defaultCases
        var rng = SplitMix64(seed: masterSeed)
        return (0..<count).map { _ in rng.next() }
    }

    static func failure(of c: PipelineCase) -> String? {
        compareWithModel(c, runInStreams(c))
    }

    /// Thirty thousand cases keep a thread busy for a while: they run on a dedicated thread, so
    /// that the tests waiting for tasks meanwhile are not starved of the cooperative pool.
    @Test func randomPipelinesMatchTheModels() async {
        await onDedicatedThread {
            var failures = 0
            var pull = 0, push = 0
            for seed in Self.seeds() {
                var generator = CaseGenerator(seed: seed)
                let c = generator.makeCase()
                if c.isPull { pull += 1 } else { push += 1 }
                guard Self.failure(of: c) != nil else { continue }
                failures += 1
                let small = c.shrunk { Self.failure(of: $0) != nil }
                let run = runInStreams(small)
                Issue.record(Comment(rawValue: """
                    A random pipeline differs from its model: \(compareWithModel(small, run) ?? "?")
                    seed: 0x\(String(seed, radix: 16)) — replay with STREAMS_MODEL_SEED=0x\(String(seed, radix: 16)) swift test --filter ModelTests
                    shrunk case:
                    \(small)
                    \(small.marbles(actual: run.events))
                    """))
                if failures >= 5 { break }
            }
            #expect(pull > 0 || push > 0)
        }
    }
}
