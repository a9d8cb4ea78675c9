import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("drop(untilOutputFrom:)")
struct DropUntilOutputTests {
    struct Boom: Error, Equatable {}

    /// A trigger that never sends anything and never completes.
    static var silent: Empty<Int, MarbleFailure> { Empty(completeImmediately: false) }

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        // The trigger fires at tick 4: the values after it pass.
        assertMarbles("-a-b-c-d-|", on: scheduler, {
            $0.drop(untilOutputFrom: Just(0).setFailureType(to: MarbleFailure.self)
                .delay(for: .seconds(4), scheduler: scheduler))
        }, "-----c-d-|")
        // A trigger that finishes or fails first ends the stream with its completion.
        assertMarbles("-a-b-c-|", on: scheduler, {
            $0.drop(untilOutputFrom: Empty<Int, MarbleFailure>().delay(for: .seconds(2), scheduler: scheduler))
        }, "--[;|]")
        assertMarbles("-a-b-c-|", on: scheduler, {
            $0.drop(untilOutputFrom: Fail<Int, MarbleFailure>(error: MarbleFailure())
                .delay(for: .seconds(2), scheduler: scheduler))
        }, "--[;^]")
        // The upstream's completion passes through, also while values are being dropped.
        assertMarbles("-a-b-|", { $0.drop(untilOutputFrom: Self.silent) }, "-----|")
        assertMarbles("-a-^", { $0.drop(untilOutputFrom: Self.silent) }, "---^")
    }

    @Test func theTriggerCanBeDerivedFromTheUpstream() {
        // The trigger is subscribed first, so "x" opens the stream before the upstream
        // delivers it: "x" itself passes. The trigger stays subscribed; it finishes with the
        // upstream (first, being subscribed first), so there is nothing left to cancel.
        assertMarbles("-a-b-x-c-|", { upstream in
            upstream.drop(untilOutputFrom: upstream.filter { $0 == "x" })
        }, "-----x-c-|")
    }

    @Test func docExample() {
        let values = PassthroughSubject<Int, Never>()
        let start = PassthroughSubject<Void, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        values.drop(untilOutputFrom: start).subscribe(subscriber)
        values.send(1)
        values.send(2)
        start.send()
        values.send(3)
        values.send(4)
        #expect(subscriber.values == [3, 4])
        #expect(subscriber.completion == nil)
    }

    @Test func aTriggerThatFiresAtOnceLetsEverythingThrough() {
        assertMarbles([1, 2, 3].publisher.drop(untilOutputFrom: Just(0)), "[123|]")
    }

    // MARK: Order of events (as Combine)

    /// As Combine: the subscriber gets its subscription first, then the trigger and then the
    /// upstream are subscribed.
    @Test func theSubscriberGetsItsSubscriptionThenTheTriggerAndTheUpstreamAreSubscribed() {
        let log = LockedLog()
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onSubscription: { _ in log.append("subscription") })
        Deferred { log.append("upstream"); return upstream }
            .drop(untilOutputFrom: Deferred { log.append("trigger"); return trigger })
            .subscribe(subscriber)
        #expect(log.entries == ["subscription", "trigger", "upstream"])
    }

    @Test func demandAskedBeforeALateUpstreamSubscriptionIsPassedOnWhenItArrives() {
        let upstream = LateSubscriptionPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(10))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.request(.max(4))
        #expect(subscriber.events == [.subscription])
        upstream.sendSubscriptions()
        #expect(upstream.history == [.requested(.max(14))])
    }

    // MARK: The trigger stays subscribed until the stream ends (as Combine)

    @Test func theTriggerStaysSubscribedAfterItsValueUntilTheUpstreamCompletes() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send("go")
        #expect(trigger.history == [.requested(.max(1))])
        #expect(trigger.subscriptions[0].isAttached)
        // What it sends afterwards changes nothing.
        trigger.send("again")
        upstream.send(1)
        #expect(trigger.history == [.requested(.max(1))])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(trigger.history == [.requested(.max(1)), .cancelled])
    }

    @Test func aCancelAfterTheTriggersValueCancelsTheTriggerToo() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send("go")
        subscriber.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(trigger.history == [.requested(.max(1)), .cancelled])
    }

    @Test func aTriggerThatCompletesAfterItsValueIsLetGoWithoutACancel() {
        let upstream = TestPublisher<Int, Boom>()
        let trigger = TestPublisher<String, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send("go")
        trigger.send(completion: .finished)
        #expect(!trigger.subscriptions[0].isAttached)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(trigger.history == [.requested(.max(1))])
    }

    // MARK: Demand

    @Test func demandPassesThroughAndTheTriggerIsAskedForOne() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send("go")
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(trigger.history == [.requested(.max(1))])
        #expect(subscriber.values == [1])
    }

    @Test func droppedValuesUseUpTheirDemand() {
        // As Combine documents: a value dropped before the trigger fires is not asked for again.
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        trigger.send("go")
        upstream.send(2)
        #expect(upstream.history == [.requested(.max(2))])
        #expect(upstream.demand == .none)
        #expect(subscriber.values == [2])
    }

    @Test func demandAskedBeforeTheUpstreamSubscribedIsPassedOn() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onSubscription: { $0.request(.max(3)) })
        upstream.drop(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(5))])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.drop(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func theTriggersCompletionBeforeItsValueEndsTheStream() {
        for completion in [Subscribers.Completion<Boom>.finished, .failure(Boom())] {
            let upstream = TestPublisher<Int, Boom>()
            let trigger = TestPublisher<String, Boom>()
            let subscriber = RecordingSubscriber<Int, Boom>()
            upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
            upstream.send(1)
            trigger.send(completion: completion)
            upstream.send(2)
            #expect(subscriber.events == [.subscription, .completion(completion)])
            #expect(upstream.history == [.requested(.unlimited), .cancelled])
        }
    }

    @Test func theTriggersCompletionAfterItsValueIsIgnored() {
        let upstream = TestPublisher<Int, Boom>()
        let trigger = TestPublisher<String, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send("go")
        trigger.send(completion: .failure(Boom()))
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func theUpstreamsCompletionCancelsAWaitingTrigger() {
        for completion in [Subscribers.Completion<Boom>.finished, .failure(Boom())] {
            let upstream = TestPublisher<Int, Boom>()
            let trigger = TestPublisher<String, Boom>()
            let subscriber = RecordingSubscriber<Int, Boom>()
            upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: completion)
            #expect(subscriber.events == [.subscription, .completion(completion)])
            #expect(trigger.history == [.requested(.max(1)), .cancelled])
        }
    }

    @Test func aTriggerFailureFromInsideReceiveAfterItsValueIsIgnored() {
        let trigger = PassthroughSubject<Void, Boom>()
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(onValue: { value in
            if value == 1 { trigger.send(completion: .failure(Boom())) }
            return .none
        })
        // The trigger fires, then fails while the downstream receives a value: the stream was
        // already open, so the failure is ignored.
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send()
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsBoth() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        #expect(trigger.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheSubscriberAndTheTriggerChain_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Int, Never>()
        do {
            let captured = Captured()
            weakCaptured = captured
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.drop(untilOutputFrom: trigger.map { _ in captured }).subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func theTriggerChainIsReleasedWhenTheStreamEnds_S7() {
        final class Captured {}
        for endsByCancel in [false, true] {
            weak var weakCaptured: Captured?
            let upstream = TestPublisher<Int, Never>()
            let trigger = TestPublisher<Int, Never>()
            let subscriber = RecordingSubscriber<Int, Never>()
            do {
                let captured = Captured()
                weakCaptured = captured
                upstream.drop(untilOutputFrom: trigger.map { _ in captured }).subscribe(subscriber)
            }
            trigger.send(1)
            // Still subscribed after its value (as Combine)...
            #expect(weakCaptured != nil)
            // ...until the stream ends.
            if endsByCancel { subscriber.cancel() } else { upstream.send(completion: .finished) }
            #expect(weakCaptured == nil)
            #expect(!trigger.subscriptions[0].isAttached)
        }
    }

    @Test func completionReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Int, Never>()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
            trigger.send(completion: .finished)
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
        (0..<10_000).publisher.drop(untilOutputFrom: Just(0)).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (DropUntilOutput)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().drop(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "DropUntilOutput")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's drop(untilOutputFrom:) ignores what the upstream or the trigger sends before
        // its subscription or after its end, and cancels a second subscription.
        checkIgnoresMisbehavingUpstream({ $0.drop(untilOutputFrom: Just(0).setFailureType(to: Boom.self)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.drop(untilOutputFrom: Empty<Int, Boom>(completeImmediately: false)) },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ (trigger: MisbehavingPublisher<Int, Boom>) in
            Just(1).setFailureType(to: Boom.self).append(Empty(completeImmediately: false)).drop(untilOutputFrom: trigger)
        }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ (trigger: MisbehavingPublisher<Int, Boom>) in
            [1, 2].publisher.setFailureType(to: Boom.self).drop(untilOutputFrom: trigger)
        }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.drop(untilOutputFrom: Just(0)) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.drop(untilOutputFrom: Empty<Int, Never>()) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self)
            .drop(untilOutputFrom: Fail<Int, Boom>(error: Boom())) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.drop(untilOutputFrom: Just(0).setFailureType(to: (any Error).self)) }, requestingNone: .isIgnored)
    }
}
