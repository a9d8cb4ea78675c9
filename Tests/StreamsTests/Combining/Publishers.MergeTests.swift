import Streams
import StreamsTesting
import Testing

@Suite("merge(with:), Merge3…Merge8, MergeMany")
struct MergeTests {
    /// Not as in Combine, which gives each of them a subscriber with an identifier of its own:
    /// the subscribers a `merge` gives its upstreams share the operator's `combineIdentifier`
    /// (README, "Deviations from Combine"). Pinned so that a change is noticed.
    @Test func upstreamSubscribersShareOneCombineIdentifier() {
        var identifiers: [CombineIdentifier] = []
        let upstream = AnyPublisherCapture<Int, Never> { identifiers.append($0.combineIdentifier) }
        let cancellable = upstream.merge(with: upstream).sink { _ in }
        #expect(identifiers.count == 2)
        #expect(identifiers.first == identifiers.last)
        cancellable.cancel()
    }

    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles(["-1---3-|",
                       "---2---4-|"], { $0[0].merge(with: $0[1]) }, "-1-2-3-4-|")
        assertMarbles(["-1-|",
                       "-a---|"], { $0[0].merge(with: $0[1]) }, "-[1a]---|")
        assertMarbles(["-1---^",
                       "---2---3-|"], { $0[0].merge(with: $0[1]) }, "-1-2-[;^]")
        assertMarbles(["-1-|",
                       "--^"], { $0[0].merge(with: $0[1]) }, "-1[;^]")
        assertMarbles(["|",
                       "-1-|"], { $0[0].merge(with: $0[1]) }, "-1-|")
        assertMarbles([1, 2].publisher.merge(with: [3, 4].publisher), "[1234|]")
    }

    @Test func marblesForEveryArity() {
        assertMarbles(["-1-----|", "--2----|", "---3---|"],
                      { $0[0].merge(with: $0[1], $0[2]) }, "-123---|")
        assertMarbles(["-1----|", "--2---|", "---3--|", "----4-|"],
                      { $0[0].merge(with: $0[1], $0[2], $0[3]) }, "-1234-|")
        // A failure in the last of eight cancels the seven others.
        assertMarbles(["-1-", "---", "---", "---", "---", "---", "---", "--^"],
                      { $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5], $0[6], $0[7]) }, "-1[;;;;;;;^]")
        assertMarbles(["-1---|", "--2--|", "---3-|"],
                      { Publishers.MergeMany($0) }, "-123-|")
        assertMarbles(["-1---|", "--2--|", "---3-|"],
                      { Publishers.MergeMany($0[0], $0[1]).merge(with: $0[2]) }, "-123-|")
    }

    @Test func docExampleOutputs() {
        let numbers = PassthroughSubject<Int, Never>()
        let others = PassthroughSubject<Int, Never>()
        var printed: [Int] = []
        let c = numbers.merge(with: others).sink { printed.append($0) }
        numbers.send(1)
        others.send(2)
        numbers.send(3)
        #expect(printed == [1, 2, 3])
        c.cancel()

        #expect(values(Just(1).merge(with: Just(2), Just(3))) == [1, 2, 3])
        #expect(values(Just(1).merge(with: Just(2), Just(3), Just(4))) == [1, 2, 3, 4])
        #expect(values(Just(1).merge(with: Just(2), Just(3), Just(4), Just(5))) == [1, 2, 3, 4, 5])
        #expect(values(Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6))) == [1, 2, 3, 4, 5, 6])
        #expect(values(Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7))) == Array(1...7))
        #expect(values(Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8)))
                == Array(1...8))
        #expect(values([1, 2].publisher.merge(with: [3, 4].publisher)) == [1, 2, 3, 4])
        #expect(values(Publishers.MergeMany([1, 2].publisher, [3].publisher, [4, 5].publisher)) == [1, 2, 3, 4, 5])
    }

    @Test func typesPropertiesAndEquality() {
        let a = Just(1), b = Just(2)
        // Two publishers of one type give a MergeMany; of different types, a Merge.
        let many: Publishers.MergeMany<Just<Int>> = a.merge(with: b)
        #expect(many.publishers == [a, b])
        let two: Publishers.Merge<Just<Int>, Empty<Int, Never>> = a.merge(with: Empty())
        #expect(two.a == a && two.b == Empty())
        // Merging onto a merge makes the next arity, as in Combine.
        let three: Publishers.Merge3<Just<Int>, Empty<Int, Never>, Just<Int>> = two.merge(with: b)
        #expect(three == Publishers.Merge3(a, Empty(), b))
        let eight: Publishers.Merge8<Just<Int>, Empty<Int, Never>, Just<Int>, Just<Int>, Just<Int>, Just<Int>,
                                     Just<Int>, Just<Int>> = two.merge(with: a, a, a, a, a, a)
        #expect(eight.h == a)
        let fromThree: Publishers.Merge8<Just<Int>, Empty<Int, Never>, Just<Int>, Just<Int>, Just<Int>, Just<Int>,
                                         Just<Int>, Just<Int>> = three.merge(with: a, a, a, a, a)
        #expect(fromThree.c == b && fromThree.h == a)
        let fromSeven = Publishers.Merge7(a, Empty<Int, Never>(), a, a, a, a, a).merge(with: b)
        #expect(fromSeven.g == a && fromSeven.h == b)
        #expect(values(fromSeven) == [1, 1, 1, 1, 1, 1, 2])
        #expect(Publishers.MergeMany([a, b]).merge(with: a) == Publishers.MergeMany(a, b, a))
        #expect(Publishers.MergeMany([a]) != Publishers.MergeMany([b]))
    }

    // MARK: Demand

    @Test func unlimitedDemandAsksEveryUpstreamForUnlimited() {
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        upstreams[0].merge(with: upstreams[1], upstreams[2]).subscribe(subscriber)
        for upstream in upstreams { #expect(upstream.history == [.requested(.unlimited)]) }
        upstreams[2].send(3)
        upstreams[0].send(1)
        #expect(subscriber.values == [3, 1])
        for upstream in upstreams { #expect(upstream.history == [.requested(.unlimited)]) }
    }

    @Test func limitedDemandAsksEachUpstreamForOneAtATime_S1() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        a.merge(with: b).subscribe(subscriber)
        #expect(a.history == [.requested(.max(1))])
        #expect(b.history == [.requested(.max(1))])

        // Without demand, each upstream's value waits, and the upstream is not asked for more.
        a.send(1)
        b.send(2)
        #expect(subscriber.values == [])
        #expect(a.history == [.requested(.max(1))])

        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(a.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(b.history == [.requested(.max(1))])

        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(b.history == [.requested(.max(1)), .requested(.max(1))])

        // With demand, a value goes straight through and its upstream gets the next request back.
        subscriber.request(.max(1))
        #expect(b.send(3) == .max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.violations.isEmpty)
    }

    /// The policy under limited demand: every upstream has at most one value waiting, and the
    /// waiting values go out in the order they arrived, so a fast upstream cannot starve a slow
    /// one.
    @Test func aFastUpstreamDoesNotStarveTheOthers() {
        let fast = TestPublisher<String, Never>()
        let slow = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<String, Never>(demand: nil)
        fast.merge(with: slow).subscribe(subscriber)
        var sent = 0
        // The fast upstream sends whenever it is asked, as a well-behaved upstream would.
        func fastSendsWhatItIsAskedFor() {
            while fast.demand > 0 {
                sent += 1
                fast.send("f\(sent)")
            }
        }
        fastSendsWhatItIsAskedFor()
        slow.send("s1")
        for _ in 0..<4 {
            subscriber.request(.max(1))
            fastSendsWhatItIsAskedFor()
        }
        slow.send("s2")
        for _ in 0..<3 {
            subscriber.request(.max(1))
            fastSendsWhatItIsAskedFor()
        }
        #expect(subscriber.values == ["f1", "s1", "f2", "f3", "f4", "s2", "f5"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveReleasesWaitingValues() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onValue: { _ in .max(1) })
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.outstandingDemand == .max(1))
        #expect(subscriber.violations.isEmpty)
    }

    @Test func unlimitedRequestFlushesWaitingValuesAndAsksForUnlimited() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        a.merge(with: b).subscribe(subscriber)
        b.send(2)
        a.send(1)
        subscriber.request(.unlimited)
        #expect(subscriber.values == [2, 1])
        #expect(a.history == [.requested(.max(1)), .requested(.unlimited)])
        #expect(b.history == [.requested(.max(1)), .requested(.unlimited)])
        a.send(3)
        #expect(subscriber.values == [2, 1, 3])
    }

    @Test func neverDeliversBeyondDemandEvenWhenAnUpstreamSendsTooMuch_S1() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        a.merge(with: b).subscribe(subscriber)
        for value in 1...5 { a.send(value) }  // TestPublisher sends whether asked or not
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.merge(with: TestPublisher<Int, Never>()).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(!upstream.history.contains(.requested(.none)))
        #expect(subscriber.events.count == 1)  // just the subscription
        _ = upstream.send(1)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    // MARK: Completion and failure

    @Test func finishesOnlyWhenEveryUpstreamHasFinished() {
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        Publishers.MergeMany(upstreams).subscribe(subscriber)
        upstreams[1].send(completion: .finished)
        upstreams[0].send(completion: .finished)
        upstreams[2].send(7)
        #expect(subscriber.completion == nil)
        upstreams[2].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func theCompletionWaitsForWaitingValues() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        a.send(completion: .finished)
        b.send(2)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func theFirstFailureCancelsTheOthersAndDropsWaitingValues() {
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Boom>() }
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        upstreams[0].merge(with: upstreams[1], upstreams[2]).subscribe(subscriber)
        upstreams[0].send(1)
        upstreams[1].send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(upstreams[0].history == [.requested(.max(1)), .cancelled])
        #expect(upstreams[1].history == [.requested(.max(1))])
        #expect(upstreams[2].history == [.requested(.max(1)), .cancelled])
        // Whatever still arrives is ignored (S4).
        upstreams[0].send(2)
        upstreams[2].send(completion: .failure(Boom()))
        #expect(subscriber.events.count == 2)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func anUpstreamThatFailsWhileSubscribingStopsTheRestFromBeingSubscribed() {
        let later = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        Fail<Int, Boom>(error: Boom()).merge(with: later).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(later.subscriptions.isEmpty)
    }

    @Test func mergeManyOfNothingFinishesAtOnce_S5() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Publishers.MergeMany<Just<Int>>([]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aSecondSubscriptionFromAnUpstreamIsCancelled_S2() {
        let subscriber = RecordingSubscriber<Int, Never>()
        let extra = TestPublisher<Int, Never>()
        var side: AnySubscriber<Int, Never>?
        let grabbing = AnyPublisherCapture<Int, Never> { side = $0 }
        grabbing.merge(with: Empty()).subscribe(subscriber)
        extra.subscribe(side!)
        #expect(extra.history == [.cancelled])
        _ = side
    }

    // MARK: Cancellation

    @Test func cancelInsideReceiveSubscriptionSubscribesNoUpstream_S6_S7() {
        let a = TestPublisher<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        do {
            let subscriber = RecordingSubscriber<Int, Never>(onSubscription: { $0.cancel() })
            weakSubscriber = subscriber
            a.merge(with: Just(1)).subscribe(subscriber)
            #expect(subscriber.events.count == 1)
            subscriber.releaseSubscription()
        }
        #expect(a.subscriptions.isEmpty)
        #expect(weakSubscriber == nil)
    }

    @Test func cancelCancelsEveryUpstream() {
        let upstreams = (0..<8).map { _ in TestPublisher<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        upstreams[0].merge(with: upstreams[1], upstreams[2], upstreams[3], upstreams[4], upstreams[5],
                           upstreams[6], upstreams[7]).subscribe(subscriber)
        upstreams[3].send(1)
        subscriber.cancel()
        for upstream in upstreams { #expect(upstream.history == [.requested(.unlimited), .cancelled]) }
        upstreams[4].send(2)
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(subscriber.values == [1])
        for upstream in upstreams { #expect(upstream.history == [.requested(.unlimited), .cancelled]) }
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
                probes[0].map { $0 + captured.offset }
                    .merge(with: probes[1], probes[2].map { _ in captured.offset })
                    .subscribe(subscriber)
                probes[0].send(1)
                #expect(subscriber.values == [1])
                ending.apply(to: probes, subscriber)
                subscriber.releaseSubscription()
            }
            #expect(weakSubscriber == nil, "\(ending)")
            #expect(weakCaptured == nil, "\(ending)")
            for probe in probes { #expect(probe.liveSubscriptions == 0, "\(ending)") }
        }
    }

    @Test func mergeOfMergesReleasesEverything_S7() {
        for ending in [Ending.cancel, .finish, .fail] {
            let probes = (0..<4).map { _ in ProbePublisher<Int, Boom>() }
            weak var weakCaptured: Captured?
            var received: [Int] = []
            var cancellable: AnyCancellable?
            do {
                let captured = Captured()
                weakCaptured = captured
                cancellable = Publishers.Merge(
                    Publishers.Merge(probes[0], probes[1]),
                    Publishers.Merge(probes[2], probes[3].map { $0 + captured.offset }))
                    .sink(receiveCompletion: { _ in _ = captured }, receiveValue: { received.append($0) })
            }
            probes[3].send(4)
            probes[0].send(1)
            #expect(received == [4, 1])
            switch ending {
            case .cancel: cancellable?.cancel()
            case .finish: for probe in probes { probe.finish() }
            case .fail: probes[2].fail(Boom())
            }
            #expect(weakCaptured == nil, "\(ending)")
            for probe in probes { #expect(probe.liveSubscriptions == 0, "\(ending)") }
            _ = cancellable
        }
    }

    @Test func aLongMergeManyReleasesEverything_S7() {
        for ending in [Ending.cancel, .finish] {
            let probes = (0..<1_000).map { _ in ProbePublisher<Int, Boom>() }
            weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
            do {
                let subscriber = RecordingSubscriber<Int, Boom>()
                weakSubscriber = subscriber
                Publishers.MergeMany(probes).subscribe(subscriber)
                for (index, probe) in probes.enumerated() { probe.send(index) }
                #expect(subscriber.values == Array(0..<1_000))
                ending.apply(to: probes, subscriber)
                #expect(subscriber.completion == (ending == .finish ? .finished : nil))
                subscriber.releaseSubscription()
            }
            #expect(weakSubscriber == nil, "\(ending)")
            #expect(probes.allSatisfy { $0.liveSubscriptions == 0 }, "\(ending)")
        }
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
        (0..<5_000).publisher.merge(with: (5_000..<10_000).publisher).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestFromInsideReceiveDrainsWaitingValuesInOrder() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        let upstreams = (0..<3).map { _ in TestPublisher<Int, Never>() }
        Publishers.MergeMany(upstreams).subscribe(subscriber)
        upstreams[2].send(3)
        upstreams[0].send(1)
        upstreams[1].send(2)
        subscriber.request(.max(1))
        box.subscriber = nil
        #expect(subscriber.values == [3, 1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    /// A cancel made while a value is being delivered is left to the delivering thread, which
    /// lets go of the subscriber as soon as the call returns, even while something still holds
    /// the subscription.
    @Test func cancelInsideReceiveLetsGoOfTheSubscriber_S7() {
        final class Box: @unchecked Sendable { var subscription: (any Subscription)? }
        let box = Box()
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        do {
            let subscriber = RecordingSubscriber<Int, Never>(
                onSubscription: { box.subscription = $0 },
                onValue: { _ in
                    box.subscription?.cancel()
                    return .none
                })
            weakSubscriber = subscriber
            a.merge(with: b).subscribe(subscriber)
            a.send(1)
            #expect(subscriber.values == [1])
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        #expect(box.subscription != nil)
    }

    @Test func cancelFromInsideReceiveStopsEverything_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 2 { box.subscriber?.cancel() }
            return .none
        })
        box.subscriber = subscriber
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(3)
        b.send(completion: .finished)
        box.subscriber = nil
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
        #expect(a.history == [.requested(.unlimited), .cancelled])
        #expect(b.history == [.requested(.unlimited), .cancelled])
    }

    @Test func aValueSentFromInsideReceiveIsDeliveredAfterTheCurrentOne_S3() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 1 { b.send(10) }
            if value == 10 { a.send(20) }
            return .none
        })
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        a.send(2)
        #expect(subscriber.values == [1, 10, 20, 2])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Merge)", as in Combine.
        let subscriber1 = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().merge(with: TestPublisher<Int, Never>()).subscribe(subscriber1)
        #expect(subscriber1.subscription.map { String(describing: $0) } == "Merge")
        let subscriber2 = RecordingSubscriber<Int, Never>(demand: nil)
        Publishers.MergeMany([TestPublisher<Int, Never>(), TestPublisher<Int, Never>(), TestPublisher<Int, Never>()]).subscribe(subscriber2)
        #expect(subscriber2.subscription.map { String(describing: $0) } == "Merge")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's merge ignores what an upstream sends before its subscription or after its
        // end, and cancels a second subscription; each input is checked.
        checkIgnoresMisbehavingUpstream({ $0.merge(with: Empty()) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty().merge(with: $0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.merge(with: Empty(completeImmediately: false)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty(completeImmediately: false).merge(with: $0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty().merge(with: Empty(), $0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty().merge(with: Empty(), Empty(), $0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty().merge(with: Empty(), Empty(), Empty(), $0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty().merge(with: Empty(), Empty(), Empty(), Empty(), $0) },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty().merge(with: Empty(), Empty(), Empty(), Empty(), Empty(), $0) },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty().merge(with: Empty(), Empty(), Empty(), Empty(), Empty(), Empty(), $0) },
                                        value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Publishers.MergeMany([$0, $0]) }, value: 1, failure: Boom())
    }

    @Test func valuesOfAFinishedUpstreamAreIgnoredWhileOthersRun_S2() {
        let misbehaving = MisbehavingPublisher<Int, Never>([.subscription, .completion(.finished), .value(9)])
        let other = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        misbehaving.merge(with: other).subscribe(subscriber)
        other.send(1)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ Just(1).merge(with: Just(2)) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.merge(with: Empty()) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.merge(with: (300..<600).publisher) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ Just(1).merge(with: Just(2), Just(3)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).merge(with: Just(2), Just(3), Just(4)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).merge(with: Just(2), Just(3), Just(4), Just(5)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8)) }, requestingNone: .isIgnored)
        checkContract({ Publishers.MergeMany((0..<20).map { Just($0) }) }, requestingNone: .isIgnored)
        checkContract({ Publishers.MergeMany<Just<Int>>([]) }, requestingNone: .isIgnored)
    }

    @Test func contractWhenEndingEarlyOrFailing() {
        checkContract({ Just(1).merge(with: Just(2), Just(3)).first() }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.merge(with: (300..<600).publisher).prefix(5) }, deterministic: false, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).merge(with: (0..<300).publisher.setFailureType(to: Boom.self)) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self).merge(with: Fail(error: Boom())) },
                      deterministic: false, requestingNone: .isIgnored)
    }
}

// MARK: - Helpers for the combining tests

/// Captured by closures in leak checks.
final class Captured: @unchecked Sendable {
    let offset = 0
}

/// How a leak check ends the stream.
enum Ending: CustomStringConvertible {
    case cancel, finish, fail

    var description: String {
        switch self {
        case .cancel: "cancel"
        case .finish: "finish"
        case .fail: "fail"
        }
    }

    /// Cancels `subscriber`, finishes every probe, or fails the first probe.
    func apply<Output, Input>(
        to probes: [ProbePublisher<Output, MergeTests.Boom>], _ subscriber: RecordingSubscriber<Input, MergeTests.Boom>
    ) {
        switch self {
        case .cancel: subscriber.cancel()
        case .finish: for probe in probes { probe.finish() }
        case .fail: probes[0].fail(MergeTests.Boom())
        }
    }
}

/// An upstream for leak checks: it remembers its subscriptions only weakly, and a subscription
/// keeps its subscriber only until it is cancelled or completed. So once an operator has let go
/// of the subscriptions it was given, ``liveSubscriptions`` is zero.
final class ProbePublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {  // used from one thread
    final class Probe: Subscription {
        var subscriber: AnySubscriber<Output, Failure>?
        init(_ subscriber: AnySubscriber<Output, Failure>) { self.subscriber = subscriber }
        func request(_ demand: Subscribers.Demand) {}
        func cancel() { subscriber = nil }
    }

    private struct Weak { weak var probe: Probe? }
    private var probes: [Weak] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let probe = Probe(AnySubscriber(subscriber))
        probes.append(Weak(probe: probe))
        subscriber.receive(subscription: probe)
    }

    /// How many subscriptions something still keeps alive.
    var liveSubscriptions: Int { probes.filter { $0.probe != nil }.count }

    func send(_ value: Output) {
        for weak in probes { _ = weak.probe?.subscriber?.receive(value) }
    }

    func finish() { complete(.finished) }

    func fail(_ error: Failure) { complete(.failure(error)) }

    private func complete(_ completion: Subscribers.Completion<Failure>) {
        for weak in probes {
            let subscriber = weak.probe?.subscriber
            weak.probe?.subscriber = nil
            subscriber?.receive(completion: completion)
        }
    }
}

/// A publisher that hands its subscriber to a closure and sends nothing, so a test can play the
/// upstream by hand: it gives the subscriber an empty subscription, or, with `subscribing: false`,
/// none (the test gives one later, as an upstream that subscribes late would).
struct AnyPublisherCapture<Output, Failure: Error>: Publisher {
    let subscribing: Bool
    let capture: (AnySubscriber<Output, Failure>) -> Void
    init(subscribing: Bool = true, _ capture: @escaping (AnySubscriber<Output, Failure>) -> Void) {
        self.subscribing = subscribing
        self.capture = capture
    }
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if subscribing { subscriber.receive(subscription: Subscriptions.empty) }
        capture(AnySubscriber(subscriber))
    }
}
