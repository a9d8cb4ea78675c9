import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("prefix(untilOutputFrom:)")
struct PrefixUntilOutputTests {
    struct Boom: Error, Equatable {}

    /// A trigger that never sends anything and never completes.
    static var silent: Empty<Int, Never> { Empty(completeImmediately: false) }

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        // The trigger fires at tick 4: both publishers are cancelled and the stream finishes.
        assertMarbles("-a-b-c-d-|", on: scheduler, {
            $0.prefix(untilOutputFrom: Just(0).delay(for: .seconds(4), scheduler: scheduler))
        }, "-a-b[;|]")
        // A trigger that completes without a value changes nothing, whether it finishes or fails.
        assertMarbles("-a-b-c-|", on: scheduler, {
            $0.prefix(untilOutputFrom: Empty<Int, Never>().delay(for: .seconds(2), scheduler: scheduler))
        }, "-a-b-c-|")
        assertMarbles("-a-b-c-|", on: scheduler, {
            $0.prefix(untilOutputFrom: Fail<Int, Boom>(error: Boom()).delay(for: .seconds(2), scheduler: scheduler))
        }, "-a-b-c-|")
        // The upstream's completion before the trigger passes through.
        assertMarbles("-a-^", { $0.prefix(untilOutputFrom: Self.silent) }, "-a-^")
        assertMarbles("-a-b-|", { $0.prefix(untilOutputFrom: Self.silent) }, "-a-b-|")
        assertMarbles([1, 2, 3].publisher.prefix(untilOutputFrom: Self.silent), "[123|]")
    }

    @Test func theTriggerCanBeDerivedFromTheUpstream() {
        // Trigger and upstream are the same TestPublisher; the trigger is subscribed first, so it
        // sees "x" first and the upstream never delivers it. Both subscriptions are cancelled.
        assertMarbles("-a-b-x-c-|", { upstream in
            upstream.prefix(untilOutputFrom: upstream.filter { $0 == "x" })
        }, "-a-b-[;;|]")
    }

    @Test func docExample() {
        let values = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        values.prefix(untilOutputFrom: stop).subscribe(subscriber)
        values.send(1)
        values.send(2)
        stop.send()
        values.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func aTriggerThatFiresAtOnceFinishesBeforeAnyValue() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: Just("now")).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        // The upstream is subscribed after the trigger fired: its subscription is cancelled at once.
        #expect(upstream.history == [.cancelled])
    }

    // MARK: Order of events (as Combine)

    /// As Combine: the trigger is subscribed first, then the upstream, and the subscriber gets
    /// its subscription when the upstream's arrives.
    @Test func theTriggerThenTheUpstreamAreSubscribedAndThenTheSubscriberGetsItsSubscription() {
        let log = LockedLog()
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onSubscription: { _ in log.append("subscription") })
        Deferred { log.append("upstream"); return upstream }
            .prefix(untilOutputFrom: Deferred { log.append("trigger"); return trigger })
            .subscribe(subscriber)
        #expect(log.entries == ["trigger", "upstream", "subscription"])
    }

    @Test func aLateUpstreamSubscriptionIsWhenTheSubscriberGetsItsOwn() {
        let upstream = LateSubscriptionPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onSubscription: { $0.request(.max(1)) })
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(trigger.history == [.requested(.max(1))])
        #expect(subscriber.events.isEmpty)
        upstream.sendSubscriptions()
        #expect(subscriber.events == [.subscription])
        // What it asked for while receiving its subscription goes up in one request right after.
        #expect(upstream.history == [.requested(.max(3))])
        upstream.send(1)
        trigger.send("stop")
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(upstream.history == [.requested(.max(3)), .cancelled])
        #expect(subscriber.violations.isEmpty)
    }

    /// Combine sends `.finished` here to a subscriber that has no subscription; S2 wants the
    /// subscription first, so it gets both at the trigger's value.
    @Test func aTriggerThatFiresBeforeTheUpstreamsSubscriptionGivesTheSubscriptionThenFinished_S2() {
        let upstream = LateSubscriptionPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send("stop")
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
        #expect(trigger.history == [.requested(.max(1)), .cancelled])
        // The upstream's subscription, when it comes, is cancelled and nothing more happens.
        upstream.sendSubscriptions()
        #expect(upstream.history == [.cancelled])
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aTriggerFiredWhileTheSubscriberGetsItsSubscriptionFinishesRightAfter_S3() {
        final class Box: @unchecked Sendable {
            var subscriber: RecordingSubscriber<Int, Never>?
            var finishedInside = false
        }
        let box = Box()
        let trigger = PassthroughSubject<Void, Never>()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onSubscription: { _ in
            trigger.send()
            // The completion must wait until `receive(subscription:)` has returned.
            box.finishedInside = box.subscriber?.completion != nil
        })
        box.subscriber = subscriber
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        box.subscriber = nil
        #expect(!box.finishedInside)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
        // The request made during the handover never reaches the upstream: it is cancelled.
        #expect(upstream.history == [.cancelled])
    }

    // MARK: Demand

    @Test func demandPassesThroughAndTheTriggerIsAskedForOne() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(trigger.history == [.requested(.max(1))])
        #expect(subscriber.values == [1])
    }

    @Test func demandAskedDuringTheHandoverIsPassedOnInOneRequest() {
        // What the downstream asks for while it receives its subscription reaches the upstream
        // in one request right after.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onSubscription: { $0.request(.max(3)) })
        upstream.prefix(untilOutputFrom: Self.silent).subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(5))])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.prefix(untilOutputFrom: Self.silent).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func theTriggersValueCancelsBothAndFinishes_S15() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        trigger.send("stop")
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(trigger.history == [.requested(.max(1)), .cancelled])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func theUpstreamsCompletionCancelsTheTrigger() {
        for completion in [Subscribers.Completion<Boom>.finished, .failure(Boom())] {
            let upstream = TestPublisher<Int, Boom>()
            let trigger = TestPublisher<String, Never>()
            let subscriber = RecordingSubscriber<Int, Boom>()
            upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: completion)
            trigger.send("late")
            #expect(subscriber.events == [.subscription, .value(1), .completion(completion)])
            #expect(trigger.history == [.requested(.max(1)), .cancelled])
        }
    }

    @Test func theTriggersCompletionIsIgnored() {
        for completion in [Subscribers.Completion<Boom>.finished, .failure(Boom())] {
            let upstream = TestPublisher<Int, Never>()
            let trigger = TestPublisher<String, Boom>()
            let subscriber = RecordingSubscriber<Int, Never>()
            upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
            upstream.send(1)
            trigger.send(completion: completion)
            upstream.send(2)
            upstream.send(completion: .finished)
            #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
            #expect(upstream.history == [.requested(.unlimited)])
            #expect(trigger.history == [.requested(.max(1))])
        }
    }

    @Test func aTriggerFiredFromInsideReceiveFinishesAfterTheValue_S3() {
        final class Box: @unchecked Sendable {
            var subscriber: RecordingSubscriber<Int, Never>?
            var completedInsideReceive = false
        }
        let box = Box()
        let trigger = PassthroughSubject<Void, Never>()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 2 {
                trigger.send()
                // The completion must wait until this call has returned: no nested call.
                box.completedInsideReceive = box.subscriber?.completion != nil
            }
            return .none
        })
        box.subscriber = subscriber
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        box.subscriber = nil
        #expect(!box.completedInsideReceive)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    // MARK: Cancellation

    @Test func cancelCancelsBoth() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        #expect(trigger.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelInsideReceiveSubscriptionCancelsBoth() {
        // As Combine: the trigger has been subscribed and asked for its value before the
        // subscriber gets its subscription; the upstream is cancelled first.
        let log = LockedLog()
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onSubscription: { $0.cancel() })
        upstream.handleEvents(receiveCancel: { log.append("upstream") })
            .prefix(untilOutputFrom: trigger.handleEvents(receiveCancel: { log.append("trigger") }))
            .subscribe(subscriber)
        #expect(upstream.history == [.cancelled])
        #expect(trigger.history == [.requested(.max(1)), .cancelled])
        #expect(log.entries == ["upstream", "trigger"])
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
            upstream.prefix(untilOutputFrom: trigger.map { _ in captured }).subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func theTriggerAndTheCompletionReleaseEverything_S7() {
        final class Captured {}
        for endsByTrigger in [true, false] {
            weak var weakCaptured: Captured?
            weak var weakSubscriber: RecordingSubscriber<Int, Never>?
            let upstream = TestPublisher<Int, Never>()
            let trigger = TestPublisher<Int, Never>()
            do {
                let captured = Captured()
                weakCaptured = captured
                let subscriber = RecordingSubscriber<Int, Never>()
                weakSubscriber = subscriber
                upstream.prefix(untilOutputFrom: trigger.map { _ in captured }).subscribe(subscriber)
                if endsByTrigger { trigger.send(1) } else { upstream.send(completion: .finished) }
                #expect(subscriber.completion == .finished)
                subscriber.releaseSubscription()
            }
            #expect(weakCaptured == nil)
            #expect(weakSubscriber == nil)
            #expect(!upstream.subscriptions[0].isAttached && !trigger.subscriptions[0].isAttached)
        }
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
        (0..<10_000).publisher.prefix(untilOutputFrom: Self.silent).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (PrefixUntilOutput)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().prefix(untilOutputFrom: Self.silent).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "PrefixUntilOutput")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's prefix(untilOutputFrom:) ignores what the upstream or the trigger sends
        // before its subscription or after its end, and cancels a second subscription.
        checkIgnoresMisbehavingUpstream({ $0.prefix(untilOutputFrom: Self.silent) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.prefix(untilOutputFrom: Empty<Int, Boom>()) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ (trigger: MisbehavingPublisher<Int, Boom>) in
            Just(1).setFailureType(to: Boom.self).append(Empty(completeImmediately: false)).prefix(untilOutputFrom: trigger)
        }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.prefix(untilOutputFrom: Self.silent) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.prefix(untilOutputFrom: Empty<Int, Boom>()) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.prefix(untilOutputFrom: Just(1)) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.prefix(untilOutputFrom: Self.silent) }, requestingNone: .isIgnored)
    }
}

/// A publisher whose subscription arrives late: it keeps each subscriber until
/// ``sendSubscriptions()``, then subscribes it to a ``TestPublisher``, which records the demand
/// and sends the values.
final class LateSubscriptionPublisher<Output, Failure: Error>: Publisher,
    @unchecked Sendable  // `waiting` is guarded by `lock`
{
    private let lock = Lock()
    private var waiting: [AnySubscriber<Output, Failure>] = []
    let upstream = TestPublisher<Output, Failure>()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock { waiting.append(AnySubscriber(subscriber)) }
    }

    /// Hands every waiting subscriber its subscription.
    func sendSubscriptions() {
        let subscribers = lock.withLock {
            defer { waiting = [] }
            return waiting
        }
        for subscriber in subscribers { upstream.receive(subscriber: subscriber) }
    }

    var history: [TestPublisher<Output, Failure>.TestSubscription.Event] { upstream.history }
    func send(_ value: Output) { upstream.send(value) }
}
