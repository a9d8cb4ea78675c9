#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One workload: a Streams version and a plain-loop twin that must compute the same checksum.
struct Workload {
    let id: String
    let unit: String
    let what: String
    /// n = base size * scale.0 / scale.1
    let scale: (Int, Int)
    let measure: (Int) -> Measurement
}

struct Measurement {
    var streams: Double
    var baseline: Double
    var streamsChecksum: UInt64
    var baselineChecksum: UInt64
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

/// `--once`: run each side once, untimed, for counting instructions under valgrind.
nonisolated(unsafe) var singlePass = false

/// CPU time of this thread, so that time other processes take from us does not count.
func cpuNanos() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Resident memory now, in bytes (Linux: /proc/self/statm), or 0.
func residentBytes() -> Int {
    #if os(Linux)
    let fd = open("/proc/self/statm", O_RDONLY)
    if fd < 0 { return 0 }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
    guard count > 0 else { return 0 }
    let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return 0
    #endif
}

/// An identity function the optimizer cannot see through, so that a baseline calls its closures
/// through function values, as any library holding user closures must.
@inline(never) @_optimize(none)
func opaque<T>(_ value: T) -> T { value }

@inline(__always)
func checksum(_ x: Int) -> UInt64 { UInt64(UInt(bitPattern: x)) }
