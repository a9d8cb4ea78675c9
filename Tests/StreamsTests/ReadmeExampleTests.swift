import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("README quick start")
struct ReadmeQuickStartTests {
    @Test func quickStart() {
        final class Log: @unchecked Sendable { var lines: [String] = [] }
        let log = Log()
        let searches = PassthroughSubject<String, Never>()
        let cancellable = searches
            .map { $0.lowercased() }
            .removeDuplicates()
            .filter { !$0.isEmpty }
            .sink { log.lines.append("search: \($0)") }

        searches.send("Swift")
        searches.send("SWIFT")
        searches.send("")
        #expect(log.lines == ["search: swift"])
        _ = cancellable
    }
}

// "Porting Combine code": the two ways a Swift 6 client makes a scheduled closure's captures safe.
enum ReadmePorting {
    @MainActor final class Ticker {                    // main-actor state, touched on the main queue
        var ticks = 0
        func tick() {
            DispatchQueue.main.schedule { MainActor.assumeIsolated { self.ticks += 1 } }
        }
    }

    final class Counter: Sendable {                    // or state behind a lock, on any queue
        let ticks = Mutex(0)
        func tick(on queue: DispatchQueue) {
            queue.schedule { self.ticks.withLock { $0 += 1 } }
        }
    }
}

@Suite("README: porting Combine code")
struct ReadmePortingTests {
    @Test func aLockedCounterTicksOnAnyQueue() {
        let counter = ReadmePorting.Counter()
        let queue = DispatchQueue(label: "ticks")
        counter.tick(on: queue)
        counter.tick(on: queue)
        queue.sync {}
        #expect(counter.ticks.withLock { $0 } == 2)
    }

    @MainActor @Test func aMainActorTickerTicksOnTheMainQueue() async {
        let ticker = ReadmePorting.Ticker()
        ticker.tick()
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
        #expect(ticker.ticks == 1)
    }
}
