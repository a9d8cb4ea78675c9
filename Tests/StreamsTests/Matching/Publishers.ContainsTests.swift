import Streams
import StreamsTesting
import Testing

@Suite("contains, contains(where:), tryContains(where:)")
struct ContainsTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-3-|", { $0.contains("2") }, "---[;'true'|]")
        assertMarbles("-1-3-|", { $0.contains("2") }, "-----['false'|]")
        assertMarbles("-1-^", { $0.contains("2") }, "---^")
        assertMarbles([1, 2, 3].publisher.contains(2), "['true'|]")
        assertMarbles([1, 2, 3].publisher.contains(5), "['false'|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2, 3].publisher.contains(2)) == [true])
        #expect(values([1, 3, 5].publisher.contains { $0.isMultiple(of: 2) }) == [false])

        struct Negative: Error {}
        let subscriber = RecordingSubscriber<Bool, any Error>()
        [1, -2, 3].publisher
            .tryContains { n in
                guard n >= 0 else { throw Negative() }
                return n == 3
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) is Negative)
    }

    // MARK: Demand

    @Test func trueWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>(demand: nil)
        upstream.contains(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func falseWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>(demand: nil)
        upstream.contains(where: { $0 > 5 }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts request(.none) here and does nothing.
        let upstream = TestPublisher<Int, Never>()
        let contains = RecordingSubscriber<Bool, Never>(demand: nil)
        upstream.contains(1).subscribe(contains)
        let containsWhere = RecordingSubscriber<Bool, Never>(demand: nil)
        TestPublisher<Int, Never>().contains { $0 > 1 }.subscribe(containsWhere)
        let tryContainsWhere = RecordingSubscriber<Bool, any Error>(demand: nil)
        TestPublisher<Int, Never>().tryContains { $0 > 1 }.subscribe(tryContainsWhere)
        let messages = recordingAPIViolations {
            contains.subscription?.request(.none)
            containsWhere.subscription?.request(.none)
            tryContainsWhere.subscription?.request(.none)
        }
        #expect(messages.isEmpty)
        upstream.send(completion: .finished)
        #expect(contains.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect("\(contains.subscription!)" == "Contains")
        #expect("\(containsWhere.subscription!)" == "ContainsWhere")
        #expect("\(tryContainsWhere.subscription!)" == "TryContainsWhere")
    }

    // MARK: Completion and failure

    @Test func trueEndsEarlyAndCancelsUpstream_S15() {
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>()
        upstream.contains { n in
            calls.count += 1
            return n == 2
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(calls.count == 2)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
    }

    @Test func ignoresWhatTheUpstreamSendsAfterTheAnswer_S4() {
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>()
        upstream.contains { n in
            calls.count += 1
            return n == 2
        }.subscribe(subscriber)
        upstream.send(2)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(calls.count == 1)
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failureBeforeTheAnswerPassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Bool, Boom>(demand: nil)
        upstream.contains(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func tryContainsPassesTheUpstreamFailureOn() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Bool, any Error>()
        upstream.tryContains { $0 == 2 }.subscribe(subscriber)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
    }

    @Test func tryContainsThrowCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, any Error>(demand: nil)
        upstream.tryContains { n in
            if n < 0 { throw Boom() }
            return n == 9
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(-1)
        upstream.send(9)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndNothingFollows_S6() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>()
        upstream.contains(2).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        let tested = TestPublisher<Int, Never>()
        let other = RecordingSubscriber<Bool, Never>()
        tested.contains(2).subscribe(other)
        other.cancel()
        #expect(tested.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelWhileTrueWaitsForDemandDropsIt_S6() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>(demand: nil)
        upstream.contains(2).subscribe(subscriber)
        upstream.send(2)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
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
                .contains { n in withExtendedLifetime(captured) { n > 5 } }
                .sink { _ in })
            cancellables.append(upstream
                .tryContains { n in withExtendedLifetime(captured) { n > 5 } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in }))
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        cancellables.forEach { $0.cancel() }
        #expect(weakCaptured == nil)
    }

    @Test func findingTheValueReleasesThePredicate_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>(demand: nil)
        do {
            let captured = Captured()
            weakCaptured = captured
            upstream.contains { n in withExtendedLifetime(captured) { n == 2 } }.subscribe(subscriber)
        }
        upstream.send(2)
        // `true` waits for demand, but the predicate is no longer needed.
        #expect(weakCaptured == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [true])
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveSubscriptionGetsTheEarlyAnswer_S8() {
        let subscriber = subscribeRequestingFromInside((0..<100_000).publisher.contains(10))
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.contains(5) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.contains { $0 > 5 } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryContains { $0 > 5 } }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkReducingContract { AnyPublisher((0..<300).publisher).contains(150) }
        checkReducingContract { AnyPublisher((0..<300).publisher).contains(500) }
        checkReducingContract { AnyPublisher((0..<300).publisher).contains { $0 > 200 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryContains { $0 > 200 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryContains { n in
            if n == 150 { throw Boom() }
            return false
        } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.contains(500) }
    }

    // MARK: Combine compatibility

    @Test func equatableWhenTheUpstreamIs() {
        // (`Publishers.Contains(upstream:output:)`: `contains` on a sequence is evaluated at once.)
        #expect(Publishers.Contains(upstream: [1, 2].publisher, output: 1) == Publishers.Contains(upstream: [1, 2].publisher, output: 1))
        #expect(Publishers.Contains(upstream: [1, 2].publisher, output: 1) != Publishers.Contains(upstream: [1, 2].publisher, output: 2))
        #expect(Publishers.Contains(upstream: [1, 2].publisher, output: 1) != Publishers.Contains(upstream: [1, 3].publisher, output: 1))
    }
}
