import Streams
import StreamsTesting
import Testing

@Suite("combineLatest(_:), CombineLatest3, CombineLatest4")
struct CombineLatestTests {
    /// Not as in Combine, which gives each of them a subscriber with an identifier of its own:
    /// the subscribers a `combineLatest` gives its upstreams share the operator's `combineIdentifier`
    /// (README, "Deviations from Combine"). Pinned so that a change is noticed.
    @Test func upstreamSubscribersShareOneCombineIdentifier() {
        var identifiers: [CombineIdentifier] = []
        let upstream = AnyPublisherCapture<Int, Never> { identifiers.append($0.combineIdentifier) }
        let cancellable = upstream.combineLatest(upstream).sink { _ in }
        #expect(identifiers.count == 2)
        #expect(identifiers.first == identifiers.last)
        cancellable.cancel()
    }

    typealias Boom = MergeTests.Boom

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles(["-1---2-3---|",
                       "---a-----b-|"], { $0[0].combineLatest($0[1]) { $0 + $1 } }, "---'1a'-'2a'-'3a'-'3b'-|")
        // Tuples, without a transform; several values before the other's first: only the latest counts.
        assertMarbles(["-12----|",
                       "----a-|"], { $0[0].combineLatest($0[1]).map { "\($0.0)\($0.1)" } }, "----'2a'--|")
        // Finishes only when every upstream has finished.
        assertMarbles(["-1-|",
                       "---a---|"], { $0[0].combineLatest($0[1]) { $0 + $1 } }, "---'1a'---|")
        // An upstream that finishes without a value: nothing is ever sent, and it still waits.
        assertMarbles(["-|",
                       "-a-b-|"], { $0[0].combineLatest($0[1]) { $0 + $1 } }, "-----|")
        // The first failure cancels the other upstreams.
        assertMarbles(["-1---^",
                       "---a---b-|"], { $0[0].combineLatest($0[1]) { $0 + $1 } }, "---'1a'-[;^]")
        assertMarbles(Just(1).combineLatest([2, 3].publisher).map { "\($0.0)\($0.1)" }, "['12''13'|]")
    }

    @Test func marblesForEveryArity() {
        assertMarbles(["-1-----2-|",
                       "---a-----|",
                       "-----x---|"], { $0[0].combineLatest($0[1], $0[2]).map { $0.0 + $0.1 + $0.2 } },
                      "-----'1ax'-'2ax'-|")
        assertMarbles(["-1-----2-|",
                       "---a-----|",
                       "-----x---|"], { $0[0].combineLatest($0[1], $0[2]) { $0 + $1 + $2 } },
                      "-----'1ax'-'2ax'-|")
        assertMarbles(["-1------2-|",
                       "--a-------|",
                       "---x------|",
                       "----7---8-|"], { $0[0].combineLatest($0[1], $0[2], $0[3]).map { $0.0 + $0.1 + $0.2 + $0.3 } },
                      "----'1ax7'---['2ax7''2ax8']-|")
        assertMarbles(["-1------2-|",
                       "--a-------|",
                       "---x------|",
                       "----7---8-|"], { $0[0].combineLatest($0[1], $0[2], $0[3]) { $0 + $1 + $2 + $3 } },
                      "----'1ax7'---['2ax7''2ax8']-|")
        assertMarbles(["-1-",
                       "-a-",
                       "-x-",
                       "--^"], { $0[0].combineLatest($0[1], $0[2], $0[3]) { $0 + $1 + $2 + $3 } }, "--[;;;^]")
    }

    @Test func docExampleOutputs() {
        let width = PassthroughSubject<Int, Never>()
        let height = PassthroughSubject<Int, Never>()
        var tuples: [String] = []
        var products: [Int] = []
        let c1 = width.combineLatest(height).sink { tuples.append("\($0)") }
        let c2 = width.combineLatest(height) { $0 * $1 }.sink { products.append($0) }
        width.send(1)
        width.send(2)
        height.send(10)
        width.send(3)
        #expect(tuples == ["(2, 10)", "(3, 10)"])
        #expect(products == [20, 30])
        c1.cancel()
        c2.cancel()

        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        var triples: [String] = []
        let c3 = a.combineLatest(b, c).sink { triples.append("\($0)") }
        a.send(1)
        b.send(2)
        c.send(3)
        a.send(4)
        #expect(triples == ["(1, 2, 3)", "(4, 2, 3)"])
        c3.cancel()

        let sum3 = Just(1).combineLatest(Just(2), [3, 4].publisher) { (a: Int, b: Int, c: Int) in a + b + c }
        #expect(values(sum3) == [6, 7])
        #expect(values(Just(1).combineLatest(Just("a"), Just(true), [2.5, 3.5].publisher).map { "\($0)" })
                == [#"(1, "a", true, 2.5)"#, #"(1, "a", true, 3.5)"#])
        let sum4 = Just(1).combineLatest(Just(2), Just(3), [4, 5].publisher) { (a: Int, b: Int, c: Int, d: Int) in
            a + b + c + d
        }
        #expect(values(sum4) == [10, 11])
    }

    @Test func typesPropertiesAndEquality() {
        let two: Publishers.CombineLatest<Just<Int>, Just<String>> = Just(1).combineLatest(Just("a"))
        #expect(two.a == Just(1) && two.b == Just("a"))
        #expect(two == Publishers.CombineLatest(Just(1), Just("a")))
        let mapped: Publishers.Map<Publishers.CombineLatest<Just<Int>, Just<String>>, String> =
            Just(1).combineLatest(Just("a")) { "\($0)\($1)" }
        #expect(mapped.upstream == two)
        let three: Publishers.CombineLatest3<Just<Int>, Just<Int>, Just<Int>> = Just(1).combineLatest(Just(2), Just(3))
        #expect(three.c == Just(3) && three == Publishers.CombineLatest3(Just(1), Just(2), Just(3)))
        let four: Publishers.CombineLatest4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
            Just(1).combineLatest(Just(2), Just(3), Just(4))
        #expect(four.d == Just(4) && four != Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(5)))
        let _: Publishers.Map<Publishers.CombineLatest3<Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2), Just(3)) { (a: Int, b: Int, c: Int) in a + b + c }
        let _: Publishers.Map<Publishers.CombineLatest4<Just<Int>, Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2), Just(3), Just(4)) { (a: Int, b: Int, c: Int, d: Int) in a + b + c + d }
    }

    // MARK: Demand

    @Test func requestsAndReturnedDemandGoToEveryUpstream() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(3) })
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        #expect(a.history == [.requested(.max(2))])
        #expect(b.history == [.requested(.max(2))])
        a.send(1)
        b.send(10)
        subscriber.request(.unlimited)
        #expect(subscriber.values == [11])
        #expect(a.history == [.requested(.max(2)), .requested(.max(3)), .requested(.unlimited)])
        #expect(b.history == [.requested(.max(2)), .requested(.max(3)), .requested(.unlimited)])
    }

    /// As in Combine: a tuple that finds no demand is dropped, but the value is remembered.
    @Test func aTupleWithoutDemandIsDroppedButItsValueIsKept_S1() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<String, Never>(demand: nil)
        a.combineLatest(b) { "\($0)\($1)" }.subscribe(subscriber)
        a.send(1)
        b.send("a")
        a.send(2)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [])
        b.send("b")
        #expect(subscriber.values == ["2b"])
        a.send(3)
        #expect(subscriber.values == ["2b"])
        subscriber.request(.max(2))
        a.send(4)
        b.send("c")
        a.send(5)
        #expect(subscriber.values == ["2b", "4b", "4c"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anUpstreamThatSubscribesLateIsAskedForEverythingRequestedSoFar() {
        var side: AnySubscriber<Int, Never>?
        let late = AnyPublisherCapture<Int, Never>(subscribing: false) { side = $0 }
        let a = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        a.combineLatest(late) { $0 + $1 }.subscribe(subscriber)
        subscriber.request(.unlimited)
        let b = TestPublisher<Int, Never>()
        b.subscribe(side!)
        #expect(b.history == [.requested(.unlimited)])
        a.send(1)
        b.send(2)
        #expect(subscriber.values == [3])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<(Int, Int), Never>(demand: nil)
        upstream.combineLatest(TestPublisher<Int, Never>()).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func finishesWhenEveryUpstreamHasFinished() {
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        upstreams[0].combineLatest(upstreams[1], upstreams[2]) { $0 + $1 + $2 }.subscribe(subscriber)
        for (index, upstream) in upstreams.enumerated() { upstream.send(index) }
        upstreams[0].send(completion: .finished)
        upstreams[2].send(completion: .finished)
        upstreams[1].send(10)
        #expect(subscriber.events == [.subscription, .value(3), .value(12)])
        upstreams[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(3), .value(12), .completion(.finished)])
        for upstream in upstreams { #expect(upstream.history == [.requested(.unlimited)]) }
    }

    @Test func theFirstFailureCancelsTheOthers() {
        let upstreams = (0..<4).map { _ in TestPublisher<Int, Boom>() }
        let subscriber = RecordingSubscriber<Int, Boom>()
        upstreams[0].combineLatest(upstreams[1], upstreams[2], upstreams[3]) { $0 + $1 + $2 + $3 }.subscribe(subscriber)
        upstreams[0].send(1)
        upstreams[3].send(completion: .finished)
        upstreams[2].send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstreams[0].history == [.requested(.unlimited), .cancelled])
        #expect(upstreams[1].history == [.requested(.unlimited), .cancelled])
        #expect(upstreams[2].history == [.requested(.unlimited)])
        #expect(upstreams[3].history == [.requested(.unlimited)])
        upstreams[1].send(1)
        #expect(subscriber.events.count == 2)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anUpstreamThatFailsWhileSubscribingStopsTheRestFromBeingSubscribed() {
        let later = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<(Int, Int), Boom>()
        Fail<Int, Boom>(error: Boom()).combineLatest(later).subscribe(subscriber)
        #expect(subscriber.completion == .failure(Boom()))
        #expect(later.subscriptions.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsEveryUpstream() {
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        upstreams[0].combineLatest(upstreams[1], upstreams[2]) { $0 + $1 + $2 }.subscribe(subscriber)
        for upstream in upstreams { upstream.send(1) }
        subscriber.cancel()
        for upstream in upstreams { #expect(upstream.history == [.requested(.unlimited), .cancelled]) }
        upstreams[0].send(2)
        #expect(subscriber.values == [3])
    }

    @Test func cancelAndCompletionReleaseEverything_S7() {
        for ending in [Ending.cancel, .finish, .fail] {
            let probes = (0..<2).map { _ in ProbePublisher<Captured, Boom>() }
            weak var weakCaptured: Captured?
            weak var weakLatest: Captured?
            weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
            do {
                let captured = Captured()
                weakCaptured = captured
                let latest = Captured()
                weakLatest = latest
                let subscriber = RecordingSubscriber<Int, Boom>()
                weakSubscriber = subscriber
                probes[0].combineLatest(probes[1].map { $0 }) { $0.offset + $1.offset + captured.offset }
                    .subscribe(subscriber)
                probes[0].send(latest)
                probes[1].send(latest)
                #expect(subscriber.values == [0])
                ending.apply(to: probes, subscriber)
                subscriber.releaseSubscription()
            }
            #expect(weakSubscriber == nil, "\(ending)")
            #expect(weakCaptured == nil, "\(ending)")
            #expect(weakLatest == nil, "the latest values are let go (\(ending))")
            for probe in probes { #expect(probe.liveSubscriptions == 0, "\(ending)") }
        }
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<(Int, Int), Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<(Int, Int), Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        Just(7).combineLatest((0..<10_000).publisher).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.map(\.1) == Array(0..<10_000))
        #expect(subscriber.values.allSatisfy { $0.0 == 7 })
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelFromInsideReceiveStopsEverything_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { _ in
            box.subscriber?.cancel()
            return .none
        })
        box.subscriber = subscriber
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(10)
        a.send(2)
        box.subscriber = nil
        #expect(subscriber.values == [11])
        #expect(a.history == [.requested(.unlimited), .cancelled])
        #expect(b.history == [.requested(.unlimited), .cancelled])
    }

    @Test func aValueSentFromInsideReceiveIsDeliveredAfterTheCurrentOne_S3() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 11 { b.send(20) }
            return .none
        })
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(10)
        a.send(2)
        #expect(subscriber.values == [11, 21, 22])
        #expect(subscriber.violations.isEmpty)
    }

    /// An upstream's subscription is let go of after the engine unlocks: its deinit may call
    /// back into the stream (here it asks for more), which would deadlock under the lock. (The
    /// optimizer once moved that release before the unlock: `swift test -c release` checks it.)
    @Test(.timeLimit(.minutes(1)))
    func aFinishedUpstreamsSubscriptionIsLetGoOfAfterUnlocking() {
        final class Upstream: Publisher, @unchecked Sendable {
            typealias Output = Int
            typealias Failure = Never
            final class Handle: Subscription, @unchecked Sendable {
                var onDeinit: (() -> Void)?
                func request(_ demand: Subscribers.Demand) {}
                func cancel() {}
                deinit { onDeinit?() }
            }
            var subscriber: AnySubscriber<Int, Never>?
            /// Held only by the subscriber: the combining engine's slot.
            weak var handle: Handle?
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                let handle = Handle()
                self.handle = handle
                self.subscriber = AnySubscriber(subscriber)
                subscriber.receive(subscription: handle)
            }
        }
        let first = Upstream()
        let second = Upstream()
        let subscriber = RecordingSubscriber<(Int, Int), Never>()
        first.combineLatest(second).subscribe(subscriber)
        var deinitRan = false
        first.handle?.onDeinit = {
            subscriber.request(.max(1))
            deinitRan = true
        }
        _ = second.subscriber?.receive(1)
        first.subscriber?.receive(completion: .finished)
        #expect(deinitRan)
        second.subscriber?.receive(completion: .finished)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (CombineLatest)", as in Combine.
        let subscriber = RecordingSubscriber<(Int, Int), Never>(demand: nil)
        TestPublisher<Int, Never>().combineLatest(TestPublisher<Int, Never>()).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "CombineLatest")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's combineLatest ignores what an upstream sends before its subscription or
        // after its end, and cancels a second subscription; each input is checked.
        checkIgnoresMisbehavingUpstream({ $0.combineLatest(Just(2).setFailureType(to: Boom.self)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Just(2).setFailureType(to: Boom.self).combineLatest($0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.combineLatest(Empty<Int, Boom>(completeImmediately: false)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Just(2).setFailureType(to: Boom.self).combineLatest(Just(3).setFailureType(to: Boom.self), $0) },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Just(2).setFailureType(to: Boom.self).combineLatest(Just(3).setFailureType(to: Boom.self),
                                                                                             Just(4).setFailureType(to: Boom.self), $0) },
                                        value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ Just(1).combineLatest(Just(2)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).combineLatest((0..<300).publisher) }, requestingNone: .isIgnored)
        checkContract({ Just(1).combineLatest((0..<300).publisher) { $0 + $1 } }, requestingNone: .isIgnored)
        checkContract({ Just(1).combineLatest(Just(2), (0..<300).publisher) }, requestingNone: .isIgnored)
        checkContract({ Just(1).combineLatest(Just(2), (0..<300).publisher) { $0 + $1 + $2 } }, requestingNone: .isIgnored)
        checkContract({ Just(1).combineLatest(Just(2), Just(3), (0..<300).publisher) }, requestingNone: .isIgnored)
        checkContract({ Just(1).combineLatest(Just(2), Just(3), (0..<300).publisher) { $0 + $1 + $2 + $3 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.combineLatest((0..<300).publisher) }, deterministic: false, requestingNone: .isIgnored)
    }

    @Test func contractWhenEndingEarlyOrFailing() {
        checkContract({ Just(1).combineLatest((0..<300).publisher).prefix(5) }, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).combineLatest((0..<300).publisher.setFailureType(to: Boom.self)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).setFailureType(to: Boom.self).combineLatest(Fail<Int, Boom>(error: Boom())) }, requestingNone: .isIgnored)
    }
}
