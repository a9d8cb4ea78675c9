import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("receive(on:)")
struct ReceiveOnTests {
    struct Boom: Error, Equatable {}
    final class Token: Sendable {}

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a-b-|", on: scheduler, { $0.receive(on: scheduler) }, "-a-b-|")
        assertMarbles("-a-b-^", on: scheduler, { $0.receive(on: scheduler) }, "-a-b-^")
        assertMarbles("-[ab]-c-[d|]", on: scheduler, { $0.receive(on: scheduler) }, "-[ab]-c-[d|]")
        assertMarbles(on: scheduler, [1, 2, 3].publisher.receive(on: scheduler), "[123|]")
    }

    @Test func deliversOnlyWhenItsOwnSchedulerRuns_S13() {
        let clock = DispatchQueue.test
        let delivering = DispatchQueue.test
        let log = LockedLog()
        let upstream = TestPublisher<String, Never>()
        let cancellable = upstream.receive(on: delivering).sink(receiveCompletion: { _ in log.append("|") },
                                                                 receiveValue: { log.append($0) })
        clock.schedule { upstream.send("a") }
        clock.schedule(after: clock.now.advanced(by: .seconds(1))) {
            upstream.send("b")
            upstream.send(completion: .finished)
        }
        clock.advance(by: .seconds(5))
        #expect(log.entries == [])
        #expect(delivering.pendingCount == 1)  // one delivery pass for all three events
        delivering.advance()
        #expect(log.entries == ["a", "b", "|"])
        _ = cancellable
    }

    @Test func docExampleOutputs() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>()
        [1, 2, 3].publisher.receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [])  // not before the scheduler runs
        scheduler.advance()
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        #expect(values([1, 2, 3].publisher.receive(on: ImmediateScheduler.shared)) == [1, 2, 3])
    }

    @Test func subscriptionIsHandedOverAtOnceNotOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Just(1).receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.isSubscribed)
        #expect(scheduler.pendingCount == 0)
    }

    // MARK: Demand

    @Test func requestsGoStraightToTheUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(2))])
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func demandReturnedFromReceiveIsRequestedOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { $0 == 1 ? .max(2) : .none })
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)  // the operator returns nothing itself
        #expect(upstream.history == [.requested(.max(1))])
        scheduler.advance()
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(2))])
        upstream.send(2)
        scheduler.advance()
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(2))])
        #expect(subscriber.values == [1, 2])
    }

    @Test func neverDeliversMoreThanDemanded_S1() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        (0..<10).publisher.receive(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.values == [0, 1])
        subscriber.request(.max(1))
        scheduler.advance()
        #expect(subscriber.values == [0, 1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.receive(on: scheduler).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        scheduler.advance()
        #expect(upstream.history == [])
    }

    // MARK: Completion and failure

    @Test func completionComesAfterTheLastValue() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(Boom()))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func completesWithoutDemand_S5() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        Fail<Int, Boom>(error: Boom()).receive(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.completion == .failure(Boom()))
        let finished = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().receive(on: scheduler).subscribe(finished)
        scheduler.advance()
        #expect(finished.completion == .finished)
    }

    @Test func ignoresWhatTheUpstreamSendsAfterItsCompletion_S4() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
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
        upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(upstream.first.log.entries == ["request(unlimited)"])
        #expect(upstream.second.log.entries == ["cancel"])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelDropsQueuedEvents_S6() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        scheduler.advance()
        #expect(subscriber.events == [.subscription])
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelDropsAQueuedCompletion_S6() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<Int, Never>()
        [1, 2].publisher.receive(on: scheduler).subscribe(subscriber)
        subscriber.cancel()
        scheduler.advance()
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelInsideReceiveStopsTheRestOfTheQueue_S6() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let slot = RecorderSlot<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { _ in
            slot.recorder?.cancel()
            return .max(5)  // returned after cancel: must not reach the upstream
        })
        slot.recorder = subscriber
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        scheduler.advance()
        slot.recorder = nil
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheDownstreamAndTheQueuedValues_S7() {
        weak var weakQueued: Token?
        weak var weakCaptured: Token?
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Token, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Token()
            weakCaptured = captured
            cancellable = upstream.receive(on: scheduler).sink { _ in _ = captured }
            let queued = Token()
            weakQueued = queued
            upstream.send(queued)
        }
        #expect(weakQueued != nil)
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakQueued == nil)    // without the scheduler having run
        #expect(weakCaptured == nil)
        scheduler.advance()
        _ = cancellable
    }

    @Test func completionReleasesTheDownstream_S7() {
        weak var weakCaptured: Token?
        let scheduler = DispatchQueue.test
        var cancellable: AnyCancellable?
        do {
            let captured = Token()
            weakCaptured = captured
            cancellable = [1, 2].publisher.receive(on: scheduler).sink { _ in _ = captured }
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
        (0..<10_000).publisher.receive(on: scheduler).subscribe(subscriber)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        slot.recorder = nil
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSynchronousSchedulerDeliversEachValueAsItComes() {
        // With `ImmediateScheduler` values reach the downstream as the upstream sends them, also
        // inside the first request: the upstream is not drained into the queue first.
        let produced = Atomic<Int>(0)
        let subscriber = subscribeCancellingAtFirstValue(
            (0..<100_000).publisher
                .handleEvents(receiveOutput: { _ in produced.add(1, ordering: .relaxed) })
                .receive(on: ImmediateScheduler.shared))
        #expect(subscriber.values == [0])
        #expect(produced.load(ordering: .relaxed) == 1)
    }

    @Test func aBusyUpstreamIsDeliveredInPassesOfAtMost64() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        for value in 0..<100 { upstream.send(value) }
        // Work queued on the scheduler meanwhile runs between two passes.
        let seenByOtherWork = LockedLog()
        scheduler.schedule { seenByOtherWork.append("\(subscriber.values.count)") }
        scheduler.advance()
        #expect(seenByOtherWork.entries == ["64"])
        #expect(subscriber.values == Array(0..<100))
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (ReceiveOn)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().receive(on: DispatchQueue.test).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "ReceiveOn")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's receive(on:) ignores what its upstream sends before the subscription or
        // after its end, and cancels a second subscription.
        let scheduler = DispatchQueue.test
        checkIgnoresMisbehavingUpstream({ $0.receive(on: scheduler) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance() })
        checkIgnoresMisbehavingUpstream({ $0.receive(on: ImmediateScheduler.shared) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.receive(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({ Just(1).receive(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({ Empty<Int, Never>().receive(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).receive(on: ImmediateScheduler.shared) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 * 2 }.receive(on: ImmediateScheduler.shared).map { $0 + 1 } }, requestingNone: .isIgnored)
        checkContract({
            (0..<300).publisher.tryMap { n -> Int in
                if n == 150 { throw Boom() }
                return n
            }.receive(on: ImmediateScheduler.shared)
        }, requestingNone: .isIgnored)
    }
}

/// A misbehaving upstream for tests: it hands its subscriber two subscriptions, each logging what
/// is asked of it (S2).
final class TwoSubscriptionsPublisher: Publisher, @unchecked Sendable {  // used from one thread
    typealias Output = Int
    typealias Failure = Never

    final class LoggingSubscription: Subscription {
        let log = LockedLog()
        func request(_ demand: Subscribers.Demand) { log.append("request(\(demand))") }
        func cancel() { log.append("cancel") }
    }

    let first = LoggingSubscription()
    let second = LoggingSubscription()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
    }
}
