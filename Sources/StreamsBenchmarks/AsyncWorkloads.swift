import Dispatch
import Streams

/// W3 against the same one-value pipeline in Swift concurrency: the ratio is Streams' time over
/// the async loop's (below 1: Streams is faster).
func asyncWorkloads() -> [Workload] {
    [
        Workload(id: "W3async", unit: "ns/subscription",
                 what: "W3 against for await over CollectionOfOne(i).async.map (baseline: the async loop)",
                 scale: (1, 8)) { n in timedAgainstAsync(n, streams: churn, baseline: asyncChurn) },
    ]
}

/// `for await` over `CollectionOfOne(i).async.map { $0 + 1 }`, once per i.
func asyncChurn(_ n: Int) async -> UInt64 {
    var total = 0
    for i in 0..<n {
        for await x in CollectionOfOne(i).async.map({ $0 + 1 }) { total &+= x }
    }
    return checksum(total)
}

/// A sequence's elements as an `AsyncSequence` that never suspends: swift-async-algorithms'
/// `async` (`AsyncSyncSequence`), written out so that the benchmark needs no other package.
struct SyncAsyncSequence<Base: Sequence>: AsyncSequence {
    typealias Element = Base.Element
    typealias Failure = Never
    let base: Base

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = Never
        var iterator: Base.Iterator?

        mutating func next() async -> Base.Element? {
            guard let element = iterator?.next() else {
                iterator = nil
                return nil
            }
            return element
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(iterator: base.makeIterator()) }
}

extension Sequence {
    var async: SyncAsyncSequence<Self> { SyncAsyncSequence(base: self) }
}

/// `timed`, for an async baseline: both sides run on one thread of the concurrency pool (the
/// async loop never suspends, so it stays there), timed in that thread's CPU time.
func timedAgainstAsync(_ n: Int, streams: @escaping @Sendable (Int) -> UInt64,
                       baseline: @escaping @Sendable (Int) async -> UInt64) -> Measurement {
    final class Box: @unchecked Sendable {  // written by the task before `signal`, read after `wait`
        var measurement: Measurement?
    }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let once = singlePass
    Task.detached {
        if once {
            box.measurement = Measurement(streams: .nan, baseline: .nan,
                                          streamsChecksum: streams(n), baselineChecksum: await baseline(n))
            done.signal()
            return
        }
        _ = streams(max(1, n / 10))
        _ = await baseline(max(1, n / 10))
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
            best.baselineChecksum = await baseline(n)
            elapsed = cpuNanos() - start
            best.baseline = min(best.baseline, Double(elapsed) / Double(n))
            spent += elapsed
            passes += 1
        }
        box.measurement = best
        done.signal()
    }
    done.wait()
    return box.measurement!
}
