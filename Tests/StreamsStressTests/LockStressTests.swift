import Dispatch
import Streams
import StreamsTesting
import Testing

/// Real threads against the project's `Lock`, which keeps its mutex inside the object that
/// stores it (on Linux, the mutex's static initializer, without `pthread_mutex_init`). Each round
/// makes a new object, so locks are made where freed ones were. Bounded: a few thousand lock
/// round trips per round; `.ci/run` runs this target again under ThreadSanitizer, which reports
/// any increment the lock fails to order.
@Suite("Lock under concurrency")
struct LockStressTests {
    static let threads = 4
    static let perThread = 500
    static let rounds = 200

    /// A counter whose plain `+= 1` is guarded by a lock stored beside it.
    final class Counter: @unchecked Sendable {  // `value` is guarded by `lock`
        let lock = Lock()
        var value = 0

        func increment() {
            lock.withLock { value += 1 }
        }

        var current: Int { lock.withLock { value } }
    }

    @Test func aLockInsideAnObjectExcludesEveryOtherThread() async {
        await onDedicatedThread {
            for _ in 0..<Self.rounds {
                let counter = Counter()
                DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                    for _ in 0..<Self.perThread { counter.increment() }
                }
                #expect(counter.current == Self.threads * Self.perThread)
            }
        }
    }

    /// Several objects alive at once, each with its own lock, every thread incrementing every
    /// one: each count comes out whole, so no lock lost an increment of its object.
    @Test func locksOfObjectsAliveTogetherAreIndependent() async {
        await onDedicatedThread {
            for _ in 0..<Self.rounds / 10 {
                let counters = (0..<Self.threads).map { _ in Counter() }
                DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
                    for _ in 0..<Self.perThread / 10 {
                        for counter in counters { counter.increment() }
                    }
                }
                for counter in counters {
                    #expect(counter.current == Self.threads * (Self.perThread / 10))
                }
            }
        }
    }
}
