import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("measureInterval")
struct MeasureIntervalTests {
    struct Boom: Error, Equatable {}

    /// Whole seconds of a dispatch queue's stride, as text for a marble diagram.
    static func seconds(_ stride: DispatchQueue.SchedulerTimeType.Stride) -> String {
        String(stride.magnitude / 1_000_000_000)
    }

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        assertMarbles("[ab]--c^", on: scheduler,
                      { $0.measureInterval(using: scheduler).map(Self.seconds) }, "[00]--3^")
    }

    @Test func docExampleOutputs() {
        let scheduler = DispatchQueue.test
        let events = PassthroughSubject<Void, Never>()
        let subscriber = RecordingSubscriber<Double, Never>()
        events.measureInterval(using: scheduler).map { Double($0.magnitude) / 1e9 }.subscribe(subscriber)
        scheduler.advance(by: .seconds(2))
        events.send()
        scheduler.advance(by: .milliseconds(500))
        events.send()
        #expect(subscriber.values == [2.0, 0.5])
    }

    @Test func firstIntervalIsMeasuredFromTheSubscription() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let publisher = upstream.measureInterval(using: scheduler)
        scheduler.advance(by: .seconds(10))  // before subscribing: does not count
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Never>()
        publisher.subscribe(subscriber)
        scheduler.advance(by: .milliseconds(250))
        upstream.send(1)
        #expect(subscriber.values == [.milliseconds(250)])
    }

    @Test func schedulesNothingAndDeliversAtOnce_S13() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Never>()
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(.zero), .completion(.finished)])
        #expect(scheduler.pendingCount == 0)
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Never>(
            demand: .max(2), onValue: { _ in .max(1) })
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3)), .cancelled])
    }

    // MARK: Completion and failure

    @Test func completionAndFailurePassThrough() {
        let scheduler = DispatchQueue.test
        assertMarbles("--|", on: scheduler, { $0.measureInterval(using: scheduler).map(Self.seconds) }, "--|")
        assertMarbles("-a^", on: scheduler, { $0.measureInterval(using: scheduler).map(Self.seconds) }, "-1^")
        let failed = RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Boom>()
        Fail<Int, Boom>(error: Boom()).measureInterval(using: scheduler).subscribe(failed)
        #expect(failed.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func aSecondSubscriptionIsCancelled_S2() {
        final class Flag: Subscription, @unchecked Sendable {  // `cancelled` is set on the test's thread only
            var cancelled = false
            func request(_ demand: Subscribers.Demand) {}
            func cancel() { cancelled = true }
        }
        struct TwoSubscriptions: Publisher {
            typealias Output = Int
            typealias Failure = Never
            let first: Flag, second: Flag
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: first)
                subscriber.receive(subscription: second)
            }
        }
        let first = Flag(), second = Flag()
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Never>()
        TwoSubscriptions(first: first, second: second).measureInterval(using: DispatchQueue.test).subscribe(subscriber)
        #expect(!first.cancelled)
        #expect(second.cancelled)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelReachesTheUpstreamAndReleasesTheSubscriber_S7() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Never>?
        do {
            let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType.Stride, Never>()
            weakSubscriber = subscriber
            upstream.measureInterval(using: scheduler).subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(weakSubscriber == nil)
    }

    // MARK: Its own subscription

    @Test func subscriptionIsCombinesMeasureInterval() {
        checkOwnSubscription(named: "MeasureInterval") { $0.measureInterval(using: ImmediateScheduler.shared) }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.measureInterval(using: ImmediateScheduler.shared) },
                                        value: 1, failure: Boom())
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        let subscriber = subscribeRequestingFromInside(
            (0..<10_000).publisher.measureInterval(using: DispatchQueue.test))
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        // `measureInterval` is synchronous whatever the scheduler (it only reads its clock) and
        // hands the Sequence's subscription straight down, so `.none` is ignored as there.
        checkContract({ (0..<300).publisher.measureInterval(using: ImmediateScheduler.shared) },
                      requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.measureInterval(using: DispatchQueue.test) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.measureInterval(using: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        // The subscriber holds the operator's own subscription, not Just's: `.none` is ignored.
        checkContract({ Just(1).measureInterval(using: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
    }
}
