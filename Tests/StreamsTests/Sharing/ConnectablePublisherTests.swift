import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A connectable publisher for tests: subscribers attach straight to `upstream` (so its demand
/// history is theirs), and `connect()` / the connection's `cancel()` are counted and logged.
final class CountingConnectable<Upstream: Publisher>: ConnectablePublisher, @unchecked Sendable {  // `log` is thread-safe
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let connects = Atomic<Int>(0)
    let disconnects = Atomic<Int>(0)
    let log = LockedLog()

    init(_ upstream: Upstream) {
        self.upstream = upstream
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        log.append("subscribe")
        upstream.subscribe(subscriber)
    }

    func connect() -> Cancellable {
        connects.add(1, ordering: .relaxed)
        log.append("connect")
        return AnyCancellable { [self] in
            disconnects.add(1, ordering: .relaxed)
            log.append("disconnect")
        }
    }

    var connectCount: Int { connects.load(ordering: .relaxed) }
    var disconnectCount: Int { disconnects.load(ordering: .relaxed) }
}

/// A multicasting connectable publisher: subscribers attach to a subject, and `connect()`
/// subscribes the subject to the upstream (what Combine's `multicast` does).
final class SubjectConnectable<Upstream: Publisher>: ConnectablePublisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let subject = PassthroughSubject<Upstream.Output, Upstream.Failure>()

    init(_ upstream: Upstream) {
        self.upstream = upstream
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subject.subscribe(subscriber)
    }

    func connect() -> Cancellable {
        upstream.subscribe(subject)
    }
}

@Suite("ConnectablePublisher, autoconnect")
struct ConnectablePublisherTests {
    struct Boom: Error, Equatable {}

    @Test func theSubscriptionDescribesItselfAsItsUpstreams() {
        // As Combine: autoconnect's subscription shows the connectable publisher's own.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().makeConnectable().autoconnect().subscribe(subscriber)
        #expect("\(subscriber.subscription!)" == "Multicast")
    }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-c-|", { SubjectConnectable($0).autoconnect() }, "-a-b-c-|")
        assertMarbles("-a-b-^", { SubjectConnectable($0).autoconnect() }, "-a-b-^")
        assertMarbles("-a-b-c-|", { CountingConnectable($0).autoconnect() }, "-a-b-c-|")
    }

    @Test func docExample() {
        let scheduler = DispatchQueue.test
        let ticks = AtomicTickCounter()
        let c = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
            .autoconnect()
            .sink { _ in ticks.increment() }
        scheduler.advance(by: .seconds(3))
        #expect(ticks.count == 3)
        c.cancel()
    }

    @Test func nothingFlowsThroughAConnectablePublisherBeforeConnect() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = SubjectConnectable(upstream)
        let subscriber = RecordingSubscriber<Int, Never>()
        connectable.subscribe(subscriber)
        #expect(upstream.subscriptions.isEmpty)
        let connection = connectable.connect()
        upstream.send(1)
        #expect(subscriber.values == [1])
        connection.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func connectsRightAfterTheFirstSubscriberIsSubscribed() {
        let connectable = CountingConnectable(TestPublisher<Int, Never>())
        let autoconnected = connectable.autoconnect()
        #expect(connectable.log.entries == [])
        let first = RecordingSubscriber<Int, Never>()
        autoconnected.subscribe(first)
        #expect(connectable.log.entries == ["subscribe", "connect"])
        let second = RecordingSubscriber<Int, Never>()
        autoconnected.subscribe(second)
        #expect(connectable.log.entries == ["subscribe", "connect", "subscribe"])
        #expect(autoconnected.upstream === connectable)
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        CountingConnectable(upstream).autoconnect().subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [1])
    }

    // MARK: Completion and failure

    @Test func completionPassesThroughAndTheSubscriberCountsUntilItCancels() {
        let upstream = TestPublisher<Int, Boom>()
        let connectable = CountingConnectable(upstream)
        let subscriber = RecordingSubscriber<Int, Boom>()
        connectable.autoconnect().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .failure(Boom()))
        // As Combine: a completed subscriber still counts, so the connection stays.
        #expect(connectable.disconnectCount == 0)
        subscriber.cancel()
        #expect(connectable.disconnectCount == 1)
        subscriber.cancel()  // counted out once
        #expect(connectable.disconnectCount == 1)
    }

    @Test func aFinishedMulticastIsNotConnectedAgainByTheNextSubscriber() {
        // What `share(replay:)`-style helpers built on `multicast(…).autoconnect()` rely on:
        // the upstream (a `Deferred` body, a request) runs once, though its subscribers finished.
        let runs = Atomic(0)
        let shared = Deferred { () -> Just<Int> in
            runs.add(1, ordering: .relaxed)
            return Just(7)
        }
        .multicast { CurrentValueSubject<Int, Never>(0) }
        .autoconnect()
        let first = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        let second = RecordingSubscriber<Int, Never>()
        shared.subscribe(second)
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(first.values == [0, 7])
        #expect(first.completion == .finished)
        #expect(second.values == [])  // the subject had finished: its completion only
        #expect(second.completion == .finished)
    }

    @Test func aSubscriberJoiningWhileTheFirstIsSubscribedConnectsToo() {
        // As Combine: the second subscriber, arriving from inside the first one's
        // `receive(subscription:)`, connects; when the first one's `connect()` returns, its
        // connection replaces the second's (released: an `AnyCancellable` cancels) and counts one.
        let connectable = CountingConnectable(TestPublisher<Int, Never>())
        let autoconnected = connectable.autoconnect()
        let inner = RecordingSubscriber<Int, Never>()
        let outer = RecordingSubscriber<Int, Never>(onSubscription: { _ in autoconnected.subscribe(inner) })
        autoconnected.subscribe(outer)
        #expect(connectable.log.entries == ["subscribe", "subscribe", "connect", "connect", "disconnect"])
        outer.cancel()
        #expect(connectable.disconnectCount == 2)
        inner.cancel()
        #expect(connectable.disconnectCount == 2)
    }

    @Test func aSynchronousUpstreamFinishesInsideTheConnect() {
        let connectable = SubjectConnectable([1, 2, 3].publisher)
        let subscriber = RecordingSubscriber<Int, Never>()
        connectable.autoconnect().subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func theLastSubscriberToCancelDisconnects() {
        let connectable = CountingConnectable(TestPublisher<Int, Never>())
        let autoconnected = connectable.autoconnect()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        autoconnected.subscribe(first)
        autoconnected.subscribe(second)
        #expect(connectable.connectCount == 1)
        first.cancel()
        first.cancel()  // counted once
        #expect(connectable.disconnectCount == 0)
        second.cancel()
        #expect(connectable.disconnectCount == 1)
        let subscriptions = connectable.upstream.subscriptions
        #expect(subscriptions.count == 2 && subscriptions.allSatisfy { $0.isCancelled })
    }

    @Test func aSubscriberAfterADisconnectConnectsAgain() {
        let connectable = CountingConnectable(TestPublisher<Int, Never>())
        let autoconnected = connectable.autoconnect()
        let first = RecordingSubscriber<Int, Never>()
        autoconnected.subscribe(first)
        first.cancel()
        let second = RecordingSubscriber<Int, Never>()
        autoconnected.subscribe(second)
        #expect(connectable.connectCount == 2)
        #expect(connectable.disconnectCount == 1)
        #expect(connectable.log.entries == ["subscribe", "connect", "disconnect", "subscribe", "connect"])
    }

    @Test func cancellingInsideReceiveSubscriptionCancelsTheConnectionItMakes() {
        let connectable = CountingConnectable(TestPublisher<Int, Never>())
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onSubscription: { $0.cancel() })
        connectable.autoconnect().subscribe(subscriber)
        #expect(connectable.log.entries == ["subscribe", "connect", "disconnect"])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        let autoconnected = CountingConnectable(upstream).autoconnect()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            autoconnected.subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
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
        CountingConnectable((0..<10_000).publisher).autoconnect().subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ CountingConnectable((0..<300).publisher).autoconnect() }, requestingNone: .isIgnored)
        checkContract({ CountingConnectable(Just(1)).autoconnect() })
        checkContract({ CountingConnectable(Fail<Int, Boom>(error: Boom())).autoconnect() })
    }
}

/// A counter for closures that run on the test's thread.
final class AtomicTickCounter: @unchecked Sendable {  // `value` is atomic
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
