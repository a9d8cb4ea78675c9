import Streams
import StreamsTesting
import Testing

@Suite("append, prepend")
struct ConcatenateTests {
    struct Boom: Error, Equatable {}
    final class Box<Value>: @unchecked Sendable { var value: Value?; init(_ value: Value? = nil) { self.value = value } }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-|", { $0.append("3", "4") }, "-1-2-[34|]")
        assertMarbles("-1-2-|", { $0.append(["3", "4"]) }, "-1-2-[34|]")
        assertMarbles("-1-2-^", { $0.append("3", "4") }, "-1-2-^")
        assertMarbles(inputs: ["-3-4-|"], { $0[0].prepend("1", "2") }, "[12]3-4-|")
        assertMarbles(inputs: ["-3-4-|"], { $0[0].prepend(["1", "2"]) }, "[12]3-4-|")
        // The suffix is subscribed when the prefix finishes, at tick 5: its earlier events are
        // not seen.
        assertMarbles(inputs: ["-a-b-|", "---x--c-d-|"], { $0[0].append($0[1]) }, "-a-b--c-d-|")
        // A failure of the prefix ends everything; the suffix is never subscribed.
        assertMarbles(inputs: ["-a-^", "--x-y-|"], { $0[0].append($0[1]) }, "-a-^")
        assertMarbles(inputs: ["-a-|", "-----^"], { $0[0].append($0[1]) }, "-a---^")
        // Demand for three values: the fourth is not asked for; the completion needs no demand.
        assertMarbles(inputs: ["-a-b-|", "------c-d-|"], { $0[0].append($0[1]) }, "-a-b--c---|", demand: .max(3))
        assertMarbles((1...2).publisher.append(3, 4), "[1234|]")
        assertMarbles(Just(0).append(1...3), "[0123|]")
        assertMarbles(Empty<Int, Never>().append(Empty()), "|")
    }

    @Test func docExampleOutputs() {
        #expect(values([3, 4].publisher.prepend(1, 2)) == [1, 2, 3, 4])
        #expect(values([3, 4].publisher.prepend(1...2)) == [1, 2, 3, 4])
        #expect(values(["fresh"].publisher.prepend(["cached"].publisher)) == ["cached", "fresh"])
        #expect(values([1, 2].publisher.append(3, 4)) == [1, 2, 3, 4])
        #expect(values([1, 2].publisher.append(3...4)) == [1, 2, 3, 4])
        #expect(values(["a", "b"].publisher.append(["c"].publisher)) == ["a", "b", "c"])
    }

    @Test func onASequenceOfACollectionTheElementsAreJoined() {
        let appended: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3, 4)
        #expect(appended.sequence == [1, 2, 3, 4])
        let prepended: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend(1, 2)
        #expect(prepended.sequence == [1, 2, 3, 4])
        let appendedPublisher: Publishers.Sequence<[Int], Never> = [1].publisher.append([2, 3].publisher)
        #expect(appendedPublisher.sequence == [1, 2, 3])
        let prependedPublisher: Publishers.Sequence<[Int], Never> = [3].publisher.prepend([1, 2].publisher)
        #expect(prependedPublisher.sequence == [1, 2, 3])
        // Any other sequence is joined now too, as in Combine; asking for the general operator's
        // type gives a Concatenate, which reads it when subscribed.
        let lazy: Publishers.Concatenate<Publishers.Sequence<[Int], Never>, Publishers.Sequence<ClosedRange<Int>, Never>> =
            [1].publisher.append(2...3)
        #expect(values(lazy) == [1, 2, 3])
    }

    @Test func publicPropertiesAndEquatable() {
        // `Just(1).append(2, 3)` is a `Publishers.Sequence`, as in Combine; the type asks for the
        // general operator.
        let publisher: Publishers.Concatenate<Just<Int>, Publishers.Sequence<[Int], Never>> = Just(1).append(2, 3)
        #expect(publisher.prefix == Just(1))
        #expect(publisher.suffix.sequence == [2, 3])
        #expect(publisher == Just(1).append(2, 3))
        #expect(publisher != Just(1).append(2))
    }

    // MARK: Demand

    @Test func requestsGoToThePrefixThenTheRestToTheSuffix() {
        let prefix = TestPublisher<Int, Boom>(), suffix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(10), onValue: { _ in .max(1) })
        prefix.append(suffix).subscribe(subscriber)
        #expect(prefix.history == [.requested(.max(10))])
        #expect(suffix.subscriptions.isEmpty)
        #expect(prefix.send(1) == .max(1))
        #expect(prefix.send(2) == .max(1))
        subscriber.request(.max(3))
        #expect(prefix.history == [.requested(.max(10)), .requested(.max(3))])
        prefix.send(completion: .finished)
        // 10 + 3 requested, 2 returned, 2 delivered: 13 carry over.
        #expect(suffix.history == [.requested(.max(13))])
        #expect(suffix.send(3) == .max(1))
        subscriber.request(.max(1))
        #expect(suffix.history == [.requested(.max(13)), .requested(.max(1))])
        #expect(prefix.history == [.requested(.max(10)), .requested(.max(3))])
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func noOutstandingDemandAsksTheSuffixForNothing() {
        let prefix = TestPublisher<Int, Boom>(), suffix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1))
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.subscriptions.count == 1)
        #expect(suffix.history == [])
        subscriber.request(.max(2))
        #expect(suffix.history == [.requested(.max(2))])
    }

    @Test func unlimitedDemandCarriesOver() {
        let prefix = TestPublisher<Int, Boom>(), suffix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.history == [.requested(.unlimited)])
    }

    @Test func aValueBeyondTheDemandIsDropped_S1() {
        let prefix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(1))
        prefix.append(2).subscribe(subscriber)
        prefix.send(1)
        // TestPublisher sends whether asked or not: the operator holds the line.
        prefix.send(99)
        #expect(subscriber.values == [1])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing; it is not passed upstream.
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.append(2...3).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(upstream.history == [])
        #expect(subscriber.events.count == 1)  // just the subscription
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func theSuffixIsSubscribedOnlyOnceThePrefixFinishes() {
        let prefix = TestPublisher<Int, Boom>(), suffix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        #expect(suffix.subscriptions.isEmpty)
        prefix.send(completion: .finished)
        #expect(suffix.subscriptions.count == 1)
        #expect(subscriber.completion == nil)
        suffix.send(2)
        suffix.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        // The prefix is over: what it still sends is ignored (S4).
        prefix.send(3)
        #expect(subscriber.values == [1, 2])
    }

    @Test func aFailureOfThePrefixEndsEverything() {
        let prefix = TestPublisher<Int, Boom>(), suffix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])
        #expect(suffix.subscriptions.isEmpty)
    }

    @Test func aFailureOfTheSuffixIsPassedOn() {
        let subscriber = RecordingSubscriber<Int, Boom>()
        Just(1).setFailureType(to: Boom.self).append(Fail(error: Boom())).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])
    }

    @Test func anEmptyPrefixGoesStraightToTheSuffixWithoutDemand_S5() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().append(Empty()).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelBeforeTheSuffixMeansItIsNeverSubscribed() {
        let prefix = TestPublisher<Int, Boom>(), suffix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(3))
        prefix.append(suffix).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(prefix.history == [.requested(.max(3)), .cancelled])
        prefix.send(completion: .finished)
        #expect(suffix.subscriptions.isEmpty)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelReachesTheSuffix() {
        let prefix = TestPublisher<Int, Boom>(), suffix = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(3))
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(completion: .finished)
        subscriber.cancel()
        #expect(suffix.history == [.requested(.max(3)), .cancelled])
        #expect(prefix.history == [.requested(.max(3))])
    }

    @Test func cancelLetsGoOfTheSuffixAndTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSubscriber: RecordingSubscriber<Int, Boom>?
        let prefix = TestPublisher<Int, Boom>()
        var subscription: (any Subscription)?
        do {
            let subscriber = RecordingSubscriber<Int, Boom>()
            weakSubscriber = subscriber
            do {
                let captured = Captured()
                weakCaptured = captured
                let suffix = Deferred { withExtendedLifetime(captured) { Empty<Int, Boom>() } }
                prefix.append(suffix).subscribe(subscriber)
            }
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakCaptured != nil)
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    /// A concatenation of merges (here `flatMap` of long-lived subjects, which is what a merge
    /// is): cancelling must release the whole chain, and no subject keeps it alive (S7).
    @Test func concatenatingMergesReleasesEverythingOnCancel_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        var subscription: (any Subscription)?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            let first = [subjects[0], subjects[1]].publisher.flatMap { $0 }
            let second = [subjects[2], subjects[3]].publisher.flatMap { $0 }
            first.append(second).subscribe(subscriber)
            subjects[0].send(1)
            subjects[1].send(completion: .finished)
            subjects[0].send(completion: .finished)
            // The first merge finished: the second is live now.
            subjects[3].send(2)
            #expect(subscriber.values == [1, 2])
            subscription = subscriber.subscription
            weakSubscription = subscription as AnyObject
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        subscription = nil
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        subjects[2].send(3)
    }

    @Test func completionLetsGoOfEverything_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        let prefix = PassthroughSubject<Int, Never>(), suffix = PassthroughSubject<Int, Never>()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            prefix.append(suffix).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject
            prefix.send(completion: .finished)
            suffix.send(completion: .finished)
            #expect(subscriber.completion == .finished)
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        let box = Box<RecordingSubscriber<Int, Never>>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.value?.request(.max(1))
            return .none
        })
        box.value = subscriber
        (0..<5_000).publisher.append(5_000..<10_000).subscribe(subscriber)
        box.value = nil
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func longChainsOfEmptyPrefixesDoNotOverflow() {
        var publisher = Empty<Int, Never>().eraseToAnyPublisher()
        for _ in 0..<200 { publisher = Empty<Int, Never>().append(publisher).eraseToAnyPublisher() }
        let subscriber = RecordingSubscriber<Int, Never>()
        publisher.append(1).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Concatenate)", as in Combine.
        let subscriber1 = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().append(TestPublisher<Int, Never>()).subscribe(subscriber1)
        #expect(subscriber1.subscription.map { String(describing: $0) } == "Concatenate")
        let subscriber2 = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().prepend(TestPublisher<Int, Never>()).subscribe(subscriber2)
        #expect(subscriber2.subscription.map { String(describing: $0) } == "Concatenate")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // Combine's Concatenate ignores what its prefix or suffix sends before its subscription
        // or after its end, and cancels a second subscription; both sides are checked.
        checkIgnoresMisbehavingUpstream({ $0.append(Just(2).setFailureType(to: Boom.self)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.append(Empty(completeImmediately: false)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Just(2).setFailureType(to: Boom.self).append($0) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.prepend(Just(2).setFailureType(to: Boom.self)) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ Empty<Int, Boom>().prepend($0) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<150).publisher.append(150..<300) }, requestingNone: .isIgnored)
        checkContract({ (0..<150).publisher.prepend(150..<300) }, requestingNone: .isIgnored)
        checkContract({ () -> Publishers.Concatenate<Just<Int>, Publishers.Sequence<[Int], Never>> in Just(1).append(2, 3) }, requestingNone: .isIgnored)
        checkContract({ Publishers.Concatenate(prefix: (0..<150).publisher, suffix: (150..<300).publisher) }, requestingNone: .isIgnored)
        checkContract({ Empty<Int, Never>().append(Just(1)) }, requestingNone: .isIgnored)
        checkContract({ Just(1).append(Empty()) }, requestingNone: .isIgnored)
        checkContract({ (0..<150).publisher.append(150..<300).prefix(200) }, requestingNone: .isIgnored)
        checkContract({ (0..<100).publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())) }, requestingNone: .isIgnored)
        checkContract({ Fail<Int, Boom>(error: Boom()).append(Just(1).setFailureType(to: Boom.self)) }, requestingNone: .isIgnored)
        // The fused form is a Publishers.Sequence, which ignores `.none` (S9).
        checkContract({ [1, 2].publisher.append(3, 4) }, requestingNone: .isIgnored)
    }
}
