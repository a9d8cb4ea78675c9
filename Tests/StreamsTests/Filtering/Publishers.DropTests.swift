import Streams
import StreamsTesting
import Testing

@Suite("dropFirst")
struct DropTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-c-d-|", { $0.dropFirst(2) }, "-----c-d-|")
        assertMarbles("-a-b-c-|", { $0.dropFirst() }, "---b-c-|")
        assertMarbles("-a-b-c-|", { $0.dropFirst(0) }, "-a-b-c-|")
        assertMarbles("-a-b-|", { $0.dropFirst(5) }, "-----|")
        assertMarbles("-a-^", { $0.dropFirst(2) }, "---^")
        assertMarbles("-a-b-c-^", { $0.dropFirst(1) }, "---b-c-^")
        // Through a general publisher (not a Sequence, which fuses: see SequenceFusionTests).
        assertMarbles(AnyPublisher([1, 2, 3, 4].publisher).dropFirst(2), "[34|]")
    }

    @Test func docExampleOutputs() {
        let numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        #expect(values(AnyPublisher(numbers.publisher).dropFirst(5)) == [6, 7, 8, 9, 10])
    }

    // MARK: Demand

    @Test func droppedValuesGiveBackOneDemandEach() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.dropFirst(2).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(upstream.history == [.requested(.max(1))])
        #expect(upstream.demand == .none)
        #expect(subscriber.values == [3])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func laterDemandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(3) })
        upstream.dropFirst(1).subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.send(2) == .max(3))
        subscriber.request(.max(4))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(4))])
    }

    // MARK: Completion and failure

    @Test func completionWhileStillDroppingPassesThrough() {
        let finished = RecordingSubscriber<Int, Boom>()
        let upstream = TestPublisher<Int, Boom>()
        upstream.dropFirst(3).subscribe(finished)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(finished.events == [.subscription, .completion(.finished)])

        let failed = RecordingSubscriber<Int, Boom>()
        Fail<Int, Boom>(error: Boom()).dropFirst().subscribe(failed)
        #expect(failed.events == [.subscription, .completion(.failure(Boom()))])
    }

    @Test func eachSubscriptionDropsAgain() {
        let publisher = AnyPublisher([1, 2, 3].publisher).dropFirst()
        #expect(values(publisher) == [2, 3])
        #expect(values(publisher) == [2, 3])
    }

    @Test func negativeCountStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPublisher<Int, Never>().dropFirst(-1)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("dropFirst(-1): the number of values to drop must not be negative"))
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.dropFirst().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.dropFirst().sink { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream.dropFirst().sink { _ in _ = captured }
        }
        upstream.send(completion: .finished)
        #expect(weakCaptured == nil)
        _ = cancellable
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
        AnyPublisher((0..<10_000).publisher).dropFirst(5_000).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(5_000..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ Publishers.Drop(upstream: (0..<300).publisher, count: 100) }, requestingNone: .isIgnored)
        checkContract({ Publishers.Drop(upstream: (0..<300).publisher, count: 0) }, requestingNone: .isIgnored)
        checkContract({ Publishers.Drop(upstream: (0..<300).publisher, count: 500) }, requestingNone: .isIgnored)
        checkContract({
            Publishers.Drop(upstream: (0..<300).publisher.tryMap { n -> Int in
                if n == 200 { throw Boom() }
                return n
            }, count: 100)
        }, requestingNone: .isIgnored)
        checkContract { Just(1).dropFirst() }
    }
}
