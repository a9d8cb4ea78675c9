import Streams
import StreamsTesting
import Testing

@Suite("replaceEmpty")
struct ReplaceEmptyTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("---|", { $0.replaceEmpty(with: "0") }, "---[0|]")
        assertMarbles("-1-2-|", { $0.replaceEmpty(with: "0") }, "-1-2-|")
        assertMarbles("---^", { $0.replaceEmpty(with: "0") }, "---^")
        assertMarbles("-1-^", { $0.replaceEmpty(with: "0") }, "-1-^")
        assertMarbles(Empty<Int, Never>().replaceEmpty(with: 7), "[7|]")
        assertMarbles([1, 2].publisher.replaceEmpty(with: 9), "[12|]")
    }

    @Test func docExampleOutputs() {
        let numbers: [Double] = []
        let output = values(numbers.publisher.replaceEmpty(with: .nan))
        #expect(output.count == 1)
        #expect(output.first?.isNaN == true)
    }

    // MARK: Demand

    @Test func asksForUnlimitedAndPassesDemandThrough() {
        // As Combine: `.unlimited` after the downstream's first request, then every request.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.unlimited), .requested(.max(3))])
        #expect(subscriber.values == [1])
    }

    @Test func replacementWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        // The upstream had finished: the request was not passed on.
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func replacementGoesOutAtOnceWhenAlreadyRequested() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        #expect(upstream.history == [.requested(.max(1)), .requested(.unlimited)])
    }

    @Test func requestingNoneIsAViolation_S9() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
        #expect(messages.first?.contains("ReplaceEmpty") == true)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    // MARK: Completion and failure

    @Test func finishedAfterValuesPassesThroughWithoutAReplacement() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        upstream.send(5)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func failurePassesThroughWithoutAReplacementOrDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func ignoresWhatTheUpstreamSendsAfterItsCompletion_S4() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1)), .requested(.unlimited), .cancelled])
    }

    @Test func neverDeliversAfterCancelEvenWhenTheUpstreamGoesOn_S6() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        subscriber.cancel()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelWhileTheReplacementWaitsForDemandDropsIt_S6() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        upstream.send(completion: .finished)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        var subscription: Subscription?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.replaceEmpty(with: 0).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(subscription != nil)
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func cancelInsideReceiveOfTheReplacementStopsTheCompletion_S6() {
        let subscriber = subscribeCancellingAtFirstValue(Empty<Int, Never>().replaceEmpty(with: 3))
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func requestFromInsideReceiveIsBounded_S8() {
        let subscriber = subscribeRequestingFromInside((0..<100_000).publisher.replaceEmpty(with: -1))
        #expect(subscriber.values.count == 100_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.replaceEmpty(with: 0) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        // Only upstreams without values: with values, replaceEmpty (as Combine's) asks for
        // `.unlimited` and passes them on whatever the downstream asked for, which the checker
        // reports under S1 (pinned by valuesReachADownstreamThatHasNotAskedForThem).
        checkContract { Empty<Int, Never>().replaceEmpty(with: -1) }
        checkContract { Fail<Int, Boom>(error: Boom()).replaceEmpty(with: -1) }
    }

    @Test func valuesReachADownstreamThatHasNotAskedForThem() {
        // Combine's replaceEmpty asks its upstream for `.unlimited` once subscribed, so the
        // upstream's values go on whatever the downstream asked for.
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        [1, 2, 3].publisher.replaceEmpty(with: 0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    // MARK: Combine compatibility

    @Test func equatableWhenTheUpstreamAndTheOutputAre() {
        #expect([1].publisher.replaceEmpty(with: 0) == [1].publisher.replaceEmpty(with: 0))
        #expect([1].publisher.replaceEmpty(with: 0) != [1].publisher.replaceEmpty(with: 9))
        #expect([1].publisher.replaceEmpty(with: 0) != [2].publisher.replaceEmpty(with: 0))
    }
}
