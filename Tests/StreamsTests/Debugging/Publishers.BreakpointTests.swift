#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Streams
import StreamsTesting
import Testing

@Suite("breakpoint, breakpointOnError")
struct BreakpointTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-|", { $0.breakpoint(receiveOutput: { $0 == "z" }) }, "-a-b-|")
        assertMarbles("-a-b-^", { $0.breakpoint() }, "-a-b-^")
        assertMarbles("-a-b-|", { $0.breakpointOnError() }, "-a-b-|")
        assertMarbles([1, 2, 3].publisher.breakpoint(receiveSubscription: { _ in false }), "[123|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2].publisher.breakpoint(receiveOutput: { $0 > 5 })) == [1, 2])
        #expect(values([1, 2].publisher.breakpointOnError()) == [1, 2])
    }

    @Test func eachClosureIsAskedAboutItsEventBeforeItGoesOn() {
        let log = LockedLog()
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(onValue: { log.append("value \($0)"); return .none })
        upstream.breakpoint(
            receiveSubscription: { _ in log.append("subscription?"); return false },
            receiveOutput: { log.append("output \($0)?"); return false },
            receiveCompletion: { completion in
                if case .failure(let error) = completion { log.append("failure \(error == Boom())?") }
                return false
            }
        ).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(log.entries == ["subscription?", "output 1?", "value 1", "failure true?"])
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Boom()))])
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.breakpoint(receiveOutput: { _ in false }).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
    }

    // MARK: Completion and failure

    @Test func aFailureWithBreakpointOnErrorRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            let cancellable = Fail<Int, BreakpointTests.Boom>(error: BreakpointTests.Boom())
                .breakpointOnError()
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            _ = cancellable
        }
    }

    @Test func aClosureReturningTrueRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = [1, 2, 3].publisher.breakpoint(receiveOutput: { $0 == 2 }).sink { _ in }
        }
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = Just(1).breakpoint(receiveSubscription: { _ in true }).sink { _ in }
        }
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = Just(1).breakpoint(receiveCompletion: { $0 == .finished }).sink { _ in }
        }
    }

    @Test func breakpointOnErrorLetsFinishedThrough() {
        let subscriber = RecordingSubscriber<Int, Never>()
        Just(1).breakpointOnError().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.breakpointOnError().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheClosures_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.breakpoint(receiveOutput: { _ in _ = captured; return false }).sink { _ in }
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
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
        (0..<10_000).publisher.breakpoint(receiveOutput: { $0 < 0 }).subscribe(subscriber)
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
        TestPublisher<Int, Never>().breakpoint().subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "TestSubscription")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func passesAMisbehavingUpstreamThrough_S2() {
        // Like Combine's, breakpoint keeps no state and hands the upstream's subscription
        // down: it is transparent, and the next stateful subscriber ignores the misbehaviour.
        checkPassesMisbehavingUpstreamThrough({ $0.breakpoint() }, value: 1, failure: Boom())
        checkPassesMisbehavingUpstreamThrough({ (upstream: MisbehavingPublisher<Int, Boom>) in upstream.breakpointOnError() },
                                              value: 1)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.breakpoint(receiveOutput: { $0 < 0 }) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.breakpointOnError() }, requestingNone: .isIgnored)
        checkContract { Just(1).breakpointOnError() }
    }
}
