import Streams
import StreamsTesting
import Testing

@Suite("last, last(where:), tryLast(where:)")
struct LastTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("---|", { $0.last() }, "---|")
        assertMarbles("-1-2-^", { $0.last() }, "-----^")
        assertMarbles("-5-6-|", { $0.last { Int($0)! < 3 } }, "-----|")
        assertMarbles((1...5).publisher.last(), "[5|]")
    }

    @Test func docExampleOutputs() {
        #expect(values((1...5).publisher.last()) == [5])
        #expect(values((1...9).publisher.last { $0.isMultiple(of: 4) }) == [8])

        struct Negative: Error {}
        let subscriber = RecordingSubscriber<Int, any Error>()
        [1, 2, -3, 4].publisher
            .tryLast { n in
                guard n >= 0 else { throw Negative() }
                return n.isMultiple(of: 2)
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) is Negative)
    }

    // MARK: Demand

    @Test func lastWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.last().subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func lastWhereWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: nil)
        upstream.tryLast { $0 < 2 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events.count == 1)

        subscriber.request(.max(3))
        #expect(subscriber.values == [1])
        #expect(subscriber.events.count == 3)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts request(.none) here and does nothing.
        let upstream = TestPublisher<Int, Never>()
        let last = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.last().subscribe(last)
        let lastWhere = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().last { $0 > 1 }.subscribe(lastWhere)
        let tryLastWhere = RecordingSubscriber<Int, any Error>(demand: nil)
        TestPublisher<Int, Never>().tryLast { $0 > 1 }.subscribe(tryLastWhere)
        let messages = recordingAPIViolations {
            last.subscription?.request(.none)
            lastWhere.subscription?.request(.none)
            tryLastWhere.subscription?.request(.none)
        }
        #expect(messages.isEmpty)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(last.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(["\(last.subscription!)", "\(lastWhere.subscription!)", "\(tryLastWhere.subscription!)"]
            == ["Last", "LastWhere", "TryLastWhere"])
    }

    /// The reducing subscription keeps the promises of an operator's own subscription, as
    /// `first`'s does on the same engine: Combine's name, no mirror children, nothing passed up
    /// or down after a cancel or the completion (S6), and the subscriber let go (S7).
    @Test func subscriptionsKeepTheOwnSubscriptionPromises_S6_S7() {
        checkOwnSubscription(named: "Last") { $0.last() }
        checkOwnSubscription(named: "LastWhere") { $0.last { $0 > 1 } }
        checkOwnSubscription(named: "TryLastWhere") { $0.tryLast { $0 > 1 } }
    }

    // MARK: Completion and failure

    @Test func emptyUpstreamHoldsFinishedUntilARequest_S5() {
        // As Combine: even with no value to send, `.finished` waits for the first request.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().last().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])

        let upstream = TestPublisher<Int, Never>()
        let noMatch = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.last { $0 > 10 }.subscribe(noMatch)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(noMatch.events == [.subscription])
        noMatch.request(.unlimited)
        #expect(noMatch.events == [.subscription, .completion(.finished)])
        #expect(noMatch.violations.isEmpty)
    }

    @Test func failurePassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.last().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func tryLastPassesTheUpstreamFailureOn() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryLast { _ in true }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
    }

    @Test func tryLastThrowCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: nil)
        upstream.tryLast { n in
            if n < 0 { throw Boom() }
            return true
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(-1)
        upstream.send(2)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    @Test func ignoresWhatTheUpstreamSendsAfterItsCompletion_S4() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.last().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndNothingFollows_S6() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.last().subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        let tested = TestPublisher<Int, Never>()
        let other = RecordingSubscriber<Int, Never>()
        tested.last().subscribe(other)
        other.cancel()
        #expect(tested.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesThePredicates_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellables: [AnyCancellable] = []
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellables.append(upstream
                .last { n in withExtendedLifetime(captured) { n > 0 } }
                .sink { _ in })
            cancellables.append(upstream
                .tryLast { n in withExtendedLifetime(captured) { n > 0 } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in }))
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        cancellables.forEach { $0.cancel() }
        #expect(weakCaptured == nil)
    }

    @Test func cancelReleasesAWaitingValue_S7() {
        final class Item {}
        weak var weakItem: Item?
        let upstream = TestPublisher<Item, Never>()
        let subscriber = RecordingSubscriber<Item, Never>(demand: nil)
        upstream.last().subscribe(subscriber)
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

    @Test func cancelInsideReceiveOfTheValueStopsTheCompletion_S6() {
        let subscriber = subscribeCancellingAtFirstValue([1, 2].publisher.last())
        #expect(subscriber.events == [.subscription, .value(2)])
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.last() }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.last { $0 > 0 } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryLast { $0 > 0 } }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkReducingContract { AnyPublisher((0..<300).publisher).last() }
        checkReducingContract { AnyPublisher((0..<300).publisher).last { $0 < 150 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).last { $0 > 500 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryLast { $0.isMultiple(of: 7) } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryLast { n in
            if n == 150 { throw Boom() }
            return true
        } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.last() }
    }

    // MARK: Combine compatibility

    @Test func equatableWhenTheUpstreamIs() {
        #expect([1, 2].publisher.last() == [1, 2].publisher.last())
        #expect([1, 2].publisher.last() != [1, 3].publisher.last())
    }
}
