import Streams
import StreamsTesting
import Testing

@Suite("retry")
struct RetryTests {
    struct Boom: Error, Equatable {}
    final class Box<Value>: @unchecked Sendable { var value: Value?; init(_ value: Value? = nil) { self.value = value } }

    /// Hands each subscriber the next publisher: attempt 1 gets `publishers[0]`, and so on.
    final class Attempts<P: Publisher>: @unchecked Sendable {  // used from the test's thread only
        let publishers: [P]
        private(set) var count = 0
        init(_ publishers: [P]) { self.publishers = publishers }
        var publisher: Deferred<P> {
            Deferred {
                defer { self.count += 1 }
                return self.publishers[self.count]
            }
        }
    }

    // MARK: Marbles

    @Test func marbles() {
        // Out of retries: the last failure goes down.
        assertMarbles(inputs: ["-1^", "--2^", "----3^"], { p in Attempts(p).publisher.retry(2) }, "-12-3^")
        assertMarbles(inputs: ["-1-^", "----2-3-|"], { p in Attempts(p).publisher.retry(0) }, "-1-^")
        assertMarbles("-1-2-|", { $0.retry(3) }, "-1-2-|")
        assertMarbles(Just(1).retry(3), "[1|]")
    }

    @Test func docExampleOutputs() {
        struct Flaky: Error, Equatable {}
        let attempts = Box(0)
        let subscriber = RecordingSubscriber<Int, Flaky>()
        Deferred { () -> AnyPublisher<Int, Flaky> in
            attempts.value! += 1
            return attempts.value! < 3 ? Fail(error: Flaky()).eraseToAnyPublisher()
                : Just(attempts.value!).setFailureType(to: Flaky.self).eraseToAnyPublisher()
        }
        .retry(5)
        .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func onPublishersThatCannotFailOrRetryTheSameResultItReturnsThemselves() {
        let just: Just<Int> = Just(1).retry(2)
        #expect(just == Just(1))
        let optional: Optional<Int>.Publisher = Optional(1).publisher.retry(2)
        #expect(optional == Optional(1).publisher)
        let result: Result<Int, Boom>.Publisher = Result<Int, Boom>.failure(Boom()).publisher.retry(2)
        #expect(result == Result<Int, Boom>.failure(Boom()).publisher)
    }

    @Test func publicPropertiesAndEquatable() {
        let retry = Empty<Int, Boom>().retry(3)
        #expect(retry.retries == 3)
        #expect(retry.upstream == Empty())
        #expect(Empty<Int, Boom>().retry(-1).retries == -1)
        #expect(Empty<Int, Boom>().retry(2) == Publishers.Retry(upstream: Empty<Int, Boom>(), retries: 2))
        #expect(Empty<Int, Boom>().retry(2) != Publishers.Retry(upstream: Empty<Int, Boom>(), retries: nil))
    }

    // MARK: Demand

    @Test func eachAttemptIsAskedForTheDemandStillOutstanding() {
        let attempts = Attempts((0..<4).map { _ in TestPublisher<Int, Boom>() })
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(5))
        attempts.publisher.retry(3).subscribe(subscriber)
        for (index, attempt) in attempts.publishers.enumerated() {
            #expect(attempt.history == [.requested(.max(5 - index))])
            #expect(attempt.send(index) == .none)
            attempt.send(completion: .failure(Boom()))
        }
        #expect(attempts.count == 4)
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(2), .value(3),
                                      .completion(.failure(Boom()))])
        subscriber.request(.max(10))
        #expect(attempts.publishers[3].history == [.requested(.max(2))])
    }

    @Test func requestsAndReturnedDemandGoToTheLiveAttempt() {
        let attempts = Attempts([TestPublisher<Int, Boom>(), TestPublisher<Int, Boom>()])
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(2), onValue: { _ in .max(1) })
        attempts.publisher.retry(1).subscribe(subscriber)
        #expect(attempts.publishers[0].send(1) == .max(1))
        subscriber.request(.max(3))
        attempts.publishers[0].send(completion: .failure(Boom()))
        // 2 + 3 requested, 1 returned, 1 delivered.
        #expect(attempts.publishers[1].history == [.requested(.max(5))])
        subscriber.request(.max(1))
        #expect(attempts.publishers[1].history == [.requested(.max(5)), .requested(.max(1))])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.retry(1).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func retryZeroSubscribesOnce() {
        let attempts = Attempts([TestPublisher<Int, Boom>(), TestPublisher<Int, Boom>()])
        let subscriber = RecordingSubscriber<Int, Boom>()
        attempts.publisher.retry(0).subscribe(subscriber)
        attempts.publishers[0].send(completion: .failure(Boom()))
        #expect(attempts.count == 1)
        #expect(subscriber.completion == .failure(Boom()))
    }

    @Test func aNegativeCountOrNilRetriesWithoutLimit() {
        for retries in [-1, nil] as [Int?] {
            let failures = Box(0)
            let subscriber = RecordingSubscriber<Int, Boom>()
            let upstream = Deferred { () -> AnyPublisher<Int, Boom> in
                failures.value! += 1
                return failures.value! <= 10_000 ? Fail(error: Boom()).eraseToAnyPublisher()
                    : Just(7).setFailureType(to: Boom.self).eraseToAnyPublisher()
            }
            Publishers.Retry(upstream: upstream, retries: retries).subscribe(subscriber)
            #expect(failures.value == 10_001)
            #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
        }
    }

    @Test func finishingEndsTheStreamWithoutRetrying() {
        let attempts = Attempts([TestPublisher<Int, Boom>(), TestPublisher<Int, Boom>()])
        let subscriber = RecordingSubscriber<Int, Boom>()
        attempts.publisher.retry(3).subscribe(subscriber)
        attempts.publishers[0].send(1)
        attempts.publishers[0].send(completion: .finished)
        #expect(attempts.count == 1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        // The first attempt is over: what it still sends is ignored (S4).
        attempts.publishers[0].send(completion: .failure(Boom()))
        #expect(attempts.count == 1)
    }

    @Test func aSynchronouslyFailingUpstreamIsRetriedInALoop_S8() {
        let subscriptions = Box(0)
        let subscriber = RecordingSubscriber<Int, Boom>()
        Deferred { () -> Fail<Int, Boom> in
            subscriptions.value! += 1
            return Fail(error: Boom())
        }
        .retry(100_000)
        .subscribe(subscriber)
        #expect(subscriptions.value == 100_001)
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
    }

    // MARK: Cancellation

    @Test func cancelReachesTheLiveAttemptAndEndsTheRetries() {
        let attempts = Attempts([TestPublisher<Int, Boom>(), TestPublisher<Int, Boom>(), TestPublisher<Int, Boom>()])
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(2))
        attempts.publisher.retry(5).subscribe(subscriber)
        attempts.publishers[0].send(completion: .failure(Boom()))
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(attempts.publishers[1].history == [.requested(.max(2)), .cancelled])
        attempts.publishers[1].send(completion: .failure(Boom()))
        #expect(attempts.count == 2)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelLetsGoOfTheUpstreamAndTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
        let subject = PassthroughSubject<Int, Boom>()
        var subscription: (any Subscription)?
        do {
            let subscriber = RecordingSubscriber<Int, Boom>()
            weakSubscriber = subscriber
            do {
                let captured = Captured()
                weakCaptured = captured
                Deferred { withExtendedLifetime(captured) { subject } }.retry(3).subscribe(subscriber)
            }
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured != nil)
        subscription?.cancel()
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func completionLetsGoOfEverything_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
        weak var weakSubscription: AnyObject?
        let subject = PassthroughSubject<Int, Boom>()
        do {
            let subscriber = RecordingSubscriber<Int, Boom>()
            weakSubscriber = subscriber
            subject.retry(3).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject
            subject.send(completion: .finished)
            #expect(subscriber.completion == .finished)
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        let box = Box<RecordingSubscriber<Int, Boom>>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1), onValue: { _ in
            box.value?.request(.max(1))
            return .none
        })
        box.value = subscriber
        let attempts = Attempts([
            (0..<5_000).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())).eraseToAnyPublisher(),
            (5_000..<10_000).publisher.setFailureType(to: Boom.self).eraseToAnyPublisher(),
        ])
        attempts.publisher.retry(1).subscribe(subscriber)
        box.value = nil
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Retry)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        TestPublisher<Int, Boom>().retry(1).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Retry")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's retry ignores what an attempt sends before its subscription or after its
        // end (an early failure does not start a new attempt), and cancels a second subscription.
        checkIgnoresMisbehavingUpstream({ $0.retry(1) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.retry(3) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self).retry(3) }, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).retry(3) }, requestingNone: .isIgnored)
        checkContract({
            Attempts([
                (0..<100).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())).eraseToAnyPublisher(),
                (100..<200).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())).eraseToAnyPublisher(),
                (200..<300).publisher.setFailureType(to: Boom.self).eraseToAnyPublisher(),
            ]).publisher.retry(2)
        }, requestingNone: .isIgnored)
        checkContract({
            Attempts([
                (0..<100).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())).eraseToAnyPublisher(),
                (100..<200).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())).eraseToAnyPublisher(),
            ]).publisher.retry(1)
        }, requestingNone: .isIgnored)
    }
}
