import Streams
import StreamsTesting
import Testing

@Suite("collect(), collect(_:)")
struct CollectTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-3-|", { $0.collect().map { $0.joined() } }, "-------['123'|]")
        assertMarbles("---|", { $0.collect().map(\.count) }, "---[0|]")
        assertMarbles("-1-2-^", { $0.collect() }, "-----^")
        assertMarbles([1, 2, 3, 4].publisher.collect().map(\.count), "[4|]")

        assertMarbles("-1-2-3-4-5-|", { $0.collect(2).map { $0.joined() } }, "---'12'---'34'---['5'|]")
        assertMarbles("-1-2-|", { $0.collect(2).map { $0.joined() } }, "---'12'-|")
        assertMarbles("-1-2-3-^", { $0.collect(2).map { $0.joined() } }, "---'12'---^")
        assertMarbles("-1-2-3-|", { $0.collect(1).map { $0.joined() } }, "-1-2-3-|")
        assertMarbles((1...5).publisher.collect(2).map(\.count), "[221|]")
    }

    @Test func docExampleOutputs() {
        #expect(values((1...4).publisher.collect()) == [[1, 2, 3, 4]])
        #expect(values((1...5).publisher.collect(2)) == [[1, 2], [3, 4], [5]])
    }

    // MARK: Demand

    @Test func collectWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect().subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value([1, 2]), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func collectAsksUpstreamForUnlimitedOnce() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(1))
        upstream.collect().subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func collectByCountMultipliesRequestsByTheCount() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(2))
        upstream.collect(3).subscribe(subscriber)
        subscriber.request(.max(1))
        subscriber.request(.unlimited)
        #expect(upstream.history == [.requested(.max(6)), .requested(.max(3)), .requested(.unlimited)])
    }

    @Test func collectByCountMultipliesReturnedDemandByTheCount() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(1), onValue: { _ in .max(2) })
        upstream.collect(3).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .max(6))
        #expect(subscriber.values == [[1, 2, 3]])
        #expect(upstream.history == [.requested(.max(3))])
    }

    @Test func collectByCountSendsOnlyWhatWasAskedFor_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
        upstream.collect(2).subscribe(subscriber)
        #expect(upstream.history == [])
        subscriber.request(.max(1))
        #expect(upstream.demand == .max(2))
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.demand == .none)
        #expect(subscriber.values == [[1, 2]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnoredByCollectButAViolationForCollectByCount_S9() {
        // As Combine: collect() accepts request(.none); collect(_:) traps.
        let collecting = RecordingSubscriber<[Int], Never>(demand: nil)
        TestPublisher<Int, Never>().collect().subscribe(collecting)
        let byCount = RecordingSubscriber<[Int], Never>(demand: nil)
        let upstream = TestPublisher<Int, Never>()
        upstream.collect(2).subscribe(byCount)

        let ignored = recordingAPIViolations { collecting.subscription?.request(.none) }
        #expect(ignored.isEmpty)
        let messages = recordingAPIViolations { byCount.subscription?.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { $0.contains("S9") })
        #expect(messages.last?.contains("CollectByCount") == true)
        #expect(upstream.history == [])
        #expect("\(collecting.subscription!)" == "Collect")
    }

    // MARK: Completion and failure

    @Test func collectOfAnEmptyUpstreamIsAnEmptyArray() {
        let subscriber = RecordingSubscriber<[Int], Never>()
        Empty<Int, Never>().collect().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value([]), .completion(.finished)])
    }

    @Test func collectFailureDropsTheValuesWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<[Int], Boom>(demand: nil)
        upstream.collect().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func collectByCountSendsTheShorterLastArrayOnFinish() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(2))
        upstream.collect(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [[1, 2]])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3]), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func collectByCountFinishesAtOnceWithNothingCollected() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(1))
        upstream.collect(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2]), .completion(.finished)])
    }

    @Test func collectByCountFailureDropsTheUnfinishedArray() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<[Int], Boom>(demand: .max(2))
        upstream.collect(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value([1, 2]), .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.max(4))])
    }

    @Test func collectByCountIgnoresWhatTheUpstreamSendsAfterItsCompletion_S4() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>()
        upstream.collect(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1]), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>()
        upstream.collect().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])

        let byCount = TestPublisher<Int, Never>()
        let byCountSubscriber = RecordingSubscriber<[Int], Never>(demand: .max(1))
        byCount.collect(2).subscribe(byCountSubscriber)
        byCountSubscriber.cancel()
        byCountSubscriber.cancel()
        byCountSubscriber.request(.max(1))
        #expect(byCount.history == [.requested(.max(2)), .cancelled])
    }

    @Test func neverDeliversAfterCancelEvenWhenTheUpstreamGoesOn_S6() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<[Int], Never>()
        upstream.collect().subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        let byCount = UnstoppablePublisher<Int, Never>()
        let byCountSubscriber = RecordingSubscriber<[Int], Never>()
        byCount.collect(2).subscribe(byCountSubscriber)
        byCount.send(1)
        byCountSubscriber.cancel()
        byCount.send(2)
        byCount.send(3)
        byCount.send(completion: .finished)
        #expect(byCountSubscriber.events == [.subscription])
        #expect(byCountSubscriber.violations.isEmpty)
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<[Int], Never>?
        weak var weakByCount: RecordingSubscriber<[Int], Never>?
        let upstream = TestPublisher<Int, Never>()
        var subscriptions: [Subscription] = []
        do {
            let subscriber = RecordingSubscriber<[Int], Never>()
            let byCount = RecordingSubscriber<[Int], Never>()
            weakSubscriber = subscriber
            weakByCount = byCount
            upstream.collect().subscribe(subscriber)
            upstream.collect(2).subscribe(byCount)
            subscriptions = [subscriber.subscription!, byCount.subscription!]
            upstream.send(1)
            subscriber.cancel()
            byCount.cancel()
            subscriber.releaseSubscription()
            byCount.releaseSubscription()
        }
        // The subscriptions are still alive, but no longer hold their subscribers.
        #expect(subscriptions.count == 2)
        #expect(weakSubscriber == nil)
        #expect(weakByCount == nil)
    }

    @Test func cancelReleasesAWaitingArray_S7() {
        final class Item {}
        weak var weakItem: Item?
        let upstream = TestPublisher<Item, Never>()
        let subscriber = RecordingSubscriber<[Item], Never>(demand: nil)
        upstream.collect().subscribe(subscriber)
        do {
            let item = Item()
            weakItem = item
            upstream.send(item)
        }
        upstream.send(completion: .finished)
        #expect(weakItem != nil)
        subscriber.cancel()
        #expect(weakItem == nil)
    }

    // MARK: Reentrancy

    @Test func cancelInsideReceiveOfTheLastArrayStopsTheCompletion_S6() {
        let collecting = subscribeCancellingAtFirstValue([1, 2, 3].publisher.collect())
        #expect(collecting.events == [.subscription, .value([1, 2, 3])])
        let shorter = subscribeCancellingAtFirstValue([1, 2, 3].publisher.collect(5))
        #expect(shorter.events == [.subscription, .value([1, 2, 3])])
    }

    @Test func requestFromInsideReceiveIsBounded_S8() {
        let subscriber = subscribeRequestingFromInside((0..<100_000).publisher.collect(2))
        #expect(subscriber.values.count == 50_000)
        #expect(subscriber.values.last == [99_998, 99_999])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.collect() }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.collect(2) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkReducingContract { AnyPublisher((0..<300).publisher).collect() }
        checkReducingContract { Empty<Int, Never>().collect() }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.collect() }

        checkContract { (0..<300).publisher.collect(7) }
        checkContract { (0..<300).publisher.collect(1) }
        checkContract { (0..<300).publisher.collect(300) }
        checkContract { (0..<300).publisher.collect(1_000) }
        checkContract { (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.collect(7) }
    }

    // MARK: Combine compatibility

    @Test func equatableWhenTheUpstreamIs() {
        #expect([1, 2].publisher.collect() == [1, 2].publisher.collect())
        #expect([1, 2].publisher.collect() != [1, 3].publisher.collect())
        #expect([1, 2].publisher.collect(2) == [1, 2].publisher.collect(2))
        #expect([1, 2].publisher.collect(2) != [1, 2].publisher.collect(3))
    }
}
