import Dispatch
import Streams
import StreamsTesting
import Testing

/// Real threads against the project's `Lock` (off Apple platforms, one atomic word inside the
/// object that stores it, and a shared parking lot where waiting threads sleep). Each round makes
/// a new object, so locks are made where freed ones were. Bounded: a few thousand lock round trips
/// per round; `.ci/run` runs this target again under ThreadSanitizer, which reports any increment
/// the lock fails to order.
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

    #if !canImport(Darwin)
        /// The sleeping path, forced: the lock is held until another thread has given up trying
        /// and announced that it waits (the word says 2), so it sleeps, or is about to; the
        /// unlock must wake it. A lost wakeup hangs this test.
        @Test func aThreadThatSleepsForTheLockIsWokenByTheUnlock() async {
            await onDedicatedThread {
                for _ in 0..<20 {
                    let counter = Counter()
                    let finished = DispatchSemaphore(value: 0)
                    counter.lock.lock()
                    DispatchQueue.global().async {
                        counter.increment()
                        finished.signal()
                    }
                    #expect(await pollUntil { counter.lock.mayHaveSleepers })
                    counter.value += 1
                    counter.lock.unlock()
                    #expect(finished.wait(timeout: .now() + 30) == .success, "the sleeper was not woken")
                    #expect(counter.current == 2)
                }
            }
        }

        /// Locks made on one thread share a room of the parking lot, so an unlock wakes sleepers
        /// that wait for other locks too: each must go back to sleep until its own lock is free,
        /// and get it then. Four locks, a sleeper each, freed one at a time.
        @Test func sleepersForLocksThatShareARoomEachGetTheirOwnLock() async {
            await onDedicatedThread {
                for _ in 0..<10 {
                    let counters = (0..<4).map { _ in Counter() }
                    let finished = DispatchSemaphore(value: 0)
                    for counter in counters { counter.lock.lock() }
                    for counter in counters {
                        DispatchQueue.global().async {
                            counter.increment()
                            finished.signal()
                        }
                    }
                    #expect(await pollUntil { counters.allSatisfy { $0.lock.mayHaveSleepers } })
                    for (index, counter) in counters.enumerated() {
                        counter.value += 1
                        counter.lock.unlock()
                        #expect(finished.wait(timeout: .now() + 30) == .success, "a sleeper was not woken")
                        // The lock just freed was taken and its increment made; the others are
                        // still held, so their sleepers are still waiting.
                        #expect(counter.current == 2)
                        for later in counters[(index + 1)...] {
                            let stillWaiting = later.lock.mayHaveSleepers
                            #expect(stillWaiting)
                        }
                    }
                }
            }
        }
    #endif
}
