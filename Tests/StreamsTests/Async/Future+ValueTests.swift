import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("Future.value", .timeLimit(.minutes(1)))
struct FutureValueTests {
    struct Boom: Error, Equatable {}
    final class PromiseSlot<Output, Failure: Error>: @unchecked Sendable {  // set once, before it is read
        var promise: Future<Output, Failure>.Promise?
    }

    // MARK: Marbles (values over time)

    @Test func docExamples() async throws {
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(42)) }
        }
        #expect(await future.value == 42)

        let failing = Future<Int, Boom> { promise in promise(.failure(Boom())) }
        await #expect(throws: Boom.self) { try await failing.value }
    }

    @Test func aFulfilledFutureAnswersAtOnce() async throws {
        let future = Future<String, Never> { $0(.success("ready")) }
        #expect(await future.value == "ready")
        let throwing = Future<String, Boom> { $0(.success("ready")) }
        #expect(try await throwing.value == "ready")
    }

    @Test func waitsForAPromiseCalledLater() async {
        let slot = PromiseSlot<Int, Never>()
        let future = Future<Int, Never> { slot.promise = $0 }
        let task = Task { await future.value }
        let promise = slot.promise!
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { promise(.success(7)) }
        #expect(await task.value == 7)
    }

    @Test func anActorAwaitsAValueThatIsNotSendable() async throws {
        // Compiles only because `value` runs on the caller's executor.
        final class Box {
            let number: Int
            init(_ number: Int) { self.number = number }
        }
        actor Reader {
            func read() async throws -> Int {
                let future = Future<Box, Never> { $0(.success(Box(5))) }
                let throwing = Future<Box, Boom> { $0(.success(Box(6))) }
                return await future.value.number + (try await throwing.value.number)
            }
        }
        #expect(try await Reader().read() == 11)
    }

    // MARK: Completion and failure

    @Test func everyAwaiterGetsTheSameResult_S12() async throws {
        let slot = PromiseSlot<Int, Boom>()
        let future = Future<Int, Boom> { slot.promise = $0 }
        let tasks = (0..<5).map { _ in Task { try await future.value } }
        slot.promise!(.success(3))
        slot.promise!(.success(4))  // ignored
        for task in tasks { #expect(try await task.value == 3) }
        #expect(try await future.value == 3)
    }

    @Test func aFailureIsThrownToEveryAwaiter() async {
        let slot = PromiseSlot<Int, Boom>()
        let future = Future<Int, Boom> { slot.promise = $0 }
        let tasks = (0..<3).map { _ in Task { try await future.value } }
        slot.promise!(.failure(Boom()))
        for task in tasks {
            await #expect(throws: Boom.self) { try await task.value }
        }
    }

    // MARK: Cancellation

    @Test func cancellingTheAwaitingTaskDoesNotEndTheWait() async throws {
        let slot = PromiseSlot<Int, Boom>()
        let future = Future<Int, Boom> { slot.promise = $0 }
        let task = Task { () throws -> Int in
            withUnsafeCurrentTask { $0?.cancel() }  // cancelled before it starts waiting
            return try await future.value
        }
        let promise = slot.promise!
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { promise(.success(9)) }
        #expect(try await task.value == 9)
    }

    // MARK: Reentrancy

    @Test func awaitingFromInsideAnotherAwaitersContinuation() async {
        let future = Future<Int, Never> { $0(.success(1)) }
        let nested = await Task { await future.value + (await future.value) }.value
        #expect(nested == 2)
    }
}
