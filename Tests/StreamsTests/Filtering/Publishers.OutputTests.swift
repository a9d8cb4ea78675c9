import Streams
import StreamsTesting
import Testing

@Suite("output(at:), output(in:), prefix(_:)")
struct OutputTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-|", { $0.output(at: 0) }, "-[a;|]")
        assertMarbles("-a-b-|", { $0.output(at: 5) }, "-----|")
        assertMarbles("-a-b-^", { $0.output(at: 5) }, "-----^")
        assertMarbles("-a-b-c-d-e-|", { $0.output(in: 1..<3) }, "---b-[c;|]")
        assertMarbles("-a-b-c-d-e-|", { $0.output(in: ..<2) }, "-a-[b;|]")
        assertMarbles("-a-b-c-d-e-|", { $0.output(in: ...1) }, "-a-[b;|]")
        assertMarbles("-a-b-c-d-e-|", { $0.output(in: 3...) }, "-------d-e-|")
        assertMarbles("-a-b-c-^", { $0.output(in: 1...5) }, "---b-c-^")
        assertMarbles("-a-|", { $0.prefix(2) }, "-a-|")
        // Through a general publisher (a Sequence's prefix fuses: see SequenceFusionTests).
        assertMarbles(AnyPublisher((0...10).publisher).prefix(2), "[01|]")
        assertMarbles((0...10).publisher.output(in: 3...5), "[345|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].publisher.output(at: 5)) == [6])
        #expect(values([1, 1, 2, 2, 2, 3, 4, 5, 6].publisher.output(in: 3...5)) == [2, 2, 3])
        #expect(values(AnyPublisher((0...10).publisher).prefix(2)) == [0, 1])
    }

    @Test func publisherPropertiesFollowCombine() {
        let upstream = [1, 2, 3].publisher
        #expect(upstream.output(at: 4).range == 4..<5)
        #expect(upstream.output(in: 2...).range == 2..<Int.max)
        #expect(upstream.output(in: ...3).range == 0..<4)
        #expect(AnyPublisher(upstream).prefix(3).range == 0..<3)
        #expect(upstream.output(in: 1..<2) == Publishers.Output(upstream: upstream, range: 1..<2))
    }

    // MARK: Demand

    @Test func skippedValuesGiveBackOneDemandEach() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.output(in: 2...3).subscribe(subscriber)
        #expect(upstream.send(0) == .max(1))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.history == [.requested(.max(1))])
        subscriber.request(.max(1))
        #expect(upstream.send(3) == .none)
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(1)), .cancelled])
        #expect(subscriber.events == [.subscription, .value(2), .value(3), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func prefixDemandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(4) })
        upstream.prefix(3).subscribe(subscriber)
        #expect(upstream.send(1) == .max(4))
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1))])
    }

    @Test func prefixCancelsUpstreamAfterTheLastValue_S15() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(5))
        upstream.prefix(2).subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.history == [.requested(.max(5))])
        #expect(upstream.send(2) == .none)
        #expect(upstream.history == [.requested(.max(5)), .cancelled])
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    // MARK: Completion and failure

    /// As Combine: an empty range does not end at the subscription but at the upstream's first
    /// event. A value is not sent: it cancels the upstream and finishes (S15).
    @Test func prefixZeroEndsAtTheUpstreamsFirstValue_S15() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.prefix(0).subscribe(subscriber)
        #expect(upstream.history == [])
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(upstream.send(1) == .none)
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        #expect(subscriber.events == [.subscription, .completion(.finished)])

        let emptyRange = RecordingSubscriber<Int, Never>()
        let upstream2 = TestPublisher<Int, Never>()
        upstream2.output(in: 3..<3).subscribe(emptyRange)
        #expect(upstream2.history == [.requested(.unlimited)])
        upstream2.send(7)
        #expect(upstream2.history == [.requested(.unlimited), .cancelled])
        #expect(emptyRange.events == [.subscription, .completion(.finished)])
        #expect(emptyRange.violations.isEmpty)
    }

    /// As Combine's `Publishers.Output`: the subscriber gets its subscription when the
    /// upstream's arrives, its requests go straight up (nothing is asked up front, nothing
    /// held), and the first value ends the stream. Behind a `dropFirst`, whose subscriber gets
    /// its subscription before the upstream is subscribed, the demand asked meanwhile is asked
    /// for with the values to drop.
    @Test func prefixZeroPassesDemandThroughAndEndsAtTheFirstValue() {
        let late = LateSubscriptionPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        late.prefix(0).subscribe(subscriber)
        #expect(subscriber.events.isEmpty)
        late.sendSubscriptions()
        #expect(subscriber.events == [.subscription])
        #expect(late.history == [.requested(.max(2))])
        subscriber.request(.max(1))
        #expect(late.history == [.requested(.max(2)), .requested(.max(1))])
        #expect(late.upstream.send(9) == .none)
        #expect(late.history == [.requested(.max(2)), .requested(.max(1)), .cancelled])
        #expect(subscriber.events == [.subscription, .completion(.finished)])

        let behindDrop = LateSubscriptionPublisher<Int, Never>()
        let dropped = RecordingSubscriber<Int, Never>(demand: .max(1))
        behindDrop.dropFirst(2).prefix(0).subscribe(dropped)
        #expect(dropped.events == [.subscription])
        behindDrop.sendSubscriptions()
        #expect(behindDrop.history == [.requested(.max(3))])
        for value in 1...3 { behindDrop.send(value) }
        #expect(behindDrop.history == [.requested(.max(3)), .cancelled])
        #expect(dropped.events == [.subscription, .completion(.finished)])
        #expect(dropped.violations.isEmpty)
    }

    /// Combine passes a failure through `prefix(0)`: `Fail(error: e).prefix(0)` fails with `e`.
    @Test func prefixZeroPassesTheUpstreamsCompletion() {
        let failed = RecordingSubscriber<Int, Boom>(demand: nil)
        Fail<Int, Boom>(error: Boom()).prefix(0).subscribe(failed)
        #expect(failed.events == [.subscription, .completion(.failure(Boom()))])

        let finished = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().output(in: 2..<2).subscribe(finished)
        #expect(finished.events == [.subscription, .completion(.finished)])
    }

    @Test func emptyRangeOnASynchronousSourceSendsNothing() {
        // The Sequence delivers while the downstream is still being subscribed, before the
        // operator could finish an empty range: the first value must end it.
        let subscriber = RecordingSubscriber<Int, Never>()
        AnyPublisher([1, 2, 3].publisher).prefix(0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func upstreamCompletionBeforeTheRangeIsDonePassesThrough() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.output(in: 1...3).subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])

        let finished = RecordingSubscriber<Int, Never>()
        [1].publisher.output(at: 3).subscribe(finished)
        #expect(finished.events == [.subscription, .completion(.finished)])
    }

    @Test func signalsAfterTheRangeAreIgnored_S4() {
        let subscriber = RecordingSubscriber<Int, Never>()
        HeedlessPublisher(values: [1, 2, 3, 4]).output(in: 1...2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .value(3), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)

        let empty = RecordingSubscriber<Int, Never>()
        HeedlessPublisher(values: [1, 2]).prefix(0).subscribe(empty)
        #expect(empty.events == [.subscription, .completion(.finished)])
        #expect(empty.violations.isEmpty)
    }

    @Test func eachSubscriptionCountsFromZero() {
        let publisher = AnyPublisher([1, 2, 3].publisher).output(at: 1)
        #expect(values(publisher) == [2])
        #expect(values(publisher) == [2])
    }

    @Test func negativeIndexStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPublisher<Int, Never>().output(at: -1)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("output(at: -1): the index must not be negative"))
    }

    @Test func negativeRangeStartStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPublisher<Int, Never>().output(in: -2...3)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("output(in:): the range starts at position -2; positions count the upstream's values from 0 and must not be negative"))
    }

    @Test func negativeRangeEndStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPublisher<Int, Never>().output(in: ..<(-1))
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("output(in:): the range ends below position 0"))
    }

    @Test func negativeRangeInTheInitializerStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Publishers.Output(upstream: TestPublisher<Int, Never>(), range: -1..<2)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("Publishers.Output: the range -1..<2 starts at a negative position"))
    }

    @Test func negativePrefixStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPublisher<Int, Never>().prefix(-3)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("prefix(-3): the maximum length must not be negative"))
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.output(in: 1...2).subscribe(subscriber)
        subscriber.request(.max(2))
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(2)), .cancelled])
    }

    @Test func cancelInsideTheLastValueStopsTheCompletionAndDoesNotCancelTwice_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 2 { box.subscriber?.cancel() }
            return .none
        })
        box.subscriber = subscriber
        upstream.prefix(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        box.subscriber = nil
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelInsideTheSubscriptionOfAnEmptyRangeGetsNoCompletion_S6() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onSubscription: { $0.cancel() })
        upstream.prefix(0).subscribe(subscriber)
        upstream.send(1)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.cancelled])
    }

    @Test func endingEarlyReleasesTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.prefix(1).sink { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        upstream.send(1)
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.output(at: 3).sink { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Its own subscription

    @Test func subscriptionIsCombinesOutput() {
        checkOwnSubscription(named: "Output") { $0.output(in: 1..<3) }
        checkOwnSubscription(named: "Output") { $0.prefix(0) }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.output(at: 1) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.prefix(2) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.prefix(0) }, value: 1, failure: Boom())
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
        (0..<10_000).publisher.output(in: 2_000..<9_000).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(2_000..<9_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        // The types ask for the general operator: on a collection Combine evaluates these at once.
        typealias Output = Publishers.Output<Publishers.Sequence<Range<Int>, Never>>
        checkContract({ () -> Output in (0..<300).publisher.output(at: 150) }, requestingNone: .isIgnored)
        checkContract({ () -> Output in (0..<300).publisher.output(in: 100..<200) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.output(in: 100...) }, requestingNone: .isIgnored)
        checkContract({ () -> Output in (0..<300).publisher.output(in: 250..<400) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 }.prefix(120) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 }.prefix(0) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.output(in: 100..<200) }, requestingNone: .isIgnored)
        // The subscriber holds the operator's own subscription, not Just's: `.none` is ignored.
        checkContract({ () -> Publishers.Output<Just<Int>> in Just(1).output(at: 0) }, requestingNone: .isIgnored)
    }
}
