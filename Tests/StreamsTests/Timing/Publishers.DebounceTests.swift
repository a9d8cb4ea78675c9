import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("debounce")
struct DebounceTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        let debounce = { (upstream: TestPublisher<String, MarbleFailure>) in
            upstream.debounce(for: .seconds(2), scheduler: scheduler)
        }
        assertMarbles("-a---b---|", on: scheduler, debounce, "---a---b-|")
        assertMarbles("-abc-----|", on: scheduler, debounce, "-----c---|")
        assertMarbles("-[ab]----|", on: scheduler, debounce, "---b--|")
    }

    @Test func valueArrivingExactlyAtTheBoundaryRestartsTheTimer() {
        // `b` arrives at the instant `a`'s quiet time runs out. In the harness (as on any
        // scheduler that runs work in the order it was scheduled) the upstream's event comes
        // first, so `a` is replaced and `b` waits its own two seconds.
        let scheduler = DispatchQueue.test
        assertMarbles("-a-b-----|", on: scheduler, { $0.debounce(for: .seconds(2), scheduler: scheduler) },
                      "-----b---|")
        // One tick later, the quiet time has passed: both go out.
        assertMarbles("-a--b----|", on: scheduler, { $0.debounce(for: .seconds(2), scheduler: scheduler) },
                      "---a--b--|")
    }

    @Test func docExampleOutputs() {
        let scheduler = DispatchQueue.test
        let typed = PassthroughSubject<String, Never>()
        let subscriber = RecordingSubscriber<String, Never>()
        typed.debounce(for: .milliseconds(300), scheduler: scheduler).subscribe(subscriber)
        typed.send("s")
        typed.send("sw")
        scheduler.advance(by: .milliseconds(100))
        typed.send("swi")
        scheduler.advance(by: .milliseconds(299))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == ["swi"])
    }

    @Test func deliversOnlyFromTheScheduler_S13() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(scheduler.pendingCount == 1)  // the first value's timer was cancelled, not left behind
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2])
        #expect(scheduler.pendingCount == 0)  // the repeating timer is cancelled once it fired
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
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subscriber.request(.max(2))
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.values == [1])
    }

    @Test func aValueDueWithoutDemandIsDropped_S1() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a---b---|", on: scheduler, { $0.debounce(for: .seconds(2), scheduler: scheduler) },
                      "---a-----|", demand: .max(1))

        // Dropped for good: a later request does not bring it back (as in Combine).
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values == [])
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveCounts() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { $0 == 1 ? .max(1) : .none })
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
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
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(!upstream.history.contains(.requested(.none)))
        #expect(subscriber.events.count == 1)  // just the subscription
        _ = upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
    }

    // MARK: Completion and failure

    @Test func finishingDropsThePendingValue() {
        // As Combine: the completion goes out at once (on the scheduler); the value still
        // waiting for its quiet time is dropped.
        let scheduler = DispatchQueue.test
        assertMarbles("-a|", on: scheduler, { $0.debounce(for: .seconds(2), scheduler: scheduler) }, "--|")
        assertMarbles("-a---b|", on: scheduler, { $0.debounce(for: .seconds(2), scheduler: scheduler) }, "---a--|")
    }

    @Test func failureDuringAPendingDebounceDropsTheValue() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a^", on: scheduler, { $0.debounce(for: .seconds(2), scheduler: scheduler) }, "--^")

        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.debounce(for: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(scheduler.pendingCount == 1)  // only the completion: the value's timer is cancelled
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func theCompletionIsScheduledWithoutTheOperatorsOptions() {
        // As Combine: the options go with the quiet-time timer, not with the completion.
        let scheduler = OptionsRecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler, options: 7).subscribe(subscriber)
        upstream.send(1)
        scheduler.base.advance(by: .seconds(1))
        upstream.send(completion: .finished)
        scheduler.base.advance()
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
        #expect(scheduler.options == [7, nil])
    }

    @Test func nothingAfterTheCompletion_S4() {
        let scheduler = DispatchQueue.test
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(completion: .finished)
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
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheSubscriberAndThePendingValue_S7() {
        final class Payload {}
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Payload, Never>()
        weak var weakSubscriber: RecordingSubscriber<Payload, Never>?
        weak var weakSubscription: AnyObject?
        weak var weakPayload: Payload?
        do {
            let subscriber = RecordingSubscriber<Payload, Never>()
            weakSubscriber = subscriber
            upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakSubscription = subscriber.subscription.map { $0 as AnyObject }
            let payload = Payload()
            weakPayload = payload
            upstream.send(payload)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
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
            upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: .finished)
        }
        #expect(weakSubscriber != nil)
        scheduler.run()
        #expect(weakSubscriber == nil)
        #expect(scheduler.pendingCount == 0)
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
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.run()
        slot.recorder = nil
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func requestFromInsideReceiveIsBounded_S8() {
        // With the ImmediateScheduler every quiet time is over at once, so each value is sent as
        // it arrives; requests from inside `receive` only add to the count.
        let subscriber = subscribeRequestingFromInside(
            (0..<10_000).publisher.debounce(for: .seconds(1), scheduler: ImmediateScheduler.shared))
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Debounce)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().debounce(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Debounce")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's debounce ignores what its upstream sends before the subscription or after
        // its end, and cancels a second subscription.
        let scheduler = DispatchQueue.test
        checkIgnoresMisbehavingUpstream({ $0.debounce(for: .seconds(1), scheduler: scheduler) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance(by: .seconds(5)) })
    }

    // MARK: Contract

    @Test func contract() {
        // The ImmediateScheduler makes `debounce` synchronous, so the checker applies. It is not
        // deterministic in the checker's sense: `debounce` asks for everything at once and drops
        // what comes due without demand, so a subscriber that asks one at a time gets fewer
        // values than an unlimited one — allowed (S1 forbids more, not fewer).
        let immediate = ImmediateScheduler.shared
        checkContract({ (0..<300).publisher.debounce(for: .seconds(1), scheduler: immediate) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.debounce(for: .seconds(1), scheduler: immediate) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ Just(1).debounce(for: .seconds(1), scheduler: immediate) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).debounce(for: .seconds(1), scheduler: immediate) }, requestingNone: .isIgnored)
    }
}

/// A virtual-time scheduler whose options are an `Int`, recording the options of every action it
/// is given (`nil` when none), in order.
final class OptionsRecordingScheduler: Scheduler, @unchecked Sendable {  // `recorded` is guarded by `lock`
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = Int

    let base = TestScheduler<DispatchQueue.SchedulerTimeType, Int>(
        now: DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    private let lock = Lock()
    private var recorded: [Int?] = []

    var options: [Int?] { lock.withLock { recorded } }
    var now: SchedulerTimeType { base.now }
    var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: Int?, _ action: @escaping @Sendable () -> Void) {
        lock.withLock { recorded.append(options) }
        base.schedule(options: options, action)
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Int?,
                  _ action: @escaping @Sendable () -> Void) {
        lock.withLock { recorded.append(options) }
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                  tolerance: SchedulerTimeType.Stride, options: Int?,
                  _ action: @escaping @Sendable () -> Void) -> Cancellable {
        lock.withLock { recorded.append(options) }
        return base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}
