import Streams
import StreamsTesting
import Testing

@Suite("catch, tryCatch")
struct CatchTests {
    struct Boom: Error, Equatable {}
    struct Fatal: Error, Equatable {}
    final class Box<Value>: @unchecked Sendable { var value: Value?; init(_ value: Value? = nil) { self.value = value } }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles(inputs: ["-1-2-|", "--x---8-9-|"], { p in p[0].catch { _ in p[1] } }, "-1-2-|")
        // The replacement's failure is not caught again.
        assertMarbles(inputs: ["-1-^", "-----8^"], { p in p[0].catch { _ in p[1] } }, "-1---8^")
        assertMarbles(inputs: ["-1-^", "----7|"], { p in p[0].tryCatch { _ in p[1] } }, "-1--7|")
        assertMarbles("-1-2-^", { $0.catch { _ in Just("0") } }, "-1-2-[0|]")
        assertMarbles(Fail<Int, Boom>(error: Boom()).catch { _ in [7, 8].publisher }, "[78|]")
    }

    @Test func docExampleOutputs() {
        struct Offline: Error {}
        #expect(values(Fail<Int, Offline>(error: Offline()).catch { _ in [7, 8].publisher }) == [7, 8])

        let subscriber = RecordingSubscriber<Int, any Error>()
        Fail<Int, Offline>(error: Offline()).tryCatch { _ -> Just<Int> in throw Fatal() }.subscribe(subscriber)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Fatal == Fatal())
        #expect(subscriber.values.isEmpty)
    }

    @Test func theHandlerGetsTheUpstreamsError() {
        enum Failure: Error, Equatable { case first, second }
        let seen = Box<[Failure]>([])
        let subscriber = RecordingSubscriber<Int, Never>()
        Fail<Int, Failure>(error: .second).catch { error -> Just<Int> in
            seen.value!.append(error)
            return Just(1)
        }.subscribe(subscriber)
        #expect(seen.value == [.second])
        #expect(subscriber.values == [1])
    }

    // MARK: Demand

    @Test func requestsGoToTheUpstreamThenTheRestToTheReplacement() {
        let upstream = TestPublisher<Int, Boom>(), replacement = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(4), onValue: { _ in .max(1) })
        upstream.catch { _ in replacement }.subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(4))])
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(2))
        #expect(upstream.history == [.requested(.max(4)), .requested(.max(2))])
        upstream.send(completion: .failure(Boom()))
        // 4 + 2 requested, 1 returned, 1 delivered: 6 carry over.
        #expect(replacement.history == [.requested(.max(6))])
        subscriber.request(.max(1))
        #expect(replacement.history == [.requested(.max(6)), .requested(.max(1))])
        #expect(upstream.history == [.requested(.max(4)), .requested(.max(2))])
    }

    @Test func noOutstandingDemandAsksTheReplacementForNothing() {
        let upstream = TestPublisher<Int, Boom>(), replacement = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(1))
        upstream.tryCatch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(replacement.subscriptions.count == 1)
        #expect(replacement.history == [])
        subscriber.request(.max(2))
        #expect(replacement.history == [.requested(.max(2))])
    }

    @Test func requestingNoneIsAViolation_S9() {
        for publisher in [TestPublisher<Int, Boom>().catch { _ in Just(0) }.eraseToAnyPublisher(),
                          TestPublisher<Int, Boom>().tryCatch { _ in Just(0) }.replaceError(with: 0).eraseToAnyPublisher()] {
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            publisher.subscribe(subscriber)
            let messages = recordingAPIViolations { subscriber.request(.none) }
            #expect(messages.count == 1)
            #expect(messages.first?.contains("S9") == true)
        }
    }

    // MARK: Completion and failure

    @Test func finishedPassesThroughWithoutCallingTheHandler() {
        let called = Box(false)
        let subscriber = RecordingSubscriber<Int, Never>()
        Just(1).setFailureType(to: Boom.self).catch { _ -> Just<Int> in
            called.value = true
            return Just(0)
        }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(called.value == false)
    }

    @Test func theReplacementsCompletionEndsTheStream() {
        let upstream = TestPublisher<Int, Boom>(), replacement = TestPublisher<Int, Fatal>()
        let subscriber = RecordingSubscriber<Int, Fatal>()
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(Boom()))
        replacement.send(5)
        replacement.send(completion: .failure(Fatal()))
        #expect(subscriber.events == [.subscription, .value(5), .completion(.failure(Fatal()))])
        // The upstream is over: what it still sends is ignored (S4).
        upstream.send(6)
        #expect(subscriber.values == [5])
    }

    @Test func tryCatchThrowingFailsWithTheThrownError_S14() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryCatch { _ -> Just<Int> in throw Fatal() }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == [1])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Fatal == Fatal())
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func tryCatchPassesTheReplacementsFailureOn() {
        let subscriber = RecordingSubscriber<Int, any Error>()
        Fail<Int, Boom>(error: Boom()).tryCatch { _ in Fail<Int, Fatal>(error: Fatal()) }.subscribe(subscriber)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Fatal == Fatal())
    }

    // MARK: Cancellation

    @Test func cancelReachesTheUpstreamAndTheHandlerIsNeverCalled() {
        let called = Box(false)
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.catch { _ -> Just<Int> in
            called.value = true
            return Just(0)
        }.subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(2)), .cancelled])
        upstream.send(completion: .failure(Boom()))
        #expect(called.value == false)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelReachesTheReplacement() {
        let upstream = TestPublisher<Int, Boom>(), replacement = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(Boom()))
        subscriber.cancel()
        #expect(replacement.history == [.requested(.max(2)), .cancelled])
        replacement.send(1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelLetsGoOfTheHandlerAndTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Boom>()
        var subscription: (any Subscription)?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            do {
                let captured = Captured()
                weakCaptured = captured
                upstream.catch { _ in withExtendedLifetime(captured) { Just(0) } }.subscribe(subscriber)
            }
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured != nil)
        subscription?.cancel()
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func theHandlerIsLetGoOnceItHasRun_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Boom>()
        let replacement = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        do {
            let captured = Captured()
            weakCaptured = captured
            upstream.catch { _ in withExtendedLifetime(captured) { replacement } }.subscribe(subscriber)
        }
        #expect(weakCaptured != nil)
        upstream.send(completion: .failure(Boom()))
        #expect(weakCaptured == nil)
        replacement.send(1)
        #expect(subscriber.values == [1])
    }

    @Test func completionLetsGoOfEverything_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        let upstream = PassthroughSubject<Int, Boom>(), replacement = PassthroughSubject<Int, Never>()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.catch { _ in replacement }.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject
            upstream.send(completion: .failure(Boom()))
            replacement.send(completion: .finished)
            #expect(subscriber.completion == .finished)
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        let box = Box<RecordingSubscriber<Int, Never>>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.value?.request(.max(1))
            return .none
        })
        box.value = subscriber
        (0..<5_000).publisher.setFailureType(to: Boom.self)
            .append(Fail(error: Boom()))
            .catch { _ in (5_000..<10_000).publisher }
            .subscribe(subscriber)
        box.value = nil
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Catch)", as in Combine.
        let subscriber1 = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Boom>().catch { _ in Just(0) }.subscribe(subscriber1)
        #expect(subscriber1.subscription.map { String(describing: $0) } == "Catch")
        let subscriber2 = RecordingSubscriber<Int, any Error>(demand: nil)
        TestPublisher<Int, Boom>().tryCatch { _ in Just(0) }.subscribe(subscriber2)
        #expect(subscriber2.subscription.map { String(describing: $0) } == "TryCatch")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's catch and tryCatch ignore what the upstream or the replacement sends before
        // its subscription or after its end, and cancel a second subscription.
        checkIgnoresMisbehavingUpstream({ $0.catch { _ in Just(-1) } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.catch { _ in Empty<Int, Never>(completeImmediately: false) } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ (replacement: MisbehavingPublisher<Int, Fatal>) in Fail<Int, Boom>(error: Boom()).catch { _ in replacement } },
                                        value: 1, failure: Fatal())
        checkIgnoresMisbehavingUpstream({ $0.tryCatch { _ in Just(-1) } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ (replacement: MisbehavingPublisher<Int, Fatal>) in Fail<Int, Boom>(error: Boom()).tryCatch { _ in replacement } },
                                        value: 1, failure: Fatal())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract { Fail<Int, Boom>(error: Boom()).catch { _ in (0..<300).publisher } }
        checkContract { (0..<150).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom()))
            .catch { _ in (150..<300).publisher } }
        checkContract { (0..<300).publisher.setFailureType(to: Boom.self).catch { _ in Just(-1) } }
        checkContract { (0..<150).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom()))
            .tryCatch { _ in (150..<300).publisher } }
        checkContract { (0..<150).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom()))
            .tryCatch { _ -> Empty<Int, Never> in throw Fatal() } }
        checkContract { Fail<Int, Boom>(error: Boom()).catch { _ in Fail<Int, Fatal>(error: Fatal()) } }
    }
}
