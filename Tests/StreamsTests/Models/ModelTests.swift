import Foundation
import Streams
import StreamsTesting
import Testing

/// Random pipelines against the reference models (`ReferenceModels.swift`): each case is a
/// random source, 1–5 random operators, a random demand plan and maybe a cancel, run in Streams
/// and compared with the model's trace; every case also checks that the subscriber and its
/// subscription are let go after the end (leaks).
///
/// Each run checks two sets of cases, each case made from a seed of its own:
/// - **the fixed set**: 20,000 cases whose seeds come from ``masterSeed``, the same on every run
///   (regressions show on every run);
/// - **fresh cases**: 10,000 cases whose seeds come from a *run seed* drawn at random for this
///   run, so that every CI run explores cases no run tried before. The run seed is printed at
///   the start ("ModelTests: 30000 cases; the fresh ones from run seed 0x…").
///
/// A failing case is shrunk and reported with its own seed and the command that replays it:
/// `STREAMS_MODEL_SEED=0x… swift test --filter ModelTests`. A run stops after five failures.
///
/// The knobs (environment variables; numbers in decimal, seeds in decimal or `0x` hex):
/// - `STREAMS_MODEL_SEED=<seed>`: runs that one case only (a seed a failure printed).
/// - `STREAMS_MODEL_CASES=<n>`: the size of the fixed set (default 20,000).
/// - `STREAMS_MODEL_FRESH_CASES=<n>`: the number of fresh cases (default 10,000; 0 for none).
/// - `STREAMS_MODEL_RUN_SEED=<seed>`: the run seed of the fresh cases, to run a run's fresh
///   cases again, instead of a random one.
/// - `STREAMS_MODEL_MAX_FAILURES=<n>`: how many failures stop the run (default 5; 0: none does).
/// - `STREAMS_MODEL_PROGRESS=<n>`: prints a line every `n` cases (for long local runs).
///
/// A long local exploration, for example:
/// `STREAMS_MODEL_CASES=0 STREAMS_MODEL_FRESH_CASES=5000000 STREAMS_MODEL_MAX_FAILURES=50 swift test --filter ModelTests`.
@Suite struct ModelTests {
    static let defaultCases = 20_000
    static let defaultFreshCases = 10_000
    static let defaultMaxFailures = 5
    static let masterSeed: UInt64 = 0x5EED_0F_57_12EA_0513

    static func seed(_ text: String?) -> UInt64? {
        guard let text else { return nil }
        return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    static func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }

    /// The command that runs the case of `seed` alone.
    static func replayCommand(_ seed: UInt64) -> String {
        "STREAMS_MODEL_SEED=\(hex(seed)) swift test --filter ModelTests"
    }

    /// The seeds of the cases to run: the one given in `STREAMS_MODEL_SEED`; or the fixed set,
    /// then the fresh cases from the run seed (`STREAMS_MODEL_RUN_SEED`, or a random one).
    static func seeds() -> (seeds: [UInt64], runSeed: UInt64?) {
        let environment = ProcessInfo.processInfo.environment
        if let seed = seed(environment["STREAMS_MODEL_SEED"]) { return ([seed], nil) }
        let count = environment["STREAMS_MODEL_CASES"].flatMap { Int($0) } ?? defaultCases
        let freshCount = environment["STREAMS_MODEL_FRESH_CASES"].flatMap { Int($0) } ?? defaultFreshCases
        var fixed = SplitMix64(seed: masterSeed)
        var seeds = (0..<max(0, count)).map { _ in fixed.next() }
        guard freshCount > 0 else { return (seeds, nil) }
        let runSeed = seed(environment["STREAMS_MODEL_RUN_SEED"]) ?? UInt64.random(in: 1...UInt64.max)
        var fresh = SplitMix64(seed: runSeed)
        seeds += (0..<freshCount).map { _ in fresh.next() }
        return (seeds, runSeed)
    }

    static func failure(of c: PipelineCase) -> String? {
        compareWithModel(c, runInStreams(c))
    }

    /// Thirty thousand cases keep a thread busy for a while: they run on a dedicated thread, so
    /// that the tests waiting for tasks meanwhile are not starved of the cooperative pool.
    @Test func randomPipelinesMatchTheModels() async {
        let environment = ProcessInfo.processInfo.environment
        let maxFailures = environment["STREAMS_MODEL_MAX_FAILURES"].flatMap { Int($0) } ?? Self.defaultMaxFailures
        let progress = environment["STREAMS_MODEL_PROGRESS"].flatMap { Int($0) } ?? 0
        let (seeds, runSeed) = Self.seeds()
        if let runSeed {
            print("ModelTests: \(seeds.count) cases; the fresh ones from run seed \(Self.hex(runSeed)) "
                  + "(STREAMS_MODEL_RUN_SEED=\(Self.hex(runSeed)) runs them again)")
        }
        await onDedicatedThread {
            var failures = 0
            var pull = 0, push = 0
            let started = Date()
            for (index, seed) in seeds.enumerated() {
                if progress > 0 && index > 0 && index % progress == 0 {
                    print("ModelTests: \(index) cases in \(Int(Date().timeIntervalSince(started))) s, \(failures) failures")
                }
                var generator = CaseGenerator(seed: seed)
                let c = generator.makeCase()
                if c.isPull { pull += 1 } else { push += 1 }
                guard Self.failure(of: c) != nil else { continue }
                failures += 1
                let small = c.shrunk { Self.failure(of: $0) != nil }
                let run = runInStreams(small)
                Issue.record(Comment(rawValue: """
                    A random pipeline differs from its model: \(compareWithModel(small, run) ?? "?")
                    seed: \(Self.hex(seed)) — replay with \(Self.replayCommand(seed))
                    shrunk case:
                    \(small)
                    \(small.marbles(actual: run.events))
                    """))
                if maxFailures > 0 && failures >= maxFailures { break }
            }
            #expect(pull > 0 || push > 0)
        }
    }
}
