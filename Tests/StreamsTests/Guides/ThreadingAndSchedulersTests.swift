import Dispatch
import Streams
import StreamsTesting
import Testing

// The examples of `Sources/Streams/Streams.docc/ThreadingAndSchedulers.md`, run as written there.
@Suite("Guide: Threading and schedulers")
struct ThreadingAndSchedulersTests {
    @Test func valuesArriveOnTheSendersThread() {
        let subject = PassthroughSubject<Int, Never>()
        let sender = DispatchQueue(label: "sender")
        let key = DispatchSpecificKey<String>()
        sender.setSpecific(key: key, value: "sender")
        var seenOn: [String?] = []
        let cancellable = subject.sink { _ in seenOn.append(DispatchQueue.getSpecific(key: key)) }
        subject.send(1)                      // on this thread
        sender.sync { subject.send(2) }      // on `sender`
        #expect(seenOn == [nil, "sender"])
        _ = cancellable
    }

    @Test func receiveOnDeliversWhenTheSchedulerRuns_S13() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject
            .receive(on: scheduler)
            .sink { received.append($0) }
        subject.send(1)
        subject.send(2)
        #expect(received == [])
        #expect(scheduler.pendingCount == 1)  // one delivery pass for both values
        scheduler.advance()
        #expect(received == [1, 2])
        _ = cancellable
    }

    @Test func receiveOnADispatchQueueDeliversThere() {
        let queue = DispatchQueue(label: "delivery")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "delivery")
        var received: [String] = []
        let cancellable = [1, 2, 3].publisher
            .receive(on: queue)
            .sink { received.append("\($0) on \(DispatchQueue.getSpecific(key: key) ?? "?")") }
        queue.sync {}  // wait for what was scheduled before
        #expect(received == ["1 on delivery", "2 on delivery", "3 on delivery"])
        _ = cancellable
    }

    @Test func subscribeOnMovesTheSubscribeAndTheRequests() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        var received: [Int] = []
        let cancellable = upstream
            .subscribe(on: scheduler)
            .sink { received.append($0) }
        #expect(upstream.subscriptions.isEmpty)  // not subscribed yet
        scheduler.advance()                      // the subscribe runs, then the request
        #expect(upstream.history == [.requested(.unlimited)])
        upstream.send(1)
        #expect(received == [1])                 // values are not moved
        cancellable.cancel()
        #expect(upstream.history == [.requested(.unlimited)])  // the cancel waits for the scheduler
        scheduler.advance()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func theImmediateSchedulerRunsWorkAtOnce() {
        var received: [Int] = []
        let cancellable = [1, 2].publisher
            .receive(on: ImmediateScheduler.shared)
            .sink { received.append($0) }
        #expect(received == [1, 2])
        _ = cancellable
    }
}
