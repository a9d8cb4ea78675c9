import Streams
import StreamsTesting
import Testing

@Suite("makeConnectable")
struct MakeConnectableTests {
    // MARK: Marbles

    @Test func marbles() {
        var connection: (any Cancellable)?
        assertMarbles("-a-b-c-|", { upstream in
            let connectable = upstream.replaceError(with: "e").makeConnectable()
            connection = connectable.connect()
            return connectable
        }, "-a-b-c-|")
        assertMarbles([1, 2, 3].publisher.makeConnectable().autoconnect(), "[123|]")
        _ = connection
    }

    @Test func docExample() {
        let log = LockedLog()
        let connectable = [1, 2].publisher.makeConnectable()
        let c1 = connectable.sink { log.append("1 got \($0)") }
        let c2 = connectable.sink { log.append("2 got \($0)") }
        #expect(log.entries == [])
        let connection = connectable.connect()
        #expect(log.entries == ["1 got 1", "2 got 1", "1 got 2", "2 got 2"])
        _ = (c1, c2, connection)
    }

    @Test func nothingHappensBeforeConnect() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let subscriber = RecordingSubscriber<Int, Never>()
        connectable.subscribe(subscriber)
        #expect(upstream.subscriptions.isEmpty)
        #expect(subscriber.events == [.subscription])
        let connection = connectable.connect()
        upstream.send(1)
        #expect(subscriber.values == [1])
        _ = connection
    }

    @Test func copiesShareOneSubject() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let copy = connectable
        let subscriber = RecordingSubscriber<Int, Never>()
        copy.subscribe(subscriber)
        let connection = connectable.connect()
        upstream.send(1)
        #expect(subscriber.values == [1])
        _ = connection
    }

    // MARK: Demand

    @Test func theUpstreamIsAskedForEverythingAtConnect() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let one = RecordingSubscriber<Int, Never>(demand: .max(1))
        connectable.subscribe(one)
        let connection = connectable.connect()
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(one.values == [1])
        #expect(one.violations.isEmpty)
        _ = connection
    }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().makeConnectable().subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1 && messages[0].contains("S9"))
    }

    // MARK: Completion and failure

    @Test func theCompletionReachesEverySubscriberAndEveryLaterOne() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let early = RecordingSubscriber<Int, Never>()
        connectable.subscribe(early)
        let connection = connectable.connect()
        upstream.send(completion: .finished)
        let late = RecordingSubscriber<Int, Never>()
        connectable.subscribe(late)
        #expect(early.events == [.subscription, .completion(.finished)])
        #expect(late.events == [.subscription, .completion(.finished)])
        _ = connection
    }

    // MARK: Cancellation

    @Test func cancellingOrDroppingTheConnectionCancelsTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let connection = connectable.connect()
        connection.cancel()
        // Without a subscriber asking, the upstream is asked for nothing (as Combine).
        #expect(upstream.history == [.cancelled])
        do {
            _ = connectable.connect()
        }
        #expect(upstream.subscriptions.count == 2)
        #expect(upstream.history == [.cancelled])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let connection = connectable.connect()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            connectable.subscribe(subscriber)
            upstream.send(1)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        connection.cancel()
        #expect(!upstream.subscriptions[0].isAttached)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        let connectable = (0..<10_000).publisher.makeConnectable()
        connectable.subscribe(subscriber)
        let connection = connectable.connect()
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
        _ = connection
    }

    // MARK: Contract

    @Test func contract() {
        // Values a subscriber has no demand for are dropped (S10): stepwise demand sees fewer.
        checkContract({ (0..<300).publisher.makeConnectable().autoconnect() }, deterministic: false)
        checkContract({ Empty<Int, Never>().makeConnectable().autoconnect() })
        checkContract({ TestPublisher<Int, Never>().makeConnectable().autoconnect() })
    }
}
