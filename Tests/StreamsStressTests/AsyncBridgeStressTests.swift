import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// The async bridge under real concurrency: cancellation racing `next()`, values racing
/// cancellation, requests racing cancel. Each test is bounded in rounds and every wait has a
/// deadline; ThreadSanitizer runs them in CI.
@Suite("Async bridge under concurrency", .timeLimit(.minutes(2)))
struct AsyncBridgeStressTests {
    @Test func concurrentNextCallsOnCopiesOfOneIteratorEachGetADistinctValue() async {
        // Several tasks call next() on copies of one iterator at once: no crash, every value is
        // handed out exactly once, and each task sees its values in order.
        final class Shared: @unchecked Sendable {  // `iterator` never changes
            let iterator: AsyncPublisher<Publishers.Sequence<Range<Int>, Never>>.Iterator
            init(_ iterator: AsyncPublisher<Publishers.Sequence<Range<Int>, Never>>.Iterator) {
                self.iterator = iterator
            }
        }
        for _ in 0..<20 {
            let shared = Shared((0..<400).publisher.values.makeAsyncIterator())
            let seen = await withTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var iterator = shared.iterator
                        var values: [Int] = []
                        while let value = await iterator.next() { values.append(value) }
                        return values
                    }
                }
                var all: [[Int]] = []
                for await values in group { all.append(values) }
                return all
            }
            #expect(seen.flatMap { $0 }.sorted() == Array(0..<400))
            #expect(seen.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0 < $1 } })
        }
    }

    @Test func cancellingTheTaskRacesValuesFromAnotherThread_S16() async {
        for _ in 0..<100 {
            let subject = PassthroughSubject<Int, Never>()
            let stop = Atomic<Bool>(false)
            let produced = Atomic<Int>(0)
            let values = subject.values
            let task = Task {
                var seen: [Int] = []
                for await value in values { seen.append(value) }
                return seen
            }
            DispatchQueue.global().async {
                var next = 0
                while !stop.load(ordering: .acquiring) && next < 2_000 {
                    subject.send(next)
                    next += 1
                    produced.store(next, ordering: .releasing)
                }
            }
            let delay = Int.random(in: 0...300)
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(delay)) { task.cancel() }
            let seen = await task.value
            stop.store(true, ordering: .releasing)
            // Every value seen was sent, in order, none twice.
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
            #expect(seen.count <= 2_000)
        }
    }

    @Test func aValueRacesTheCancelOfTheWaitingNext() async {
        await onDedicatedThread {
            for round in 0..<200 {
                let upstream = TestPublisher<Int, Never>()
                let values = upstream.values
                let task = Task {
                    var iterator = values.makeAsyncIterator()
                    return await iterator.next()
                }
                #expect(await pollUntil { upstream.history.first == .requested(.max(1)) })
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { upstream.send(round) } else { task.cancel() }
                }
                // Either the value won or the cancel did; the task ends either way.
                let result = await task.value
                #expect(result == nil || result == round)
                #expect(await pollUntil { upstream.history.last == .cancelled })
            }
        }
    }

    @Test func completionRacesTheCancelOfTheWaitingNext() async {
        await onDedicatedThread {
            struct Boom: Error {}
            for _ in 0..<200 {
                let upstream = TestPublisher<Int, Boom>()
                let values = upstream.values
                let task = Task { () -> String in
                    var iterator = values.makeAsyncIterator()
                    do {
                        return try await iterator.next() == nil ? "nil" : "value"
                    } catch {
                        return "thrown"
                    }
                }
                #expect(await pollUntil { upstream.history.first == .requested(.max(1)) })
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { upstream.send(completion: .failure(Boom())) } else { task.cancel() }
                }
                let result = await task.value
                #expect(result == "nil" || result == "thrown")
            }
        }
    }

    @Test func requestsRaceTheCancelOfAnAsyncSequencePublisher() async {
        await onDedicatedThread {
            final class Iterations: Sendable {
                let live = Atomic<Int>(0)
            }
            struct Endless: AsyncSequence, Sendable {
                let iterations: Iterations
                final class Iterator: AsyncIteratorProtocol {
                    let iterations: Iterations
                    var next = 0
                    init(_ iterations: Iterations) {
                        self.iterations = iterations
                        iterations.live.add(1, ordering: .sequentiallyConsistent)
                    }
                    deinit { iterations.live.subtract(1, ordering: .sequentiallyConsistent) }
                    func next() async -> Int? {
                        next += 1
                        return next
                    }
                }
                func makeAsyncIterator() -> Iterator { Iterator(iterations) }
            }
            let iterations = Iterations()
            var subscribers: [RecordingSubscriber<Int, Never>] = []
            for _ in 0..<200 {
                let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
                AsyncSequencePublisher(Endless(iterations: iterations)).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    switch index {
                    case 1: subscriber.cancel()
                    default: for _ in 0..<20 { subscriber.request(.max(1)) }
                    }
                }
                subscribers.append(subscriber)
            }
            // Every iterating task ends after its cancel.
            #expect(await pollUntil { iterations.live.load(ordering: .sequentiallyConsistent) == 0 })
            for subscriber in subscribers {
                #expect(subscriber.violations.isEmpty)
                let received = subscriber.values
                #expect(received == Array(stride(from: 1, through: received.count, by: 1)))
                #expect(subscriber.values.count <= 40)
                #expect(subscriber.completion == nil)
            }
        }
    }

    @Test func futureValueAwaitedWhileThePromiseIsCalledFromAnotherThread_S12() async {
        final class PromiseSlot: @unchecked Sendable { var promise: Future<Int, Never>.Promise? }
        for round in 0..<200 {
            let slot = PromiseSlot()
            let future = Future<Int, Never> { slot.promise = $0 }
            let promise = slot.promise!
            let tasks = (0..<4).map { _ in Task { await future.value } }
            DispatchQueue.global().async { promise(.success(round)) }
            for task in tasks { #expect(await task.value == round) }
        }
    }
}
