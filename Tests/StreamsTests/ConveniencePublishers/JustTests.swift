import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("Just")
struct JustTests {
    @Test func marbles() {
        assertMarbles(Just(7), "[7|]")
        assertMarbles(Just("hello"), "['hello'|]")
        assertMarbles(Just(1), "", demand: .none)
    }

    @Test func waitsForDemand_S1() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Just(5).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])
        #expect(subscriber.completion == .finished)
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func eachSubscriberGetsTheValue() {
        let just = Just(3)
        #expect(values(just) == [3])
        #expect(values(just) == [3])
        #expect(just == Just(3))
        #expect(just.output == 3)
    }

    @Test func mapIsEvaluatedEagerlyAsInCombine() {
        let mapped: Just<String> = Just(2).map { "\($0 * 21)" }
        #expect(mapped.output == "42")
    }

    // A `Subscribers.Sink` gets Just's value and completion without a subscription object
    // (`sendOneValue`, Engines/OneValueSubscription.swift). These tests pin that it sees exactly
    // what a subscription would have delivered.

    @Test func aSinkGetsTheValueThenFinished() {
        let log = LockedLog()
        let sink = loggingSink(log)
        Just(4).subscribe(sink)
        #expect(log.entries == ["4", "finished"])
        // Finished: a later subscription is cancelled, as after any completion (S2).
        let later = TestPublisher<Int, Never>()
        later.subscribe(sink)
        #expect(later.history == [.cancelled])
        Just(5).subscribe(sink)
        #expect(log.entries == ["4", "finished"])
    }

    @Test func aSinkThatAlreadyHasASubscriptionGetsNothing_S2() {
        let log = LockedLog()
        let sink = loggingSink(log)
        let first = TestPublisher<Int, Never>()
        first.subscribe(sink)
        Just(1).subscribe(sink)
        Just(2).eraseToAnyPublisher().subscribe(sink)  // the unspecialized path
        #expect(log.entries.isEmpty)
        first.send(3)
        #expect(log.entries == ["3"])
        #expect(first.history == [.requested(.unlimited)])
        sink.cancel()
    }

    @Test func aCancelledSinkGetsNothing_S6() {
        let log = LockedLog()
        let sink = loggingSink(log)
        sink.cancel()
        Just(1).subscribe(sink)
        #expect(log.entries.isEmpty)
    }

    @Test func aSinkReachedThroughAnyPublisherGetsTheValueThenFinished() {
        let log = LockedLog()
        let cancellable = Just(6).eraseToAnyPublisher().sink(
            receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("\($0)") })
        #expect(log.entries == ["6", "finished"])
        _ = cancellable
    }

    @Test func aSinkCancelledByItsValueGetsNoCompletion_S6() {
        final class Holder { var cancellable: AnyCancellable? }
        let log = LockedLog()
        let holder = Holder()
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { log.append("\($0)") },
            receiveValue: {
                log.append("\($0)")
                holder.cancellable?.cancel()
            })
        holder.cancellable = AnyCancellable(sink)
        Just(7).subscribe(sink)
        #expect(log.entries == ["7"])
        holder.cancellable = nil
    }

    @Test func cancelBeforeRequestDeliversNothing_S6() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Just(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 1)
    }

    @Test func cancelInsideReceiveSuppressesTheCompletion_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { _ in
            box.subscriber?.cancel()
            return .none
        })
        box.subscriber = subscriber
        Just(1).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
    }

    @Test func concurrentRequestAndCancelDeliverAtMostOnce_S6() {
        for _ in 0..<500 {
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            Just(1).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 2 { subscriber.cancel() } else { subscriber.request(.max(1)) }
            }
            #expect(subscriber.values.count <= 1)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func cancelReleasesTheValue_S7() {
        final class Token {}
        weak var weakToken: Token?
        let subscriber = RecordingSubscriber<Token, Never>(demand: nil)
        do {
            let token = Token()
            weakToken = token
            Just(token).subscribe(subscriber)
        }
        #expect(weakToken != nil)
        subscriber.cancel()
        #expect(weakToken == nil)
        #expect(subscriber.subscription != nil)  // the subscription itself is still held
    }

    @Test func deliveryReleasesTheValue_S7() {
        final class Token {}
        weak var weakToken: Token?
        let holder = SubscriptionHolder<Token>()
        do {
            let token = Token()
            weakToken = token
            Just(token).subscribe(holder)
        }
        #expect(weakToken != nil)
        holder.subscription?.request(.max(1))
        #expect(holder.received == 1)
        #expect(holder.finished)
        #expect(holder.subscription != nil)  // the subscription itself is still held
        #expect(weakToken == nil)
    }

    @Test func aSubscriptionDroppedUnusedReleasesTheValueAndTheSubscriber() {
        final class Token {}
        weak var weakToken: Token?
        weak var weakSubscriber: RecordingSubscriber<Token, Never>?
        do {
            let subscriber = RecordingSubscriber<Token, Never>(demand: nil)
            weakSubscriber = subscriber
            let token = Token()
            weakToken = token
            Just(token).subscribe(subscriber)
            subscriber.releaseSubscription()
        }
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
    }

    /// A value too big to sit inside the subscription object (it keeps the downstream and the
    /// value in a block of their own then): delivered, cancelled and dropped unused as any other.
    @Test func aLargeValueIsDeliveredCancelledAndReleasedAsAnyOther_S7() {
        final class Token {}
        struct Large {
            let token: Token
            let numbers: (Int, Int, Int, Int, Int, Int, Int)
        }
        weak var weakToken: Token?
        // Delivered: the value arrives whole, then the subscription no longer holds it.
        var sevenths: [Int] = []
        let holder = SubscriptionHolder<Large> { sevenths.append($0.numbers.6) }
        do {
            let token = Token()
            weakToken = token
            Just(Large(token: token, numbers: (1, 2, 3, 4, 5, 6, 7))).subscribe(holder)
        }
        #expect(weakToken != nil)
        holder.subscription?.request(.max(1))
        #expect(holder.received == 1)
        #expect(sevenths == [7])
        #expect(holder.finished)
        #expect(holder.subscription != nil)
        #expect(weakToken == nil)
        // Cancelled: nothing arrives, and the value goes at once.
        let cancelled = RecordingSubscriber<Large, Never>(demand: nil)
        do {
            let token = Token()
            weakToken = token
            Just(Large(token: token, numbers: (1, 2, 3, 4, 5, 6, 7))).subscribe(cancelled)
        }
        cancelled.cancel()
        #expect(weakToken == nil)
        #expect(cancelled.values.isEmpty)
        // Dropped unused: the subscription's deinit releases the value and the subscriber.
        weak var weakSubscriber: RecordingSubscriber<Large, Never>?
        do {
            let subscriber = RecordingSubscriber<Large, Never>(demand: nil)
            weakSubscriber = subscriber
            let token = Token()
            weakToken = token
            Just(Large(token: token, numbers: (1, 2, 3, 4, 5, 6, 7))).subscribe(subscriber)
            subscriber.releaseSubscription()
        }
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Just(1).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages == ["API violation (S9): Just was asked for .none; a request must be for at least one value"])
        #expect(subscriber.values.isEmpty)
    }

    @Test func requestingNoneStopsTheProgram_S9() async {
        await #expect(processExitsWith: .failure) {
            final class Asker: Subscriber {
                typealias Input = Int
                typealias Failure = Never
                func receive(subscription: Subscription) { subscription.request(.none) }
                func receive(_ input: Int) -> Subscribers.Demand { .none }
                func receive(completion: Subscribers.Completion<Never>) {}
            }
            Just(1).subscribe(Asker())
        }
    }

    @Test func contract() {
        checkContract { Just(1) }
        checkContract { Just("a").map { $0 + "b" } }
        checkContract { Just(1).filter { $0 > 0 } }
        checkContract { Just(1).tryMap { $0 + 1 } }
        checkContract({ Just(1).append(2, 3) }, requestingNone: .isIgnored)
    }
}

/// Keeps its subscription, not the values it gets: counts them and shows each to `look`, which
/// must not keep it either.
private final class SubscriptionHolder<Input>: Subscriber {
    typealias Failure = Never
    var subscription: Subscription?
    var received = 0
    var finished = false
    let look: (Input) -> Void

    init(look: @escaping (Input) -> Void = { _ in }) { self.look = look }

    func receive(subscription: Subscription) { self.subscription = subscription }
    func receive(_ input: Input) -> Subscribers.Demand {
        received += 1
        look(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { finished = true }
}

/// A sink of `Int`s that logs each value and the completion as text: the one-value publishers'
/// tests (Just, Optional.Publisher, Result.Publisher) subscribe it directly.
func loggingSink(_ log: LockedLog) -> Subscribers.Sink<Int, Never> {
    Subscribers.Sink(receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("\($0)") })
}
