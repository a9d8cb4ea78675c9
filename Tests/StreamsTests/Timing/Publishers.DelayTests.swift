import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("delay")
struct DelayTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        assertMarbles("-[ab]-c", on: scheduler, { $0.delay(for: .seconds(1), scheduler: scheduler) },
                      "--[ab]-c")
        assertMarbles("-a-|", on: scheduler, { $0.delay(for: .zero, scheduler: scheduler) }, "-a-|")
        assertMarbles(on: scheduler, Just(1).delay(for: .seconds(2), scheduler: scheduler), "--[1|]")
    }

    @Test func failureIsDelayedToo() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a^", on: scheduler, { $0.delay(for: .seconds(2), scheduler: scheduler) }, "---a^")
        assertMarbles("^", on: scheduler, { $0.delay(for: .seconds(3), scheduler: scheduler) }, "---^")
    }

    @Test func completionDuringAPendingDelayWaitsForTheValuesBeforeIt() {
        // `|` arrives while `a` is still being delayed: it is delayed as much, so it comes after.
        let scheduler = DispatchQueue.test
        assertMarbles("-a|", on: scheduler, { $0.delay(for: .seconds(3), scheduler: scheduler) }, "----a|")
        assertMarbles("-[ab|]", on: scheduler, { $0.delay(for: .seconds(3), scheduler: scheduler) }, "----[ab|]")
    }

    @Test func docExampleOutputs() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>()
        [1, 2, 3].publisher.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func deliversOnlyFromTheScheduler_S13() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.values == [])
        #expect(scheduler.pendingCount == 2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func toleranceDefaultsToTheSchedulersMinimum() {
        let scheduler = DispatchQueue.test
        let delay = Just(1).delay(for: .seconds(1), scheduler: scheduler)
        #expect(delay.tolerance == scheduler.minimumTolerance)
        #expect(delay.interval == .seconds(1))
        #expect(Just(1).delay(for: .seconds(1), tolerance: .milliseconds(5), scheduler: scheduler).tolerance
                == .milliseconds(5))
    }

    // MARK: Demand

    @Test func requestsPassStraightToTheUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
    }

    @Test func demandReturnedOnDeliveryIsRequestedFromTheUpstream_S1() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in .max(2) })
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)  // nothing is returned while the value is on its way
        #expect(upstream.history == [.requested(.max(1))])
        scheduler.advance(by: .seconds(1))
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(2))])
        #expect(subscriber.values == [1])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestAfterTheUpstreamFinishedIsNotPassedOn() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(completion: .finished)
        subscriber.request(.max(5))
        #expect(upstream.history == [.requested(.max(1))])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.completion == .finished)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
    }

    // MARK: Completion and failure

    @Test func failureArrivesAfterTheValuesBeforeIt() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.delay(for: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        upstream.send(completion: .failure(Boom()))
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(Boom()))])
    }

    @Test func nothingAfterTheCompletion_S4() {
        let scheduler = DispatchQueue.test
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.run()
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func orderIsKeptWhateverOrderTheSchedulerRunsWorkIn() {
        // A scheduler whose tolerance lets later work run first still delivers in the upstream's
        // order: each piece of scheduled work delivers the oldest waiting event.
        let scheduler = ManualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.runAllInReverse()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelDropsEventsOnTheirWayAndCancelsUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheSubscriberWhileWorkIsPending_S7() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakSubscription = subscriber.subscription.map { $0 as AnyObject }
            upstream.send(1)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(scheduler.pendingCount == 1)
        #expect(weakSubscriber == nil)  // the pending work holds the subscription, not the subscriber
        scheduler.run()
        #expect(weakSubscription == nil)  // once the work ran, nothing holds the subscription
    }

    @Test func completionReleasesTheSubscriber_S7() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            upstream.send(completion: .finished)
        }
        #expect(weakSubscriber != nil)  // the completion is still on its way
        scheduler.run()
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func cancelInsideReceiveStopsDelivery_S6() {
        let scheduler = DispatchQueue.test
        let slot = RecorderSlot<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { _ in
            slot.recorder?.cancel()
            return .none
        })
        slot.recorder = subscriber
        [1, 2, 3].publisher.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.run()
        slot.recorder = nil
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func requestFromInsideReceiveIsBounded_S8() {
        // With the ImmediateScheduler the upstream sends again from inside the delivery: the
        // running delivery loop takes the new value instead of recursing.
        let subscriber = subscribeRequestingFromInside(
            (0..<10_000).publisher.delay(for: .seconds(1), scheduler: ImmediateScheduler.shared))
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Delay)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().delay(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Delay")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's delay ignores what its upstream sends before the subscription or after its
        // end, and cancels a second subscription.
        let scheduler = DispatchQueue.test
        checkIgnoresMisbehavingUpstream({ $0.delay(for: .seconds(1), scheduler: scheduler) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance(by: .seconds(5)) })
    }

    // MARK: Contract

    @Test func contract() {
        // The ImmediateScheduler makes `delay` synchronous, so the checker's synchronous runs
        // apply in full. (On virtual time the checks above cover the same rules.)
        let immediate = ImmediateScheduler.shared
        checkContract({ (0..<300).publisher.delay(for: .seconds(1), scheduler: immediate) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.delay(for: .seconds(1), scheduler: immediate) }, requestingNone: .isIgnored)
        checkContract({ Just(1).delay(for: .seconds(1), scheduler: immediate) }, requestingNone: .isIgnored)
        checkContract({ Empty<Int, Never>().delay(for: .seconds(1), scheduler: immediate) }, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).delay(for: .seconds(1), scheduler: immediate) }, requestingNone: .isIgnored)
    }
}

/// A scheduler for tests that keeps every action until the test runs them, in the order it
/// chooses: to check that an operator copes with whatever order a scheduler (with tolerance, or
/// concurrent) runs its work in. Its clock never moves.
final class ManualScheduler: Scheduler, @unchecked Sendable {  // `actions` is guarded by `lock`
    typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let lock = Lock()
    private var actions: [@Sendable () -> Void] = []

    var now: SchedulerTimeType { ImmediateScheduler.shared.now }
    var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// How many actions were scheduled and not run yet.
    var count: Int { lock.withLock { actions.count } }

    func schedule(options: Never?, _ action: @escaping @Sendable () -> Void) {
        lock.withLock { actions.append(action) }
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
                  _ action: @escaping @Sendable () -> Void) {
        lock.withLock { actions.append(action) }
    }

    /// Keeps `action` to run once (the test decides whether it "repeats").
    func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
                  tolerance: SchedulerTimeType.Stride, options: Never?,
                  _ action: @escaping @Sendable () -> Void) -> Cancellable {
        lock.withLock { actions.append(action) }
        return Subscriptions.empty
    }

    /// Runs the actions scheduled so far, the one scheduled `order[0]`-th first, and so on;
    /// actions scheduled meanwhile are kept for the next call.
    func run(inOrder order: [Int]) {
        let taken = lock.withLock { () -> [@Sendable () -> Void] in
            defer { actions = [] }
            return actions
        }
        precondition(order.sorted() == Array(taken.indices), "order \(order) for \(taken.count) actions")
        for index in order { taken[index]() }
    }

    /// Runs the actions scheduled so far, last scheduled first.
    func runAllInReverse() {
        run(inOrder: Array((0..<count).reversed()))
    }
}
