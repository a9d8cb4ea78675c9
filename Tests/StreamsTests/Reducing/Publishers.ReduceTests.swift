import Streams
import StreamsTesting
import Testing

@Suite("reduce, tryReduce")
struct ReduceTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-c-|", { $0.reduce("") { $0 + $1 } }, "-------['abc'|]")
        assertMarbles("---|", { $0.reduce(7) { $0 + Int($1)! } }, "---[7|]")
        assertMarbles("-1-2-^", { $0.reduce(0) { $0 + Int($1)! } }, "-----^")
        assertMarbles([1, 2, 3, 4].publisher.reduce(0, +), "['10'|]")
        assertMarbles([1, 2, 3, 4].publisher.tryReduce(1, *), "['24'|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2, 3, 4].publisher.reduce(0, +)) == [10])

        struct Negative: Error {}
        let subscriber = RecordingSubscriber<Int, any Error>()
        [1, 2, -3, 4].publisher
            .tryReduce(0) { sum, n in
                guard n >= 0 else { throw Negative() }
                return sum + n
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) is Negative)
    }

    // MARK: Demand

    @Test func resultWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func resultGoesOutAtOnceWhenAlreadyRequested() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.reduce(10, -).subscribe(subscriber)
        upstream.send(3)
        #expect(subscriber.values == [])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func asksUpstreamForUnlimitedOnceWhateverTheDownstreamAsks() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.reduce(0, +).subscribe(subscriber)
        subscriber.request(.max(5))
        subscriber.request(.unlimited)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func asksUpstreamOnlyAfterTheDownstreamHasItsSubscription() {
        final class Seen: @unchecked Sendable { var history: [TestPublisher<Int, Never>.TestSubscription.Event]? }
        let seen = Seen()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onSubscription: { _ in
            seen.history = upstream.history
        })
        upstream.reduce(0, +).subscribe(subscriber)
        #expect(seen.history == [])
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func tryReduceAsksUpstreamForUnlimited() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: nil)
        upstream.tryReduce(0, +).subscribe(subscriber)
        subscriber.request(.max(2))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts request(.none) here and does nothing.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.reduce(0, +).subscribe(subscriber)
        let tried = RecordingSubscriber<Int, any Error>(demand: nil)
        TestPublisher<Int, Never>().tryReduce(0, +).subscribe(tried)
        let messages = recordingAPIViolations {
            subscriber.subscription?.request(.none)
            tried.subscription?.request(.none)
        }
        #expect(messages.isEmpty)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited)])
        #expect("\(subscriber.subscription!)" == "Reduce")
        #expect("\(tried.subscription!)" == "TryReduce")
    }

    // MARK: Completion and failure

    @Test func emptyUpstreamGivesTheInitialResult() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().reduce(42, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func failurePassesThroughWithoutDemand_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func tryReducePassesTheUpstreamFailureOn() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryReduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
    }

    @Test func tryReduceThrowCancelsUpstreamAndFails_S14() {
        final class Calls: @unchecked Sendable { var count = 0 }
        let calls = Calls()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: nil)
        upstream.tryReduce(0) { sum, n in
            calls.count += 1
            if n == 2 { throw Boom() }
            return sum + n
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(calls.count == 2)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.values == [])
        #expect(failureError(of: subscriber) as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    @Test func ignoresWhatTheUpstreamSendsAfterItsCompletion_S4() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription])
    }

    @Test func neverDeliversAfterCancelEvenWhenTheUpstreamFinishesAfterwards_S6() {
        let upstream = UnstoppablePublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelWhileTheResultWaitsForDemandDropsIt_S6() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(5)
        upstream.send(completion: .finished)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
        // The upstream had already finished: nothing to cancel there.
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func cancelReleasesTheClosureAndTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .reduce(0) { sum, n in withExtendedLifetime(captured) { sum + n } }
                .tryReduce(0) { sum, n in withExtendedLifetime(captured) { sum + n } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheClosureEvenWhileTheSubscriptionIsKept_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        do {
            let captured = Captured()
            weakCaptured = captured
            upstream.reduce(0) { sum, n in withExtendedLifetime(captured) { sum + n } }.subscribe(subscriber)
        }
        upstream.send(1)
        #expect(weakCaptured != nil)
        upstream.send(completion: .finished)
        // The result waits for demand, but the closure is no longer needed.
        #expect(weakCaptured == nil)
        #expect(subscriber.isSubscribed)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    @Test func cancelReleasesAWaitingResult_S7() {
        final class Total {}
        weak var weakTotal: Total?
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Total, Never>(demand: nil)
        do {
            let total = Total()
            weakTotal = total
            upstream.reduce(total) { total, _ in total }.subscribe(subscriber)
        }
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(weakTotal != nil)
        subscriber.cancel()
        #expect(weakTotal == nil)
        #expect(subscriber.isSubscribed)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceive_S8() {
        let subscriber = subscribeRequestingFromInside((1...100).publisher.reduce(0, +))
        #expect(subscriber.events == [.subscription, .value(5050), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelInsideReceiveOfTheResultStopsTheCompletion_S6() {
        let subscriber = subscribeCancellingAtFirstValue([1, 2].publisher.reduce(0, +))
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func aLongUpstreamIsConsumedInALoop() {
        let subscriber = RecordingSubscriber<Int, Never>()
        (0..<100_000).publisher.reduce(0, +).subscribe(subscriber)
        #expect(subscriber.values == [4_999_950_000])
        #expect(subscriber.completion == .finished)
    }

    // MARK: Misbehaving upstream

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.reduce(0, +) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryReduce(0, +) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkReducingContract { AnyPublisher((0..<300).publisher).reduce(0, +) }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryReduce(0, +) }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryReduce(0) { sum, n in
            if n == 150 { throw Boom() }
            return sum + n
        } }
        checkReducingContract { AnyPublisher((0..<300).publisher).tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.reduce(0, +) }
        checkReducingContract { Empty<Int, Never>().reduce(0, +) }
        checkReducingContract { AnyPublisher(Just(1)).reduce(0, +) }
    }
}

/// The error a subscriber's stream failed with, or `nil` if it did not fail.
func failureError<Input>(of subscriber: RecordingSubscriber<Input, any Error>) -> (any Error)? {
    if case .failure(let error)? = subscriber.completion { return error }
    return nil
}

/// A misbehaving upstream for tests: it keeps its subscriber after a cancel or a completion and
/// delivers whatever the test sends, so a test can check that an operator ignores signals that
/// come too late (S4, S6).
final class UnstoppablePublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {  // used from one thread
    private var subscriber: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: Subscriptions.empty)
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriber?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriber?.receive(completion: completion)
    }
}

/// Subscribes a recorder that cancels its subscription inside its first `receive(_:)` (asking for
/// unlimited values before that), and returns it.
func subscribeCancellingAtFirstValue<P: Publisher>(_ publisher: P) -> RecordingSubscriber<P.Output, P.Failure> {
    let slot = RecorderSlot<P.Output, P.Failure>()
    let subscriber = RecordingSubscriber<P.Output, P.Failure>(onValue: { _ in
        slot.recorder?.cancel()
        return .none
    })
    slot.recorder = subscriber
    publisher.subscribe(subscriber)
    slot.recorder = nil
    return subscriber
}

/// Subscribes a recorder that asks for one value from inside `receive(subscription:)` and one
/// more from inside each `receive(_:)` (S8), and returns it.
func subscribeRequestingFromInside<P: Publisher>(_ publisher: P) -> RecordingSubscriber<P.Output, P.Failure> {
    let slot = RecorderSlot<P.Output, P.Failure>()
    let subscriber = RecordingSubscriber<P.Output, P.Failure>(
        demand: nil,
        onSubscription: { _ in slot.recorder?.request(.max(1)) },
        onValue: { _ in
            slot.recorder?.request(.max(1))
            return .none
        })
    slot.recorder = subscriber
    publisher.subscribe(subscriber)
    slot.recorder = nil
    return subscriber
}

/// Lets a recorder's hooks reach the recorder itself.
final class RecorderSlot<Input, Failure: Error>: @unchecked Sendable {  // set before and after use, on one thread
    var recorder: RecordingSubscriber<Input, Failure>?
}

/// `checkContract` for the operators that, like Combine's, accept `request(.none)` and do
/// nothing (S9). Callers erase a sequence or `Just` upstream with `AnyPublisher`: on those types
/// the operator's specialization (a `Result`, `Optional` or `Just` publisher, as in Combine)
/// would be checked instead of the operator.
func checkReducingContract<P: Publisher>(
    _ makePublisher: @escaping () -> P, sourceLocation: SourceLocation = #_sourceLocation
) {
    checkContract(makePublisher, requestingNone: .isIgnored, sourceLocation: sourceLocation)
}
