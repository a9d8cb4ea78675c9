import Streams
import StreamsTesting
import Testing

@Suite("replaceError")
struct ReplaceErrorTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-^", { $0.replaceError(with: "0") }, "-1-2-[0|]")
        assertMarbles("-1-2-|", { $0.replaceError(with: "0") }, "-1-2-|")
        assertMarbles("^", { $0.replaceError(with: "0") }, "[0|]")
        // Demand for two values: the replacement is a third, so it waits (S1).
        assertMarbles("-1-2-^", { $0.replaceError(with: "0") }, "-1-2--", demand: .max(2))
        assertMarbles("-1-2-^", { $0.replaceError(with: "0") }, "-1-2-[0|]", demand: .max(3))
        assertMarbles(Fail<Int, Boom>(error: Boom()).replaceError(with: 7), "[7|]")
    }

    @Test func docExampleOutputs() {
        struct Offline: Error {}
        let prices = PassthroughSubject<Int, Offline>()
        let subscriber = RecordingSubscriber<Int, Never>()
        prices.replaceError(with: 0).subscribe(subscriber)
        prices.send(7)
        prices.send(completion: .failure(Offline()))
        #expect(subscriber.events == [.subscription, .value(7), .value(0), .completion(.finished)])
    }

    @Test func onJustReturnsTheJust() {
        let replaced = Just(3).replaceError(with: 0)
        #expect(replaced == Just(3))
    }

    // MARK: Demand

    @Test func requestsPassThroughUnchanged() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.replaceError(with: 0).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [1])
    }

    @Test func replacementWaitsForDemand_S1() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.replaceError(with: 0).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(1), .value(0), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
        // The upstream has failed: the request that released the replacement is not passed on.
        #expect(upstream.history == [.requested(.max(1))])
    }

    @Test func replacementWithoutAnyDemandWaitsForTheFirstRequest_S1() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Fail<Int, Boom>(error: Boom()).replaceError(with: 9).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(9), .completion(.finished)])
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 3)
    }

    @Test func returnedDemandCountsForTheReplacement_S1() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in .max(1) })
        upstream.replaceError(with: 0).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .value(0), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func unlimitedDemandStaysUnlimited() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        upstream.replaceError(with: 0).subscribe(subscriber)
        for value in 1...100 { upstream.send(value) }
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.values == Array(1...100) + [0])
        #expect(subscriber.completion == .finished)
    }

    /// Combine traps on `request(.none)` to replaceError, while the upstream is live and while
    /// the replacement waits: both are reported (S9), and `.none` never reaches the upstream.
    @Test func requestingNoneIsAViolation_S9() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.replaceError(with: 0).subscribe(subscriber)
        let whileLive = recordingAPIViolations { subscriber.request(.none) }
        #expect(whileLive.count == 1)
        #expect(whileLive.first?.contains("S9") == true)
        #expect(upstream.history == [])

        upstream.send(completion: .failure(Boom()))
        let whileWaiting = recordingAPIViolations { subscriber.request(.none) }
        #expect(whileWaiting.count == 1)
        #expect(whileWaiting.first?.contains("S9") == true)
        #expect(whileWaiting.first?.contains("ReplaceError") == true)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    // MARK: Completion and failure

    @Test func finishedPassesThroughWithoutTheReplacement() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.replaceError(with: 0).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func lateSubscriberToAFailedUpstreamGetsTheReplacementOnRequest_S5() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>()
        let operatorUnderTest = upstream.replaceError(with: 0)
        operatorUnderTest.subscribe(subscriber)
        upstream.send(completion: .failure(Boom()))
        // A late subscriber to the finished TestPublisher gets the failure straight away.
        let late = RecordingSubscriber<Int, Never>(demand: nil)
        operatorUnderTest.subscribe(late)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
        #expect(late.events == [.subscription])
        late.request(.max(1))
        #expect(late.events == [.subscription, .value(0), .completion(.finished)])
        #expect(subscriber.violations.isEmpty && late.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.replaceError(with: 0).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelDropsAWaitingReplacement_S6() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Fail<Int, Boom>(error: Boom()).replaceError(with: 9).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelWhileReceivingTheReplacementStopsTheFinish_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.cancel()
            return .none
        })
        box.subscriber = subscriber
        Fail<Int, Boom>(error: Boom()).replaceError(with: 9).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.events == [.subscription, .value(9)])
    }

    @Test func cancelLetsGoOfTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            weakSubscriber = subscriber
            // The replacement waits, holding the subscriber, until cancel.
            Fail<Int, Boom>(error: Boom()).replaceError(with: 9).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func completionLetsGoOfTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakSubscriber = subscriber
            Fail<Int, Boom>(error: Boom()).replaceError(with: 9).subscribe(subscriber)
            #expect(subscriber.completion == .finished)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        _ = subscription
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
        (0..<10_000).publisher.tryMap { n -> Int in
            if n == 9_999 { throw Boom() }
            return n
        }.replaceError(with: -1).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.values.last == -1)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestFromInsideTheReplacementDeliversNothingMore() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil, onValue: { _ in
            box.subscriber?.request(.max(1))
            return .max(1)
        })
        box.subscriber = subscriber
        Fail<Int, Boom>(error: Boom()).replaceError(with: 9).subscribe(subscriber)
        subscriber.request(.max(1))
        box.subscriber = nil
        #expect(subscriber.events == [.subscription, .value(9), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Its own subscription

    @Test func subscriptionIsCombinesReplaceError() {
        checkOwnSubscription(named: "ReplaceError", requestingNone: .isViolation) { $0.replaceError(with: 0) }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.replaceError(with: 0) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        // Combine traps on `request(.none)` to replaceError: a violation (S9).
        checkContract { (0..<300).publisher.setFailureType(to: Boom.self).replaceError(with: -1) }
        checkContract { (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.replaceError(with: -1) }
        // The upstream fails at once and the replacement waits: `.none` is replaceError's to report.
        checkContract { Fail<Int, Boom>(error: Boom()).replaceError(with: 7) }
        // The upstream is `Just`, which reports `.none` itself.
        checkContract { Just(1).eraseToAnyPublisher().replaceError(with: 0) }
        checkContract { Result<Int, Boom>.Publisher(Boom()).replaceError(with: 0) }
    }
}
