import Workloads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Measurement {
    var streams: Double
    var baseline: Double
    var streamsChecksum: UInt64
    var baselineChecksum: UInt64
}

/// `--once`: run each side once, untimed, for counting instructions under valgrind.
nonisolated(unsafe) var singlePass = false

/// Runs a synchronous body (the store's on the main actor, where this program's top level runs).
func run(_ body: Body, _ n: Int) -> UInt64 {
    switch body {
    case .sync(let run): return run(n)
    case .mainActor(let run): return MainActor.assumeIsolated { run(n) }
    case .async, .memory, .asyncMemory: fatalError("not a timed synchronous body")
    }
}

func measure(_ streams: Body, against baseline: Body, n: Int) -> Measurement {
    if case .memory(let streamsMemory) = streams, case .memory(let baselineMemory) = baseline {
        // Heap bytes in use, not resident memory: what one reading frees does not hide what the
        // next one allocates.
        let loop = baselineMemory(n)
        let reading = streamsMemory(n)
        return Measurement(
            streams: reading.bytesPerPipeline, baseline: loop.bytesPerPipeline,
            streamsChecksum: reading.checksum, baselineChecksum: loop.checksum)
    }
    return timed(n, streams: { run(streams, $0) }, baseline: { run(baseline, $0) })
}

/// Times `streams` and `baseline` (each returning a checksum) alternately, after a warm-up at a
/// tenth of the size, and returns the fastest pass of each in nanoseconds per operation.
func timed(_ n: Int, streams: (Int) -> UInt64, baseline: (Int) -> UInt64) -> Measurement {
    if singlePass {
        return Measurement(streams: .nan, baseline: .nan, streamsChecksum: streams(n), baselineChecksum: baseline(n))
    }
    _ = streams(max(1, n / 10))
    _ = baseline(max(1, n / 10))
    var best = Measurement(streams: .infinity, baseline: .infinity, streamsChecksum: 0, baselineChecksum: 0)
    var spent: UInt64 = 0
    var passes = 0
    while (passes < 3 || spent < 200_000_000) && spent < 2_000_000_000 && passes < 50 {
        var start = cpuNanos()
        best.streamsChecksum = streams(n)
        var elapsed = cpuNanos() - start
        best.streams = min(best.streams, Double(elapsed) / Double(n))
        spent += elapsed
        start = cpuNanos()
        best.baselineChecksum = baseline(n)
        elapsed = cpuNanos() - start
        best.baseline = min(best.baseline, Double(elapsed) / Double(n))
        spent += elapsed
        passes += 1
    }
    return best
}

/// CPU time of this thread, so that time other processes take from us does not count.
func cpuNanos() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
