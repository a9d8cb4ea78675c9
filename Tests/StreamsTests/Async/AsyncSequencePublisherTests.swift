import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// An async sequence of 1...limit (or endless) that counts the `next()` calls, and checks each
/// one against the demand the test says it has granted: a pull beyond it is recorded.
struct CountingAsyncSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    final class Probe: Sendable {
        let pulls = Atomic<Int>(0)
        let granted = Atomic<Int>(0)
        let pullsBeyondDemand = Atomic<Int>(0)
        let liveIterators = Atomic<Int>(0)
        init() {}
        func grant(_ n: Int) { granted.add(n, ordering: .sequentiallyConsistent) }
        var pullCount: Int { pulls.load(ordering: .sequentiallyConsistent) }
    }

    let limit: Int?
    let probe: Probe
    /// Whether the probe's `granted` is kept by the test (otherwise it is not checked).
    let checksDemand: Bool

    init(limit: Int?, probe: Probe = Probe(), checksDemand: Bool = false) {
        self.limit = limit
        self.probe = probe
        self.checksDemand = checksDemand
    }

    final class Iterator: AsyncIteratorProtocol {
        let sequence: CountingAsyncSequence
        var next = 1
        init(_ sequence: CountingAsyncSequence) {
            self.sequence = sequence
            sequence.probe.liveIterators.add(1, ordering: .sequentiallyConsistent)
        }
        deinit { sequence.probe.liveIterators.subtract(1, ordering: .sequentiallyConsistent) }
        func next() async -> Int? {
            let pull = sequence.probe.pulls.add(1, ordering: .sequentiallyConsistent).newValue
            if sequence.checksDemand, pull > sequence.probe.granted.load(ordering: .sequentiallyConsistent) {
                sequence.probe.pullsBeyondDemand.add(1, ordering: .sequentiallyConsistent)
            }
            if let limit = sequence.limit, next > limit { return nil }
            defer { next += 1 }
            return next
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(self) }
}

/// A type that is both a `Sequence` and an `AsyncSequence`.
struct BothKinds: Sequence, AsyncSequence, Sendable {
    typealias Element = Int
    struct Iterator: IteratorProtocol, AsyncIteratorProtocol {
        var remaining = 2
        mutating func next() -> Int? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            return remaining
        }
    }
    func makeIterator() -> Iterator { Iterator() }
    func makeAsyncIterator() -> Iterator { Iterator() }
}

@Suite("AsyncSequencePublisher", .timeLimit(.minutes(1)))
struct AsyncSequencePublisherTests {
    struct Boom: Error, Equatable {}

    /// Subscribes `subscriber` and waits until it has a completion.
    static func run<P: Publisher>(_ publisher: P, _ subscriber: RecordingSubscriber<P.Output, P.Failure>) async -> Bool {
        publisher.subscribe(subscriber)
        return await pollUntil { subscriber.completion != nil }
    }

    // MARK: Marbles (values over time)

    @Test func sendsTheElementsThenFinishes() async {
        let subscriber = RecordingSubscriber<Int, Never>()
        #expect(await Self.run(AsyncSequencePublisher(CountingAsyncSequence(limit: 3)), subscriber))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func docExample() async {
        let stream = AsyncStream<Int> { continuation in
            for n in 1...3 { continuation.yield(n) }
            continuation.finish()
        }
        let printed = LockedLog()
        let c = AsyncSequencePublisher(stream).sink { printed.append("\($0)") }
        #expect(await pollUntil { printed.entries.count == 3 })
        #expect(printed.entries == ["1", "2", "3"])
        c.cancel()
    }

    @Test func roundTripThroughValues() async {
        #expect(await asyncElements(AsyncSequencePublisher(CountingAsyncSequence(limit: 5)).values) == [1, 2, 3, 4, 5])
    }

    @Test func theFailureTypeIsTheSequences() {
        func failure<P: Publisher>(of publisher: P) -> ObjectIdentifier { ObjectIdentifier(P.Failure.self) }
        #expect(failure(of: AsyncSequencePublisher(AsyncStream<Int> { _ in })) == ObjectIdentifier(Never.self))
        #expect(failure(of: AsyncSequencePublisher(AsyncThrowingStream<Int, any Error> { _ in })) == ObjectIdentifier((any Error).self))
        let publisher = AsyncSequencePublisher(CountingAsyncSequence(limit: 1))
        #expect(publisher.base.limit == 1)
    }

    @Test func aTypeThatIsBothKeepsTheSequencePublisher() {
        let publisher: Publishers.Sequence<BothKinds, Never> = BothKinds().publisher
        #expect(values(publisher) == [1, 0])
        let asynchronous = AsyncSequencePublisher(BothKinds())
        _ = asynchronous
    }

    // MARK: Demand

    @Test func pullsAnElementOnlyForDemand() async {
        let probe = CountingAsyncSequence.Probe()
        let sequence = CountingAsyncSequence(limit: nil, probe: probe, checksDemand: true)
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        AsyncSequencePublisher(sequence).subscribe(subscriber)
        #expect(probe.pullCount == 0)
        for round in 1...20 {
            probe.grant(1)
            subscriber.request(.max(1))
            #expect(await pollUntil { subscriber.values.count == round })
        }
        probe.grant(3)
        subscriber.request(.max(3))
        #expect(await pollUntil { subscriber.values.count == 23 })
        subscriber.cancel()
        #expect(subscriber.values == Array(1...23))
        #expect(probe.pullsBeyondDemand.load(ordering: .sequentiallyConsistent) == 0)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func theEndIsSeenOnlyWhenAskedForOneMore() async {
        let probe = CountingAsyncSequence.Probe()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(3))
        AsyncSequencePublisher(CountingAsyncSequence(limit: 3, probe: probe)).subscribe(subscriber)
        #expect(await pollUntil { subscriber.values.count == 3 })
        #expect(probe.pullCount == 3)
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(await pollUntil { subscriber.completion != nil })
        #expect(subscriber.completion == .finished)
        #expect(subscriber.values == [1, 2, 3])
        #expect(probe.pullCount == 4)
    }

    @Test func demandReturnedFromReceiveCounts() async {
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in .max(1) })
        #expect(await Self.run(AsyncSequencePublisher(CountingAsyncSequence(limit: 50)), subscriber))
        #expect(subscriber.values == Array(1...50))
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsAViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        AsyncSequencePublisher(CountingAsyncSequence(limit: 1)).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
        #expect(messages.first?.contains("AsyncSequencePublisher") == true)
        subscriber.cancel()
    }

    // MARK: Completion and failure

    @Test func aThrownErrorFailsThePublisher() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: Boom())
        }
        let subscriber = RecordingSubscriber<Int, any Error>()
        #expect(await Self.run(AsyncSequencePublisher(stream), subscriber))
        #expect(subscriber.values == [1])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func anEmptySequenceFinishesOnTheFirstRequest() async {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        AsyncSequencePublisher(CountingAsyncSequence(limit: 0)).subscribe(subscriber)
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(await pollUntil { subscriber.completion != nil })
        #expect(subscriber.values.isEmpty)
    }

    @Test func eachSubscriptionIteratesAnew() async {
        let sequence = CountingAsyncSequence(limit: 2)
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        #expect(await Self.run(AsyncSequencePublisher(sequence), first))
        #expect(await Self.run(AsyncSequencePublisher(sequence), second))
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    // MARK: Cancellation

    @Test func cancelStopsTheIteratingTask() async {
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let (observed, observe) = AsyncStream<Bool>.makeStream()
        // A sequence whose `next()` waits until its task is cancelled.
        struct Endless: AsyncSequence, Sendable {
            let enter: AsyncStream<Void>.Continuation
            let observe: AsyncStream<Bool>.Continuation
            struct Iterator: AsyncIteratorProtocol {
                let enter: AsyncStream<Void>.Continuation
                let observe: AsyncStream<Bool>.Continuation
                func next() async -> Int? {
                    enter.yield()
                    let (never, _) = AsyncStream<Void>.makeStream()
                    for await _ in never {}  // ends when the task is cancelled
                    observe.yield(Task.isCancelled)
                    return nil
                }
            }
            func makeAsyncIterator() -> Iterator { Iterator(enter: enter, observe: observe) }
        }
        let subscriber = RecordingSubscriber<Int, Never>()
        AsyncSequencePublisher(Endless(enter: enter, observe: observe)).subscribe(subscriber)
        for await _ in entered { break }
        subscriber.cancel()
        var sawCancellation = false
        for await cancelled in observed {
            sawCancellation = cancelled
            break
        }
        #expect(sawCancellation)
        #expect(subscriber.completion == nil)
        #expect(subscriber.values.isEmpty)
    }

    @Test func cancelWhileWaitingForDemandEndsTheTask() async {
        let probe = CountingAsyncSequence.Probe()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        AsyncSequencePublisher(CountingAsyncSequence(limit: nil, probe: probe)).subscribe(subscriber)
        #expect(await pollUntil { subscriber.values.count == 2 })
        subscriber.cancel()
        subscriber.request(.max(5))
        #expect(await pollUntil { probe.liveIterators.load(ordering: .sequentiallyConsistent) == 0 })
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
    }

    @Test func cancelBeforeAnyRequestNeverStartsATask() {
        let probe = CountingAsyncSequence.Probe()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        AsyncSequencePublisher(CountingAsyncSequence(limit: nil, probe: probe)).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(probe.liveIterators.load(ordering: .sequentiallyConsistent) == 0)
        #expect(probe.pullCount == 0)
    }

    @Test func cancelReleasesTheSubscriber_S7() async {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let probe = CountingAsyncSequence.Probe()
        do {
            let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakSubscriber = subscriber
            AsyncSequencePublisher(CountingAsyncSequence(limit: nil, probe: probe)).subscribe(subscriber)
            #expect(await pollUntil { subscriber.values.count == 1 })
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
    }

    @Test func completionReleasesTheSubscriber_S7() async {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            #expect(await Self.run(AsyncSequencePublisher(CountingAsyncSequence(limit: 2)), subscriber))
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() async {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        #expect(await Self.run(AsyncSequencePublisher(CountingAsyncSequence(limit: 10_000)), subscriber))
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelFromInsideReceive() async {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let probe = CountingAsyncSequence.Probe()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 3 { box.subscriber?.cancel() }
            return .none
        })
        box.subscriber = subscriber
        AsyncSequencePublisher(CountingAsyncSequence(limit: nil, probe: probe)).subscribe(subscriber)
        #expect(await pollUntil { probe.liveIterators.load(ordering: .sequentiallyConsistent) == 0 && subscriber.values.count >= 3 })
        box.subscriber = nil
        #expect(subscriber.values == [1, 2, 3])
        #expect(probe.pullCount == 3)
    }

    // MARK: Contract

    @Test func contractOnAsynchronousDelivery() async {
        // The contract checker needs synchronous delivery; here the same rules are watched by
        // recording subscribers with different demand, until each has what it asked for.
        let subscribers = [Subscribers.Demand.max(1), .max(7), .unlimited].map {
            RecordingSubscriber<Int, Never>(demand: $0)
        }
        for subscriber in subscribers { AsyncSequencePublisher(CountingAsyncSequence(limit: 20)).subscribe(subscriber) }
        #expect(await pollUntil { subscribers.map(\.values.count) == [1, 7, 20] && subscribers[2].completion != nil })
        #expect(subscribers[0].completion == nil)
        for subscriber in subscribers {
            #expect(subscriber.violations.isEmpty)
            subscriber.cancel()
        }
    }
}
