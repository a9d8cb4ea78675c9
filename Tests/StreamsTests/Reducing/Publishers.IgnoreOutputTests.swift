import Streams
import StreamsTesting
import Testing

@Suite("ignoreOutput")
struct IgnoreOutputTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-^", { $0.ignoreOutput() }, "-----^")
        assertMarbles([1, 2, 3].publisher.ignoreOutput(), "|")
    }

    @Test func docExampleOutputs() {
        struct Zero: Error {}
        let subscriber = RecordingSubscriber<Never, any Error>()
        [1, 2, 0, 3].publisher
            .tryMap { n -> Int in guard n != 0 else { throw Zero() }; return n }
            .ignoreOutput()
            .subscribe(subscriber)
        #expect(subscriber.events.count == 2)
        #expect(failureError(of: subscriber) is Zero)
    }

    // MARK: Demand

    @Test func handsTheUpstreamSubscriptionDownAndAsksForUnlimited() {
        // As Combine: the downstream gets the upstream's own subscription, so its requests go
        // straight up.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Never, Never>(demand: nil)
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.subscription as AnyObject === upstream.subscriptions.first)
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.unlimited), .requested(.max(3))])
    }

    @Test func requestingNoneGoesToTheUpstream_S9() {
        // The upstream's own subscription decides: Publishers.Sequence accepts it.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Never, Never>(demand: nil)
        upstream.ignoreOutput().subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [.requested(.unlimited), .requested(.none)])
    }

    // MARK: Completion and failure

    @Test func finishedPassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Never, Never>(demand: nil)
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events.count == 2)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failurePassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Never, Boom>(demand: nil)
        upstream.ignoreOutput().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events.count == 2)
        #expect(subscriber.completion == .failure(Boom()))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func passesAMisbehavingUpstreamsSignalsOnUnchanged_S2() {
        // As Combine's, ignoreOutput keeps no state: what the upstream sends after its completion
        // goes on, and the next stateful subscriber ignores it.
        let upstream = UnstoppablePublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Never, Boom>()
        upstream.ignoreOutput().subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events.count == 3)

        let stateful = MisbehavingPublisher<Int, Boom>([.subscription, .completion(.finished), .value(1),
                                                        .completion(.failure(Boom()))])
        let counted = RecordingSubscriber<Int, Boom>()
        stateful.ignoreOutput().count().subscribe(counted)
        #expect(counted.events == [.subscription, .value(0), .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstream_S6() {
        let tested = TestPublisher<Int, Never>()
        let other = RecordingSubscriber<Never, Never>()
        tested.ignoreOutput().subscribe(other)
        other.cancel()
        #expect(tested.history == [.requested(.unlimited), .requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Never, Never>?
        let upstream = TestPublisher<Int, Never>()
        var subscription: Subscription?
        do {
            let subscriber = RecordingSubscriber<Never, Never>()
            weakSubscriber = subscriber
            upstream.ignoreOutput().subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(subscription != nil)
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func aLongUpstreamIsConsumedInALoop() {
        let subscriber = RecordingSubscriber<Never, Never>(demand: nil)
        (0..<100_000).publisher.ignoreOutput().subscribe(subscriber)
        #expect(subscriber.completion == .finished)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.ignoreOutput() }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.ignoreOutput() }, requestingNone: .isIgnored)
    }

    // MARK: Combine compatibility

    @Test func equatableWhenTheUpstreamIs() {
        // (`Publishers.IgnoreOutput(upstream:)`: `Just(1).ignoreOutput()` is an `Empty`, as in Combine.)
        #expect(Publishers.IgnoreOutput(upstream: Just(1)) == Publishers.IgnoreOutput(upstream: Just(1)))
        #expect(Publishers.IgnoreOutput(upstream: Just(1)) != Publishers.IgnoreOutput(upstream: Just(2)))
    }
}
