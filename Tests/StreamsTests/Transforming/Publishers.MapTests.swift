import Streams
import StreamsTesting
import Testing

@Suite("map, tryMap, replaceNil")
struct MapTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-3-|", { $0.map { String(Int($0)! * 2) } }, "-2-4-6-|")
        assertMarbles("-a-b-^", { $0.map { $0.uppercased() } }, "-A-B-^")
        assertMarbles("-1-2-3-|", { $0.tryMap { s -> String in
            if s == "2" { throw Boom() }
            return s
        } }, "-1-[;^]")
        assertMarbles("-1-n-3-|", { $0.map { $0 == "n" ? nil : $0 }.replaceNil(with: "0") }, "-1-0-3-|")
        assertMarbles([1, 2, 3].publisher.map { $0 * 3 }, "[369|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2, 3].publisher.map { $0 * 10 }) == [10, 20, 30])
        #expect(values([1, nil, 3].publisher.replaceNil(with: 0)) == [1, 0, 3])
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.map { $0 + 1 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [2])
    }

    @Test func tryMapDemandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(4))
        upstream.tryMap { $0 }.subscribe(subscriber)
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(4)), .requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func completionAndFailurePassThrough() {
        let finished = RecordingSubscriber<Int, Boom>()
        Fail<Int, Boom>(error: Boom()).map { $0 }.subscribe(finished)
        #expect(finished.completion == .failure(Boom()))

        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<String, any Error>()
        upstream.tryMap { String($0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
        #expect(subscriber.values == ["1"])
    }

    @Test func tryMapThrowCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryMap { n -> Int in
            if n == 2 { throw Boom() }
            return n
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [1])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.map { $0 }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheClosureAndTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.map { _ in captured }.tryMap { $0 }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = [1, 2].publisher.map { _ in captured }.sink { _ in }
        }
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Its own subscription

    /// As in Combine, `map` and `replaceNil` hand the subscriber the upstream's own
    /// subscription, and `tryMap` a subscription of its own.
    @Test func mapPassesTheUpstreamSubscriptionAndTryMapHasItsOwn() {
        let mapped = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().map { $0 }.subscribe(mapped)
        #expect(mapped.subscription.map { "\($0)" } == "TestSubscription")
        let replaced = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int?, Never>().replaceNil(with: 0).subscribe(replaced)
        #expect(replaced.subscription.map { "\($0)" } == "TestSubscription")
        checkOwnSubscription(named: "TryMap") { $0.tryMap { $0 } }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.tryMap { $0 } }, value: 1, failure: Boom())
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
        (0..<10_000).publisher.map { $0 * 2 }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.map { $0 * 2 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 * 2 }.map { $0 + 1 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { $0 * 2 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        } }, requestingNone: .isIgnored)
        checkContract { Just(1).map { $0 + 1 } }
        checkContract({ [1, nil, 3].publisher.replaceNil(with: 0) }, requestingNone: .isIgnored)
    }

    // MARK: Fusion

    @Test func mapAfterMapFusesIntoOneMap() {
        let fused: Publishers.Map<Publishers.Sequence<[Int], Never>, String> = [1, 2].publisher.map { $0 * 2 }.map { "\($0)" }
        #expect(values(fused) == ["2", "4"])
        let tryFused: Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int> = [1].publisher.map { $0 }.tryMap { $0 }.map { $0 + 1 }.tryMap { $0 }
        #expect(tryValues(tryFused) == [2])
    }
}

/// The values a publisher sends to an unlimited subscriber.
func values<P: Publisher>(_ publisher: P) -> [P.Output] {
    let subscriber = RecordingSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    return subscriber.values
}

/// The values a failing publisher sends to an unlimited subscriber.
func tryValues<P: Publisher>(_ publisher: P) -> [P.Output] {
    values(publisher)
}
