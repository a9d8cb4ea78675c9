import Dispatch
import Foundation
import Streams

/// Runs `body` in the calling test's task, so that `#expect` and `Issue.record` still report to
/// the test, but on a thread of its own instead of one of Swift concurrency's cooperative pool.
///
/// Use it for a test that keeps its thread busy for long: a stress test that blocks
/// (`DispatchQueue.concurrentPerform`, semaphores, spinning), or a long synchronous loop (a
/// model-based or fuzz test running thousands of cases). The cooperative pool has only as many
/// threads as the machine has cores, so such a test run on it starves every async test of the
/// same run: a `TestScheduler.advance(until:)` or a `TestStore` waiting for an effect then times
/// out, on a small machine, for no fault of its own.
///
/// <!-- example context: suite -->
/// ```swift
/// @Test func randomProgramsAgreeWithTheModel() async {
///     await onDedicatedThread {
///         for seed in 0..<10_000 { check(seed) }
///     }
/// }
/// ```
///
/// At most one body per core runs at once; the others await their
/// turn without holding a thread. Tasks that `body` creates with `Task { }` run on the pool as
/// usual.
///
/// - Parameter body: The work to run.
/// - Returns: What `body` returns.
public func onDedicatedThread<T>(_ body: () async -> T) async -> T {
    let threads = DedicatedThreads.shared
    let executor = await threads.acquire()
    defer { threads.release(executor) }
    return await withTaskExecutorPreference(executor) { await body() }
}

/// A few threads, each a task executor, lent to one test at a time.
package final class DedicatedThreads: @unchecked Sendable {  // `idle` and `waiting` guarded by `lock`
    /// How many bodies run at once: one per core.
    package static let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
    package static let shared = DedicatedThreads(count: width)

    private let lock = Lock()
    private var idle: [ThreadExecutor]
    private var waiting: [CheckedContinuation<ThreadExecutor, Never>] = []

    init(count: Int) {
        idle = (0..<count).map { ThreadExecutor(name: "streams.dedicated.\($0)") }
    }

    /// An idle executor, once there is one.
    package func acquire() async -> ThreadExecutor {
        await withCheckedContinuation { (continuation: CheckedContinuation<ThreadExecutor, Never>) in
            let executor: ThreadExecutor? = lock.withLock {
                if let executor = idle.popLast() { return executor }
                waiting.append(continuation)
                return nil
            }
            if let executor { continuation.resume(returning: executor) }
        }
    }

    /// Hands `executor` to the longest waiting test, or keeps it idle.
    package func release(_ executor: ThreadExecutor) {
        let next: CheckedContinuation<ThreadExecutor, Never>? = lock.withLock {
            if waiting.isEmpty {
                idle.append(executor)
                return nil
            }
            return waiting.removeFirst()
        }
        next?.resume(returning: executor)
    }
}

/// A task executor that runs its jobs, one after the other, on a thread of its own.
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {  // `jobs` guarded by `lock`
    private let lock = Lock()
    private var jobs: [UnownedJob] = []
    private let available = DispatchSemaphore(value: 0)

    private static let marker = "streams.dedicated.thread"
    /// The name of the executor whose thread runs the caller, if any.
    package static var currentName: String? { Thread.current.threadDictionary[marker] as? String }

    init(name: String) {
        let thread = Thread { [self] in
            Thread.current.threadDictionary[Self.marker] = name
            while true {
                available.wait()
                let job = lock.withLock { jobs.removeFirst() }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs.append(job) }
        available.signal()
    }
}
