import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("throttle")
struct ThrottleTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func firstValueGoesOutAtOnce() {
        // Not at the end of a first interval: as soon as the scheduler runs the emission, in the
        // same instant.
        let scheduler = DispatchQueue.test
        assertMarbles("--a", on: scheduler, { $0.throttle(for: .seconds(5), scheduler: scheduler, latest: true) }, "--a")
        assertMarbles("--a", on: scheduler, { $0.throttle(for: .seconds(5), scheduler: scheduler, latest: false) }, "--a")
    }

    @Test func latestVersusFirst() {
        let scheduler = DispatchQueue.test
        // Values in the same instant as the first arrive before its emission runs.
        assertMarbles("-[abc]", on: scheduler,
                      { $0.throttle(for: .seconds(2), scheduler: scheduler, latest: true) }, "-c")
        assertMarbles("-[abc]", on: scheduler,
                      { $0.throttle(for: .seconds(2), scheduler: scheduler, latest: false) }, "-a")
        // A stream faster than the interval: one value every two ticks.
        assertMarbles("-abcdefg", on: scheduler,
                      { $0.throttle(for: .seconds(2), scheduler: scheduler, latest: true) }, "-a-c-e-g")
        assertMarbles("-abcdefg", on: scheduler,
                      { $0.throttle(for: .seconds(2), scheduler: scheduler, latest: false) }, "-a-b-d-f")
    }

    @Test func valueAfterAQuietIntervalGoesOutAtOnce() {
        let scheduler = DispatchQueue.test
        let throttle = { (upstream: TestPublisher<String, MarbleFailure>) in
            upstream.throttle(for: .seconds(3), scheduler: scheduler, latest: true)
        }
        assertMarbles("-a---b", on: scheduler, throttle, "-a---b")
        // Exactly one interval after the last value sent counts as quiet.
        assertMarbles("-a--b", on: scheduler, throttle, "-a--b")
        // Sooner, it waits until one interval after the last value sent.
        assertMarbles("-a-b--", on: scheduler, throttle, "-a--b-")
    }

    @Test func docExampleOutputs() {
        let scheduler = DispatchQueue.test
        let taps = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        taps.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        taps.send(1)
        scheduler.advance()
        #expect(subscriber.values == [1])
        taps.send(2)
        taps.send(3)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1, 3])
    }

    @Test func deliversOnlyFromTheScheduler_S13() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        #expect(subscriber.values == [])
        scheduler.advance()
        #expect(subscriber.values == [1])
        upstream.send(completion: .finished)
        #expect(subscriber.completion == nil)
        scheduler.advance()
        #expect(subscriber.completion == .finished)
    }

    // MARK: Demand

    @Test func asksTheUpstreamForUnlimitedOnce() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(subscriber)
        subscriber.request(.max(2))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func aValueWithoutDemandIsDropped_S1() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a---b-|", on: scheduler,
                      { $0.throttle(for: .seconds(3), scheduler: scheduler, latest: true) }, "-a-----|",
                      demand: .max(1))

        // Dropped for good, also for `latest`: a request that comes after does not bring it back.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values == [])
        upstream.send(2)
        scheduler.advance()
        #expect(subscriber.values == [2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func theWaitingValueHoldsItsDemandSoReplacingItNeedsNone() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)   // waits, holding the last unit of demand
        upstream.send(3)   // replaces it
        upstream.send(4)
        scheduler.advance(by: .seconds(1))
        upstream.send(5)   // no demand left: dropped
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 4])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveCounts() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { $0 == 1 ? .max(1) : .none })
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(subscriber)
        for value in 1...3 {
            upstream.send(value)
            scheduler.advance(by: .seconds(1))
        }
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(!upstream.history.contains(.requested(.none)))
        #expect(subscriber.events.count == 1)  // just the subscription
        _ = upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
    }

    /// A value that reaches the throttle in the same instant as the waiting one, but through
    /// work scheduled after the throttle's emission (here `subscribe(on:)` upstream, behind a
    /// `prepend` whose values come at once), arrives after that emission ran: it is the first
    /// value of a new interval and goes out an interval later. As in Combine: OpenCombine's
    /// `testThrottleDemand` (run against Combine) sends a value after the scheduled emission ran,
    /// at the same virtual time, and it is scheduled an interval after it. (The model-based
    /// pipelines, which treat an instant as one moment, found this: seeds 0x6d1c9db225cdb1df and
    /// 0xfc8369bd3a893ae6, `latest: false`, and 0x72a603f17d9d4caf, `latest: true`.)
    @Test func aValueThatComesThroughTheSchedulerAfterTheEmissionWaitsAnInterval() {
        let scheduler = DispatchQueue.test
        let first = RecordingSubscriber<Int, Never>()
        CurrentValueSubject<Int, Never>(4).subscribe(on: scheduler).prepend(7, 8, 8)
            .throttle(for: .milliseconds(151), scheduler: scheduler, latest: false).subscribe(first)
        scheduler.advance()
        // 8 and 8 came while 7 waited: dropped. 4 came after 7 went out.
        #expect(first.values == [7])
        scheduler.advance(by: .milliseconds(150))
        #expect(first.values == [7])
        scheduler.advance(by: .milliseconds(1))
        #expect(first.values == [7, 4])

        let latest = RecordingSubscriber<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        subject.prepend(6, 5, 6).receive(on: scheduler).prepend(7, 1, 1)
            .throttle(for: .milliseconds(131), scheduler: scheduler, latest: true).subscribe(latest)
        scheduler.advance()
        // 1 replaced 7 and 1 before the emission; 6, 5, 6 came through the scheduler after it.
        #expect(latest.values == [1])
        scheduler.advance(by: .milliseconds(131))
        #expect(latest.values == [1, 6])
        withExtendedLifetime(subject) {}
    }

    // MARK: Completion and failure

    @Test func completionWaitsForTheWaitingValue() {
        let scheduler = DispatchQueue.test
        assertMarbles("-ab|", on: scheduler,
                      { $0.throttle(for: .seconds(3), scheduler: scheduler, latest: true) }, "-a--[b|]")
        assertMarbles("-abc^", on: scheduler,
                      { $0.throttle(for: .seconds(3), scheduler: scheduler, latest: false) }, "-a--[b^]")
    }

    @Test func completionWithNothingWaitingGoesOutAtOnce() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a-|", on: scheduler,
                      { $0.throttle(for: .seconds(3), scheduler: scheduler, latest: true) }, "-a-|")
        assertMarbles("--^", on: scheduler,
                      { $0.throttle(for: .seconds(3), scheduler: scheduler, latest: true) }, "--^")
    }

    @Test func nothingAfterTheCompletion_S4() {
        let scheduler = DispatchQueue.test
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(1)
        upstream.send(completion: .finished)
        scheduler.run()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelDropsTheWaitingValueAndCancelsUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.run()
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheSubscriberAndTheWaitingValue_S7() {
        final class Payload {}
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Payload, Never>()
        weak var weakSubscriber: RecordingSubscriber<Payload, Never>?
        weak var weakSubscription: AnyObject?
        weak var weakPayload: Payload?
        do {
            let subscriber = RecordingSubscriber<Payload, Never>()
            weakSubscriber = subscriber
            upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
            weakSubscription = subscriber.subscription.map { $0 as AnyObject }
            let payload = Payload()
            weakPayload = payload
            upstream.send(payload)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(scheduler.pendingCount == 1)
        #expect(weakSubscriber == nil)
        #expect(weakPayload == nil)
        scheduler.run()
        #expect(weakSubscription == nil)
    }

    @Test func completionReleasesTheSubscriber_S7() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: .finished)
        }
        #expect(weakSubscriber != nil)
        scheduler.run()
        #expect(weakSubscriber == nil)
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
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.run()
        slot.recorder = nil
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func requestFromInsideReceiveIsBounded_S8() {
        // With the ImmediateScheduler every emission runs at once, so each value is sent as it
        // arrives; requests from inside `receive` only add to the count.
        let subscriber = subscribeRequestingFromInside(
            (0..<10_000).publisher.throttle(for: .seconds(1), scheduler: ImmediateScheduler.shared, latest: true))
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Throttle)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().throttle(for: .seconds(1), scheduler: DispatchQueue.test, latest: true).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Throttle")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's throttle ignores what its upstream sends before the subscription or after
        // its end, and cancels a second subscription.
        let scheduler = DispatchQueue.test
        checkIgnoresMisbehavingUpstream({ $0.throttle(for: .seconds(1), scheduler: scheduler, latest: true) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance(by: .seconds(5)) })
        checkIgnoresMisbehavingUpstream({ $0.throttle(for: .seconds(1), scheduler: scheduler, latest: false) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance(by: .seconds(5)) })
    }

    // MARK: Contract

    @Test func contract() {
        // The ImmediateScheduler makes `throttle` synchronous (its clock never moves, and it runs
        // what is scheduled at once), so the checker applies. Not deterministic in the checker's
        // sense: `throttle` asks for everything at once and drops what comes without demand, so a
        // subscriber that asks one at a time gets fewer values — allowed (S1 forbids more).
        let immediate = ImmediateScheduler.shared
        checkContract({ (0..<300).publisher.throttle(for: .seconds(1), scheduler: immediate, latest: true) },
                      deterministic: false, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.throttle(for: .seconds(1), scheduler: immediate, latest: false) },
                      deterministic: false, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.throttle(for: .seconds(1), scheduler: immediate, latest: true) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).throttle(for: .seconds(1), scheduler: immediate, latest: true) }, requestingNone: .isIgnored)
    }
}
