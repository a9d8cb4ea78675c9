import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("switchToLatest")
struct SwitchToLatestTests {
    struct Boom: Error, Equatable {}
    typealias Inner = TestPublisher<Int, Boom>
    final class Box<Value>: @unchecked Sendable { var value: Value?; init(_ value: Value? = nil) { self.value = value } }

    // MARK: Marbles

    @Test func marbles() {
        let pick = { (p: [TestPublisher<String, MarbleFailure>]) in
            p[0].map { $0 == "a" ? p[1] : p[2] }.switchToLatest()
        }
        // The upstream fails: the inner publisher is cancelled.
        // The inner publisher fails.
        assertMarbles(inputs: ["-a------|", "--1-^"], pick, "--1-^")
        // The old inner publisher finishing after the switch changes nothing.
        assertMarbles(inputs: ["-a-b---|", "--1---|", "----7---|"], pick, "--1-7---|")
        // The upstream finishes first: the stream waits for the inner publisher.
        assertMarbles(inputs: ["-a|", "--1--2|"], pick, "--1--2|")
        assertMarbles([1, 2].publisher.map { [$0, $0 * 10].publisher }.switchToLatest(), "[1'10'2'20'|]")
        assertMarbles(Empty<Just<Int>, Never>().switchToLatest(), "|")
    }

    @Test func docExampleOutputs() {
        let queries = PassthroughSubject<String, Never>()
        let subscriber = RecordingSubscriber<String, Never>()
        queries.map { query in [query + "1", query + "2"].publisher }.switchToLatest().subscribe(subscriber)
        queries.send("cat")
        queries.send("dog")
        #expect(subscriber.values == ["cat1", "cat2", "dog1", "dog2"])

        struct Offline: Error, Equatable {}
        let upstreamNever = RecordingSubscriber<String, Offline>()
        ["a"].publisher.map { Just($0).setFailureType(to: Offline.self) }.switchToLatest().subscribe(upstreamNever)
        #expect(upstreamNever.events == [.subscription, .value("a"), .completion(.finished)])

        #expect(values([1, 2].publisher.map { Just($0 * 10) }.switchToLatest()) == [10, 20])

        let innerNever = RecordingSubscriber<Int, Offline>()
        [1].publisher.setFailureType(to: Offline.self).map { Just($0) }.switchToLatest().subscribe(innerNever)
        #expect(innerNever.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func overloadsMatchCombinesTypes() {
        let bothFail: Publishers.SwitchToLatest<Inner, TestPublisher<Inner, Boom>> =
            TestPublisher<Inner, Boom>().switchToLatest()
        let upstreamNever: Publishers.SwitchToLatest<Inner, Publishers.SetFailureType<TestPublisher<Inner, Never>, Boom>> =
            TestPublisher<Inner, Never>().switchToLatest()
        let neither: Publishers.SwitchToLatest<Just<Int>, TestPublisher<Just<Int>, Never>> =
            TestPublisher<Just<Int>, Never>().switchToLatest()
        let innerNever: Publishers.SwitchToLatest<Publishers.SetFailureType<Just<Int>, Boom>,
            Publishers.Map<TestPublisher<Just<Int>, Boom>, Publishers.SetFailureType<Just<Int>, Boom>>> =
            TestPublisher<Just<Int>, Boom>().switchToLatest()
        _ = (bothFail.upstream, upstreamNever.upstream, neither.upstream, innerNever.upstream)
    }

    // MARK: Demand

    @Test func asksTheUpstreamForUnlimited() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.switchToLatest().subscribe(subscriber)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    /// Combine's demand history, step by step (as OpenCombine's compatibility tests record it).
    @Test func eachInnerIsAskedForWhatIsOutstanding_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil, onValue: { _ in .max(5) })
        upstream.switchToLatest().subscribe(subscriber)
        let first = Inner(), second = Inner(), third = Inner()
        upstream.send(first)
        #expect(first.history == [])
        subscriber.request(.max(1))
        #expect(first.history == [.requested(.max(1))])
        first.send(completion: .finished)
        subscriber.request(.max(41))
        subscriber.request(.max(1))
        #expect(first.history == [.requested(.max(1))])
        upstream.send(second)
        #expect(second.history == [.requested(.max(43))])
        #expect(second.send(1) == .max(5))
        #expect(second.send(2) == .max(5))
        upstream.send(third)
        #expect(second.history == [.requested(.max(43)), .cancelled])
        // 43 - 2 delivered + 2 * 5 returned.
        #expect(third.history == [.requested(.max(51))])
        upstream.send(completion: .finished)
        subscriber.request(.max(9))
        #expect(third.history == [.requested(.max(51)), .requested(.max(9))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aValueBeyondTheDemandIsDropped_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1))
        upstream.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        upstream.send(inner)
        inner.send(1)
        inner.send(2)
        #expect(subscriber.values == [1])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsAViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        TestPublisher<Inner, Boom>().switchToLatest().subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
        #expect(messages.first?.contains("SwitchToLatest") == true)
    }

    // MARK: Completion and failure

    @Test func finishesWhenTheUpstreamAndTheCurrentInnerHaveFinished() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.switchToLatest().subscribe(subscriber)
        let first = Inner(), second = Inner()
        upstream.send(first)
        upstream.send(second)
        upstream.send(completion: .finished)
        #expect(subscriber.completion == nil)
        // The replaced inner's completion is ignored.
        first.send(completion: .finished)
        #expect(subscriber.completion == nil)
        second.send(3)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func aNewInnerCancelsThePreviousOne() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.switchToLatest().subscribe(subscriber)
        let first = Inner(), second = Inner()
        upstream.send(first)
        first.send(1)
        upstream.send(second)
        #expect(first.history == [.requested(.unlimited), .cancelled])
        // The replaced publisher has let go of its subscriber: what it sends goes nowhere.
        first.send(2)
        second.send(3)
        #expect(subscriber.values == [1, 3])
    }

    @Test func nothingFromAnInnerAfterItsCompletion_S4() {
        let upstream = TestPublisher<AnyPublisher<Int, Boom>, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.switchToLatest().subscribe(subscriber)
        // An inner publisher that keeps sending after its completion.
        let rogue = SendsAfterFinishing()
        upstream.send(rogue.eraseToAnyPublisher())
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
    }

    /// Breaks S4: sends 1, `.finished`, then 2.
    struct SendsAfterFinishing: Publisher {
        typealias Output = Int
        typealias Failure = Boom
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Boom {
            subscriber.receive(subscription: Subscriptions.empty)
            _ = subscriber.receive(1)
            subscriber.receive(completion: .finished)
            _ = subscriber.receive(2)
        }
    }

    @Test func innerFailureCancelsTheUpstream() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        upstream.send(inner)
        inner.send(1)
        inner.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(inner.history == [.requested(.unlimited)])
    }

    @Test func upstreamFailureCancelsTheInner() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        upstream.send(inner)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(inner.history == [.requested(.unlimited), .cancelled])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func emptyUpstreamFinishesWithoutDemand_S5() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Just<Int>, Never>().switchToLatest().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelCancelsTheUpstreamAndTheInner() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(42))
        upstream.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        upstream.send(inner)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(inner.history == [.requested(.max(42)), .cancelled])
        upstream.send(Inner())
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelWithALongLivedInnerReleasesEverything_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        var subscription: (any Subscription)?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.switchToLatest().subscribe(subscriber)
            upstream.send(inners[0])
            upstream.send(inners[1])
            inners[1].send(1)
            #expect(subscriber.values == [1])
            subscription = subscriber.subscription
            weakSubscription = subscription as AnyObject
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        subscription = nil
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    @Test func completionReleasesEverything_S7() {
        weak var weakSubscription: AnyObject?
        let upstream = PassthroughSubject<PassthroughSubject<Int, Boom>, Boom>()
        let inner = PassthroughSubject<Int, Boom>()
        do {
            let subscriber = RecordingSubscriber<Int, Boom>()
            upstream.switchToLatest().subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject
            upstream.send(inner)
            inner.send(completion: .failure(Boom()))
            #expect(subscriber.completion == .failure(Boom()))
            subscriber.releaseSubscription()
        }
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
        Just((0..<10_000).publisher).switchToLatest().subscribe(subscriber)
        box.value = nil
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    /// The upstream switches from inside the downstream's `receive(_:)`, and the new inner
    /// publisher sends at once: its value waits until the current one is handled (S3).
    @Test func switchingFromInsideReceiveDoesNotNest_S3() {
        let upstream = TestPublisher<AnyPublisher<Int, Boom>, Boom>()
        let inside = Box(false), nested = Box(false)
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .unlimited, onValue: { value in
            if inside.value == true { nested.value = true }
            if value == 1 {
                inside.value = true
                upstream.send(Just(2).setFailureType(to: Boom.self).eraseToAnyPublisher())
                inside.value = false
            }
            return .none
        })
        upstream.switchToLatest().subscribe(subscriber)
        let first = Inner()
        upstream.send(first.eraseToAnyPublisher())
        first.send(1)
        #expect(subscriber.values == [1, 2])
        #expect(nested.value == false)
        #expect(first.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.violations.isEmpty)
    }

    /// An inner publisher subscribed before the subscriber has asked for anything is asked for
    /// nothing (as in Combine: OpenCombine's `testDemand`), so the next upstream value cancels
    /// it before it sent a value; an inner failure needs no demand. Here the demand is late
    /// because `subscribe(on:)` hands the request over on the scheduler, after the prepended
    /// values went through. (Found by the model-based pipelines, seed 0x7d721985c36af8e, whose
    /// model assumed the demand was there.)
    @Test func anInnerSubscribedBeforeAnyDemandIsCancelledByTheNextBeforeItSends() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        subject.prepend(1, 3)
            .map { v -> AnyPublisher<Int, Boom> in
                v == 3 ? Fail(error: Boom()).eraseToAnyPublisher()
                    : [v, v + 100].publisher.setFailureType(to: Boom.self).eraseToAnyPublisher()
            }
            .switchToLatest()
            .subscribe(on: scheduler)
            .subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.events.map(\.description) == ["subscription", "failure(Boom())"])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    /// A value the inner sends while the subscriber is being called waits for the call to return
    /// (S11); a failure sent right after it must not drop it: it was asked for. (Combine, which
    /// delivers such a value recursively, gives the same order.)
    @Test func aValueSentWhileTheSubscriberIsCalledGoesDownBeforeAFailureThatFollows() {
        let inner = Inner()  // calls its subscriber directly, re-entrantly too
        let outer = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(onValue: { value in
            if value == 1 {
                _ = inner.send(2)
                inner.send(completion: .failure(Boom()))
            }
            return .none
        })
        outer.switchToLatest().subscribe(subscriber)
        _ = outer.send(inner)
        _ = inner.send(1)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .failure(Boom()))
        #expect(subscriber.violations.isEmpty)
    }

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (SwitchToLatest)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Just<Int>, Never>().switchToLatest().subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "SwitchToLatest")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's switchToLatest ignores what its upstream, or an inner publisher, sends
        // before its subscription or after its end, and cancels a second subscription.
        checkIgnoresMisbehavingUpstream({ $0.switchToLatest() },
                                        value: Just(7).setFailureType(to: Boom.self).eraseToAnyPublisher(),
                                        failure: Boom())
        checkIgnoresMisbehavingUpstream({ inner in Just(inner).setFailureType(to: Boom.self).switchToLatest() },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ inner in Just(inner).setFailureType(to: Boom.self).append(Empty(completeImmediately: false)).switchToLatest() },
                                        value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract { Just((0..<300).publisher).switchToLatest() }
        // Which values get through depends on when demand comes (a publisher replaced before it
        // was asked for anything sends nothing).
        checkContract({ (0..<3).publisher.map { n in (0..<100).publisher.map { $0 + n * 100 } }.switchToLatest() },
                      deterministic: false)
        checkContract { Just(Just(1)).switchToLatest() }
        checkContract { Empty<Just<Int>, Never>().switchToLatest() }
        // `prefix`/`first` give their own subscription, which ignores `.none` (S9).
        checkContract({ Just((0..<300).publisher).switchToLatest().prefix(10) }, requestingNone: .isIgnored)
        checkContract { Just((0..<150).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())))
            .setFailureType(to: Boom.self).switchToLatest() }
        // Which values get through depends on when demand comes: a publisher replaced before it
        // was asked for anything sends nothing.
        checkContract({ (0..<300).publisher.map { Just($0) }.switchToLatest() }, deterministic: false)
    }
}
