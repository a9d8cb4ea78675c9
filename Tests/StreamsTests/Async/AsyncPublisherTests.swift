import Dispatch
import StreamsTesting
import Synchronization
import Testing

// @testable: one test looks at how many `next()` calls wait, to act while they do.
@testable import Streams

@Suite("values: AsyncPublisher, AsyncThrowingPublisher", .timeLimit(.minutes(1)))
struct AsyncPublisherTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles (values over time, read with for await)

    @Test func readsEveryValueThenEnds() async {
        var seen: [Int] = []
        for await value in [1, 2, 3].publisher.map({ $0 * 10 }).values {
            seen.append(value)
        }
        #expect(seen == [10, 20, 30])
        #expect(await asyncElements(Just(7).values) == [7])
        #expect(await asyncElements(Empty<Int, Never>().values) == [])
    }

    @Test func docExampleThrowing() async {
        var seen: [Int] = []
        do {
            for try await value in [1, 2, 0].publisher.tryMap({ n -> Int in
                if n == 0 { throw Boom() }
                return n
            }).values {
                seen.append(value)
            }
            Issue.record("expected a failure")
        } catch {
            #expect(error as? Boom == Boom())
        }
        #expect(seen == [1, 2])
    }

    @Test func theTypesAreCombines() {
        let values: AsyncPublisher<Just<Int>> = Just(1).values
        let throwing: AsyncThrowingPublisher<Fail<Int, Boom>> = Fail<Int, Boom>(error: Boom()).values
        _ = (values, throwing)
    }

    @Test func readsOnAnActor() async {
        actor Reader {
            var seen: [Int] = []
            func read(_ values: AsyncPublisher<Publishers.Sequence<[Int], Never>>) async {
                for await value in values { seen.append(value) }
            }
        }
        let reader = Reader()
        await reader.read([4, 5, 6].publisher.values)
        #expect(await reader.seen == [4, 5, 6])
    }

    @Test func anActorReadsValuesThatAreNotSendable() async {
        // Compiles only because the iterators implement `next(isolation:)`.
        final class Box {
            let number: Int
            init(_ number: Int) { self.number = number }
        }
        actor Reader {
            func read() async throws -> [Int] {
                var numbers: [Int] = []
                for await box in [Box(1), Box(2)].publisher.values { numbers.append(box.number) }
                for try await box in Just(Box(3)).setFailureType(to: Boom.self).values { numbers.append(box.number) }
                return numbers
            }
        }
        #expect((try? await Reader().read()) == [1, 2, 3])
    }

    // MARK: Demand

    @Test func asksForOneValuePerNext_S16() async {
        let upstream = TestPublisher<Int, Never>()
        let values = upstream.values
        let task = Task { await asyncElements(values) }
        #expect(await pollUntil { upstream.history == [.requested(.max(1))] })
        upstream.send(1)
        #expect(await pollUntil { upstream.history.count == 2 })
        upstream.send(2)
        #expect(await pollUntil { upstream.history.count == 3 })
        upstream.send(completion: .finished)
        #expect(await task.value == [1, 2])
        #expect(upstream.history == [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
    }

    @Test func makingTheIteratorSubscribesWithoutAsking() {
        let upstream = TestPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.history == [])
        _ = iterator
    }

    @Test func aHotPublishersValuesAreDroppedWhileNobodyWaits() async {
        let subject = PassthroughSubject<Int, Never>()
        let requests = Atomic<Int>(0)
        let values = subject.handleEvents(receiveRequest: { _ in requests.add(1, ordering: .relaxed) }).values
        let (gate, open) = AsyncStream<Void>.makeStream()
        let task = Task {
            var iterator = values.makeAsyncIterator()
            var seen: [Int] = []
            if let first = await iterator.next() { seen.append(first) }
            for await _ in gate { break }  // nobody waits in next() until the test opens the gate
            while let value = await iterator.next() { seen.append(value) }
            return seen
        }
        #expect(await pollUntil { requests.load(ordering: .relaxed) == 1 })
        subject.send(1)
        subject.send(2)  // nobody asked: dropped by the subject
        subject.send(3)  // dropped
        open.yield()
        #expect(await pollUntil { requests.load(ordering: .relaxed) == 2 })
        subject.send(4)
        #expect(await pollUntil { requests.load(ordering: .relaxed) == 3 })
        subject.send(completion: .finished)
        #expect(await task.value == [1, 4])
    }

    @Test func manyValuesOneRequestEach_S8() async {
        #expect(await asyncElements((0..<10_000).publisher.values).count == 10_000)
    }

    // MARK: Completion and failure

    @Test func aFailureIsThrownOnceThenTheSequenceEnds() async throws {
        let upstream = TestPublisher<Int, Boom>()
        var iterator = upstream.values.makeAsyncIterator()
        upstream.send(completion: .failure(Boom()))
        await #expect(throws: Boom.self) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func finishingEndsTheSequenceForGood() async {
        var iterator = Just(1).values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    // MARK: Cancellation

    @Test func cancellingTheTaskCancelsTheSubscription_S16() async {
        let upstream = TestPublisher<Int, Never>()
        let values = upstream.values
        let task = Task { await asyncElements(values) }
        #expect(await pollUntil { upstream.history == [.requested(.max(1))] })
        task.cancel()
        #expect(await task.value == [])
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        upstream.send(1)  // nobody is attached any more
    }

    @Test func aTaskCancelledBeforeNextAsksForNothing_S16() async {
        let upstream = TestPublisher<Int, Never>()
        let values = upstream.values
        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = values.makeAsyncIterator()
            return await iterator.next()
        }.value
        #expect(result == nil)
        #expect(upstream.history == [.cancelled])
    }

    @Test func cancellingTheThrowingSequenceReturnsNilWithoutThrowing() async throws {
        let upstream = TestPublisher<Int, Boom>()
        let values = upstream.values
        let task = Task { () throws -> Int? in
            var iterator = values.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(await pollUntil { upstream.history == [.requested(.max(1))] })
        task.cancel()
        #expect(try await task.value == nil)
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func leavingTheLoopCancelsTheSubscription() async {
        let upstream = TestPublisher<Int, Never>()
        let values = upstream.values
        let task = Task {
            for await value in values { return value }
            return -1
        }
        #expect(await pollUntil { upstream.history == [.requested(.max(1))] })
        upstream.send(5)
        #expect(await task.value == 5)
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func theEndReleasesTheSubscription_S7() async {
        final class Tracked {}
        weak var weakTracked: Tracked?
        var iterator: AsyncPublisher<Publishers.Map<Just<Int>, Int>>.Iterator
        do {
            let tracked = Tracked()
            weakTracked = tracked
            iterator = Just(1).map { _ in withExtendedLifetime(tracked) { 1 } }.values.makeAsyncIterator()
        }
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == nil)
        #expect(weakTracked == nil)
    }

    // MARK: Several next() at once

    @Test func twoNextCallsFromDifferentTasksAreServedInOrder() async {
        // As Combine: each waiting next() asks for one value, and they are served in order.
        let upstream = TestPublisher<Int, Never>()
        let shared = SharedIterator(upstream.values.makeAsyncIterator())
        let first = Task {
            var iterator = shared.iterator
            return await iterator.next()
        }
        #expect(await pollUntil { upstream.history == [.requested(.max(1))] })
        let second = Task {
            var iterator = shared.iterator
            return await iterator.next()
        }
        #expect(await pollUntil { upstream.history == [.requested(.max(1)), .requested(.max(1))] })
        upstream.send(1)
        upstream.send(2)
        #expect(await first.value == 1)
        #expect(await second.value == 2)
        upstream.send(completion: .finished)
        var iterator = shared.iterator
        #expect(await iterator.next() == nil)
    }

    @Test func aFailureGoesToTheFirstWaitingNextAndTheOthersEnd() async throws {
        let upstream = TestPublisher<Int, Boom>()
        let shared = SharedThrowingIterator(upstream.values.makeAsyncIterator())
        let first = Task { () throws -> Int? in
            var iterator = shared.iterator
            return try await iterator.next()
        }
        #expect(await pollUntil { upstream.history.count == 1 })
        let second = Task { () throws -> Int? in
            var iterator = shared.iterator
            return try await iterator.next()
        }
        #expect(await pollUntil { upstream.history.count == 2 })
        upstream.send(completion: .failure(Boom()))
        await #expect(throws: Boom.self) { try await first.value }
        #expect(try await second.value == nil)
    }

    @Test func cancellingOneWaitingTaskEndsEveryWaitingNext_S16() async {
        let upstream = TestPublisher<Int, Never>()
        let shared = SharedIterator(upstream.values.makeAsyncIterator())
        let first = Task {
            var iterator = shared.iterator
            return await iterator.next()
        }
        let second = Task {
            var iterator = shared.iterator
            return await iterator.next()
        }
        #expect(await pollUntil { upstream.history.count == 2 })
        first.cancel()
        #expect(await first.value == nil)
        #expect(await second.value == nil)
        #expect(upstream.history.last == .cancelled)
    }

    // MARK: Misbehaving upstream

    @Test func ignoresWhatComesBeforeTheSubscriptionAndAfterTheEnd_S2() async throws {
        // A value before the subscription: ignored; the iteration goes on with the subscription.
        let early = MisbehavingPublisher<Int, Boom>([.value(9), .subscription])
        let shared = SharedThrowingIterator(early.values.makeAsyncIterator())
        let task = Task { () throws -> Int? in
            var iterator = shared.iterator
            return try await iterator.next()
        }
        #expect(await pollUntil { early.subscriptions.first?.history == [.requested(.max(1))] })
        task.cancel()
        #expect(try await task.value == nil)

        // A completion before the subscription ends the sequence, as in Combine; the
        // subscription that follows is cancelled.
        let failedEarly = MisbehavingPublisher<Int, Boom>([.completion(.failure(Boom())), .subscription])
        var failing = failedEarly.values.makeAsyncIterator()
        await #expect(throws: Boom.self) { try await failing.next() }
        #expect(failedEarly.subscriptions.first?.history == [.cancelled])
        let finishedEarly = MisbehavingPublisher<Int, Never>([.completion(.finished), .subscription, .value(1)])
        var finishing = finishedEarly.values.makeAsyncIterator()
        #expect(await finishing.next() == nil)
        #expect(finishedEarly.subscriptions.first?.history == [.cancelled])

        // After the end: ignored; a second subscription is cancelled.
        let late = MisbehavingPublisher<Int, Boom>([
            .subscription, .completion(.finished), .value(1),
            .completion(.failure(Boom())), .subscription,
        ])
        var iterator = late.values.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        #expect(late.subscriptions.last?.history == [.cancelled])
    }

    /// A publisher that keeps its subscriber for the test to drive by hand, sending nothing
    /// itself — not even the subscription.
    // `@unchecked Sendable`: `held` is guarded by `lock`.
    final class HeldSubscriber<Output, Failure: Error>: Publisher, @unchecked Sendable {
        private let lock = Lock()
        private var held: AnySubscriber<Output, Failure>?
        var subscriber: AnySubscriber<Output, Failure>? { lock.withLock { held } }
        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let erased = AnySubscriber(subscriber)
            lock.withLock { held = erased }
        }
    }

    /// Whether `count` `next()` calls of `iterator` wait for a subscription that has not come.
    static func waitingForSubscription<Output, Failure>(_ iterator: AsyncIteration<Output, Failure>, count: Int) -> Bool
    {
        let subscriber = iterator.subscriber
        return subscriber.lock.withLock {
            if case .awaitingSubscription(let demand) = subscriber.state { demand == count } else { false }
        }
    }

    @Test(arguments: ["value", "finished", "failure"])
    func twoWaitingCallsReturnWhenAValueOrCompletionComesBeforeTheSubscription(_ early: String) async throws {
        let upstream = HeldSubscriber<Int, Boom>()
        let shared = SharedThrowingIterator(upstream.values.makeAsyncIterator())
        let first = Task { () throws -> Int? in
            var iterator = shared.iterator
            return try await iterator.next()
        }
        let second = Task { () throws -> Int? in
            var iterator = shared.iterator
            return try await iterator.next()
        }
        // If a call never returns (the bug this test is about), cancelling it ends the test with a
        // failure instead of a hang.
        let guardTask = Task {
            try await Task.sleep(for: .seconds(20))
            first.cancel()
            second.cancel()
        }
        defer { guardTask.cancel() }
        #expect(await pollUntil { Self.waitingForSubscription(shared.iterator.iteration, count: 2) })
        let subscriber = try #require(upstream.subscriber)
        switch early {
        case "value":
            // As Combine's iterator: every waiting call returns nil.
            _ = subscriber.receive(7)
            #expect(try await first.value == nil)
            #expect(try await second.value == nil)
        case "finished":
            subscriber.receive(completion: .finished)
            #expect(try await first.value == nil)
            #expect(try await second.value == nil)
        default:
            subscriber.receive(completion: .failure(Boom()))
            // One waiting call throws the failure and the other returns nil. Which is which
            // depends on which task's call waited first, and the two tasks may start in either
            // order.
            let results = [await first.result, await second.result]
            let threw = results.filter { if case .failure(let error) = $0 { error is Boom } else { false } }
            let returnedNil = results.filter { if case .success(nil) = $0 { true } else { false } }
            #expect(threw.count == 1)
            #expect(returnedNil.count == 1)
        }
    }

    // MARK: Reentrancy

    @Test func aPublisherThatAnswersInsideTheRequest() async {
        // `Just` and sequences send the value from inside `request(.max(1))`, while `next()` is
        // still parking: the value must still arrive, and exactly once.
        var iterator = [1, 2].publisher.values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == nil)
    }

    @Test func aPublisherThatSubscribesLater() async {
        // The subscription arrives on another thread, after the first next() is waiting.
        struct Late: Publisher, Sendable {
            typealias Output = Int
            typealias Failure = Never
            final class Box: @unchecked Sendable {  // handed to one other thread, once
                let subscriber: AnySubscriber<Int, Never>
                init(_ subscriber: AnySubscriber<Int, Never>) { self.subscriber = subscriber }
            }
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                let box = Box(AnySubscriber(subscriber))
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
                    Just(3).subscribe(box.subscriber)
                }
            }
        }
        #expect(await asyncElements(Late().values) == [3])
    }

    // MARK: Contract

    @Test func neverMoreThanAsked_S1() async {
        let upstream = TestPublisher<Int, Never>()
        let values = upstream.values
        let task = Task {
            var iterator = values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await pollUntil { upstream.history == [.requested(.max(1))] })
        upstream.send(1)
        upstream.send(2)  // not asked for: dropped, not handed to a later next()
        #expect(await task.value == 1)
        #expect(upstream.demand == .none)
    }
}

// MARK: - Helpers for async tests

/// Every value of an async sequence, in order.
func asyncElements<S: AsyncSequence>(_ sequence: S) async -> [S.Element] where S.Failure == Never {
    var values: [S.Element] = []
    var iterator = sequence.makeAsyncIterator()
    while let value = await iterator.next(isolation: nil) { values.append(value) }
    return values
}

/// Waits until `condition` holds, checking every millisecond for at most `timeout`; returns
/// whether it holds. For conditions another thread or task makes true.
func pollUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        if clock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Copies of one iterator for several tasks (the iterator's state is the shared subscriber,
/// which is thread-safe; each task mutates only its own copy).
final class SharedIterator<P: Publisher>: @unchecked Sendable where P.Failure == Never {  // `iterator` never changes
    let iterator: AsyncPublisher<P>.Iterator
    init(_ iterator: AsyncPublisher<P>.Iterator) { self.iterator = iterator }
}

/// ``SharedIterator`` for a throwing sequence.
final class SharedThrowingIterator<P: Publisher>: @unchecked Sendable {  // `iterator` never changes
    let iterator: AsyncThrowingPublisher<P>.Iterator
    init(_ iterator: AsyncThrowingPublisher<P>.Iterator) { self.iterator = iterator }
}
