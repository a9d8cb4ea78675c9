import Streams
import StreamsTesting
import Testing

@Suite("filter, tryFilter")
struct FilterTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-^", { $0.filter { $0 != "1" } }, "---2-^")
        assertMarbles("-1-2-x-4-|", { $0.tryFilter { s in
            if s == "x" { throw Boom() }
            return s != "1"
        } }, "---2-[;^]")
        assertMarbles((1...6).publisher.filter { $0 % 3 == 0 }, "[36|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2, 3, 4].publisher.filter { $0.isMultiple(of: 2) }) == [2, 4])
        let subscriber = RecordingSubscriber<Int, any Error>()
        [1, 2, -1, 4].publisher.tryFilter { n in
            if n < 0 { throw Boom() }
            return n.isMultiple(of: 2)
        }.subscribe(subscriber)
        #expect(subscriber.values == [2])
        #expect(subscriber.completion.map { if case .failure = $0 { true } else { false } } == true)
    }

    // MARK: Demand

    @Test func droppedValueGivesBackOneDemand() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.filter { $0 > 0 }.subscribe(subscriber)
        #expect(upstream.send(0) == .max(1))
        #expect(upstream.send(1) == .none)
        #expect(upstream.history == [.requested(.max(2))])
        #expect(subscriber.values == [1])
    }

    @Test func tryFilterDroppedValueGivesBackOneDemand() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(1))
        upstream.tryFilter { $0 > 0 }.subscribe(subscriber)
        #expect(upstream.send(0) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(subscriber.values == [3])
    }

    // MARK: Completion and failure

    @Test func failurePassesThrough() {
        let subscriber = RecordingSubscriber<Int, Boom>()
        Fail<Int, Boom>(error: Boom()).filter { _ in true }.subscribe(subscriber)
        #expect(subscriber.completion == .failure(Boom()))
    }

    @Test func tryFilterThrowCancelsUpstream_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryFilter { n in
            if n == 2 { throw Boom() }
            return true
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [1])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelReleasesThePredicate_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.filter { _ in withExtendedLifetime(captured) { true } }
                .tryFilter { _ in withExtendedLifetime(captured) { true } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
    }

    // MARK: Its own subscription

    /// As in Combine, `filter` hands the subscriber the upstream's own subscription, and
    /// `tryFilter` a subscription of its own.
    @Test func filterPassesTheUpstreamSubscriptionAndTryFilterHasItsOwn() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().filter { _ in true }.subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "TestSubscription")
        checkOwnSubscription(named: "TryFilter") { $0.tryFilter { $0 > 0 } }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.tryFilter { $0 > 0 } }, value: 1, failure: Boom())
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
        (0..<20_000).publisher.filter { $0.isMultiple(of: 2) }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.filter { $0 % 3 == 0 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.filter { $0 % 3 == 0 }.filter { $0 % 2 == 0 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryFilter { $0 % 3 == 0 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryFilter { n in
            if n == 200 { throw Boom() }
            return n % 3 == 0
        } }, requestingNone: .isIgnored)
    }

    // MARK: Fusion

    @Test func filterAfterFilterFuses() {
        let fused: Publishers.Filter<Publishers.Sequence<ClosedRange<Int>, Never>> =
            (1...12).publisher.filter { $0 % 2 == 0 }.filter { $0 % 3 == 0 }
        #expect(values(fused) == [6, 12])
        let tryFused: Publishers.TryFilter<Publishers.Sequence<ClosedRange<Int>, Never>> =
            (1...12).publisher.filter { $0 % 2 == 0 }.tryFilter { $0 % 3 == 0 }.filter { $0 > 6 }.tryFilter { _ in true }
        #expect(values(tryFused) == [12])
    }
}
