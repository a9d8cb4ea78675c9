import Streams
import StreamsTesting
import Testing

@Suite("removeDuplicates, removeDuplicates(by:), tryRemoveDuplicates(by:)")
struct RemoveDuplicatesTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-a-a-^", { $0.removeDuplicates() }, "-a-----^")
        assertMarbles("-1-1-2-x-3-|", { $0.tryRemoveDuplicates { previous, next in
            if next == "x" { throw Boom() }
            return previous == next
        } }, "-1---2-[;^]")
        assertMarbles([1, 1, 2, 2, 2, 3, 1].publisher.removeDuplicates(), "[1231|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 1, 2, 2, 2, 3, 1].publisher.removeDuplicates()) == [1, 2, 3, 1])
        #expect(values(["a", "A", "b", "B", "a"].publisher.removeDuplicates { $0.lowercased() == $1.lowercased() })
            == ["a", "b", "a"])
        let subscriber = RecordingSubscriber<Int, any Error>()
        [1, 1, 2, -1, 3].publisher
            .tryRemoveDuplicates { previous, next in
                if next < 0 { throw Boom() }
                return previous == next
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion.map { if case .failure(let error) = $0 { error is Boom } else { false } } == true)
    }

    @Test func comparesWithTheLastValuePassedOnNotTheLastReceived() {
        // 1 and 2 are "close", 2 and 3 are "close", 1 and 3 are not: 3 is compared with 1.
        let close = { (a: Int, b: Int) in abs(a - b) <= 1 }
        #expect(values([1, 2, 3, 4, 5].publisher.removeDuplicates(by: close)) == [1, 3, 5])
        #expect(tryValues([1, 2, 3, 4, 5].publisher.tryRemoveDuplicates(by: close)) == [1, 3, 5])
    }

    @Test func predicateSeesPreviousThenCurrent() {
        final class Calls: @unchecked Sendable { var pairs: [[Int]] = [] }
        let calls = Calls()
        _ = values([1, 2, 2].publisher.removeDuplicates { calls.pairs.append([$0, $1]); return $0 == $1 })
        #expect(calls.pairs == [[1, 2], [2, 2]])
    }

    // MARK: Demand

    @Test func droppedDuplicateGivesBackOneDemand() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(5) })
        upstream.removeDuplicates().subscribe(subscriber)
        #expect(upstream.send(1) == .max(5))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(5))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [1, 2])
    }

    @Test func tryRemoveDuplicatesDemandPassesThrough() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(1))
        upstream.tryRemoveDuplicates { $0 == $1 }.subscribe(subscriber)
        #expect(upstream.send(7) == .none)
        #expect(upstream.send(7) == .max(1))
        #expect(upstream.history == [.requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func completionAndFailurePassThrough() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.removeDuplicates().subscribe(subscriber)
        upstream.send(1)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])

        let finished = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().removeDuplicates().subscribe(finished)
        #expect(finished.events == [.subscription, .completion(.finished)])

        let tryUpstream = TestPublisher<Int, Boom>()
        let trySubscriber = RecordingSubscriber<Int, any Error>()
        tryUpstream.tryRemoveDuplicates { $0 == $1 }.subscribe(trySubscriber)
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
        upstream.tryRemoveDuplicates { previous, next in
            if next == 3 { throw Boom() }
            return previous == next
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(3)
        upstream.send(4)
        #expect(subscriber.values == [1])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    @Test func firstValueIsNeverComparedSoItCannotThrow() {
        let subscriber = RecordingSubscriber<Int, any Error>()
        // The type asks for the general operator: Combine's `Just.tryRemoveDuplicates` calls the
        // closure with the value twice, at once.
        let publisher: Publishers.TryRemoveDuplicates<Just<Int>> = Just(1).tryRemoveDuplicates { _, _ in throw Boom() }
        publisher.subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion.map { if case .finished = $0 { true } else { false } } == true)
    }

    @Test func eachSubscriptionStartsWithoutAPreviousValue() {
        let publisher = [1, 1, 2].publisher.removeDuplicates()
        #expect(values(publisher) == [1, 2])
        #expect(values(publisher) == [1, 2])
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.removeDuplicates().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheClosureAndTheLastValue_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakValue: Captured?
        let upstream = TestPublisher<Captured, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .removeDuplicates { _, _ in _ = captured; return false }
                .tryRemoveDuplicates { $0 === $1 }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            let value = Captured()
            weakValue = value
            upstream.send(value)
        }
        #expect(weakCaptured != nil)
        #expect(weakValue != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        #expect(weakValue == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = [1, 1, 2].publisher.removeDuplicates { _ = captured; return $0 == $1 }.sink { _ in }
        }
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Its own subscription

    @Test func subscriptionIsCombinesRemoveDuplicates() {
        checkOwnSubscription(named: "RemoveDuplicates") { $0.removeDuplicates() }
        checkOwnSubscription(named: "TryRemoveDuplicates") { $0.tryRemoveDuplicates { $0 == $1 } }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.removeDuplicates() }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryRemoveDuplicates { $0 == $1 } }, value: 1, failure: Boom())
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
        // Every other value is a duplicate: half the values are dropped and replaced by `.max(1)`.
        (0..<10_000).publisher.map { $0 / 2 }.removeDuplicates().subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(0..<5_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func hotPathShapeFromCurrentValueSubject() {
        // The benchmark's shape: CurrentValueSubject(0).removeDuplicates().map { }.sink
        let subject = CurrentValueSubject<Int, Never>(0)
        var received: [Int] = []
        let cancellable = subject.removeDuplicates().map { $0 * 10 }.sink { received.append($0) }
        for n in [0, 1, 1, 2, 2, 2, 0] { subject.send(n) }
        #expect(received == [0, 10, 20, 0])
        cancellable.cancel()
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.map { $0 / 3 }.removeDuplicates() }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.removeDuplicates { $0 / 10 == $1 / 10 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 / 2 }.tryRemoveDuplicates { $0 == $1 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryRemoveDuplicates { _, next in
            if next == 150 { throw Boom() }
            return false
        } }, requestingNone: .isIgnored)
        // The subscriber holds the operator's own subscription, not Just's: `.none` is ignored.
        checkContract({ () -> Publishers.RemoveDuplicates<Just<Int>> in Just(1).removeDuplicates() }, requestingNone: .isIgnored)
    }
}
