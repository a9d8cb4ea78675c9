import Dispatch
import Foundation
import Streams
import Testing

/// The ways a command-line program lets `receive(on: DispatchQueue.main)` and
/// `receive(on: RunLoop.main)` deliver (Docs/MainQueue.md), each run for real in a child process
/// (an exit test): a background publisher's values are received on the main queue or a run loop,
/// and the process exits with success from the sink once they arrived there, in order.
///
/// The child process is the test runner, an `async`-main program: before the test body runs, the
/// runtime has called `dispatchMain()` on the real main thread (which now waits in it) and the
/// body runs on a worker thread. So:
/// - the body is already in the state `dispatchMain()` puts a program in. It cannot call
///   `dispatchMain()` itself: only the main thread may, and on Linux a call from a dispatch
///   worker thread crashes (SIGILL, checked). It parks its own thread instead;
/// - `RunLoop.main` can never run here: only the main thread may run it, and it is parked. The
///   run-loop approach is tested with a run loop the body's own thread runs, the same way.
///
/// Docs/MainQueue.md shows the stand-alone programs that checked each approach, `RunLoop.main`
/// included.
@Suite("Receiving on the main queue in a command-line program")
struct MainQueueTests {
    @Test func dispatchMainDeliversOnTheMainQueueOffTheMainThread() async {
        await #expect(processExitsWith: .success) {
            let received = ReceivedValues()
            let cancellable = (1...5).publisher
                .subscribe(on: DispatchQueue.global())
                .receive(on: DispatchQueue.main)
                .sink(receiveCompletion: { _ in
                    dispatchPrecondition(condition: .onQueue(.main))
                    // The trap: the main queue, but not the main thread.
                    guard !Thread.isMainThread else { failProgram("Thread.isMainThread is true") }
                    endProgram(received: received.values)
                }, receiveValue: { value in
                    dispatchPrecondition(condition: .onQueue(.main))
                    received.values.append(value)
                })
            // What `dispatchMain()` would do for this thread: never return.
            withExtendedLifetime(cancellable) { DispatchSemaphore(value: 0).wait() }
            failProgram("unreachable")
        }
    }

    @Test func aRunLoopRunInALoopUntilDoneDeliversOnItsThread() async {
        await #expect(processExitsWith: .success) {
            runLoopProgram()
        }
    }

    @Test func anAsyncMainDeliversOnTheMainQueueWhichIsTheMainActor() async {
        await #expect(processExitsWith: .success) {
            // The main actor runs on the main queue.
            await MainActor.run { dispatchPrecondition(condition: .onQueue(.main)) }
            let received = ReceivedValues()
            let cancellable = (1...5).publisher
                .subscribe(on: DispatchQueue.global())
                .receive(on: DispatchQueue.main)
                .sink(receiveCompletion: { _ in
                    let values = MainActor.assumeIsolated { received.values }
                    endProgram(received: values)
                }, receiveValue: { value in
                    MainActor.assumeIsolated { received.values.append(value) }
                })
            // `main` awaits; meanwhile the runtime drains the main queue.
            try? await Task.sleep(for: .seconds(30))
            withExtendedLifetime(cancellable) {}
            failProgram("timed out: nothing reached the main queue within 30 seconds")
        }
    }
}

/// What a program received; touched only on the queue or run loop that delivers.
private final class ReceivedValues: @unchecked Sendable {  // one thread at a time: the delivering one
    var values: [Int] = []
    var isDone = false
}

/// Ends the child process: success when the values arrived in order.
private func endProgram(received: [Int]) -> Never {
    guard received == [1, 2, 3, 4, 5] else { failProgram("received \(received), expected [1, 2, 3, 4, 5]") }
    exit(0)
}

private func failProgram(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// The run-loop approach: the thread runs its run loop in short slices until the sink says it is
/// done. Short slices matter: a run loop waiting for input is not woken by work that another
/// thread hands it (the values come from a global-queue thread here).
private func runLoopProgram() -> Never {
    let runLoop = RunLoop.current
    let loopThread = pthread_self()
    let received = ReceivedValues()
    let cancellable = (1...5).publisher
        .subscribe(on: DispatchQueue.global())
        .receive(on: runLoop)
        .sink(receiveCompletion: { _ in
            guard pthread_equal(pthread_self(), loopThread) != 0 else { failProgram("completion off the run loop's thread") }
            received.isDone = true
        }, receiveValue: { value in
            guard pthread_equal(pthread_self(), loopThread) != 0 else { failProgram("value off the run loop's thread") }
            received.values.append(value)
        })
    let deadline = Date(timeIntervalSinceNow: 30)
    while !received.isDone && Date() < deadline {
        _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
    }
    withExtendedLifetime(cancellable) {}
    guard received.isDone else { failProgram("timed out: the run loop delivered nothing within 30 seconds") }
    endProgram(received: received.values)
}
