import Streams
import StreamsTesting
import Testing

@Suite("allSatisfy, tryAllSatisfy")
struct AllSatisfyTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-2-4-|", { $0.allSatisfy { Int($0)!.isMultiple(of: 2) } }, "-----['true'|]")
        assertMarbles("---|", { $0.allSatisfy { _ in false } }, "---['true'|]")
        assertMarbles("-2-^", { $0.allSatisfy { _ in true } }, "---^")
        assertMarbles([2, 4, 6].publisher.allSatisfy { $0 > 0 }, "['true'|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }) == [true])

        struct Negative: Error {}
        let subscriber = RecordingSubscriber<Bool, any Error>()
        [2, -4, 6].publisher
            .tryAllSatisfy { n in
                guard n >= 0 else { throw Negative() }
                return n.isMultiple(of: 2)
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) is Negative)
    }

    // MARK: Demand

    @Test func falseWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>(demand: nil)
        upstream.allSatisfy { $0 > 0 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(-1)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func trueWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, any Error>(demand: nil)
        upstream.tryAllSatisfy { $0 > 0 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events.count == 1)

        subscriber.request(.max(1))
        #expect(subscriber.values == [true])
        #expect(subscriber.events.count == 3)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts request(.none) here and does nothing.
        let upstream = TestPublisher<Int, Never>()
        let allSatisfy = RecordingSubscriber<Bool, Never>(demand: nil)
        upstream.allSatisfy { $0 > 1 }.subscribe(allSatisfy)
        let tryAllSatisfy = RecordingSubscriber<Bool, any Error>(demand: nil)
        TestPublisher<Int, Never>().tryAllSatisfy { $0 > 1 }.subscribe(tryAllSatisfy)
        let messages = recordingAPIViolations {
            allSatisfy.subscription?.request(.none)
            tryAllSatisfy.subscription?.request(.none)
        }
        #expect(messages.isEmpty)
        upstream.send(completion: .finished)
        #expect(allSatisfy.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect("\(allSatisfy.subscription!)" == "AllSatisfy")
        #expect("\(tryAllSatisfy.subscription!)" == "TryAllSatisfy")
    }

    // MARK: Completion and failure

    @Test func falseEndsEarlyAndCancelsUpstream_S15() {
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>()
        upstream.allSatisfy { n in
            calls.count += 1
            return n < 3
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(3)
        upstream.send(2)
        #expect(calls.count == 2)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
    }

    @Test func ignoresWhatTheUpstreamSendsAfterTheAnswer_S4() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>()
        upstream.allSatisfy { $0 < 3 }.subscribe(subscriber)
        upstream.send(5)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(false), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failureBeforeTheAnswerPassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Bool, Boom>(demand: nil)
        upstream.allSatisfy { $0 > 0 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func tryAllSatisfyPassesTheUpstreamFailureOn() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Bool, any Error>()
        upstream.tryAllSatisfy { $0 > 0 }.subscribe(subscriber)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
    }

    @Test func tryAllSatisfyThrowCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, any Error>(demand: nil)
        upstream.tryAllSatisfy { n in
            if n == 0 { throw Boom() }
            return true
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(0)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndNothingFollows_S6() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Bool, Never>()
        upstream.allSatisfy { $0 > 0 }.subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(-1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        let tested = TestPublisher<Int, Never>()
        let other = RecordingSubscriber<Bool, Never>()
        tested.allSatisfy { $0 > 0 }.subscribe(other)
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
                .allSatisfy { n in withExtendedLifetime(captured) { n > 0 } }
                .sink { _ in })
            cancellables.append(upstream
                .tryAllSatisfy { n in withExtendedLifetime(captured) { n > 0 } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in }))
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        cancellables.forEach { $0.cancel() }
        #expect(weakCaptured == nil)
    }

    // MARK: Reentrancy

    @Test func cancelInsideReceiveOfTheAnswerStopsTheCompletion_S6() {
        let subscriber = subscribeCancellingAtFirstValue([1, 2].publisher.allSatisfy { $0 > 0 })
        #expect(subscriber.events == [.subscription, .value(true)])
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.allSatisfy { $0 > 0 } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryAllSatisfy { $0 > 0 } }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkReducingContract { AnyPublisher((0..<300).publisher).allSatisfy { $0 < 150 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).allSatisfy { $0 >= 0 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryAllSatisfy { $0 >= 0 } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryAllSatisfy { n in
            if n == 150 { throw Boom() }
            return true
        } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.allSatisfy { $0 >= 0 } }
    }
}
