import Dispatch
import Foundation
import Streams

/// Runs `body` in the calling test's task, so that `#expect` and `Issue.record` still report to
/// the test, but on a thread of the stress tests' own instead of one of Swift concurrency's
/// cooperative pool.
///
/// The stress tests block their thread (`DispatchQueue.concurrentPerform`, semaphores, waits,
/// spinning). The cooperative pool has only as many threads as the machine has cores, so a
/// stress test blocking one of them starves every async test of the same run (a `TestStore`
/// awaiting an effect for a second times out). At most ``DedicatedThreads/width`` bodies run at
/// once, as many as before, when the pool's threads bounded them; the others await their turn
/// without holding a thread. Tasks that `body` creates with `Task { }` run on the pool as usual.
func onDedicatedThread<T>(_ body: () async -> T) async -> T {
    let threads = DedicatedThreads.shared
    let executor = await threads.acquire()
    defer { threads.release(executor) }
    return await withTaskExecutorPreference(executor) { await body() }
}

/// A few threads, each a task executor, lent to one test at a time.
final class DedicatedThreads: @unchecked Sendable {  // `idle` and `waiting` guarded by `lock`
    /// How many bodies run at once: one per core.
    static let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
    static let shared = DedicatedThreads(count: width)

    private let lock = Lock()
    private var idle: [ThreadExecutor]
    private var waiting: [CheckedContinuation<ThreadExecutor, Never>] = []

    init(count: Int) {
        idle = (0..<count).map { ThreadExecutor(name: "streams.stress.\($0)") }
    }

    /// An idle executor, once there is one.
    func acquire() async -> ThreadExecutor {
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
    func release(_ executor: ThreadExecutor) {
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
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {  // `jobs` guarded by `lock`
    private let lock = Lock()
    private var jobs: [UnownedJob] = []
    private let available = DispatchSemaphore(value: 0)

    private static let marker = "streams.stress.thread"
    /// The name of the executor whose thread runs the caller, if any.
    static var currentName: String? { Thread.current.threadDictionary[marker] as? String }

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

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs.append(job) }
        available.signal()
    }
}
