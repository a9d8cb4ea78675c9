import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("collect(_:options:), CollectByTime")
struct CollectByTimeTests {
    struct Boom: Error, Equatable {}
    typealias Time = DispatchQueue.SchedulerTimeType

    // MARK: Marbles

    @Test func marblesByTime() {
        let scheduler = DispatchQueue.test
        assertMarbles("-1-2-3----4|", on: scheduler, {
            $0.collect(.byTime(scheduler, .seconds(3))).map { $0.joined() }
        }, "---'12'--3----[4|]")
    }

    @Test func marblesByTimeOrCount() {
        let scheduler = DispatchQueue.test
        // Full at tick 2: sent then, and the next window starts then (it closes at tick 5).
        assertMarbles("-123-----4|", on: scheduler, {
            $0.collect(.byTimeOrCount(scheduler, .seconds(3), 2)).map { $0.joined() }
        }, "--'12'--3----[4|]")
        // Two full windows in one tick; the window restarted then closes three ticks later.
        assertMarbles("-[12345]---|", on: scheduler, {
            $0.collect(.byTimeOrCount(scheduler, .seconds(3), 2)).map { $0.joined() }
        }, "-['12''34']--5|")
    }

    @Test func marblesEmptyWindowsSendNothing() {
        let scheduler = DispatchQueue.test
        assertMarbles("----------|", on: scheduler, {
            $0.collect(.byTime(scheduler, .seconds(2))).map { $0.joined() }
        }, "----------|")
        assertMarbles("-1--------|", on: scheduler, {
            $0.collect(.byTime(scheduler, .seconds(2))).map { $0.joined() }
        }, "--1-------|")
    }

    @Test func marblesFailure() {
        let scheduler = DispatchQueue.test
        assertMarbles("-1-2-^", on: scheduler, {
            $0.collect(.byTime(scheduler, .seconds(3))).map { $0.joined() }
        }, "---'12'-^")
        // The values of the open window are dropped.
        assertMarbles("-1-^", on: scheduler, {
            $0.collect(.byTime(scheduler, .seconds(10))).map { $0.joined() }
        }, "---^")
    }

    @Test func marblesSynchronousUpstream() {
        let scheduler = DispatchQueue.test
        assertMarbles(on: scheduler, [1, 2, 3].publisher.collect(.byTime(scheduler, .seconds(5)))
            .map { $0.map(String.init).joined() }, "['123'|]")
        assertMarbles(on: scheduler, (1...5).publisher.collect(.byTimeOrCount(scheduler, .seconds(5), 2))
            .map { $0.map(String.init).joined() }, "['12''34'5|]")
    }

    @Test func docExample() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let printed = LockedLog()
        let c = subject.collect(.byTime(scheduler, .seconds(1))).sink { printed.append("\($0)") }
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        subject.send(3)
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(printed.entries == ["[1, 2]", "[3]"])
        c.cancel()
    }

    @Test func thePropertiesAreKept() {
        let scheduler = DispatchQueue.test
        let publisher = Just(1).collect(.byTimeOrCount(scheduler, .seconds(2), 7))
        guard case .byTimeOrCount(_, let interval, let count) = publisher.strategy else {
            Issue.record("expected .byTimeOrCount")
            return
        }
        #expect(interval == .seconds(2))
        #expect(count == 7)
        #expect(publisher.options == nil)
        #expect(publisher.upstream == Just(1))
    }

    // MARK: Demand

    @Test func asksTheUpstreamForUnlimited() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(1))
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        upstream.send(1)
        subscriber.request(.max(3))
        subscriber.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func aWindowThatClosesWithoutDemandWaitsForIt_S1() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        upstream.send(3)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values.isEmpty)  // delivered on the scheduler (S13)
        scheduler.advance()
        #expect(subscriber.values == [[1]])
        subscriber.request(.max(5))
        scheduler.advance()
        #expect(subscriber.values == [[1], [2]])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1], [2], [3]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aFullWindowWithoutDemandWaitsAndTheNextOneStarts() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect(.byTimeOrCount(scheduler, .seconds(10), 2)).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        scheduler.advance()
        #expect(subscriber.values == [[1, 2]])
        subscriber.request(.unlimited)
        scheduler.advance()
        #expect(subscriber.values == [[1, 2], [3, 4]])
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [[1, 2], [3, 4], [5]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveCounts() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(1), onValue: { _ in .max(1) })
        upstream.collect(.byTimeOrCount(scheduler, .seconds(10), 1)).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        scheduler.advance()
        #expect(subscriber.values == [[1], [2], [3], [4]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(!upstream.history.contains(.requested(.none)))
        #expect(subscriber.events.count == 1)  // just the subscription
        _ = upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
    }

    // MARK: Completion and failure

    @Test func finishedComesAfterTheWaitingArraysAndTheLastOne() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events.count == 1)  // the subscription only: nothing was asked for
        #expect(scheduler.pendingCount == 0)   // no more windows
        subscriber.request(.max(1))
        scheduler.advance()
        #expect(subscriber.values == [[1]])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        scheduler.advance()
        #expect(subscriber.values == [[1], [2]])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishingWithNothingCollectedSendsOnlyFinished() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
    }

    @Test func aFailureGoesDownWithoutDemandAndDropsTheCollectedValues() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<[Int], Boom>(demand: nil)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        upstream.send(completion: .failure(Boom()))
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(Boom()))
        #expect(scheduler.pendingCount == 0)
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelStopsTheUpstreamAndTheWindows() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        #expect(scheduler.pendingCount == 1)
        subscriber.cancel()
        subscriber.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        subscriber.request(.max(5))
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
    }

    @Test func cancelDuringAPendingDeliveryDeliversNothing() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>()
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        subscriber.cancel()
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
    }

    @Test func cancelReleasesTheDownstreamAndTheValues_S7() {
        final class Value {}
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Value, Never>()
        weak var weakValue: Value?
        weak var weakSubscriber: RecordingSubscriber<[Value], Never>?
        do {
            let subscriber = RecordingSubscriber<[Value], Never>(demand: nil)
            weakSubscriber = subscriber
            upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
            let value = Value()
            weakValue = value
            upstream.send(value)
            scheduler.advance(by: .seconds(1))
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakValue == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func completionReleasesTheDownstream_S7() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<[Int], Never>?
        do {
            let subscriber = RecordingSubscriber<[Int], Never>()
            weakSubscriber = subscriber
            upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: .finished)
            scheduler.advance()
            #expect(subscriber.values == [[1]])
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<[Int], Never>? }
        let scheduler = DispatchQueue.test
        let box = Box()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<1_000).publisher.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(subscriber)
        scheduler.advance()
        box.subscriber = nil
        #expect(subscriber.values.count == 1_000)
        #expect(subscriber.values.last == [999])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelFromInsideReceive() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<[Int], Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<[Int], Never>(onValue: { _ in
            box.subscriber?.cancel()
            return .none
        })
        box.subscriber = subscriber
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        scheduler.advance()
        box.subscriber = nil
        #expect(subscriber.values == [[1]])
        #expect(upstream.isCancelled)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (CollectByTime)", as in Combine.
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        TestPublisher<Int, Never>().collect(.byTime(DispatchQueue.test, .seconds(1))).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "CollectByTime")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's collect(.byTime) and collect(.byTimeOrCount) ignore what their upstream
        // sends before the subscription or after its end, and cancel a second subscription.
        let scheduler = DispatchQueue.test
        checkIgnoresMisbehavingUpstream({ $0.collect(.byTime(scheduler, .seconds(1))) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance(by: .seconds(5)) })
        checkIgnoresMisbehavingUpstream({ $0.collect(.byTimeOrCount(scheduler, .seconds(1), 2)) },
                                        value: 1, failure: Boom(), settle: { scheduler.advance(by: .seconds(5)) })
    }

    // MARK: Contract

    @Test func contractOnVirtualTime() {
        // The contract checker needs synchronous delivery; on virtual time the same rules are
        // watched by recording subscribers with different demand.
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscribers = [nil, Subscribers.Demand.max(1), .max(3), .unlimited].map {
            RecordingSubscriber<[Int], Never>(demand: $0)
        }
        for subscriber in subscribers {
            upstream.collect(.byTimeOrCount(scheduler, .seconds(2), 3)).subscribe(subscriber)
        }
        for value in 1...20 {
            upstream.send(value)
            scheduler.advance(by: .milliseconds(500))
        }
        upstream.send(completion: .finished)
        scheduler.advance()
        #expect(subscribers.map(\.values.count) == [0, 1, 3, 7])
        #expect(subscribers[3].values.flatMap { $0 } == Array(1...20))
        #expect(subscribers[3].completion == .finished)
        for subscriber in subscribers { #expect(subscriber.violations.isEmpty) }
    }
}
