import Streams
import StreamsTesting
import Testing

@Suite("mapError")
struct MapErrorTests {
    struct Boom: Error, Equatable {}
    struct Wrapped: Error, Equatable { let reason: String }

    /// A transform for a publisher that cannot fail (a closure here would warn that its body
    /// is never executed).
    static func absurd<E>(_ never: Never) -> E {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-1-2-^", { $0.mapError { _ in Wrapped(reason: "x") } }, "-1-2-^")
        assertMarbles("-1-2-|", { $0.mapError { _ in Wrapped(reason: "x") } }, "-1-2-|")
        assertMarbles(Fail<Int, Boom>(error: Boom()).mapError { _ in Wrapped(reason: "x") }, "^")
        assertMarbles([1, 2].publisher.setFailureType(to: Boom.self).mapError { _ in Wrapped(reason: "x") }, "[12|]")
    }

    @Test func docExampleOutputs() {
        struct Timeout: Error {}
        struct AppError: Error, Equatable { let reason: String }
        let subscriber = RecordingSubscriber<Int, AppError>()
        Fail<Int, Timeout>(error: Timeout()).mapError { _ in AppError(reason: "timed out") }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(AppError(reason: "timed out")))])
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Wrapped>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.mapError { _ in Wrapped(reason: "x") }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [1])
    }

    // MARK: Completion and failure

    @Test func failureIsTransformedOnce() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Wrapped>()
        var calls = 0
        upstream.mapError { _ -> Wrapped in
            calls += 1
            return Wrapped(reason: "call \(calls)")
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Boom()))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Wrapped(reason: "call 1")))])
        #expect(calls == 1)
    }

    @Test func finishedPassesThroughWithoutCallingTheTransform() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Wrapped>()
        var calls = 0
        upstream.mapError { _ -> Wrapped in
            calls += 1
            return Wrapped(reason: "")
        }.subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(calls == 0)
    }

    @Test func onJustReturnsAResultPublisher() {
        let mapped = Just(5).mapError(Self.absurd(_:) as (Never) -> Boom)
        #expect(type(of: mapped) == Result<Int, Boom>.Publisher.self)
        let subscriber = RecordingSubscriber<Int, Boom>()
        mapped.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Wrapped>(demand: .max(1))
        upstream.mapError { _ in Wrapped(reason: "") }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        #expect(upstream.subscriptions.last?.isAttached == false)
    }

    @Test func cancelReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Boom>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .mapError { _ in withExtendedLifetime(captured) { Wrapped(reason: "") } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
    }

    @Test func failureReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Boom>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .mapError { _ in withExtendedLifetime(captured) { Wrapped(reason: "") } }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        upstream.send(completion: .failure(Boom()))
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    // MARK: The upstream's subscription

    /// As in Combine, mapError keeps no state and hands the subscriber the upstream's own
    /// subscription.
    @Test func passesTheUpstreamSubscription() {
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        TestPublisher<Int, Boom>().mapError { $0 }.subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "TestSubscription")
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Wrapped>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Wrapped>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<10_000).publisher.setFailureType(to: Boom.self).mapError { _ in Wrapped(reason: "") }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.setFailureType(to: Boom.self).mapError { _ in Wrapped(reason: "") } },
                      requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.mapError { Wrapped(reason: "\($0)") } }, requestingNone: .isIgnored)
        checkContract { Fail<Int, Boom>(error: Boom()).mapError { _ in Wrapped(reason: "") } }
        checkContract { Just(1).eraseToAnyPublisher().mapError(Self.absurd(_:) as (Never) -> Wrapped) }
    }
}
