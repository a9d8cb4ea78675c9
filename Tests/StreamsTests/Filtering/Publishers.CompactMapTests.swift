import Streams
import StreamsTesting
import Testing

@Suite("compactMap, tryCompactMap")
struct CompactMapTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-x-3-|", { $0.compactMap { Int($0) } }, "-1---3-|")
        assertMarbles("-1-x-e-3-|", { $0.tryCompactMap { s -> Int? in
            if s == "e" { throw Boom() }
            return Int(s)
        } }, "-1---[;^]")
        assertMarbles(["1", "x", "3"].publisher.compactMap { Int($0) }, "[13|]")
    }

    @Test func docExampleOutputs() {
        #expect(values(["1", "x", "3"].publisher.compactMap { Int($0) }) == [1, 3])
    }

    // MARK: Demand

    @Test func nilResultGivesBackOneDemand() {
        let upstream = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.compactMap { Int($0) }.subscribe(subscriber)
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("5") == .none)
        #expect(upstream.history == [.requested(.max(1))])
        #expect(subscriber.values == [5])
    }

    // MARK: Completion and failure

    @Test func tryCompactMapThrowCancelsUpstream_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryCompactMap { n -> Int? in
            if n < 0 { throw Boom() }
            return n
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(-1)
        upstream.send(2)
        #expect(subscriber.values == [1])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func upstreamFailurePassesThrough() {
        let subscriber = RecordingSubscriber<Int, Boom>()
        Fail<String, Boom>(error: Boom()).compactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.completion == .failure(Boom()))
    }

    // MARK: Cancellation

    @Test func cancelReleasesTheTransform_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.compactMap { n in withExtendedLifetime(captured) { n } }.sink { _ in }
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
    }

    // MARK: Its own subscription

    /// As in Combine, `compactMap` hands the subscriber the upstream's own subscription, and
    /// `tryCompactMap` a subscription of its own.
    @Test func compactMapPassesTheUpstreamSubscriptionAndTryCompactMapHasItsOwn() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().compactMap { $0 }.subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "TestSubscription")
        checkOwnSubscription(named: "TryCompactMap") { $0.tryCompactMap { $0 } }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.tryCompactMap { $0 } }, value: 1, failure: Boom())
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
        (0..<20_000).publisher.compactMap { $0 % 2 == 0 ? $0 : nil }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.compactMap { $0 % 3 == 0 ? $0 : nil } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 }.compactMap { $0 % 3 == 0 ? $0 : nil }.map { $0 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryCompactMap { n -> Int? in
            if n == 250 { throw Boom() }
            return n % 2 == 0 ? n : nil
        } }, requestingNone: .isIgnored)
    }

    // MARK: Fusion

    @Test func mapAndCompactMapFuse() {
        let fused: Publishers.CompactMap<Publishers.Sequence<[Int], Never>, String> =
            [1, 2, 3, 4].publisher.map { $0 * 3 }.compactMap { $0 % 2 == 0 ? $0 : nil }.map { "\($0)" }
        #expect(values(fused) == ["6", "12"])
    }
}
