import CHeapStats

// What every engine's workloads share: the checksum, the opaque identity the plain loops call
// their closures through, and the heap count that W3mem reads.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A workload's result as a number all engines must agree on.
@inline(__always)
public func checksum(_ x: Int) -> UInt64 { UInt64(UInt(bitPattern: x)) }

/// An identity function the optimizer cannot see through, so that a plain loop calls its
/// closures through function values, as any library holding user closures must. The value goes
/// through memory that a C function, opaque to the optimizer, may have changed
/// (`cheapstats_escape`), so the optimizer cannot know what comes back.
@inline(never)
public func opaque<T>(_ value: T) -> T {
    var copy = value
    withUnsafeMutablePointer(to: &copy) { cheapstats_escape($0) }
    return copy
}

/// One object per subscription, holding the sink closure until cancelled: what a plain loop
/// keeps for a subscription.
public final class Token {
    public var onValue: ((Int) -> Void)?
    public init(_ onValue: @escaping (Int) -> Void) { self.onValue = onValue }
    public func cancel() { onValue = nil }
}

/// Bytes the C heap holds in use now (glibc's `mallinfo2`, the allocator's own overhead
/// included), or 0 where that count does not exist.
public func heapBytesInUse() -> Int { Int(cheapstats_bytes_in_use()) }

/// Whether this machine lets a process count its instructions (a hardware counter).
public let instructionCounterWorks = cheapstats_instruction_counter_works() != 0

/// Resident memory now, in bytes (Linux: /proc/self/statm), or 0.
public func residentBytes() -> Int {
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

/// What a memory workload measures: bytes per live pipeline, and the checksum.
public struct MemoryReading: Sendable {
    public var bytesPerPipeline: Double
    public var checksum: UInt64
    public init(bytesPerPipeline: Double, checksum: UInt64) {
        self.bytesPerPipeline = bytesPerPipeline
        self.checksum = checksum
    }
}
