import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("subscribe(on:)")
struct SubscribeOnTests {
    struct Boom: Error, Equatable {}
    final class Token: Sendable {}

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a-b-^", on: scheduler, { $0.subscribe(on: scheduler) }, "-a-b-^")
        assertMarbles(on: scheduler, [1, 2, 3].publisher.subscribe(on: scheduler), "[123|]")
    }

    @Test func aValueSentBeforeTheScheduledSubscribeIsMissed() {
        // At tick 0 the input's `a` runs before the subscribe that was scheduled for the same
        // instant: a hot upstream's value sent before the subscribe has run is not seen.
        let scheduler = DispatchQueue.test
        assertMarbles("a-b-|", on: scheduler, { $0.subscribe(on: scheduler) }, "--b-|")
    }

    @Test func subscribesOnlyWhenTheSchedulerRuns_S13() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        #expect(upstream.subscriptions.isEmpty)
        #expect(!subscriber.isSubscribed)
        scheduler.advance()
        #expect(upstream.subscriptions.count == 1)
        #expect(subscriber.isSubscribed)
    }

    @Test func docExampleRunsTheWorkOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let loads = Atomic<Int>(0)
        let subscriber = RecordingSubscriber<String, Never>()
        Deferred { () -> Just<String> in
            loads.add(1, ordering: .relaxed)
            return Just("settings")
        }
        .subscribe(on: scheduler)
        .subscribe(subscriber)
        #expect(loads.load(ordering: .relaxed) == 0)
        scheduler.advance()
        #expect(loads.load(ordering: .relaxed) == 1)
        #expect(subscriber.values == ["settings"])
        #expect(subscriber.completion == .finished)
    }

    // MARK: Demand

    @Test func requestsRunOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        // The request made inside receive(subscription:) was scheduled too, and ran in the same
        // advance.
        #expect(upstream.history == [.requested(.max(2))])
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2))])
        scheduler.advance()
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
    }

    @Test func valuesAndReturnedDemandAreNotMoved() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in .max(1) })
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(upstream.send(1) == .max(1))  // delivered at once, demand returned directly
        #expect(subscriber.values == [1])
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.history == [.requested(.max(1))])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        scheduler.advance()
        #expect(upstream.history == [])
    }

    // MARK: Completion and failure

    @Test func completionPassesThroughOnTheUpstreamsThread() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])
        subscriber.request(.max(1))
        scheduler.advance()
        #expect(upstream.history == [.requested(.unlimited)])  // nothing sent after the completion
    }

    @Test func completesWithoutDemand_S5() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.completion == .finished)
    }

    @Test func ignoresWhatTheUpstreamSendsAfterItsCompletion_S4() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSecondSubscriptionIsCancelled_S2() {
        let upstream = TwoSubscriptionsPublisher()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(upstream.first.log.entries == ["request(unlimited)"])
        #expect(upstream.second.log.entries == ["cancel"])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelRunsOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        subscriber.cancel()
        #expect(upstream.history == [.requested(.unlimited)])
        scheduler.advance()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func nothingIsDeliveredAfterCancelEvenBeforeTheUpstreamIsCancelled_S6() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        subscriber.cancel()
        upstream.send(1)  // the upstream does not know yet
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestsAfterCancelAreNotSent_S6() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        subscriber.request(.max(1))  // scheduled, but cancelled before it runs
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(2))
        scheduler.advance()
        #expect(upstream.history == [.cancelled])
    }

    @Test func cancelReleasesTheDownstreamAtOnce_S7() {
        weak var weakCaptured: Token?
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Token()
            weakCaptured = captured
            cancellable = upstream.subscribe(on: scheduler).sink { _ in _ = captured }
        }
        scheduler.advance()
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)  // before the scheduled cancel has run
        scheduler.advance()
        _ = cancellable
    }

    @Test func subscribingReleasesTheUpstreamPublisher_S7() {
        weak var weakCaptured: Token?
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        do {
            let captured = Token()
            weakCaptured = captured
            Deferred { () -> Empty<Int, Never> in
                _ = captured
                return Empty(completeImmediately: false)
            }
            .subscribe(on: scheduler)
            .subscribe(subscriber)
        }
        #expect(weakCaptured != nil)  // the publisher waits in the subscription for the scheduler
        scheduler.advance()
        #expect(weakCaptured == nil)
        subscriber.cancel()
        scheduler.advance()
    }

    @Test func completionReleasesTheDownstream_S7() {
        weak var weakCaptured: Token?
        let scheduler = DispatchQueue.test
        var cancellable: AnyCancellable?
        do {
            let captured = Token()
            weakCaptured = captured
            cancellable = [1, 2].publisher.subscribe(on: scheduler).sink { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        scheduler.advance()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        let scheduler = DispatchQueue.test
        let slot = RecorderSlot<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            slot.recorder?.request(.max(1))
            return .none
        })
        slot.recorder = subscriber
        (0..<10_000).publisher.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        slot.recorder = nil
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (SubscribeOn)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "SubscribeOn")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's subscribe(on:) ignores what its upstream sends before the subscription or
        // after its end, and cancels a second subscription.
        let scheduler = DispatchQueue.test
        checkIgnoresMisbehavingUpstream({ $0.subscribe(on: scheduler) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance() })
        checkIgnoresMisbehavingUpstream({ $0.subscribe(on: ImmediateScheduler.shared) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.subscribe(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({ Just(1).subscribe(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({ Empty<Int, Never>().subscribe(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).subscribe(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({
            (0..<300).publisher.tryMap { n -> Int in
                if n == 150 { throw Boom() }
                return n
            }.subscribe(on: ImmediateScheduler.shared)
        }, requestingNone: .isIgnored)
        checkContract({
            (0..<300).publisher.subscribe(on: ImmediateScheduler.shared).receive(on: ImmediateScheduler.shared)
        }, requestingNone: .isIgnored)
    }
}
