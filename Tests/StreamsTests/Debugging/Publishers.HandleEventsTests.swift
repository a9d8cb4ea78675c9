import Streams
import StreamsTesting
import Testing

@Suite("handleEvents")
struct HandleEventsTests {
    struct Boom: Error, Equatable, CustomStringConvertible {
        var description: String { "Boom" }
    }

    /// What the hooks and the downstream saw, in order.
    final class Log {
        var entries: [String] = []
        func add(_ entry: String) { entries.append(entry) }
    }

    /// A publisher that breaks S4: it sends a value and a second completion after finishing.
    struct SendsAfterCompletion: Publisher {
        typealias Output = Int
        typealias Failure = Never
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: Subscriptions.empty)
            _ = subscriber.receive(1)
            subscriber.receive(completion: .finished)
            _ = subscriber.receive(2)
            subscriber.receive(completion: .finished)
        }
    }

    /// Every hook, logging into `log`.
    static func logging<P: Publisher>(_ publisher: P, into log: Log) -> Publishers.HandleEvents<P> {
        publisher.handleEvents(
            receiveSubscription: { log.add("subscription \($0)") },
            receiveOutput: { log.add("output \($0)") },
            receiveCompletion: { log.add("completion \($0)") },
            receiveCancel: { log.add("cancel") },
            receiveRequest: { log.add("request \($0)") })
    }

    /// A downstream that logs into `log`, asks for `demand` at once and returns `returning(value)`.
    static func downstream<Input, Failure: Error>(
        _ log: Log, demand: Subscribers.Demand?, returning: @escaping (Input) -> Subscribers.Demand = { _ in .none },
        keep: @escaping (any Subscription) -> Void = { _ in }
    ) -> AnySubscriber<Input, Failure> {
        AnySubscriber(
            receiveSubscription: { subscription in
                log.add("downstream subscription \(subscription)")
                keep(subscription)
                if let demand { subscription.request(demand) }
            },
            receiveValue: { value in
                log.add("downstream value \(value)")
                return returning(value)
            },
            receiveCompletion: { log.add("downstream \($0)") })
    }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-^", { $0.handleEvents() }, "-1-2-^")
        assertMarbles([1, 2, 3].publisher.handleEvents(receiveOutput: { _ in }), "[123|]")
    }

    @Test func docExampleOutputs() {
        let log = Log()
        let cancellable = [1, 2].publisher
            .handleEvents(
                receiveSubscription: { _ in log.add("subscribed") },
                receiveOutput: { log.add("output \($0)") },
                receiveCompletion: { log.add("completion \($0)") },
                receiveRequest: { log.add("request \($0)") })
            .sink { log.add("value \($0)") }
        #expect(log.entries == [
            "subscribed", "request unlimited", "output 1", "value 1", "output 2", "value 2", "completion finished",
        ])
        _ = cancellable
    }

    /// Each hook runs just before its event is passed on; returned demand is seen just after.
    @Test func hooksRunInOrderAroundTheDownstreamEvents() {
        let log = Log()
        let upstream = TestPublisher<Int, Boom>()
        var subscription: (any Subscription)?
        Self.logging(upstream, into: log).subscribe(Self.downstream(
            log, demand: .max(1), returning: { $0 == 1 ? .max(2) : .none }, keep: { subscription = $0 }))
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .none)
        subscription?.request(.max(4))
        upstream.send(completion: .failure(Boom()))
        #expect(log.entries == [
            "subscription TestSubscription",
            "downstream subscription HandleEvents",
            "request max(1)",
            "output 1",
            "downstream value 1",
            "request max(2)",
            "output 2",
            "downstream value 2",
            "request max(4)",
            "completion failure(Boom)",
            "downstream failure(Boom)",
        ])
        // Returned demand goes back to the upstream as the return value, not as a request.
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(4))])
    }

    // MARK: Demand

    @Test func requestsPassThroughUnchanged() {
        let log = Log()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.handleEvents(receiveRequest: { log.add("request \($0)") }).subscribe(subscriber)
        subscriber.request(.unlimited)
        #expect(upstream.history == [.requested(.max(2)), .requested(.unlimited)])
        #expect(log.entries == ["request max(2)", "request unlimited"])
    }

    /// `.none` goes to the upstream as it is (TestPublisher records it without complaint; a
    /// Sequence ignores it and Just reports it: see `contract`).
    @Test func requestingNoneFollowsTheUpstream_S9() {
        let log = Log()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.handleEvents(receiveRequest: { log.add("request \($0)") }).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [.requested(.none)])
        #expect(log.entries == ["request max(0)"])

        let fromJust = recordingAPIViolations {
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            Just(1).handleEvents().subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(fromJust.count == 1 && fromJust[0].contains("S9") && fromJust[0].contains("Just"))
    }

    // MARK: Completion and failure

    @Test func nothingAfterTheCompletion_S4() {
        let log = Log()
        let subscriber = RecordingSubscriber<Int, Never>()
        Self.logging(SendsAfterCompletion(), into: log).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
        #expect(log.entries == ["subscription Empty", "request unlimited", "output 1", "completion finished"])
    }

    @Test func completionReleasesTheClosures_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .handleEvents(receiveOutput: { _ in _ = captured }, receiveCancel: { _ = captured })
                .sink { _ in }
        }
        #expect(weakCaptured != nil)
        upstream.send(completion: .finished)
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Cancellation

    @Test func receiveCancelRunsOnceBeforeTheUpstreamIsCancelled_S6() {
        let log = Log()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream
            .handleEvents(
                receiveCancel: { log.add("cancel, upstream cancelled: \(upstream.isCancelled)") },
                receiveRequest: { log.add("request \($0)") })
            .subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        upstream.send(1)
        #expect(log.entries == ["request max(1)", "cancel, upstream cancelled: false"])
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelInsideReceiveSkipsTheReturnedDemandHook() {
        let log = Log()
        let upstream = TestPublisher<Int, Never>()
        var subscription: (any Subscription)?
        Self.logging(upstream, into: log).subscribe(Self.downstream(
            log, demand: .max(1),
            returning: { _ in
                subscription?.cancel()
                return .max(1)
            },
            keep: { subscription = $0 }))
        upstream.send(1)
        #expect(log.entries == [
            "subscription TestSubscription", "downstream subscription HandleEvents", "request max(1)",
            "output 1", "downstream value 1", "cancel",
        ])
    }

    @Test func cancelFromInsideReceiveOutputStopsTheValue_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        box.subscriber = subscriber
        upstream.handleEvents(receiveOutput: { if $0 == 2 { box.subscriber?.cancel() } }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        box.subscriber = nil
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheClosuresAndTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Never>()
        var subscription: (any Subscription)?
        do {
            let captured = Captured()
            weakCaptured = captured
            let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakSubscriber = subscriber
            upstream.handleEvents(receiveOutput: { _ in _ = captured }).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured != nil && weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        var requests = 0
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<10_000).publisher.handleEvents(receiveRequest: { _ in requests += 1 }).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
        #expect(requests == 10_001)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (HandleEvents)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().handleEvents().subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "HandleEvents")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // handleEvents keeps state (it sees requests and cancels), so it ignores what its
        // upstream sends before the subscription or after its end, and cancels a second
        // subscription.
        checkIgnoresMisbehavingUpstream({ $0.handleEvents(receiveOutput: { _ in }) }, value: 1, failure: Boom())
    }

    @Test func hooksDoNotSeeIgnoredSignals_S2() {
        let log = Log()
        let upstream = MisbehavingPublisher<Int, Boom>([.value(1), .completion(.finished), .subscription,
                                                         .value(2), .completion(.finished), .value(3),
                                                         .completion(.failure(Boom()))])
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.handleEvents(receiveOutput: { log.add("value \($0)") },
                              receiveCompletion: { log.add("completion \($0)") })
            .subscribe(subscriber)
        #expect(log.entries == ["value 2", "completion finished"])
        #expect(subscriber.values == [2])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.handleEvents(receiveOutput: { _ in }) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.handleEvents(receiveCompletion: { _ in }) }, requestingNone: .isIgnored)
        checkContract { Just(1).handleEvents(receiveRequest: { _ in }) }
        checkContract { Fail<Int, Boom>(error: Boom()).handleEvents(receiveCancel: {}) }
    }
}
