import Streams
import StreamsTesting
import Testing

@Suite("drop(while:), tryDrop(while:)")
struct DropWhileTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-5-1-|", { $0.drop { Int($0)! < 3 } }, "-5-1-|")
        assertMarbles("-1-2-|", { $0.drop { Int($0)! < 3 } }, "-----|")
        assertMarbles("-1-^", { $0.drop { Int($0)! < 3 } }, "---^")
        assertMarbles("-1-5-x-|", { $0.tryDrop { text in
            guard let n = Int(text) else { throw Boom() }
            return n < 3
        } }, "---5-x-|")
        assertMarbles([1, 2, 5, 1].publisher.drop { $0 < 3 }, "[51|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([-62, -1, 0, 10, 0, 22, 41, -1, 5].publisher.drop { $0 <= 0 }) == [10, 0, 22, 41, -1, 5])
        let subscriber = RecordingSubscriber<Int, any Error>()
        [1, 2, 5, 1].publisher
            .tryDrop { n in
                if n == 2 { throw Boom() }
                return n < 3
            }
            .subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func predicateIsNotCalledOnceAValueFailsIt() {
        final class Calls: @unchecked Sendable { var values: [Int] = [] }
        let calls = Calls()
        #expect(values([1, 5, 1, 7].publisher.drop { calls.values.append($0); return $0 < 3 }) == [5, 1, 7])
        #expect(calls.values == [1, 5])
        calls.values = []
        #expect(tryValues([1, 5, 1].publisher.tryDrop { calls.values.append($0); return $0 < 3 }) == [5, 1])
        #expect(calls.values == [1, 5])
    }

    // MARK: Demand

    @Test func droppedValuesGiveBackOneDemandEach() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.drop { $0 < 3 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(5) == .none)
        #expect(upstream.history == [.requested(.max(1))])
        #expect(upstream.demand == .none)
        #expect(subscriber.values == [5])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func tryDropGivesBackOneDemandPerDroppedValue() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(2), onValue: { _ in .max(3) })
        upstream.tryDrop { $0 < 3 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(4) == .max(3))
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func completionWhileDroppingPassesThrough() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.drop { _ in true }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])

        let tryUpstream = TestPublisher<Int, Boom>()
        let trySubscriber = RecordingSubscriber<Int, any Error>()
        tryUpstream.tryDrop { _ in true }.subscribe(trySubscriber)
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
        upstream.tryDrop { n in
            if n == 2 { throw Boom() }
            return true
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values.isEmpty)
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
        upstream.drop { _ in true }.subscribe(subscriber)
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
                .drop { _ in _ = captured; return false }
                .tryDrop { _ in false }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
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
            cancellable = [1, 2].publisher.drop { _ = captured; return $0 < 2 }.sink { _ in }
        }
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Its own subscription

    @Test func subscriptionIsCombinesDropWhile() {
        checkOwnSubscription(named: "DropWhile", requestingNone: .isViolation) { $0.drop { $0 < 3 } }
        checkOwnSubscription(named: "TryDropWhile", requestingNone: .isViolation) { $0.tryDrop { $0 < 3 } }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.drop { $0 < 3 } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryDrop { $0 < 3 } }, value: 1, failure: Boom())
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
        (0..<10_000).publisher.drop { $0 < 5_000 }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(5_000..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        // Combine traps on `request(.none)` to drop(while:) and tryDrop(while:): a violation (S9).
        checkContract { () -> Publishers.DropWhile<Publishers.Sequence<Range<Int>, Never>> in (0..<300).publisher.drop { $0 < 100 } }
        checkContract { () -> Publishers.DropWhile<Publishers.Sequence<Range<Int>, Never>> in (0..<300).publisher.drop { _ in true } }
        checkContract { (0..<300).publisher.tryDrop { $0 < 100 } }
        checkContract { (0..<300).publisher.tryDrop { n in
            if n == 150 { throw Boom() }
            return true
        } }
        checkContract { Just(1).drop { $0 > 5 } }
    }
}
