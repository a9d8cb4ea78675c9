import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("timeout")
struct TimeoutTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        let timeout = { (upstream: TestPublisher<String, MarbleFailure>) in
            upstream.timeout(.seconds(3), scheduler: scheduler)
        }
        // Measured from the subscription when no value comes.
        assertMarbles("------", on: scheduler, timeout, "---[;|]")
        assertMarbles("-a-b|", on: scheduler, timeout, "-a-b|")
        assertMarbles("-a^", on: scheduler, timeout, "-a^")
    }

    @Test func customErrorFailsInsteadOfFinishing() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a-----", on: scheduler,
                      { $0.timeout(.seconds(3), scheduler: scheduler, customError: { MarbleFailure() }) },
                      "-a--[;^]")
    }

    @Test func completionAtTheSameInstantAsTheTimeoutWins() {
        // The upstream's `|` arrives at the instant the timer runs out. Input comes first at an
        // instant, so the upstream's completion is passed on and the timer is cancelled: no `;`,
        // and with a `customError` still `|`, not `^`.
        let scheduler = DispatchQueue.test
        assertMarbles("-a--|", on: scheduler, { $0.timeout(.seconds(3), scheduler: scheduler) }, "-a--|")
        assertMarbles("-a--|", on: scheduler,
                      { $0.timeout(.seconds(3), scheduler: scheduler, customError: { MarbleFailure() }) }, "-a--|")
        assertMarbles("---^", on: scheduler, { $0.timeout(.seconds(3), scheduler: scheduler) }, "---^")
    }

    @Test func valueAtTheSameInstantAsTheTimeoutStartsTheTimerAgain() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a--b-----", on: scheduler, { $0.timeout(.seconds(3), scheduler: scheduler) },
                      "-a--b--[;|]")
    }

    @Test func docExampleOutputs() {
        struct TooSlow: Error {}
        let scheduler = DispatchQueue.test
        let replies = PassthroughSubject<String, any Error>()
        let subscriber = RecordingSubscriber<String, any Error>()
        replies.timeout(.seconds(5), scheduler: scheduler, customError: { TooSlow() }).subscribe(subscriber)
        replies.send("pong")
        scheduler.advance(by: .milliseconds(4_999))
        #expect(subscriber.values == ["pong"])
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .milliseconds(1))
        #expect(failureError(of: subscriber) is TooSlow)
    }

    @Test func deliversOnlyFromTheScheduler_S13() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(scheduler.pendingCount == 0)  // the timer is cancelled with the completion
    }

    @Test func onlyTheLatestTimerStaysScheduled() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(scheduler.pendingCount == 1)
        upstream.send(1)
        upstream.send(2)
        scheduler.advance()
        #expect(scheduler.pendingCount == 1)
    }

    // MARK: Demand

    @Test func demandPassesThroughToTheUpstream_S1() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.timeout(.seconds(3), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.history == [.requested(.max(2))])
        scheduler.advance()
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1))])
        subscriber.request(.max(4))
        scheduler.advance(by: .seconds(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1)), .requested(.max(4)), .cancelled])
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func theTimerRunsWithoutDemandToo() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().timeout(.seconds(2), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.completion == .finished)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
    }

    // MARK: Completion and failure

    @Test func timingOutCancelsTheUpstreamThenFinishes() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.timeout(.seconds(2), scheduler: scheduler, customError: { Boom() }).subscribe(subscriber)
        scheduler.advance(by: .seconds(2))
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func valuesAlreadyOnTheirWayGoOutBeforeTheTimeout() {
        // The value's delivery is still queued when its timer fires (a scheduler may run work due
        // at the same time in any order): the timeout's completion comes after the value.
        let scheduler = ManualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        #expect(scheduler.count == 3)  // the first timer, the timer started by the value, the delivery
        scheduler.run(inOrder: [1, 2, 0])
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func nothingAfterTheCompletion_S4() {
        let scheduler = DispatchQueue.test
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        upstream.send(1)
        upstream.send(completion: .finished)
        scheduler.run()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsTheUpstreamAndTheTimer() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        subscriber.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheSubscriberAndCustomError_S7() {
        final class Captured {}
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Boom>()
        weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
        weak var weakSubscription: AnyObject?
        weak var weakCaptured: Captured?
        do {
            let subscriber = RecordingSubscriber<Int, Boom>()
            weakSubscriber = subscriber
            let captured = Captured()
            weakCaptured = captured
            upstream.timeout(.seconds(1), scheduler: scheduler, customError: { _ = captured; return Boom() })
                .subscribe(subscriber)
            weakSubscription = subscriber.subscription.map { $0 as AnyObject }
            upstream.send(1)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(scheduler.pendingCount == 1)  // the value's delivery (the timer is cancelled)
        #expect(weakSubscriber == nil)
        #expect(weakCaptured == nil)
        scheduler.run()
        #expect(weakSubscription == nil)
    }

    @Test func timeoutReleasesTheSubscriberAndCustomError_S7() {
        final class Captured {}
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Boom>()
        weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
        weak var weakCaptured: Captured?
        do {
            let subscriber = RecordingSubscriber<Int, Boom>()
            weakSubscriber = subscriber
            let captured = Captured()
            weakCaptured = captured
            upstream.timeout(.seconds(1), scheduler: scheduler, customError: { _ = captured; return Boom() })
                .subscribe(subscriber)
        }
        #expect(weakSubscriber != nil)
        scheduler.advance(by: .seconds(1))
        #expect(weakSubscriber == nil)
        #expect(weakCaptured == nil)
    }

    // MARK: Reentrancy

    @Test func cancelInsideReceiveStopsDelivery_S6() {
        let scheduler = DispatchQueue.test
        let upstream = UnstoppablePublisher<Int, Never>()
        let slot = RecorderSlot<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { _ in
            slot.recorder?.cancel()
            return .none
        })
        slot.recorder = subscriber
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.run()
        slot.recorder = nil
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func requestFromInsideReceiveIsBounded_S8() {
        // On virtual time: each value's delivery is scheduled, so the upstream's reply to the
        // request made inside `receive` is only queued, never nested.
        let scheduler = DispatchQueue.test
        let slot = RecorderSlot<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(
            demand: nil,
            onSubscription: { _ in slot.recorder?.request(.max(1)) },
            onValue: { _ in
                slot.recorder?.request(.max(1))
                return .none
            })
        slot.recorder = subscriber
        (0..<10_000).publisher.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance()
        slot.recorder = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Timeout)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().timeout(.seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Timeout")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's timeout ignores what its upstream sends before the subscription or after its
        // end, and cancels a second subscription.
        let scheduler = DispatchQueue.test
        checkIgnoresMisbehavingUpstream({ $0.timeout(.seconds(1), scheduler: scheduler) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance(by: .seconds(5)) })
        checkIgnoresMisbehavingUpstream({ $0.timeout(.seconds(1), scheduler: scheduler) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance() })
    }

    // MARK: Contract

    @Test func theTimerStartsAfterTheSubscriberHasItsSubscription_S2() {
        // With an immediate scheduler a zero timeout fires at once. Combine starts the timer
        // before handing over the subscription, so the completion would come first; here the
        // subscriber gets its subscription, then the completion (a deliberate difference).
        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        PassthroughSubject<Int, Never>().timeout(.zero, scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.events.map(\.description) == ["subscription", "finished"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        // With the ImmediateScheduler the timer runs out as soon as it starts (its clock never
        // moves): `timeout` ends the stream right after the subscription, or right after the
        // first value if the upstream sends one synchronously while the subscription is handed
        // down. So the checker runs on near-empty streams, and not deterministically (a
        // subscriber that asks one at a time gets no value); it still checks that the completion
        // never comes before the subscription (S2) and S4, S6, S7. Values, demand, S9 and
        // timing are covered on virtual time above.
        let immediate = ImmediateScheduler.shared
        checkContract({ (0..<300).publisher.timeout(.seconds(1), scheduler: immediate) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ Just(1).timeout(.seconds(1), scheduler: immediate, customError: nil) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ Empty<Int, Never>().timeout(.seconds(1), scheduler: immediate) }, requestingNone: .isIgnored)
        let subscriber = RecordingSubscriber<Int, Never>()
        (0..<300).publisher.timeout(.seconds(1), scheduler: immediate).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
        let stepwise = RecordingSubscriber<Int, Never>(demand: nil)
        (0..<300).publisher.timeout(.seconds(1), scheduler: immediate).subscribe(stepwise)
        #expect(stepwise.events == [.subscription, .completion(.finished)])
    }
}
