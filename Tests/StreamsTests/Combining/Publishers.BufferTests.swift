import Streams
import StreamsTesting
import Testing

@Suite("buffer")
struct BufferTests {
    struct Boom: Error, Equatable {}
    struct Full: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        // With demand, values go straight through.
        assertMarbles("-a-b-c-|", { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest) }, "-a-b-c-|")
        assertMarbles("-a-b-c-|", { $0.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest) }, "-a-b-c-|")
        // Without demand, values wait and `.finished` waits behind them.
        assertMarbles("-1-2-3-4-|", { $0.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest) },
                      "-1-2------", demand: .max(2))
        // A failure does not wait: the values still buffered are discarded.
        assertMarbles("-1-2-3-^", { $0.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest) },
                      "-1-----^", demand: .max(1))
        assertMarbles([1, 2, 3].publisher.buffer(size: 10, prefetch: .keepFull, whenFull: .dropNewest), "[123|]")
        // As Combine: the prefetch is asked for before the downstream has its subscription, so a
        // synchronous upstream overfills the buffer at once.
        assertMarbles([1, 2, 3].publisher.buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest), "[3|]")
    }

    @Test func docExample() {
        final class Slot: @unchecked Sendable { var subscription: (any Subscription)? }
        let slot = Slot()
        let received = LockedLog()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { slot.subscription = $0 },
            receiveValue: { received.append("\($0)"); return .none })
        subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        slot.subscription?.request(.unlimited)
        #expect(received.entries == ["2", "3"])
    }

    @Test func dropNewestKeepsTheFirstValuesAndDropOldestTheLast() {
        for (strategy, expected) in [(Publishers.BufferingStrategy<Never>.dropNewest, [1, 2, 3]), (.dropOldest, [3, 4, 5])] {
            let upstream = TestPublisher<Int, Never>()
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            upstream.buffer(size: 3, prefetch: .byRequest, whenFull: strategy).subscribe(subscriber)
            for value in 1...5 { upstream.send(value) }
            upstream.send(completion: .finished)
            subscriber.request(.unlimited)
            #expect(subscriber.values == expected)
            #expect(subscriber.completion == .finished)
        }
    }

    // MARK: Demand

    @Test func keepFullAsksForTheSizeThenOneForEachValueThatLeaves() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(3))])
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(upstream.history == [.requested(.max(3)), .requested(.max(1))])
        subscriber.request(.max(3))
        #expect(subscriber.values == [1, 2])
        // With demand left over, a new value goes straight out, and its refill is returned.
        #expect(upstream.send(3) == .max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(upstream.history == [.requested(.max(3)), .requested(.max(1)), .requested(.max(1))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func byRequestAsksForEverythingOnceAsCombineDoes() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.request(.max(5))
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(subscriber.values == [1, 2])
    }

    @Test func neverSendsWithoutDemand_S1() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { $0 == 1 ? .max(1) : .none })
        upstream.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...6 { upstream.send(value) }
        // Asked for 2, and 1 more returned with the first value.
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts request(.none) here and does nothing.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.max(1))])
        #expect("\(subscriber.subscription!)" == "Buffer")
    }

    @Test func thePrefetchIsAskedForBeforeTheSubscriptionIsHandedOver() {
        // As Combine: [1, 7] fills a buffer of one before the downstream can ask, so only 7 is left.
        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        [1, 7].publisher.buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])

        let kept = RecordingSubscriber<Int, Never>(demand: .unlimited)
        [1, 2, 3].publisher.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(kept)
        #expect(kept.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])

        let upstream = TestPublisher<Int, Never>()
        let seen = LockedLog()
        let probe = AnySubscriber<Int, Never>(
            receiveSubscription: { _ in seen.append("\(upstream.history == [.requested(.max(3))])") },
            receiveValue: { _ in .none })
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(probe)
        #expect(seen.entries == ["true"])
    }

    /// Combine's relay operators pass a request made during their handover straight on, so over
    /// a synchronous source a buffer right below one fills before its own subscriber has its
    /// subscription. Here the relay passes it on once its handover is over (S3): the buffer's
    /// subscriber has asked by then, and the values pass without overflowing it.
    @Test func aRelayAboveHoldsThePrefetchUntilItsHandoverIsOver_S3() {
        let log = LockedLog()
        let upstream = TestPublisher<Int, Never>()
        let probe = RecordingSubscriber<Int, Never>(demand: .unlimited, onSubscription: { _ in
            log.append("\(upstream.history)")
        })
        upstream.prefix(while: { _ in true }).buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest)
            .subscribe(probe)
        #expect(log.entries == ["[]"])
        #expect(upstream.history == [.requested(.unlimited)])

        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        AnyPublisher([1, 2, 3, 4].publisher).prefix(while: { _ in true })
            .buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        // Right over the source, the prefetch comes first, as in Combine: only the last value is left.
        let direct = RecordingSubscriber<Int, Never>(demand: .unlimited)
        AnyPublisher([1, 2, 3, 4].publisher).buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest)
            .subscribe(direct)
        #expect(direct.events == [.subscription, .value(4), .completion(.finished)])
    }

    /// Combine asks an upstream that has finished for the `.keepFull` refill; this asks it for
    /// nothing more.
    @Test func aFinishedUpstreamIsNotAskedForARefill() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        subscriber.request(.max(2))
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.history == [.requested(.max(2))])
    }

    @Test func aSizeBelowOneStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPublisher<Int, Never>().buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("buffer(size: 0): the buffer must hold at least 1 value"))
    }

    // MARK: Completion and failure

    @Test func finishedWaitsForTheBufferedValuesAndDemand_S5() {
        // As Combine: after the last buffered value, `.finished` waits for demand.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func finishedWithAnEmptyBufferWaitsForARequest_S5() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aFailureDiscardsTheBufferedValues() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func customErrorCancelsTheUpstreamAndFailsAfterTheBufferedValues() {
        // As Combine: the upstream is cancelled at once; the failure goes out at the next
        // request, after the buffered values that request allows.
        let made = AtomicTickCounter()
        let upstream = TestPublisher<Int, Full>()
        let subscriber = RecordingSubscriber<Int, Full>(demand: .max(1))
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .customError {
            made.increment()
            return Full()
        }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(1)])
        upstream.send(4)  // the buffer is full
        upstream.send(5)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.history == [.requested(.max(2)), .cancelled])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(Full()))])
        #expect(made.count == 1)
        #expect(subscriber.violations.isEmpty)

        let all = RecordingSubscriber<Int, Full>(demand: nil)
        let other = TestPublisher<Int, Full>()
        other.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { Full() }).subscribe(all)
        for value in 1...3 { other.send(value) }
        all.request(.unlimited)
        #expect(all.events == [.subscription, .value(1), .value(2), .completion(.failure(Full()))])
    }

    @Test func ignoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest) },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.buffer(size: 2, prefetch: .keepFull, whenFull: .customError { Boom() }) },
                                        value: 1, failure: Boom())
    }

    // MARK: Cancellation

    @Test func cancelCancelsTheUpstreamAndDeliversNothingMore_S6() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.max(5)), .cancelled])
    }

    @Test func cancelReleasesTheBufferedValuesTheClosureAndTheSubscriber_S7() {
        final class Captured: @unchecked Sendable {}
        weak var weakValue: Captured?
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Captured, Full>?
        let upstream = TestPublisher<Captured, Full>()
        do {
            let value = Captured()
            weakValue = value
            let captured = Captured()
            weakCaptured = captured
            let subscriber = RecordingSubscriber<Captured, Full>(demand: nil)
            weakSubscriber = subscriber
            upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .customError { _ = captured; return Full() })
                .subscribe(subscriber)
            upstream.send(value)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakValue == nil)
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func completionReleasesTheClosureAndTheSubscriber_S7() {
        final class Captured: @unchecked Sendable {}
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Int, Full>?
        let upstream = TestPublisher<Int, Full>()
        do {
            let captured = Captured()
            weakCaptured = captured
            let subscriber = RecordingSubscriber<Int, Full>()
            weakSubscriber = subscriber
            upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .customError { _ = captured; return Full() })
                .subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: .finished)
            #expect(subscriber.completion == .finished)
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        for prefetch in [Publishers.PrefetchStrategy.keepFull, .byRequest] {
            let box = Box()
            let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
                box.subscriber?.request(.max(1))
                return .none
            })
            box.subscriber = subscriber
            (0..<10_000).publisher.buffer(size: 16, prefetch: prefetch, whenFull: .dropNewest).subscribe(subscriber)
            box.subscriber = nil
            // As Combine, byRequest asks the synchronous upstream for everything before the
            // downstream can ask: the first 16 values fill the buffer and the rest are dropped.
            #expect(subscriber.values.count == (prefetch == .keepFull ? 10_000 : 16))
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func cancelFromInsideReceiveStopsTheDrain() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onValue: { value in
            if value == 2 { box.subscriber?.cancel() }
            return .none
        })
        box.subscriber = subscriber
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        subscriber.request(.unlimited)
        box.subscriber = nil
        #expect(subscriber.values == [1, 2])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.buffer(size: 16, prefetch: .keepFull, whenFull: .dropNewest) },
                      requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.buffer(size: 1, prefetch: .keepFull, whenFull: .dropOldest) },
                      requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.buffer(size: 1_000, prefetch: .byRequest, whenFull: .dropOldest) },
                      requestingNone: .isIgnored)
        // A failure discards what is prefetched and not yet asked for, so a subscriber asking
        // step by step sees fewer values before it than an unlimited one.
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.buffer(size: 16, prefetch: .keepFull, whenFull: .dropNewest) }, deterministic: false, requestingNone: .isIgnored)
        // Without demand the byRequest buffer overflows at once, so what arrives depends on the
        // demand: not deterministic, but every rule still holds.
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self)
            .buffer(size: 4, prefetch: .byRequest, whenFull: .customError { Boom() }) },
                      deterministic: false, requestingNone: .isIgnored)
        checkContract({ Empty<Int, Never>().buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest) },
                      requestingNone: .isIgnored)
    }
}
