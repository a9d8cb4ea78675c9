import Streams
import StreamsTesting
import Testing

@Suite("prefix(while:), tryPrefix(while:)")
struct PrefixWhileTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-5-1-|", { $0.prefix { Int($0)! < 3 } }, "-[;|]")
        assertMarbles("-1-2-|", { $0.prefix { Int($0)! < 3 } }, "-1-2-|")
        assertMarbles("-1-2-^", { $0.prefix { Int($0)! < 3 } }, "-1-2-^")
        assertMarbles("-1-4-|", { $0.tryPrefix { Int($0)! < 3 } }, "-1-[;|]")
        assertMarbles([1, 2, 5, 3, 1].publisher.prefix { $0 < 3 }, "[12|]")
    }

    @Test func docExampleOutputs() {
        let prefix = RecordingSubscriber<Int, Never>()
        [1, 2, 5, 3, 1].publisher.prefix { $0 < 3 }.subscribe(prefix)
        #expect(prefix.events == [.subscription, .value(1), .value(2), .completion(.finished)])

        let tryPrefix = RecordingSubscriber<Int, any Error>()
        [1, 2, -1, 3].publisher
            .tryPrefix { n in
                if n < 0 { throw Boom() }
                return n < 3
            }
            .subscribe(tryPrefix)
        #expect(tryPrefix.values == [1, 2])
        guard case .failure(let error)? = tryPrefix.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.prefix { $0 < 3 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
    }

    @Test func firstFailingValueCancelsUpstreamAndFinishes_S15() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(3))
        upstream.prefix { $0 < 3 }.subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.send(7) == .none)
        #expect(upstream.history == [.requested(.max(3)), .cancelled])
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func tryPrefixFailingValueCancelsUpstreamAndFinishes_S15() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(3))
        upstream.tryPrefix { $0 < 3 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(7)
        #expect(upstream.history == [.requested(.max(3)), .cancelled])
        #expect(subscriber.values == [1])
        #expect(subscriber.completion.map { if case .finished = $0 { true } else { false } } == true)
    }

    // MARK: Completion and failure

    @Test func upstreamCompletionPassesThrough() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.prefix { $0 < 3 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])

        let tryUpstream = TestPublisher<Int, Boom>()
        let trySubscriber = RecordingSubscriber<Int, any Error>()
        tryUpstream.tryPrefix { $0 < 3 }.subscribe(trySubscriber)
        tryUpstream.send(completion: .failure(Boom()))
        guard case .failure(let error)? = trySubscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func throwCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryPrefix { n in
            if n == 2 { throw Boom() }
            return true
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

    @Test func predicateIsNotCalledAfterTheEnd_S4() {
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        let subscriber = RecordingSubscriber<Int, Never>()
        HeedlessPublisher(values: [1, 5, 1, 1]).prefix { calls.count += 1; return $0 < 3 }.subscribe(subscriber)
        #expect(calls.count == 2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.prefix { _ in true }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .prefix { _ in _ = captured; return true }
                .tryPrefix { _ in true }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func endingEarlyReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.prefix { _ = captured; return $0 < 3 }.sink { _ in }
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        upstream.send(5)
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Its own subscription

    @Test func subscriptionIsCombinesPrefixWhile() {
        checkOwnSubscription(named: "PrefixWhile") { $0.prefix { $0 < 3 } }
        checkOwnSubscription(named: "TryPrefixWhile") { $0.tryPrefix { $0 < 3 } }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.prefix { $0 < 3 } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryPrefix { $0 < 3 } }, value: 1, failure: Boom())
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
        (0..<10_000).publisher.prefix { $0 < 9_000 }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(0..<9_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.prefix { $0 < 200 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.prefix { _ in true } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryPrefix { $0 < 200 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryPrefix { n in
            if n == 150 { throw Boom() }
            return true
        } }, requestingNone: .isIgnored)
        // The subscriber holds the operator's own subscription, not Just's: `.none` is ignored.
        checkContract({ () -> Publishers.PrefixWhile<Just<Int>> in Just(1).prefix { $0 > 0 } }, requestingNone: .isIgnored)
    }
}
