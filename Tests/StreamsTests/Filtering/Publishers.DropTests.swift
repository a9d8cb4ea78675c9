import Streams
import StreamsTesting
import Testing

@Suite("dropFirst")
struct DropTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-c-|", { $0.dropFirst() }, "---b-c-|")
        assertMarbles("-a-b-c-|", { $0.dropFirst(0) }, "-a-b-c-|")
        assertMarbles("-a-b-|", { $0.dropFirst(5) }, "-----|")
        assertMarbles("-a-^", { $0.dropFirst(2) }, "---^")
        assertMarbles("-a-b-c-^", { $0.dropFirst(1) }, "---b-c-^")
        // Through a general publisher (not a Sequence, which fuses: see SequenceFusionTests).
        assertMarbles(AnyPublisher([1, 2, 3, 4].publisher).dropFirst(2), "[34|]")
    }

    @Test func docExampleOutputs() {
        let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        #expect(values(AnyPublisher(numbers.publisher).dropFirst(5)) == [6, 7, 8, 9, 10])
    }

    // MARK: Demand

    /// As Combine: the values to drop are asked for up front, with the subscriber's first request,
    /// in one request; a dropped value returns no demand.
    @Test func valuesToDropAreAskedForUpFront() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.dropFirst(2).subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(3))])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(upstream.demand == .none)
        #expect(subscriber.values == [3])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func valuesToDropAreAskedForEvenWithoutARequest() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.dropFirst(3).subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(3))])
        let none = TestPublisher<Int, Never>()
        none.dropFirst(0).subscribe(RecordingSubscriber<Int, Never>(demand: nil))
        #expect(none.history == [])
    }

    /// Combine delivers 3 here: the current value 6 is dropped with the up-front demand, and the
    /// value sent afterwards waits in the subject for the first request.
    @Test func currentValueSubjectDeliversTheValueAfterTheDroppedOne() {
        let subject = CurrentValueSubject<Int, Never>(6)
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        subject.dropFirst(1).subscribe(subscriber)
        subject.send(3)
        subscriber.request(.max(1))
        #expect(subscriber.values == [3])
    }

    // MARK: Order of events (as Combine)

    /// As Combine: the subscriber gets its subscription before the upstream is subscribed.
    @Test func theSubscriberGetsItsSubscriptionBeforeTheUpstreamIsSubscribed() {
        let log = LockedLog()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onSubscription: { _ in
            log.append("subscription: \(upstream.subscriptions.count) upstream subscriptions")
        })
        Deferred { log.append("upstream"); return upstream }.dropFirst(2).subscribe(subscriber)
        #expect(log.entries == ["subscription: 0 upstream subscriptions", "upstream"])
        #expect(upstream.history == [.requested(.max(3))])
    }

    /// As Combine: what the subscriber asks for before a late upstream subscription arrives is
    /// asked for then, in one request with the values to drop.
    @Test func demandAskedBeforeALateUpstreamSubscriptionIsAskedForWithTheValuesToDrop() {
        let upstream = LateSubscriptionPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(10))
        upstream.dropFirst(4).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        upstream.sendSubscriptions()
        #expect(upstream.history == [.requested(.max(16))])
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(16)), .requested(.max(1))])
        for value in 1...5 { upstream.send(value) }
        #expect(subscriber.values == [5])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aCancelBeforeALateUpstreamSubscriptionCancelsItWhenItArrives_S6() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = LateSubscriptionPublisher<Int, Never>()
        do {
            let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakSubscriber = subscriber
            upstream.dropFirst(1).subscribe(subscriber)
            subscriber.cancel()
            subscriber.request(.max(1))
            subscriber.releaseSubscription()
            upstream.sendSubscriptions()
            #expect(upstream.history == [.cancelled])
            upstream.send(1)
            upstream.send(2)
            #expect(subscriber.events == [.subscription])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func aCancelInsideReceiveSubscriptionStillSubscribesTheUpstreamAndCancelsIt() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onSubscription: { $0.cancel() })
        upstream.dropFirst(1).subscribe(subscriber)
        #expect(upstream.history == [.cancelled])
        #expect(subscriber.events == [.subscription])
    }

    @Test func laterDemandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(3) })
        upstream.dropFirst(1).subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.send(2) == .max(3))
        subscriber.request(.max(4))
        #expect(upstream.history == [.requested(.max(3)), .requested(.max(4))])
    }

    // MARK: Its own subscription

    @Test func subscriptionIsCombinesDrop() {
        checkOwnSubscription(named: "Drop", requestingNone: .isViolation) { $0.dropFirst(2) }
    }

    @Test func requestingNoneIsAViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().dropFirst().subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
        #expect(messages.first?.contains("Drop") == true)
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.dropFirst(1) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.dropFirst(0) }, value: 1, failure: Boom())
    }

    // MARK: Completion and failure

    @Test func completionWhileStillDroppingPassesThrough() {
        let finished = RecordingSubscriber<Int, Boom>()
        let upstream = TestPublisher<Int, Boom>()
        upstream.dropFirst(3).subscribe(finished)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(finished.events == [.subscription, .completion(.finished)])

        let failed = RecordingSubscriber<Int, Boom>()
        Fail<Int, Boom>(error: Boom()).dropFirst().subscribe(failed)
        #expect(failed.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func eachSubscriptionDropsAgain() {
        let publisher = AnyPublisher([1, 2, 3].publisher).dropFirst()
        #expect(values(publisher) == [2, 3])
        #expect(values(publisher) == [2, 3])
    }

    @Test func negativeCountStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPublisher<Int, Never>().dropFirst(-1)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("dropFirst(-1): the number of values to drop must not be negative"))
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.dropFirst().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(2)), .cancelled])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.dropFirst().sink { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.dropFirst().sink { _ in _ = captured }
        }
        upstream.send(completion: .finished)
        #expect(weakCaptured == nil)
        _ = cancellable
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
        AnyPublisher((0..<10_000).publisher).dropFirst(5_000).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(5_000..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        // Combine traps on `request(.none)` to dropFirst: a violation (S9).
        checkContract { Publishers.Drop(upstream: (0..<300).publisher, count: 100) }
        checkContract { Publishers.Drop(upstream: (0..<300).publisher, count: 0) }
        checkContract { Publishers.Drop(upstream: (0..<300).publisher, count: 500) }
        checkContract {
            Publishers.Drop(upstream: (0..<300).publisher.tryMap { n -> Int in
                if n == 200 { throw Boom() }
                return n
            }, count: 100)
        }
        checkContract { Just(1).dropFirst() }
    }
}
