import Streams
import StreamsTesting
import Testing

@Suite("scan, tryScan")
struct ScanTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-c-|", { $0.scan("") { $0 + $1 } }, "-a-'ab'-'abc'-|")
        assertMarbles("-1-2-^", { $0.scan(0) { $0 + Int($1)! } }, "-1-3-^")
        assertMarbles("-1-2-0-3-|", { $0.tryScan(12) { result, text -> Int in
            let n = Int(text)!
            if n == 0 { throw Boom() }
            return result / n
        } }, "-'12'-6-[;^]")
        assertMarbles((1...5).publisher.scan(0) { $0 + $1 }, "[136'10''15'|]")
    }

    @Test func docExampleOutputs() {
        #expect(values((1...5).publisher.scan(0) { $0 + $1 }) == [1, 3, 6, 10, 15])
        let subscriber = RecordingSubscriber<Int, any Error>()
        [1, 2, 0, 3].publisher
            .tryScan(10) { result, n in
                guard n != 0 else { throw Boom() }
                return result / n
            }
            .subscribe(subscriber)
        #expect(subscriber.values == [10, 5])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 2, 3].publisher.scan(100) { $0 + $1 }
        #expect(values(publisher) == [101, 103, 106])
        #expect(values(publisher) == [101, 103, 106])
        let tryPublisher = [1, 2].publisher.tryScan([Int]()) { $0 + [$1] }
        #expect(tryValues(tryPublisher) == [[1], [1, 2]])
        #expect(tryValues(tryPublisher) == [[1], [1, 2]])
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.scan(0, +).subscribe(subscriber)
        #expect(upstream.send(4) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [4])
    }

    @Test func tryScanDemandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(4))
        upstream.tryScan(0, +).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        subscriber.request(.max(1))
        #expect(upstream.history == [.requested(.max(4)), .requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func completionAndFailurePassThroughWithoutTheInitialResult() {
        let finished = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().scan(7, +).subscribe(finished)
        #expect(finished.events == [.subscription, .completion(.finished)])

        let upstream = TestPublisher<Int, Boom>()
        let failed = RecordingSubscriber<Int, Boom>()
        upstream.scan(0, +).subscribe(failed)
        upstream.send(2)
        upstream.send(completion: .failure(Boom()))
        #expect(failed.events == [.subscription, .value(2), .completion(.failure(Boom()))])

        let tryUpstream = TestPublisher<Int, Boom>()
        let tryFailed = RecordingSubscriber<Int, any Error>()
        tryUpstream.tryScan(0, +).subscribe(tryFailed)
        tryUpstream.send(completion: .failure(Boom()))
        guard case .failure(let error)? = tryFailed.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func throwCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryScan(0) { result, n in
            if n == 2 { throw Boom() }
            return result + n
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [1])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.scan(0, +).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheClosureAndTheResult_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakResult: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            let initial = Captured()
            weakCaptured = captured
            weakResult = initial
            cancellable = upstream
                .scan(initial) { result, _ in _ = captured; return result }
                .tryScan(0) { count, _ in count + 1 }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            upstream.send(1)
        }
        #expect(weakCaptured != nil)
        #expect(weakResult != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        #expect(weakResult == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = [1, 2].publisher.scan(0) { _ = captured; return $0 + $1 }.sink { _ in }
        }
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: Its own subscription

    /// As in Combine, `scan` hands the subscriber the upstream's own subscription (it keeps its
    /// running result all the same), and `tryScan` a subscription of its own.
    @Test func scanPassesTheUpstreamSubscriptionAndTryScanHasItsOwn() {
        let scanned = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().scan(0, +).subscribe(scanned)
        #expect(scanned.subscription.map { "\($0)" } == "TestSubscription")
        checkOwnSubscription(named: "TryScan") { $0.tryScan(0, +) }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.scan(0, +) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryScan(0, +) }, value: 1, failure: Boom())
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
        (0..<10_000).publisher.scan(0) { $0 + 1 + $1 - $1 }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(1...10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.scan(0, +) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryScan(0, +) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryScan(0) { result, n in
            if n == 150 { throw Boom() }
            return result + n
        } }, requestingNone: .isIgnored)
        checkContract { Just(1).scan(1, +) }
    }
}
