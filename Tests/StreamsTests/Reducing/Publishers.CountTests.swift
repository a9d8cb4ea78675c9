import Streams
import StreamsTesting
import Testing

@Suite("count")
struct CountTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("---|", { $0.count() }, "---[0|]")
        assertMarbles("-a-b-^", { $0.count() }, "-----^")
        assertMarbles((1...12).publisher.count(), "['12'|]")
    }

    @Test func docExampleOutputs() {
        #expect(values((0...10).publisher.count()) == [11])
    }

    // MARK: Demand

    @Test func countWaitsForDemand_S1() {
        let upstream = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.count().subscribe(subscriber)
        upstream.send("a")
        upstream.send("b")
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func asksUpstreamForUnlimitedOnce() {
        let upstream = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.count().subscribe(subscriber)
        subscriber.request(.max(2))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts request(.none) here and does nothing.
        let upstream = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.count().subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.isEmpty)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect("\(subscriber.subscription!)" == "Count")
    }

    /// Combine's name, no mirror children, nothing passed up or down after a cancel or the
    /// completion (S6), and the subscriber let go (S7).
    @Test func subscriptionKeepsTheOwnSubscriptionPromises_S6_S7() {
        checkOwnSubscription(named: "Count") { $0.count() }
    }

    // MARK: Completion and failure

    @Test func emptyUpstreamCountsZero() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<String, Never>().count().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func failurePassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<String, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.count().subscribe(subscriber)
        upstream.send("a")
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndNothingFollows_S6() {
        let upstream = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.count().subscribe(subscriber)
        upstream.send("a")
        subscriber.cancel()
        upstream.send(completion: .finished)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<String, Never>()
        var subscription: Subscription?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.count().subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(subscription != nil)
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func cancelInsideReceiveOfTheCountStopsTheCompletion_S6() {
        let subscriber = subscribeCancellingAtFirstValue(["a", "b"].publisher.count())
        #expect(subscriber.events == [.subscription, .value(2)])
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.count() }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkReducingContract { AnyPublisher((0..<300).publisher).count() }
        checkReducingContract { Empty<Int, Never>().count() }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.count() }
    }

    // MARK: Combine compatibility

    @Test func equatableWhenTheUpstreamIs() {
        // (`Publishers.Count(upstream:)`: `Just(1).count()` is `Just(1)`, as in Combine.)
        #expect(Publishers.Count(upstream: Just(1)) == Publishers.Count(upstream: Just(1)))
        #expect(Publishers.Count(upstream: Just(1)) != Publishers.Count(upstream: Just(2)))
    }
}
