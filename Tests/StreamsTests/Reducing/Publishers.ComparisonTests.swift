import Streams
import StreamsTesting
import Testing

@Suite("min, max, min(by:), max(by:), tryMin(by:), tryMax(by:)")
struct ComparisonTests {
    struct Boom: Error, Equatable {}

    /// A value ordered by `key` only, so that ties can be told apart by `tag`.
    struct Tagged: Equatable {
        var key: Int
        var tag: String
    }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("---|", { $0.min() }, "---|")
        assertMarbles("-1-2-^", { $0.max() }, "-----^")
        assertMarbles("-a-'bb'-c-|", { $0.min { $0.count < $1.count } }, "-------[a|]")
        assertMarbles("-a-'bb'-c-|", { $0.max { $0.count < $1.count } }, "-------['bb'|]")
        assertMarbles([5, 3, 8, 1].publisher.min(), "[1|]")
        assertMarbles([5, 3, 8, 1].publisher.max(), "[8|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([-1, 0, 10, 5].publisher.min()) == [-1])
        #expect(values([0, 10, 5].publisher.max()) == [10])
        #expect(values(["pear", "fig", "kiwi"].publisher.min { $0.count < $1.count }) == ["fig"])
        #expect(values(["fig", "pear", "kiwi"].publisher.max { $0.count < $1.count }) == ["pear"])

        struct Odd: Error {}
        let tryMin = RecordingSubscriber<Int, any Error>()
        [4, 2, 7, 6].publisher
            .tryMin { a, b in
                guard a.isMultiple(of: 2), b.isMultiple(of: 2) else { throw Odd() }
                return a < b
            }
            .subscribe(tryMin)
        #expect(tryMin.values == [])
        #expect(failureError(of: tryMin) is Odd)

        let tryMax = RecordingSubscriber<Int, any Error>()
        [2, 8, 4].publisher
            .tryMax { a, b in
                guard a.isMultiple(of: 2), b.isMultiple(of: 2) else { throw Odd() }
                return a < b
            }
            .subscribe(tryMax)
        #expect(tryMax.values == [8])
        #expect(tryMax.completion.map { if case .finished = $0 { true } else { false } } == true)
    }

    @Test func ofEqualValuesTheFirstIsSent() {
        let values = [Tagged(key: 2, tag: "a"), Tagged(key: 1, tag: "b"), Tagged(key: 2, tag: "c"), Tagged(key: 1, tag: "d")]
        #expect(StreamsTests.values(values.publisher.min { $0.key < $1.key }) == [Tagged(key: 1, tag: "b")])
        #expect(StreamsTests.values(values.publisher.max { $0.key < $1.key }) == [Tagged(key: 2, tag: "a")])
        #expect(tryValues(values.publisher.tryMin { $0.key < $1.key }) == [Tagged(key: 1, tag: "b")])
        #expect(tryValues(values.publisher.tryMax { $0.key < $1.key }) == [Tagged(key: 2, tag: "a")])
    }

    @Test func minKeepsTheClosureWithItsArgumentsSwapped() {
        // As in Combine: `Comparison` keeps the greatest value, so `min` reverses the order.
        // (On a sequence `min(by:)` is evaluated at once, as in Combine; the types ask for the
        // general operator.)
        let min: Publishers.Comparison<Publishers.Sequence<[Int], Never>> = [1].publisher.min(by: <)
        #expect(min.areInIncreasingOrder(2, 1) == true)
        #expect(min.areInIncreasingOrder(1, 2) == false)
        let max: Publishers.Comparison<Publishers.Sequence<[Int], Never>> = [1].publisher.max(by: <)
        #expect(max.areInIncreasingOrder(1, 2) == true)
    }

    // MARK: Demand

    @Test func valueWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.max().subscribe(subscriber)
        upstream.send(4)
        upstream.send(9)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(9), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func asksUpstreamForUnlimitedOnce() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(1))
        upstream.tryMin(by: <).subscribe(subscriber)
        subscriber.request(.max(2))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts request(.none) here and does nothing.
        let upstream = TestPublisher<Int, Never>()
        let comparison = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.min().subscribe(comparison)
        let tryComparison = RecordingSubscriber<Int, any Error>(demand: nil)
        TestPublisher<Int, Never>().tryMax(by: <).subscribe(tryComparison)
        let messages = recordingAPIViolations {
            comparison.subscription?.request(.none)
            tryComparison.subscription?.request(.none)
        }
        #expect(messages.isEmpty)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(comparison.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect("\(comparison.subscription!)" == "Comparison")
        #expect("\(tryComparison.subscription!)" == "TryComparison")
    }

    // MARK: Completion and failure

    @Test func emptyUpstreamHoldsFinishedUntilARequest_S5() {
        // As Combine: even with no value to send, `.finished` waits for the first request.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().min().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(subscriber.events == [.subscription, .completion(.finished)])

        let cancelled = RecordingSubscriber<Int, any Error>(demand: nil)
        Empty<Int, Never>().tryMax(by: <).subscribe(cancelled)
        cancelled.cancel()
        cancelled.request(.max(1))
        #expect(cancelled.events.count == 1)
    }

    @Test func failurePassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.min().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func tryComparisonPassesTheUpstreamFailureOn() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryMax(by: <).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
    }

    @Test func tryMaxThrowCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: nil)
        upstream.tryMax { a, b in
            if b == 0 { throw Boom() }
            return a < b
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(5)
        upstream.send(0)
        upstream.send(7)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndNothingFollows_S6() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.max().subscribe(subscriber)
        upstream.send(3)
        subscriber.cancel()
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        let tested = TestPublisher<Int, Never>()
        let other = RecordingSubscriber<Int, Never>()
        tested.min().subscribe(other)
        other.cancel()
        #expect(tested.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheClosures_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .min { a, b in withExtendedLifetime(captured) { a < b } }
                .tryMax { a, b in withExtendedLifetime(captured) { a < b } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        do {
            let captured = Captured()
            weakCaptured = captured
            upstream.max { a, b in withExtendedLifetime(captured) { a < b } }.subscribe(subscriber)
        }
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(weakCaptured == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [2])
    }

    // MARK: Reentrancy

    @Test func cancelInsideReceiveOfTheValueStopsTheCompletion_S6() {
        let subscriber = subscribeCancellingAtFirstValue([2, 1, 3].publisher.min())
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.min() }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryMax(by: <) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkReducingContract { AnyPublisher((0..<300).publisher).min() }
        checkReducingContract { AnyPublisher((0..<300).publisher).max() }
        checkReducingContract { AnyPublisher((0..<300).publisher).min { $0 % 7 < $1 % 7 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMax(by: <) }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMin { a, b in
            if b == 150 { throw Boom() }
            return a < b
        } }
        checkReducingContract { Empty<Int, Never>().max() }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.min() }
    }
}
