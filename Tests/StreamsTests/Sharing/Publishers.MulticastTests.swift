import Streams
import StreamsTesting
import Testing

@Suite("multicast")
struct MulticastTests {
    struct Boom: Error, Equatable {}

    @Test func subscribersGetASubscriptionOfItsOwnNamedMulticast() {
        // As Combine (and for share() and makeConnectable(), which are multicasts there).
        let upstream = TestPublisher<Int, Never>()
        let subscribers = (0..<3).map { _ in RecordingSubscriber<Int, Never>(demand: nil) }
        upstream.multicast { PassthroughSubject<Int, Never>() }.subscribe(subscribers[0])
        upstream.share().subscribe(subscribers[1])
        upstream.makeConnectable().subscribe(subscribers[2])
        #expect(subscribers.map { "\($0.subscription!)" } == ["Multicast", "Multicast", "Multicast"])
    }

    @Test func aConnectionAsksTheUpstreamOnceASubscriberHasDemand() {
        // As Combine's PassthroughSubject: connecting asks for nothing until a subscriber asks.
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        #expect(upstream.history == [])
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [1])
        // The demand a value returns goes back to the subject.
        subscriber.request(.max(1))
        upstream.send(3)
        #expect(subscriber.values == [1, 3])
        subscriber.cancel()
        upstream.send(4)
        #expect(subscriber.values == [1, 3])
        _ = connection
    }

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.multicast { PassthroughSubject() }.autoconnect() },
                                        value: 1, failure: Boom())
    }

    // MARK: Marbles

    @Test func marbles() {
        var connection: (any Cancellable)?
        assertMarbles("-a-b-c-|", { upstream in
            let multicast = upstream.multicast { PassthroughSubject<String, MarbleFailure>() }
            connection = multicast.connect()
            return multicast
        }, "-a-b-c-|")
        assertMarbles("-a-b-^", { $0.multicast(subject: PassthroughSubject()).autoconnect() }, "-a-b-^")
        assertMarbles([1, 2, 3].publisher.multicast { PassthroughSubject() }.autoconnect(), "[123|]")
        _ = connection
    }

    @Test func docExample() {
        let log = LockedLog()
        // `Publishers.Map(upstream:)`: `map` on a sequence would do the work at once, as in Combine.
        let work = Publishers.Map(upstream: ["a", "b"].publisher) { value -> String in
            log.append("work \(value)")
            return value
        }
        let multicast = work.multicast { PassthroughSubject<String, Never>() }
        let c1 = multicast.sink { log.append("1 got \($0)") }
        let c2 = multicast.sink { log.append("2 got \($0)") }
        #expect(log.entries == [])
        let connection = multicast.connect()
        #expect(log.entries == ["work a", "1 got a", "2 got a", "work b", "1 got b", "2 got b"])
        _ = (c1, c2, connection)
    }

    @Test func docExampleWithAGivenSubject() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let multicast = [1, 2].publisher.multicast(subject: subject)
        let subscriber = RecordingSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(2), .completion(.finished)])
        #expect(subject.value == 2)
        _ = connection
    }

    @Test func theSubjectIsMadeOnceAndSharedByEverySubscriber() {
        let made = AtomicTickCounter()
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { () -> PassthroughSubject<Int, Never> in
            made.increment()
            return PassthroughSubject()
        }
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        #expect(upstream.subscriptions.isEmpty)
        let connection = multicast.connect()
        upstream.send(1)
        #expect(first.values == [1] && second.values == [1])
        #expect(made.count == 1)
        #expect(multicast.upstream === upstream)
        _ = connection
    }

    // MARK: Demand

    @Test func theSubjectAsksForEverythingAndEachSubscriberKeepsItsOwnDemand() {
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let one = RecordingSubscriber<Int, Never>(demand: .max(1))
        let all = RecordingSubscriber<Int, Never>()
        multicast.subscribe(one)
        multicast.subscribe(all)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(one.values == [1])
        #expect(all.values == [1, 2])
        #expect(one.violations.isEmpty && all.violations.isEmpty)
        _ = connection
    }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().multicast { PassthroughSubject() }.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1 && messages[0].contains("S9"))
    }

    // MARK: Completion and failure

    @Test func theCompletionReachesEverySubscriberAndEveryLaterOne() {
        let upstream = TestPublisher<Int, Boom>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Boom>() }
        let early = RecordingSubscriber<Int, Boom>()
        multicast.subscribe(early)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        let late = RecordingSubscriber<Int, Boom>()
        multicast.subscribe(late)
        #expect(early.events == [.subscription, .value(1), .completion(.failure(Boom()))])
        #expect(late.events == [.subscription, .completion(.failure(Boom()))])
        _ = connection
    }

    @Test func eachConnectSubscribesTheUpstreamAgainAsInCombine() {
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let first = multicast.connect()
        let second = multicast.connect()
        #expect(upstream.subscriptions.count == 2)
        first.cancel()
        second.cancel()
        // No subscriber has asked for anything: the PassthroughSubject asks its upstream for
        // nothing (as Combine's).
        #expect(upstream.subscriptions.allSatisfy { $0.history == [.cancelled] })
    }

    // MARK: Cancellation

    @Test func cancellingTheConnectionCancelsTheUpstreamAndKeepsTheSubscribers() {
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        upstream.send(1)
        connection.cancel()
        connection.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        upstream.send(2)  // nobody listens now
        // A new connection feeds the same, still attached, subscriber.
        let again = multicast.connect()
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(3)])
        #expect(upstream.subscriptions.count == 2)
        _ = again
    }

    @Test func droppingTheConnectionDisconnects() {
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        do {
            _ = multicast.connect()
        }
        #expect(upstream.history == [.cancelled])
    }

    @Test func aSubscribersCancelDetachesOnlyIt() {
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let leaving = RecordingSubscriber<Int, Never>()
        let staying = RecordingSubscriber<Int, Never>()
        multicast.subscribe(leaving)
        multicast.subscribe(staying)
        let connection = multicast.connect()
        upstream.send(1)
        leaving.cancel()
        upstream.send(2)
        #expect(leaving.values == [1])
        #expect(staying.values == [1, 2])
        #expect(upstream.history == [.requested(.unlimited)])
        _ = connection
    }

    @Test func afterDisconnectAndCancelEverythingIsReleased_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakMulticast: Publishers.Multicast<Publishers.Map<TestPublisher<Int, Never>, Captured>, PassthroughSubject<Captured, Never>>?
        weak var weakSubscriber: RecordingSubscriber<Captured, Never>?
        let upstream = TestPublisher<Int, Never>()
        do {
            let captured = Captured()
            weakCaptured = captured
            let multicast = upstream.map { _ in captured }.multicast { PassthroughSubject<Captured, Never>() }
            weakMulticast = multicast
            let subscriber = RecordingSubscriber<Captured, Never>()
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
            let connection = multicast.connect()
            upstream.send(1)
            connection.cancel()
            // After the disconnect the upstream no longer holds the subject's subscriber.
            #expect(!upstream.subscriptions[0].isAttached)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        #expect(weakMulticast == nil)
        #expect(weakCaptured == nil)
    }

    @Test func aConnectionDoesNotKeepTheSubjectAliveOnItsOwn() {
        // As Combine: the subject's subscription to the upstream holds it weakly.
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        var connection: Cancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            connection = upstream.multicast(subject: subject).connect()
        }
        #expect(weakSubject == nil)
        #expect(upstream.send(1) == .none)  // goes nowhere
        connection?.cancel()
        #expect(upstream.subscriptions[0].isCancelled)
    }

    @Test func aSubjectWithSubscribersStaysAliveAndKeepsReceiving() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        var connection: Cancellable?
        do {
            let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
            multicast.subscribe(subscriber)
            connection = multicast.connect()
        }
        upstream.send(1)
        #expect(subscriber.values == [1])
        _ = connection
    }

    @Test func theUpstreamsCompletionReleasesItsSubscription_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let connection = multicast.connect()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
            upstream.send(completion: .finished)
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        #expect(!upstream.subscriptions[0].isAttached)
        _ = connection
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
        let multicast = (0..<10_000).publisher.multicast { PassthroughSubject<Int, Never>() }
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
        _ = connection
    }

    @Test func sendingIntoTheSubjectFromInsideASubscriberIsDeliveredInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestPublisher<Int, Never>()
        let multicast = upstream.multicast(subject: subject)
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 1 { subject.send(10) }
            return .none
        })
        multicast.subscribe(subscriber)
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [1, 10, 2])
        #expect(subscriber.violations.isEmpty)
        _ = connection
    }

    // MARK: Contract

    @Test func contract() {
        // A PassthroughSubject drops the values a subscriber has no demand for (S10), so what
        // a subscriber that asks step by step receives differs from an unlimited one.
        checkContract({ (0..<300).publisher.multicast { PassthroughSubject() }.autoconnect() }, deterministic: false)
        checkContract({ Just(1).multicast(subject: CurrentValueSubject(0)).autoconnect() }, deterministic: false)
        checkContract({ Fail<Int, Boom>(error: Boom()).multicast { PassthroughSubject() }.autoconnect() })
        checkContract({ TestPublisher<Int, Never>().multicast { PassthroughSubject() }.autoconnect() })
    }
}
