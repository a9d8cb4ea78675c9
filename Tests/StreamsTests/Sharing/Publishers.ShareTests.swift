import Streams
import StreamsTesting
import Testing

@Suite("share")
struct ShareTests {
    struct Boom: Error, Equatable {}

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.share() }, value: 1, failure: Boom())
    }

    @Test func theUpstreamIsAskedOnceASubscriberHasDemand() {
        // As Combine, where share() is multicast through a PassthroughSubject.
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        shared.subscribe(subscriber)
        #expect(upstream.history == [])
        subscriber.request(.max(2))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-c-|", { $0.share() }, "-a-b-c-|")
        assertMarbles("-a-b-^", { $0.share() }, "-a-b-^")
        assertMarbles([1, 2, 3].publisher.share(), "[123|]")
    }

    @Test func aLateSubscriberGetsOnlyLaterValues() {
        // upstream:     -1-2-3-4-|
        // subscriber 1: -1-2-3-4-|
        // subscriber 2: -----3-4-|   (subscribed after 2)
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        upstream.send(1)
        upstream.send(2)
        shared.subscribe(second)
        upstream.send(3)
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(first.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        #expect(second.events == [.subscription, .value(3), .value(4), .completion(.finished)])
        #expect(upstream.subscriptions.count == 1)
    }

    @Test func docExample() {
        let log = LockedLog()
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject
            .map { value -> Int in log.append("work \(value)"); return value * 10 }
            .share()
        let c1 = shared.sink { log.append("1 got \($0)") }
        subject.send(1)
        let c2 = shared.sink { log.append("2 got \($0)") }
        subject.send(2)
        #expect(log.entries == ["work 1", "1 got 10", "work 2", "1 got 20", "2 got 20"])
        _ = (c1, c2)
    }

    @Test func isAClassComparedByIdentity() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let copy = shared
        #expect(shared == copy)
        #expect(shared != upstream.share())
        #expect(shared.upstream === upstream)
    }

    // MARK: Demand

    @Test func theUpstreamIsAskedForEverythingOnceAndEachSubscriberKeepsItsDemand() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let one = RecordingSubscriber<Int, Never>(demand: .max(1))
        let all = RecordingSubscriber<Int, Never>()
        shared.subscribe(one)
        shared.subscribe(all)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(one.values == [1])
        #expect(all.values == [1, 2])
        #expect(one.violations.isEmpty && all.violations.isEmpty)
    }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().share().subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1 && messages[0].contains("S9"))
    }

    // MARK: Completion and failure

    @Test func aSubscriberAfterTheCompletionGetsItAtOnceAndTheUpstreamIsNotSubscribedAgain() {
        let upstream = TestPublisher<Int, Boom>()
        let shared = upstream.share()
        let early = RecordingSubscriber<Int, Boom>()
        shared.subscribe(early)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        let late = RecordingSubscriber<Int, Boom>()
        shared.subscribe(late)
        #expect(early.events == [.subscription, .value(1), .completion(.failure(Boom()))])
        #expect(late.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.subscriptions.count == 1)
    }

    @Test func aSynchronousUpstreamIsUsedUpByTheFirstSubscriber() {
        let shared = [1, 2, 3].publisher.share()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        #expect(first.values == [1, 2, 3])
        #expect(second.events == [.subscription, .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func theLastCancelCancelsTheUpstreamAndTheNextSubscriberStartsAgain() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        upstream.send(1)
        first.cancel()
        first.cancel()  // counted once
        #expect(upstream.history == [.requested(.unlimited)])
        second.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        let third = RecordingSubscriber<Int, Never>()
        shared.subscribe(third)
        upstream.send(2)
        #expect(upstream.subscriptions.count == 2)
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(third.values == [2])
        #expect(first.values == [1] && second.values == [1])
    }

    @Test func cancellingInsideReceiveSubscriptionLeavesNoConnection() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onSubscription: { $0.cancel() })
        let shared = upstream.share()
        shared.subscribe(subscriber)
        // Nobody asked for anything, so (as in Combine) the upstream was asked for nothing.
        #expect(upstream.history == [.cancelled])
        // The next subscriber connects again.
        shared.subscribe(RecordingSubscriber<Int, Never>())
        #expect(upstream.subscriptions.count == 2)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func everythingIsReleasedAfterTheLastCancel_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakShare: Publishers.Share<Publishers.Map<TestPublisher<Int, Never>, Captured>>?
        weak var weakEarly: RecordingSubscriber<Captured, Never>?
        weak var weakLate: RecordingSubscriber<Captured, Never>?
        let upstream = TestPublisher<Int, Never>()
        do {
            let captured = Captured()
            weakCaptured = captured
            let shared = upstream.map { _ in captured }.share()
            weakShare = shared
            let early = RecordingSubscriber<Captured, Never>()
            weakEarly = early
            shared.subscribe(early)
            upstream.send(1)
            let late = RecordingSubscriber<Captured, Never>()
            weakLate = late
            shared.subscribe(late)
            upstream.send(2)
            early.cancel()
            late.cancel()
            // The last cancel disconnected: the upstream no longer holds the shared subject.
            #expect(!upstream.subscriptions[0].isAttached)
            early.releaseSubscription()
            late.releaseSubscription()
        }
        #expect(weakEarly == nil)
        #expect(weakLate == nil)
        #expect(weakShare == nil)
        #expect(weakCaptured == nil)
    }

    @Test func theCompletionReleasesTheSubscribers_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            shared.subscribe(subscriber)
            upstream.send(completion: .finished)
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
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
        (0..<10_000).publisher.share().subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSubscriberThatJoinsFromInsideReceiveGetsTheNextValues() {
        final class Box: @unchecked Sendable { var joined: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 1 {
                let joined = RecordingSubscriber<Int, Never>()
                box.joined = joined
                shared.subscribe(joined)
            }
            return .none
        })
        shared.subscribe(first)
        upstream.send(1)
        upstream.send(2)
        #expect(first.values == [1, 2])
        #expect(box.joined?.values == [2])
        #expect(upstream.subscriptions.count == 1)
    }

    // MARK: Contract

    @Test func contract() {
        // Values a subscriber has no demand for are dropped (S10): stepwise demand sees fewer.
        checkContract({ (0..<300).publisher.share() }, deterministic: false)
        checkContract({ Just(1).share() }, deterministic: false)
        checkContract({ Fail<Int, Boom>(error: Boom()).share() })
        checkContract({ TestPublisher<Int, Never>().share() })
    }
}
