// The workloads written for AsyncSequence, as its users write them: the standard library's
// operators, swift-async-algorithms' (`merge`, `zip`, `combineLatest`, `chain`,
// `removeDuplicates`, `AsyncChannel`, `.async`), `AsyncStream` for a hot source, a `Task` for a
// consumer that runs on its own. Each computes the checksum its Streams counterpart computes.
//
// Not here, because AsyncSequence has no such API: W5 (demand: an async iterator always pulls one
// element at a time), C1 (values sent to two channels: `combineLatest` coalesces them, so its
// output is not one combination per send), B1, R1, K1, T1 (`buffer(size:prefetch:whenFull:)`,
// `receive(on:)`, `catch`, `retry`), and the store's S workloads.
import AsyncAlgorithms
import Synchronization
import WorkloadSupport

// MARK: W1

public func pipeline(_ n: Int) async -> UInt64 {
    var sum = 0
    let values = (0..<n).async
        .map { $0 &* 3 }
        .compactMap { $0 % 2 == 0 ? $0 : nil }
        .filter { $0 % 3 == 0 }
    for await value in values { sum &+= value }
    return checksum(sum)
}

// MARK: W2: a hot source with its consumers

/// W2x1 with an `AsyncStream` (unbounded buffer): the producer never waits.
public func streamSends(_ n: Int) async -> UInt64 {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let consumer = Task {
        var sum = 0
        for await value in stream { sum &+= value }
        return sum
    }
    for i in 0..<n { continuation.yield(i) }
    continuation.finish()
    return checksum(await consumer.value)
}

/// W2x1 with an `AsyncChannel`: each `send` waits until the consumer has taken the value.
public func channelSends(_ n: Int) async -> UInt64 {
    let channel = AsyncChannel<Int>()
    let consumer = Task {
        var sum = 0
        for await value in channel { sum &+= value }
        return sum
    }
    for i in 0..<n { await channel.send(i) }
    channel.finish()
    return checksum(await consumer.value)
}

/// W2x10: ten consumers, each with its own `AsyncStream`, the producer yielding to all ten.
public func streamSendsToTen(_ n: Int) async -> UInt64 {
    var continuations: [AsyncStream<Int>.Continuation] = []
    var consumers: [Task<Int, Never>] = []
    for _ in 0..<10 {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuations.append(continuation)
        consumers.append(
            Task {
                var sum = 0
                for await value in stream { sum &+= value }
                return sum
            })
    }
    for i in 0..<n {
        for continuation in continuations { continuation.yield(i) }
    }
    var sum = 0
    for (continuation, consumer) in Swift.zip(continuations, consumers) {
        continuation.finish()
        sum &+= await consumer.value
    }
    return checksum(sum)
}

// MARK: W3: a one-value pipeline made and run n times

public func churn(_ n: Int) async -> UInt64 {
    var total = 0
    for i in 0..<n {
        for await value in [i].async.map({ $0 + 1 }) { total &+= value }
    }
    return checksum(total)
}

// MARK: W3mem

/// Counts values received by consumers running on their own.
final class Received: Sendable {
    let count = Atomic<Int>(0)
}

/// A live pipeline: a task iterating `stream.map { $0 + 1 }`, suspended after its one value,
/// waiting for more. The slots and the task objects' own arrays are allocated before the mark.
public func liveMemory(_ n: Int) async -> MemoryReading {
    let received = Received()
    var continuations: [AsyncStream<Int>.Continuation] = []
    var consumers: [Task<Int, Never>] = []
    continuations.reserveCapacity(n)
    consumers.reserveCapacity(n)
    let start = heapBytesInUse()
    for i in 0..<n {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(i)
        continuations.append(continuation)
        consumers.append(
            Task {
                var total = 0
                for await value in stream.map({ $0 + 1 }) {
                    total &+= value
                    received.count.add(1, ordering: .releasing)
                }
                return total
            })
    }
    while received.count.load(ordering: .acquiring) < n { await Task.yield() }
    let bytes = Double(heapBytesInUse() - start) / Double(max(1, n))
    var total = 0
    for (continuation, consumer) in Swift.zip(continuations, consumers) {
        continuation.finish()
        total &+= await consumer.value
    }
    return MemoryReading(bytesPerPipeline: bytes, checksum: checksum(total))
}

// MARK: W4

/// `CurrentValueSubject`'s part: a stream that starts with the current value, 0.
public func currentValue(_ n: Int) async -> UInt64 {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let consumer = Task {
        var sum = 0
        for await value in stream.removeDuplicates().map({ $0 &* 2 }) { sum &+= value }
        return sum
    }
    continuation.yield(0)
    for i in 0..<n { continuation.yield(i >> 1) }
    continuation.finish()
    return checksum(await consumer.value)
}

// MARK: W6

public func flatMapInners(_ n: Int) async -> UInt64 {
    var sum = 0
    for await value in (0..<n).async.flatMap({ [$0].async }) { sum &+= value }
    return checksum(sum)
}

// MARK: W7

public func zip(_ n: Int) async -> UInt64 {
    var sum = 0
    for await (a, b) in AsyncAlgorithms.zip((0..<n).async, (0..<n).async) { sum &+= a &* 3 &+ b }
    return checksum(sum)
}

// MARK: M, F, C, A

public func mergeElements(_ n: Int) async -> UInt64 {
    var sum = 0
    let half = n / 2
    for await value in merge((0..<half).async, (half..<(2 * half)).async) { sum &+= value }
    return checksum(sum)
}

public func mergeChurn(_ n: Int) async -> UInt64 {
    var sum = 0
    for i in 0..<n {
        for await value in merge([i].async, [i].async) { sum &+= value }
    }
    return checksum(sum)
}

public func flatMapChurn(_ n: Int) async -> UInt64 {
    var sum = 0
    for i in 0..<n {
        for await value in [i].async.flatMap({ [$0].async }) { sum &+= value }
    }
    return checksum(sum)
}

public func combineLatestChurn(_ n: Int) async -> UInt64 {
    var sum = 0
    for i in 0..<n {
        for await (a, b) in combineLatest([i].async, [i].async) { sum &+= (a &+ b) / 2 }
    }
    return checksum(sum)
}

public func appendChurn(_ n: Int) async -> UInt64 {
    var sum = 0
    for i in 0..<n {
        for await value in chain([i].async, [i].async) { sum &+= value }
    }
    return checksum(sum)
}
