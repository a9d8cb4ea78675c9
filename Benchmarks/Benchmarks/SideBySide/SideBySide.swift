// The package-benchmark suite: every workload of Sources/Workloads/Catalog.swift, each engine's
// version a benchmark of its own, named "<id> <engine>" ("W1 Streams", "W2x1 AsyncChannel",
// "W1 loop"), so that a baseline check and a filter (`--filter '^W1 '`) can name them.
//
// An iteration does n = 1,000 operations (scalingFactor .kilo), so the table shows time, CPU time,
// instructions and mallocs per operation. W3mem is a reading, not a time: heap bytes per live
// pipeline, with 10,000 pipelines alive.
//
// Every iteration checks its checksum against the plain loop's and stops the suite on a mismatch.
import Benchmark
import WorkloadSupport
import Workloads

/// Heap bytes per live pipeline (W3mem).
let bytesPerLivePipeline = BenchmarkMetric.custom(
    "Heap bytes per live pipeline", polarity: .prefersSmaller,
    useScalingFactor: false)

/// What each benchmark reports, per operation: wall-clock time, mallocs, and instructions where
/// the machine has a counter for them. (CPU time is left out: the system counts it in steps of
/// 10 ms, far coarser than an iteration.)
var timeMetrics: [BenchmarkMetric] {
    [.wallClock, .mallocCountTotal] + (instructionCounterWorks ? [.instructions] : [])
}

/// How far a metric may move before `baseline check` calls it a regression or an improvement.
/// Time on a busy 2-core machine moves by up to 1.8×, so the time threshold is wide; malloc
/// counts are exact, and so are instruction counts where the machine has a counter.
func thresholds(for metrics: [BenchmarkMetric]) -> [BenchmarkMetric: BenchmarkThresholds] {
    let all: [BenchmarkMetric: BenchmarkThresholds] = [
        .wallClock: BenchmarkThresholds(relative: [.p50: 50.0]),
        .instructions: BenchmarkThresholds(relative: [.p50: 3.0]),
        .mallocCountTotal: BenchmarkThresholds(relative: [.p50: 1.0]),
        bytesPerLivePipeline: BenchmarkThresholds(relative: [.p50: 5.0]),
    ]
    return all.filter { metrics.contains($0.key) }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: timeMetrics,
        timeUnits: .nanoseconds,
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(400),
        maxIterations: 300,
        thresholds: thresholds(for: timeMetrics)
    )
    let n = BenchmarkScalingFactor.kilo.rawValue
    let livePipelines = 10_000

    for workload in allWorkloads {
        guard let loop = workload.version(.loop) else { fatalError("\(workload.id) has no plain loop") }
        // The store's plain loop runs on the main actor: its checksum is taken in each iteration,
        // before the measurement starts.
        let expected: UInt64?
        switch loop.body {
        case .sync(let run): expected = run(n)
        case .memory(let run): expected = run(livePipelines).checksum
        case .mainActor: expected = nil
        case .async, .asyncMemory: fatalError("\(workload.id): the plain loop is synchronous")
        }
        for version in workload.versions {
            let name = "\(workload.id) \(version.label)"
            @Sendable func check(_ result: UInt64, _ reference: UInt64? = nil) {
                guard let reference = reference ?? expected else { fatalError("\(name): no checksum to check") }
                if result != reference {
                    fatalError("MISMATCH \(name): checksum \(result), the plain loop's \(reference)")
                }
            }
            switch version.body {
            case .mainActor(let run):
                guard case .mainActor(let loopRun) = loop.body else { fatalError("\(name): no main-actor loop") }
                Benchmark(name) { @MainActor benchmark async in
                    let n = benchmark.scaledIterations.count
                    let reference = loopRun(n)
                    benchmark.startMeasurement()
                    let result = run(n)
                    benchmark.stopMeasurement()
                    check(result, reference)
                }
            case .sync(let run):
                Benchmark(name) { benchmark in
                    let result = run(benchmark.scaledIterations.count)
                    check(result)
                }
            case .async(let run):
                Benchmark(name) { benchmark async in
                    let result = await run(benchmark.scaledIterations.count)
                    check(result)
                }
            case .memory(let run):
                Benchmark(name, configuration: memoryConfiguration) { benchmark in
                    let reading = run(livePipelines)
                    check(reading.checksum)
                    benchmark.measurement(bytesPerLivePipeline, Int(reading.bytesPerPipeline.rounded()))
                }
            case .asyncMemory(let run):
                Benchmark(name, configuration: memoryConfiguration) { benchmark async in
                    let reading = await run(livePipelines)
                    check(reading.checksum)
                    benchmark.measurement(bytesPerLivePipeline, Int(reading.bytesPerPipeline.rounded()))
                }
            }
        }
    }
}

/// W3mem: a few readings of 10,000 live pipelines each.
var memoryConfiguration: Benchmark.Configuration {
    .init(
        metrics: [bytesPerLivePipeline],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 5,
        thresholds: thresholds(for: [bytesPerLivePipeline])
    )
}
