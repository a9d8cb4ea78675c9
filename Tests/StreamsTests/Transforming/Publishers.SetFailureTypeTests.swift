import Streams
import StreamsTesting
import Testing

@Suite("setFailureType")
struct SetFailureTypeTests {
    struct Boom: Error, Equatable {}
    struct Other: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles([1, 2, 3].publisher.eraseToAnyPublisher().setFailureType(to: Boom.self), "[123|]")
        assertMarbles([1, 2, 3].publisher.setFailureType(to: Boom.self), "[123|]")
        assertMarbles(Just(7).setFailureType(to: Boom.self), "[7|]")
    }

    @Test func docExampleOutputs() {
        struct LoadError: Error, Equatable {}
        let cached: AnyPublisher<Int, LoadError> = [1, 2].publisher
            .setFailureType(to: LoadError.self)
            .eraseToAnyPublisher()
        let subscriber = RecordingSubscriber<Int, LoadError>()
        cached.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func fusesWhereCombineDoes() {
        #expect(type(of: [1].publisher.setFailureType(to: Boom.self)) == Publishers.Sequence<[Int], Boom>.self)
        #expect(type(of: Just(1).setFailureType(to: Boom.self)) == Result<Int, Boom>.Publisher.self)
        let erased = Just(1).eraseToAnyPublisher()
        let twice = erased.setFailureType(to: Boom.self).setFailureType(to: Other.self)
        #expect(type(of: twice) == Publishers.SetFailureType<AnyPublisher<Int, Never>, Other>.self)
        #expect(values(twice) == [1])
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.setFailureType(to: Boom.self).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [1])
    }

    // MARK: Completion and failure

    @Test func finishedPassesThrough() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.setFailureType(to: Boom.self).subscribe(subscriber)
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstreamAndLetsGo_S7() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1))
        upstream.setFailureType(to: Boom.self).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        #expect(upstream.subscriptions.last?.isAttached == false)
    }

    // MARK: The upstream's subscription

    /// As in Combine, setFailureType keeps no state and hands the subscriber the upstream's own
    /// subscription.
    @Test func passesTheUpstreamSubscription() {
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        TestPublisher<Int, Never>().setFailureType(to: Boom.self).subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "TestSubscription")
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Boom>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<10_000).publisher.eraseToAnyPublisher().setFailureType(to: Boom.self).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.eraseToAnyPublisher().setFailureType(to: Boom.self) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 }.setFailureType(to: Boom.self).setFailureType(to: Other.self) },
                      requestingNone: .isIgnored)
        checkContract { Just(1).eraseToAnyPublisher().setFailureType(to: Boom.self) }
        checkContract { Just(1).setFailureType(to: Boom.self) }
        checkContract { Empty<Int, Never>().setFailureType(to: Boom.self) }
    }
}
