import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("flatMap")
struct FlatMapTests {
    /// Not as in Combine, which gives each of them a subscriber with an identifier of its own:
    /// the subscribers a `flatMap` gives its inner publishers share the operator's `combineIdentifier`
    /// (README, "Deviations from Combine"). Pinned so that a change is noticed.
    @Test func innerSubscribersShareOneCombineIdentifier() {
        var identifiers: [CombineIdentifier] = []
        let upstream = AnyPublisherCapture<Int, Never> { identifiers.append($0.combineIdentifier) }
        let cancellable = Just(1).append(2).flatMap { _ in upstream }.sink { _ in }
        #expect(identifiers.count == 2)
        #expect(identifiers.first == identifiers.last)
        cancellable.cancel()
    }

    struct Boom: Error, Equatable {}
    typealias Inner = TestPublisher<Int, Boom>
    final class Box<Value>: @unchecked Sendable { var value: Value?; init(_ value: Value? = nil) { self.value = value } }

    // MARK: Marbles

    @Test func marbles() {
        let pick = { (p: [TestPublisher<String, MarbleFailure>]) in
            p[0].flatMap { $0 == "a" ? p[1] : p[2] }
        }
        // The upstream fails: everything ends at once.
        // An inner publisher fails.
        // The upstream finishes first: the stream waits for the inner publishers.
        assertMarbles(inputs: ["-ab|", "--1---2-|", "---3-|"], pick, "--13--2-|")
        // An inner publisher finishes last.
        assertMarbles(inputs: ["-a--|", "--1----2|"], { p in p[0].flatMap { _ in p[1] } }, "--1----2|")
        // Demand for two values: the third waits.
        assertMarbles(inputs: ["-a---b---|", "--1---2-|", "------7---8-|"], pick, "--1---2---", demand: .max(2))
        assertMarbles([1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher }, "[1'10'2'20'3'30'|]")
        assertMarbles((1...3).publisher.flatMap(maxPublishers: .max(1)) { Just($0) }, "[123|]")
        assertMarbles(Empty<Int, Never>().flatMap { Just($0) }, "|")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2, 3].publisher.flatMap { n in [n, n * 10].publisher }) == [1, 10, 2, 20, 3, 30])
        #expect(values((1...3).publisher.flatMap { Just($0 * 2) }) == [2, 4, 6])

        struct Offline: Error, Equatable {}
        let neverFailingInner = RecordingSubscriber<Int, Offline>()
        [1, 2].publisher.setFailureType(to: Offline.self).flatMap { Just($0 * 10) }.subscribe(neverFailingInner)
        #expect(neverFailingInner.events == [.subscription, .value(10), .value(20), .completion(.finished)])

        let failingInner = RecordingSubscriber<String, Offline>()
        ["a", "b"].publisher.flatMap { _ in Fail<String, Offline>(error: Offline()) }.subscribe(failingInner)
        #expect(failingInner.events == [.subscription, .completion(.failure(Offline()))])
    }

    @Test func overloadsMatchCombinesTypes() {
        let neither: Publishers.FlatMap<Just<Int>, Publishers.Sequence<[Int], Never>> =
            [1].publisher.flatMap { Just($0) }
        let innerFails: Publishers.FlatMap<Fail<Int, Boom>, Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, Boom>> =
            [1].publisher.flatMap { _ in Fail<Int, Boom>(error: Boom()) }
        let upstreamFails: Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, Boom>, Inner> =
            Inner().flatMap { Just($0) }
        let both: Publishers.FlatMap<Inner, Inner> = Inner().flatMap { _ in Inner() }
        #expect(neither.maxPublishers == .unlimited)
        #expect(innerFails.maxPublishers == .unlimited)
        #expect(upstreamFails.maxPublishers == .unlimited)
        #expect(Inner().flatMap(maxPublishers: .max(2)) { _ in Inner() }.maxPublishers == .max(2))
        _ = both
    }

    // MARK: Demand

    @Test func asksTheUpstreamForUnlimitedByDefault() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstream.flatMap { $0 }.subscribe(subscriber)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func maxPublishersLimitsTheUpstreamAndAsksOneMorePerFinishedInner() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.flatMap(maxPublishers: .max(2)) { $0 }.subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(2))])
        let inners = [Inner(), Inner(), Inner()]
        upstream.send(inners[0])
        upstream.send(inners[1])
        inners[0].send(completion: .finished)
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1))])
        upstream.send(inners[2])
        inners[1].send(completion: .finished)
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1)), .requested(.max(1))])
        upstream.send(completion: .finished)
        inners[2].send(completion: .finished)
        // The upstream has finished: nothing more is asked of it.
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1)), .requested(.max(1))])
        #expect(subscriber.completion == .finished)
    }

    @Test func maxPublishersNoneAsksTheUpstreamForNothing_S9() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.flatMap(maxPublishers: .none) { $0 }.subscribe(subscriber)
        #expect(upstream.history == [])
        upstream.send(completion: .finished)
        #expect(subscriber.completion == .finished)
    }

    @Test func maxPublishersOnASequenceSubscribesOneInnerAtATime() {
        let log = Box<[String]>([])
        let subscriber = RecordingSubscriber<Int, Never>()
        (1...3).publisher
            .flatMap(maxPublishers: .max(1)) { n in
                [n, n].publisher.handleEvents(receiveSubscription: { _ in log.value!.append("+\(n)") },
                                              receiveCompletion: { _ in log.value!.append("-\(n)") })
            }
            .subscribe(subscriber)
        #expect(log.value == ["+1", "-1", "+2", "-2", "+3", "-3"])
        #expect(subscriber.values == [1, 1, 2, 2, 3, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func innersAreAskedForOneValueAtATimeWhileDemandIsLimited_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(2))
        upstream.flatMap { $0 }.subscribe(subscriber)
        let first = Inner(), second = Inner()
        upstream.send(first)
        upstream.send(second)
        #expect(first.history == [.requested(.max(1))])
        #expect(second.history == [.requested(.max(1))])
        // Delivered: the inner gets its unit back by the returned demand.
        #expect(first.send(1) == .max(1))
        #expect(first.send(2) == .max(1))
        // No demand left: the value waits and the inner is asked for nothing.
        #expect(first.send(3) == .none)
        #expect(second.send(10) == .none)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(first.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(second.history == [.requested(.max(1))])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2, 3, 10])
        #expect(second.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func innersAreAskedForUnlimitedWhenTheDownstreamIs() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .unlimited)
        upstream.flatMap { $0 }.subscribe(subscriber)
        let inner = Inner()
        upstream.send(inner)
        #expect(inner.history == [.requested(.unlimited)])
        #expect(inner.send(1) == .none)
        #expect(inner.send(2) == .none)
        #expect(subscriber.values == [1, 2])
    }

    @Test func becomingUnlimitedAsksEveryLiveInnerForUnlimited() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1))
        upstream.flatMap { $0 }.subscribe(subscriber)
        let first = Inner(), second = Inner()
        upstream.send(first)
        upstream.send(second)
        first.send(1)
        second.send(2)
        subscriber.request(.unlimited)
        #expect(subscriber.values == [1, 2])
        #expect(first.history == [.requested(.max(1)), .requested(.unlimited)])
        // Its waiting value went out after it was asked for unlimited: nothing more to ask.
        #expect(second.history == [.requested(.max(1)), .requested(.unlimited)])
        #expect(second.send(3) == .none)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func demandReturnedFromReceiveCounts_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1), onValue: { _ in .max(1) })
        upstream.flatMap { $0 }.subscribe(subscriber)
        let inners = [Inner(), Inner(), Inner()]
        for inner in inners { upstream.send(inner) }
        for (index, inner) in inners.enumerated() {
            inner.send(index)
            inner.send(index + 10)
        }
        #expect(subscriber.values == [0, 10, 1, 11, 2, 12])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func manyInnersNeverExceedTheDemand_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(3))
        upstream.flatMap { $0 }.subscribe(subscriber)
        let inners = (0..<5).map { _ in Inner() }
        for inner in inners { upstream.send(inner) }
        for (index, inner) in inners.enumerated() { inner.send(index) }
        #expect(subscriber.values == [0, 1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 1, 2, 3])
        subscriber.request(.unlimited)
        #expect(subscriber.values == [0, 1, 2, 3, 4])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsAViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        TestPublisher<Inner, Boom>().flatMap { $0 }.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
        #expect(messages.first?.contains("FlatMap") == true)
    }

    // MARK: Completion and failure

    @Test func finishesWhenTheUpstreamAndEveryInnerHaveFinished() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        let first = Inner(), second = Inner()
        upstream.send(first)
        upstream.send(second)
        first.send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(subscriber.completion == nil)
        second.send(5)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func waitingValuesGoOutBeforeTheFinish() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1))
        upstream.flatMap { $0 }.subscribe(subscriber)
        let inner = Inner()
        upstream.send(inner)
        inner.send(1)
        inner.send(2)
        inner.send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func upstreamFailureCancelsTheInnersAndDropsWaitingValues() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1))
        upstream.flatMap { $0 }.subscribe(subscriber)
        let inner = Inner()
        upstream.send(inner)
        inner.send(1)
        inner.send(2)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])
        #expect(inner.history == [.requested(.max(1)), .cancelled])
        #expect(upstream.history == [.requested(.unlimited)])
        // Nothing after the completion (S4).
        inner.send(3)
        upstream.send(Inner())
        subscriber.request(.max(3))
        #expect(subscriber.events.count == 3)
    }

    @Test func innerFailureCancelsTheUpstreamAndTheOtherInners_S15() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        let inners = [Inner(), Inner(), Inner()]
        for inner in inners { upstream.send(inner) }
        inners[1].send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(inners[0].history == [.requested(.unlimited), .cancelled])
        #expect(inners[1].history == [.requested(.unlimited)])
        #expect(inners[2].history == [.requested(.unlimited), .cancelled])
        inners[2].send(completion: .failure(Boom()))
        #expect(subscriber.events.count == 2)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func emptyUpstreamFinishesWithoutDemand_S5() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().flatMap { Just($0) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled_S2() {
        let first = CountingSubscription(), second = CountingSubscription()
        let subscriber = RecordingSubscriber<Int, Never>()
        SubscribingTwice<Int>(first: first, second: second).flatMap { Just($0) }.subscribe(subscriber)
        #expect(first.log == ["request(unlimited)"])
        #expect(second.log == ["cancel"])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsTheUpstreamAndEveryInner() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(5))
        upstream.flatMap { $0 }.subscribe(subscriber)
        let first = Inner(), second = Inner()
        upstream.send(first)
        upstream.send(second)
        first.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(first.history == [.requested(.max(1)), .cancelled])
        #expect(second.history == [.requested(.max(1)), .cancelled])
        first.send(2)
        second.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func cancelBeforeTheUpstreamSubscribesCancelsItsSubscription() {
        let upstream = TestPublisher<Inner, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil, onSubscription: { $0.cancel() })
        upstream.flatMap { $0 }.subscribe(subscriber)
        #expect(upstream.history == [.cancelled])
    }

    /// Long-lived inner publishers (subjects) hold the operator through their subscribers until
    /// they are cancelled: cancelling must release everything (S7).
    @Test func cancelWithLongLivedInnersReleasesEverything_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        let upstream = PassthroughSubject<Int, Never>()
        let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        var subscription: (any Subscription)?
        do {
            let captured = Captured()
            weakCaptured = captured
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.flatMap { index in withExtendedLifetime(captured) { inners[index] } }.subscribe(subscriber)
            upstream.send(0)
            upstream.send(1)
            inners[0].send(7)
            #expect(subscriber.values == [7])
            subscription = subscriber.subscription
            weakSubscription = subscription as AnyObject
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured != nil)
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        subscription = nil
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        inners[1].send(8)
    }

    @Test func completionReleasesEverything_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSubscription: AnyObject?
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            do {
                let captured = Captured()
                weakCaptured = captured
                upstream.flatMap { _ in withExtendedLifetime(captured) { inner } }.subscribe(subscriber)
            }
            weakSubscription = subscriber.subscription as AnyObject
            upstream.send(0)
            #expect(weakCaptured != nil)
            upstream.send(completion: .finished)
            // The upstream is over: the closure is let go, though the inner publisher lives on.
            #expect(weakCaptured == nil)
            inner.send(completion: .finished)
            #expect(subscriber.completion == .finished)
            subscriber.releaseSubscription()
        }
        #expect(weakSubscription == nil)
    }

    @Test func failureReleasesEverything_S7() {
        weak var weakSubscription: AnyObject?
        let upstream = PassthroughSubject<Int, Boom>()
        let inners = [PassthroughSubject<Int, Boom>(), PassthroughSubject<Int, Boom>()]
        do {
            let subscriber = RecordingSubscriber<Int, Boom>()
            upstream.flatMap { inners[$0] }.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject
            upstream.send(0)
            upstream.send(1)
            inners[0].send(completion: .failure(Boom()))
            #expect(subscriber.completion == .failure(Boom()))
            subscriber.releaseSubscription()
        }
        #expect(weakSubscription == nil)
    }

    /// An upstream that breaks S3 by sending a value from inside `transform` (nested in the call
    /// that delivers the value before it) has that nested value ignored, as values that break the
    /// contract are; the stream goes on with the upstream's next value.
    @Test func aValueNestedInsideTransformIsIgnored_S3() {
        final class NestingUpstream: Publisher, @unchecked Sendable {  // used on one thread
            typealias Output = Int
            typealias Failure = Never
            var subscriber: AnySubscriber<Int, Never>?
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                self.subscriber = AnySubscriber(subscriber)
                subscriber.receive(subscription: Subscriptions.empty)
            }
        }
        let upstream = NestingUpstream()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.flatMap { value -> Just<Int> in
            if value == 1 { _ = upstream.subscriber?.receive(2) }
            return Just(value * 10)
        }.subscribe(subscriber)
        _ = upstream.subscriber?.receive(1)
        _ = upstream.subscriber?.receive(3)
        #expect(subscriber.values == [10, 30])
    }

    /// `transform` runs while the inner it makes is subscribed in place; a cancel made from
    /// inside it must still let go of it once it returns (S7).
    @Test func cancelFromInsideTransformLetsGoOfIt_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        do {
            let captured = Captured()
            weakCaptured = captured
            upstream.flatMap { value in
                withExtendedLifetime(captured) {
                    subscriber.cancel()
                    return Just(value)
                }
            }.subscribe(subscriber)
        }
        upstream.send(1)
        #expect(weakCaptured == nil)
        #expect(subscriber.values.isEmpty)
        upstream.send(2)
        #expect(subscriber.values.isEmpty)
    }

    /// A cancel from inside `receive(_:)`, while the inner that sent the value is being
    /// subscribed (in place), lets go of `transform` once the subscribe call returns (S7).
    @Test func cancelWhileAnInnerIsSubscribedLetsGoOfTransform_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let box = Box<RecordingSubscriber<Int, Never>>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { _ in
            box.value?.cancel()
            return .none
        })
        box.value = subscriber
        let upstream = PassthroughSubject<Int, Never>()
        do {
            let captured = Captured()
            weakCaptured = captured
            upstream.flatMap { value in withExtendedLifetime(captured) { [value, value].publisher } }
                .subscribe(subscriber)
        }
        upstream.send(1)
        box.value = nil
        #expect(subscriber.values == [1])
        #expect(weakCaptured == nil)
    }

    /// The upstream finishing while an inner is live lets go of `transform` at once, also
    /// when the last value was handled in place (S7).
    @Test func upstreamFinishAfterInPlaceInnersLetsGoOfTransform_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        do {
            let captured = Captured()
            weakCaptured = captured
            upstream.flatMap { value in withExtendedLifetime(captured) { value == 0 ? inner.eraseToAnyPublisher() : Just(value).eraseToAnyPublisher() } }
                .subscribe(subscriber)
        }
        upstream.send(0)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [1, 2])
        #expect(weakCaptured != nil)
        upstream.send(completion: .finished)
        #expect(weakCaptured == nil)
        inner.send(3)
        inner.send(completion: .finished)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        for maxPublishers in [Subscribers.Demand.unlimited, .max(1), .max(3)] {
            let box = Box<RecordingSubscriber<Int, Never>>()
            let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
                box.value?.request(.max(1))
                return .none
            })
            box.value = subscriber
            (0..<10_000).publisher.flatMap(maxPublishers: maxPublishers) { Just($0) }.subscribe(subscriber)
            box.value = nil
            #expect(subscriber.values == Array(0..<10_000))
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func aValueSentFromInsideReceiveIsDeliveredAfterIt_S3() {
        let upstream = TestPublisher<Inner, Boom>()
        let first = Inner(), second = Inner()
        let inside = Box(false), nested = Box(false)
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .unlimited, onValue: { value in
            if inside.value == true { nested.value = true }
            if value == 1 {
                inside.value = true
                second.send(2)
                inside.value = false
            }
            return .none
        })
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        first.send(1)
        #expect(subscriber.values == [1, 2])
        #expect(nested.value == false)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aFailureSentFromInsideReceiveIsDeliveredAfterIt_S3() {
        let upstream = TestPublisher<Inner, Boom>()
        let first = Inner(), second = Inner()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .unlimited, onValue: { value in
            if value == 1 { second.send(completion: .failure(Boom())) }
            return .none
        })
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        first.send(1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])
        #expect(first.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.violations.isEmpty)
    }

    /// Values that find no demand yet wait, one per inner publisher (each was asked for one),
    /// and go out first when the demand comes; then the inners, asked for the rest, send it in
    /// the order they were subscribed (Combine, as OpenCombine's `Outer.request(_:)` shows, also
    /// sends the waiting values first, then asks the inners; in which order it asks them is not
    /// documented). Here the demand comes late because `subscribe(on:)` hands it over on the
    /// scheduler. (Found by the model-based pipelines, seed 0x7c88e3173bcef580, whose model
    /// assumed the demand was there and said `9, 109, 2, 102`.)
    @Test func valuesThatFindNoDemandYetWaitOnePerInnerAndGoFirst_S1() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        subject.prepend(9, 2)
            .flatMap { [$0, $0 + 100].publisher.setFailureType(to: Boom.self) }
            .subscribe(on: scheduler)
            .subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.values == [9, 2, 109, 102])
        #expect(subscriber.violations.isEmpty)

        // The same without a scheduler: nothing asked for, then `.unlimited`.
        let later = RecordingSubscriber<Int, Boom>(demand: nil)
        [9, 2].publisher.setFailureType(to: Boom.self)
            .flatMap { [$0, $0 + 100].publisher.setFailureType(to: Boom.self) }
            .subscribe(later)
        #expect(later.values == [])
        later.request(.unlimited)
        #expect(later.values == [9, 2, 109, 102])
        #expect(later.completion == .finished)
    }

    // MARK: One value at a time while another inner's value is being delivered

    /// The downstream asks for one value at a time (one up front, one more returned per value).
    /// Inner B sends re-entrantly, from inside the delivery of inner A's value: B's value waits
    /// for that call to return, goes down after it, and B is then asked for its next value
    /// (`request(.max(1))`, as its `send` returned `.none`); A gets its next unit back as the
    /// demand its `send` returns. Each inner is asked for one value at a time throughout (as
    /// Combine, whose flatMap asks a new inner for `.max(1)` and, for a value it held, asks
    /// that inner for one more once the value went out: OpenCombine's `Outer.request(_:)`).
    @Test func anInnerSendingWhileAnotherInnersValueIsDeliveredIsAskedOneAtATime_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let first = Inner(), second = Inner()
        let secondReturned = Box<Subscribers.Demand>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1), onValue: { value in
            if value == 1 { secondReturned.value = second.send(2) }
            return .max(1)
        })
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        #expect(first.history == [.requested(.max(1))])
        #expect(second.history == [.requested(.max(1))])
        #expect(first.send(1) == .max(1))
        #expect(secondReturned.value == Subscribers.Demand.none)
        #expect(subscriber.values == [1, 2])
        #expect(first.history == [.requested(.max(1))])
        #expect(second.history == [.requested(.max(1)), .requested(.max(1))])
        // One unit outstanding each: asked for one more, none beyond.
        #expect(first.demand == .max(1))
        #expect(second.demand == .max(1))
        #expect(second.send(3) == .max(1))
        #expect(first.send(4) == .max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(first.history == [.requested(.max(1))])
        #expect(second.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(subscriber.violations.isEmpty)
    }

    /// The same with B sending from another thread while A's value is being delivered, and the
    /// downstream asking for each next value with `request(.max(1))` from inside `receive(_:)`.
    @Test func anInnerSendingFromAnotherThreadDuringADeliveryIsAskedOneAtATime_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let first = Inner(), second = Inner()
        let secondReturned = Box<Subscribers.Demand>()
        let subscriberBox = Box<RecordingSubscriber<Int, Boom>>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1), onValue: { value in
            if value == 1 {
                let sent = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    secondReturned.value = second.send(2)
                    sent.signal()
                }
                sent.wait()  // B's value waits behind this delivery: its send has returned
            }
            subscriberBox.value?.request(.max(1))
            return .none
        })
        subscriberBox.value = subscriber
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        #expect(first.send(1) == .max(1))
        #expect(secondReturned.value == Subscribers.Demand.none)
        #expect(subscriber.values == [1, 2])
        #expect(first.history == [.requested(.max(1))])
        #expect(second.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(first.demand == .max(1))
        #expect(second.demand == .max(1))
        #expect(subscriber.violations.isEmpty)
        subscriberBox.value = nil
    }

    /// B's value arrives while A's value is being delivered and the downstream has no demand
    /// left: it waits, and B is asked for nothing more until the downstream asks for a value,
    /// B's goes out, and then B is asked for its next one.
    @Test func anInnerWhoseValueWaitsForDemandIsAskedAgainOnlyOnceItWentOut_S1() {
        let upstream = TestPublisher<Inner, Boom>()
        let first = Inner(), second = Inner()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1), onValue: { value in
            if value == 1 { second.send(2) }
            return .none
        })
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        #expect(first.send(1) == .max(1))
        #expect(subscriber.values == [1])
        #expect(second.history == [.requested(.max(1))])
        #expect(second.demand == .none)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(second.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(first.history == [.requested(.max(1))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelFromInsideReceiveStopsDelivery_S6() {
        let box = Box<RecordingSubscriber<Int, Never>>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.value?.cancel()
            return .max(5)
        })
        box.value = subscriber
        (0..<100).publisher.flatMap { [$0, $0].publisher }.subscribe(subscriber)
        box.value = nil
        #expect(subscriber.events.count == 2)
    }

    // MARK: Inners that answer while they are subscribed

    @Test func innersThatAnswerWhileSubscribedStillShareTheDemand_S1() {
        // Sequence inners answer inside the call that subscribes them; what finds no demand
        // waits, one per inner, as for any inner.
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(3))
        [1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher }.subscribe(subscriber)
        #expect(subscriber.values == [1, 10, 2])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(10))
        #expect(subscriber.values == [1, 10, 2, 20, 3, 30])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anInnerThatFailsWhileSubscribedEndsTheStreamAtOnce_S15() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .unlimited)
        let made = Box<[Int]>([])
        upstream
            .flatMap { n -> AnyPublisher<Int, Boom> in
                made.value!.append(n)
                return n == 2 ? Fail(error: Boom()).eraseToAnyPublisher() : Just(n).setFailureType(to: Boom.self).eraseToAnyPublisher()
            }
            .subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        // The upstream is cancelled before the failure goes down, and nothing more is taken.
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        upstream.send(3)
        #expect(made.value == [1, 2])
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])
    }

    @Test func aValueSentWhileAnInnerIsBeingSubscribedIsDeliveredByTheSubscribingThread_S3() {
        // While the upstream's thread subscribes an inner, it holds the right to call the
        // subscriber: a value another thread sends meanwhile is handed to it, and delivered
        // before the upstream's `send` returns, never at the same time as the inner's own value.
        let upstream = TestPublisher<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        upstream
            .flatMap { n -> AnyPublisher<Int, Never> in
                if n == 0 { return other.eraseToAnyPublisher() }
                return Deferred { () -> Just<Int> in
                    let sent = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        other.send(7)
                        sent.signal()
                    }
                    sent.wait()
                    return Just(n)
                }.eraseToAnyPublisher()
            }
            .subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        #expect(subscriber.values == [7, 1])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (FlatMap)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().flatMap { Just($0) }.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "FlatMap")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's flatMap ignores what its upstream, or an inner publisher, sends before its
        // subscription or after its end, and cancels a second subscription.
        checkIgnoresMisbehavingUpstream({ $0.flatMap { Just($0 * 10).setFailureType(to: Boom.self) } },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.flatMap(maxPublishers: .max(1)) { Just($0 * 10).setFailureType(to: Boom.self) } },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ inner in Just(0).setFailureType(to: Boom.self).flatMap { _ in inner } },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ inner in [0, 1].publisher.setFailureType(to: Boom.self).flatMap { _ in inner } },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ inner in Empty<Int, Boom>(completeImmediately: false).prepend(0).flatMap { _ in inner } },
                                        value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract { (0..<300).publisher.flatMap { Just($0) } }
        checkContract { (0..<300).publisher.flatMap(maxPublishers: .max(1)) { Just($0) } }
        checkContract { (0..<100).publisher.flatMap(maxPublishers: .max(1)) { [$0, $0 + 100, $0 + 200].publisher } }
        // `prefix`/`first` give their own subscription, which ignores `.none` (S9).
        checkContract({ (0..<300).publisher.flatMap { Just($0) }.prefix(10) }, requestingNone: .isIgnored)
        checkContract { Empty<Int, Never>().flatMap { Just($0) } }
        // With several inners live, how their values interleave depends on when demand comes;
        // a failure drops the values still waiting for demand, so what arrives before it
        // depends on the demand too (as in Combine).
        checkContract({ (0..<30).publisher.flatMap(maxPublishers: .max(3)) { [$0, $0 + 100, $0 + 200].publisher } },
                      deterministic: false)
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self).flatMap { n in
            n == 150 ? Fail<Int, Boom>(error: Boom()).eraseToAnyPublisher()
                : Just(n).setFailureType(to: Boom.self).eraseToAnyPublisher()
        } }, deterministic: false)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.flatMap { Just($0) } }, deterministic: false)
    }

    // Found by the model tests (Tests/StreamsTests/Models, seed 0xf60e528760bf2582 before the
    // generator kept flatMap to ample demand). Demand that arrives after the values: `flatMap`
    // delivers the waiting 2 and asks the inner publisher for its next value while it holds the
    // delivery token, so 102 (for which there is demand) waits; the inner finishes, the upstream
    // sends 3, whose inner fails, and the failure drops 102. With the same demand asked up front
    // 102 is delivered. Left as a known issue: Combine (as OpenCombine records it) also holds a
    // value sent re-entrantly, and which of the two orders Combine shows here is not known.
    /// Found by the model-based random pipelines: 102 comes re-entrantly while 2 is being
    /// delivered, with demand left, so it waits for the call to return; the failure that follows
    /// must not drop it, whether the demand was asked up front or later.
    @Test func aValueSentReentrantlyWithDemandLeftGoesDownBeforeAFailureThatFollows() {
        func make() -> some Publisher<Int, Boom> {
            [2, 3].publisher.setFailureType(to: Boom.self).flatMap(maxPublishers: .max(1)) { v in
                v == 3 ? Fail<Int, Boom>(error: Boom()).eraseToAnyPublisher()
                    : [v, v + 100].publisher.setFailureType(to: Boom.self).eraseToAnyPublisher()
            }
        }
        let upFront = RecordingSubscriber<Int, Boom>(demand: .max(2))
        make().subscribe(upFront)
        #expect(upFront.values == [2, 102])
        #expect(upFront.completion == .failure(Boom()))

        let later = RecordingSubscriber<Int, Boom>(demand: nil)
        make().subscribe(later)
        later.request(.max(2))
        #expect(later.values == [2, 102])
        #expect(later.completion == .failure(Boom()))
    }
}

/// A subscription that logs what it is asked.
final class CountingSubscription: Subscription, @unchecked Sendable {  // `log` is only touched from the test's thread
    var log: [String] = []
    func request(_ demand: Subscribers.Demand) { log.append("request(\(demand))") }
    func cancel() { log.append("cancel") }
}

/// A publisher that breaks S2: it gives its subscriber two subscriptions.
struct SubscribingTwice<Output>: Publisher {
    typealias Failure = Never
    let first: CountingSubscription
    let second: CountingSubscription
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
    }
}
