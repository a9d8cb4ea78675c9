import Streams
import StreamsTesting
import Testing

@Suite("assertNoFailure")
struct AssertNoFailureTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-|", { $0.assertNoFailure() }, "-a-b-|")
        assertMarbles([1, 2, 3].publisher.setFailureType(to: Boom.self).assertNoFailure(), "[123|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2].publisher.setFailureType(to: Boom.self).assertNoFailure("numbers")) == [1, 2])
    }

    @Test func theDefaultFileAndLineAreTheCallers() {
        let publisher = Just(1).assertNoFailure(); let line = #line
        #expect("\(publisher.file)".hasSuffix("Publishers.AssertNoFailureTests.swift"))
        #expect(publisher.line == UInt(line))
        #expect(publisher.prefix == "")
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.assertNoFailure().subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [1])
    }

    // MARK: Completion and failure

    @Test func finishedPassesThrough() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>()
        upstream.assertNoFailure().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func aFailureStopsTheProgramWithAMessageNamingThePrefixFileAndLine() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cancellable = Fail<Int, AssertNoFailureTests.Boom>(error: AssertNoFailureTests.Boom())
                .assertNoFailure("numbers", file: "Feature/Model.swift", line: 42)
                .sink { _ in }
            _ = cancellable
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("numbers: assertNoFailure() at Feature/Model.swift:42 received a failure: Boom()"))
    }

    @Test func withoutAPrefixTheMessageStartsWithTheOperator() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, AssertNoFailureTests.Boom>()
            let cancellable = upstream.assertNoFailure(file: "A.swift", line: 7).sink { _ in }
            upstream.send(1)
            upstream.send(completion: .failure(AssertNoFailureTests.Boom()))
            _ = cancellable
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("Fatal error: assertNoFailure() at A.swift:7 received a failure: Boom()"))
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.assertNoFailure().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        let upstream = TestPublisher<Int, Boom>()
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.assertNoFailure().subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
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
        (0..<10_000).publisher.setFailureType(to: Boom.self).assertNoFailure().subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Description

    @Test func handsTheUpstreamSubscriptionDown() {
        // As in Combine, the operator keeps no state and the downstream gets the upstream's own
        // subscription (what `print()` shows as "receive subscription: (…)").
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Boom>().assertNoFailure().subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "TestSubscription")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func passesAMisbehavingUpstreamThrough_S2() {
        // Like Combine's, assertNoFailure keeps no state and hands the upstream's subscription
        // down: it is transparent, and the next stateful subscriber ignores the misbehaviour.
        checkPassesMisbehavingUpstreamThrough({ (upstream: MisbehavingPublisher<Int, Boom>) in upstream.assertNoFailure() },
                                              value: 1)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self).assertNoFailure() }, requestingNone: .isIgnored)
        checkContract { Just(1).assertNoFailure() }
    }
}
