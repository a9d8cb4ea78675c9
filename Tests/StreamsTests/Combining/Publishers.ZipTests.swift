import Streams
import StreamsTesting
import Testing

@Suite("zip(_:), Zip3, Zip4")
struct ZipTests {
    /// Not as in Combine, which gives each of them a subscriber with an identifier of its own:
    /// the subscribers a `zip` gives its upstreams share the operator's `combineIdentifier`
    /// (README, "Deviations from Combine"). Pinned so that a change is noticed.
    @Test func upstreamSubscribersShareOneCombineIdentifier() {
        var identifiers: [CombineIdentifier] = []
        let upstream = AnyPublisherCapture<Int, Never> { identifiers.append($0.combineIdentifier) }
        let cancellable = upstream.zip(upstream).sink { _ in }
        #expect(identifiers.count == 2)
        #expect(identifiers.first == identifiers.last)
        cancellable.cancel()
    }

    typealias Boom = MergeTests.Boom

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles(["-1-2-----3-|",
                       "---a-b-c---|"], { $0[0].zip($0[1]) { $0 + $1 } }, "---'1a'-'2b'---'3c'-[;|]")
        // Tuples, without a transform.
        assertMarbles(["-1-2-|",
                       "-a-b-|"], { $0[0].zip($0[1]).map { "\($0.0)\($0.1)" } }, "-'1a'-'2b'-[;|]")
        // An upstream that finishes with a value still unpaired: zip finishes after pairing it
        // (it cancels the other upstream as soon as it takes that pair, before sending it).
        assertMarbles(["-1-|",
                       "---a-b"], { $0[0].zip($0[1]) { $0 + $1 } }, "---[;'1a'|]")
        // An upstream that finishes with nothing left to pair ends zip at once.
        assertMarbles(["-|",
                       "-a-"], { $0[0].zip($0[1]) { $0 + $1 } }, "-[;|]")
        assertMarbles(["-1-2-|",
                       "-a----b"], { $0[0].zip($0[1]) { $0 + $1 } }, "-'1a'----[;'2b'|]")
        // The first failure cancels the other upstream, even with values waiting.
        assertMarbles(["-1-2-^",
                       "-a----"], { $0[0].zip($0[1]) { $0 + $1 } }, "-'1a'---[;^]")
        assertMarbles([1, 2, 3].publisher.zip(["a", "b"].publisher).map { "\($0.0)\($0.1)" }, "['1a''2b'|]")
    }

    @Test func marblesForEveryArity() {
        assertMarbles(["-1---2---|",
                       "--a---b--|",
                       "---x---y-|"], { $0[0].zip($0[1], $0[2]).map { $0.0 + $0.1 + $0.2 } },
                      "---'1ax'---'2by'-[;;|]")
        assertMarbles(["-1---2---|",
                       "--a---b--|",
                       "---x---y-|"], { $0[0].zip($0[1], $0[2]) { $0 + $1 + $2 } },
                      "---'1ax'---'2by'-[;;|]")
        assertMarbles(["-1----|",
                       "--a---|",
                       "---x--|",
                       "----7-|"], { $0[0].zip($0[1], $0[2], $0[3]).map { $0.0 + $0.1 + $0.2 + $0.3 } },
                      "----'1ax7'-[;;;|]")
        assertMarbles(["-1----|",
                       "--a---|",
                       "---x--|",
                       "----7-|"], { $0[0].zip($0[1], $0[2], $0[3]) { $0 + $1 + $2 + $3 } },
                      "----'1ax7'-[;;;|]")
        assertMarbles(["-1-2-",
                       "-a-b-",
                       "-x---",
                       "---^-"], { $0[0].zip($0[1], $0[2], $0[3]) { $0 + $1 + $2 + $3 } }, "---[;;;^]")
    }

    @Test func docExampleOutputs() {
        let numbers = PassthroughSubject<Int, Never>()
        let letters = PassthroughSubject<String, Never>()
        var printed: [String] = []
        let c = numbers.zip(letters).sink { printed.append("\($0)") }
        numbers.send(1)
        numbers.send(2)
        letters.send("a")
        letters.send("b")
        #expect(printed == [#"(1, "a")"#, #"(2, "b")"#])
        c.cancel()

        #expect(values([1, 2, 3].publisher.zip(["a", "b"].publisher) { String(repeating: $1, count: $0) })
                == ["a", "bb"])
        #expect(values([1, 2].publisher.zip(["a", "b"].publisher, [true, false].publisher).map { "\($0)" })
                == [#"(1, "a", true)"#, #"(2, "b", false)"#])
        let sum3 = [1, 2].publisher.zip([10, 20].publisher, [100, 200].publisher) { (a: Int, b: Int, c: Int) in a + b + c }
        #expect(values(sum3) == [111, 222])
        #expect(values(Just(1).zip(Just("a"), Just(true), Just(2.5)).map { "\($0)" }) == [#"(1, "a", true, 2.5)"#])
        let sum4 = Just(1).zip(Just(2), Just(3), Just(4)) { (a: Int, b: Int, c: Int, d: Int) in a + b + c + d }
        #expect(values(sum4) == [10])
    }

    @Test func typesPropertiesAndEquality() {
        let zip: Publishers.Zip<Just<Int>, Just<String>> = Just(1).zip(Just("a"))
        #expect(zip.a == Just(1) && zip.b == Just("a"))
        #expect(zip == Publishers.Zip(Just(1), Just("a")))
        let mapped: Publishers.Map<Publishers.Zip<Just<Int>, Just<String>>, String> = Just(1).zip(Just("a")) { "\($0)\($1)" }
        #expect(mapped.upstream == zip)
        let three: Publishers.Zip3<Just<Int>, Just<Int>, Just<Int>> = Just(1).zip(Just(2), Just(3))
        #expect(three.c == Just(3) && three == Publishers.Zip3(Just(1), Just(2), Just(3)))
        let four: Publishers.Zip4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> = Just(1).zip(Just(2), Just(3), Just(4))
        #expect(four.d == Just(4) && four != Publishers.Zip4(Just(1), Just(2), Just(3), Just(5)))
        let _: Publishers.Map<Publishers.Zip3<Just<Int>, Just<Int>, Just<Int>>, Int> = Just(1).zip(Just(2), Just(3)) { $0 + $1 + $2 }
        let _: Publishers.Map<Publishers.Zip4<Just<Int>, Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).zip(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 }
    }

    // MARK: Demand

    @Test func eachUpstreamIsAskedForWhatTheDownstreamAsksFor() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<(Int, String), Never>(demand: .max(2))
        a.zip(b).subscribe(subscriber)
        #expect(a.history == [.requested(.max(2))])
        #expect(b.history == [.requested(.max(2))])
        subscriber.request(.max(3))
        subscriber.request(.unlimited)
        #expect(a.history == [.requested(.max(2)), .requested(.max(3)), .requested(.unlimited)])
        #expect(b.history == [.requested(.max(2)), .requested(.max(3)), .requested(.unlimited)])
    }

    @Test func demandReturnedFromReceiveGoesToEveryUpstream() {
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<(Int, Int, Int), Never>(demand: .max(1), onValue: { _ in .max(2) })
        upstreams[0].zip(upstreams[1], upstreams[2]).subscribe(subscriber)
        for (index, upstream) in upstreams.enumerated() { upstream.send(index) }
        #expect(subscriber.values.map { [$0.0, $0.1, $0.2] } == [[0, 1, 2]])
        for upstream in upstreams { #expect(upstream.history == [.requested(.max(1)), .requested(.max(2))]) }
    }

    @Test func aPairWaitsForDemand_S1() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<String, Never>(demand: .max(1))
        a.zip(b) { "\($0)\($1)" }.subscribe(subscriber)
        // TestPublisher sends whether asked or not: zip keeps what it cannot deliver.
        for value in 1...3 { a.send(value) }
        for letter in ["a", "b", "c"] { b.send(letter) }
        #expect(subscriber.values == ["1a"])
        subscriber.request(.max(1))
        #expect(subscriber.values == ["1a", "2b"])
        subscriber.request(.max(5))
        #expect(subscriber.values == ["1a", "2b", "3c"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anUpstreamThatSubscribesLateIsAskedForEverythingRequestedSoFar() {
        var side: AnySubscriber<Int, Never>?
        let late = AnyPublisherCapture<Int, Never>(subscribing: false) { side = $0 }
        let a = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<(Int, Int), Never>(demand: .max(2))
        a.zip(late).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(a.history == [.requested(.max(2)), .requested(.max(3))])
        let b = TestPublisher<Int, Never>()
        b.subscribe(side!)
        #expect(b.history == [.requested(.max(5))])
        a.send(1)
        b.send(2)
        #expect(subscriber.values.map { [$0.0, $0.1] } == [[1, 2]])
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<(Int, Int), Never>(demand: nil)
        upstream.zip(TestPublisher<Int, Never>()).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func finishingWithValuesLeftWaitsUntilTheyArePaired() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<String, Never>()
        a.zip(b) { "\($0)\($1)" }.subscribe(subscriber)
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        b.send("a")
        #expect(subscriber.events == [.subscription, .value("1a")])
        #expect(b.history == [.requested(.unlimited)])
        b.send("b")
        #expect(subscriber.events == [.subscription, .value("1a"), .value("2b"), .completion(.finished)])
        #expect(b.history == [.requested(.unlimited), .cancelled])
        #expect(a.history == [.requested(.unlimited)])
    }

    @Test func finishingWithNothingLeftEndsAtOnceAndCancelsTheOthers() {
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        upstreams[0].zip(upstreams[1], upstreams[2]) { $0 + $1 + $2 }.subscribe(subscriber)
        upstreams[0].send(1)
        upstreams[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstreams[0].history == [.requested(.unlimited), .cancelled])
        #expect(upstreams[1].history == [.requested(.unlimited)])
        #expect(upstreams[2].history == [.requested(.unlimited), .cancelled])
    }

    @Test func theLastPairWaitsForDemandBeforeTheCompletion() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<String, Never>(demand: nil)
        a.zip(b) { "\($0)\($1)" }.subscribe(subscriber)
        a.send(1)
        a.send(completion: .finished)
        b.send("a")
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value("1a"), .completion(.finished)])
        // The request that completed the last pair was not passed on: nothing more can be paired.
        #expect(a.history == [])
        #expect(b.history == [.cancelled])
    }

    @Test func theFirstFailureCancelsTheOthersAndDropsUnpairedValues() {
        let a = TestPublisher<Int, Boom>()
        let b = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        a.zip(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        a.send(2)
        b.send(10)
        b.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(11), .completion(.failure(Boom()))])
        #expect(a.history == [.requested(.unlimited), .cancelled])
        a.send(3)
        #expect(subscriber.events.count == 3)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anUpstreamThatEndsWhileSubscribingStopsTheRestFromBeingSubscribed() {
        let later = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<(Int, Int), Never>()
        Empty<Int, Never>().zip(later).subscribe(subscriber)
        #expect(subscriber.events.count == 2)
        #expect(subscriber.completion == .finished)
        #expect(later.subscriptions.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelCancelsEveryUpstream() {
        let upstreams = (0..<4).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        upstreams[0].zip(upstreams[1], upstreams[2], upstreams[3]) { $0 + $1 + $2 + $3 }.subscribe(subscriber)
        upstreams[0].send(1)
        subscriber.cancel()
        for upstream in upstreams { #expect(upstream.history == [.requested(.unlimited), .cancelled]) }
        for upstream in upstreams { upstream.send(1) }
        #expect(subscriber.values.isEmpty)
    }

    @Test func cancelAndCompletionReleaseEverything_S7() {
        for ending in [Ending.cancel, .finish, .fail] {
            let probes = (0..<3).map { _ in ProbePublisher<Int, Boom>() }
            weak var weakCaptured: Captured?
            weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
            do {
                let captured = Captured()
                weakCaptured = captured
                let subscriber = RecordingSubscriber<Int, Boom>()
                weakSubscriber = subscriber
                probes[0].zip(probes[1], probes[2].map { $0 + captured.offset }) { $0 + $1 + $2 + captured.offset }
                    .subscribe(subscriber)
                for probe in probes { probe.send(1) }
                probes[1].send(2)
                #expect(subscriber.values == [3])
                ending.apply(to: probes, subscriber)
                subscriber.releaseSubscription()
            }
            #expect(weakSubscriber == nil, "\(ending)")
            #expect(weakCaptured == nil, "\(ending)")
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
        (0..<10_000).publisher.zip((10_000..<20_000).publisher).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.map(\.0) == Array(0..<10_000))
        #expect(subscriber.values.map(\.1) == Array(10_000..<20_000))
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
        a.zip(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        a.send(2)
        b.send(10)
        b.send(20)
        box.subscriber = nil
        #expect(subscriber.values == [11])
        #expect(a.history == [.requested(.unlimited), .cancelled])
        #expect(b.history == [.requested(.unlimited), .cancelled])
    }

    @Test func aValueSentFromInsideReceiveIsDeliveredAfterTheCurrentOne_S3() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 11 {
                a.send(2)
                b.send(20)
            }
            return .none
        })
        a.zip(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(10)
        a.send(3)
        b.send(30)
        #expect(subscriber.values == [11, 22, 33])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Zip)", as in Combine.
        let subscriber1 = RecordingSubscriber<(Int, Int), Never>(demand: nil)
        TestPublisher<Int, Never>().zip(TestPublisher<Int, Never>()).subscribe(subscriber1)
        #expect(subscriber1.subscription.map { String(describing: $0) } == "Zip")
        let subscriber2 = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().zip(TestPublisher<Int, Never>(), TestPublisher<Int, Never>()) { $0 + $1 + $2 }.subscribe(subscriber2)
        #expect(subscriber2.subscription.map { String(describing: $0) } == "Zip")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's zip ignores what an upstream sends before its subscription or after its end,
        // and cancels a second subscription; each input is checked.
        checkIgnoresMisbehavingUpstream({ $0.zip(Just(2).setFailureType(to: Boom.self)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Just(2).setFailureType(to: Boom.self).zip($0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.zip(Empty<Int, Boom>(completeImmediately: false)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Just(2).setFailureType(to: Boom.self).zip(Just(3).setFailureType(to: Boom.self), $0) },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Just(2).setFailureType(to: Boom.self).zip(Just(3).setFailureType(to: Boom.self),
                                                                                   Just(4).setFailureType(to: Boom.self), $0) },
                                        value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.zip((0..<300).publisher) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.zip((0..<300).publisher) { $0 * $1 } }, requestingNone: .isIgnored)
        checkContract({ Just(1).zip(Just(2)) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.zip(Just(1), (0..<300).publisher) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.zip((0..<300).publisher, (0..<300).publisher) { $0 + $1 + $2 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.zip((0..<300).publisher, (0..<300).publisher, (0..<300).publisher) }, requestingNone: .isIgnored)
        checkContract({ Just(1).zip(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 } }, requestingNone: .isIgnored)
    }

    @Test func contractWhenEndingEarlyOrFailing() {
        checkContract({ (0..<300).publisher.zip((0..<10).publisher) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.zip((0..<300).publisher).prefix(5) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self).zip(Fail<Int, Boom>(error: Boom())) }, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).zip((0..<300).publisher.setFailureType(to: Boom.self)) }, requestingNone: .isIgnored)
    }
}
