import Streams
import StreamsTesting
import Testing

/// The operators Combine declares on `Result.Publisher` itself (Result.Publisher+Operators.swift).
@Suite("Result.Publisher operators")
struct ResultPublisherOperatorsTests {
    struct Oops: Error, Equatable {}
    struct Other: Error, Equatable {}

    static let success = Result<Int, Oops>.success(3).publisher
    static let failure = Result<Int, Oops>.failure(Oops()).publisher

    @Test func specializationsReturnConcretePublishers() {
        let p = Self.success
        #expect(type(of: p.map { $0 + 1 }) == Result<Int, Oops>.Publisher.self)
        #expect(type(of: p.tryMap { $0 + 1 }) == Result<Int, any Error>.Publisher.self)
        #expect(type(of: p.replaceError(with: 0)) == Result<Int, Never>.Publisher.self)
        #expect(type(of: p.ignoreOutput()) == Empty<Int, Oops>.self)
        let _: Result<Int, Other>.Publisher = p.mapError { _ in Other() }
        let _: Result<Bool, Oops>.Publisher = p.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = p.tryAllSatisfy { $0 > 0 }
        let _: Result<Bool, Oops>.Publisher = p.contains(3)
        let _: Result<Bool, Oops>.Publisher = p.contains { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = p.tryContains { $0 > 0 }
        let _: Result<[Int], Oops>.Publisher = p.collect()
        let _: Result<Int, Oops>.Publisher = p.count()
        let _: Result<Int, Oops>.Publisher = p.min()
        let _: Result<Int, Oops>.Publisher = p.max()
        let _: Result<Int, Oops>.Publisher = p.min(by: <)
        let _: Result<Int, Oops>.Publisher = p.max(by: <)
        let _: Result<Int, any Error>.Publisher = p.tryMin(by: <)
        let _: Result<Int, any Error>.Publisher = p.tryMax(by: <)
        let _: Result<Int, Oops>.Publisher = p.first()
        let _: Result<Int, Oops>.Publisher = p.last()
        let _: Result<Int, Oops>.Publisher = p.removeDuplicates()
        let _: Result<Int, Oops>.Publisher = p.removeDuplicates(by: ==)
        let _: Result<Int, any Error>.Publisher = p.tryRemoveDuplicates(by: ==)
        let _: Result<Int, Oops>.Publisher = p.replaceEmpty(with: 0)
        let _: Result<Int, Oops>.Publisher = p.retry(2)
        let _: Result<Int, Oops>.Publisher = p.reduce(0, +)
        let _: Result<Int, any Error>.Publisher = p.tryReduce(0, +)
        let _: Result<Int, Oops>.Publisher = p.scan(0, +)
        let _: Result<Int, any Error>.Publisher = p.tryScan(0, +)
        let _: Result<Int, Oops>.Publisher = Result<Int, Never>.success(1).publisher.setFailureType(to: Oops.self)
    }

    @Test func specializationsOfASuccess() {
        let p = Self.success
        #expect(p.map { $0 * 2 }.result == .success(6))
        #expect(p.mapError { _ in Other() }.result == .success(3))
        #expect(p.allSatisfy { $0 > 5 }.result == .success(false))
        #expect(p.contains(3).result == .success(true))
        #expect(p.contains { $0 > 5 }.result == .success(false))
        #expect(p.collect().result == .success([3]))
        #expect(p.count().result == .success(1))
        #expect(p.min().result == .success(3))
        #expect(p.max(by: >).result == .success(3))
        #expect(p.first() == p)
        #expect(p.last() == p)
        #expect(p.removeDuplicates() == p)
        #expect(p.replaceEmpty(with: 0) == p)
        #expect(p.retry(5) == p)
        #expect(p.reduce(10, +).result == .success(13))
        #expect(p.scan(10, +).result == .success(13))
        #expect(p.replaceError(with: 0).result == .success(3))
        #expect(Result<Int, Never>.success(4).publisher.setFailureType(to: Oops.self).result == .success(4))
        assertMarbles(p.map { $0 * 2 }, "[6|]")
        #expect(values(p.collect()) == [[3]])
    }

    @Test func aFailurePassesThroughAndClosuresAreNotCalled() {
        final class Log: @unchecked Sendable { var calls = 0 }
        let log = Log()
        let p = Self.failure
        #expect(p.map { value -> Int in log.calls += 1; return value }.result == .failure(Oops()))
        #expect(p.allSatisfy { _ in log.calls += 1; return true }.result == .failure(Oops()))
        #expect(p.contains(3).result == .failure(Oops()))
        #expect(p.collect().result == .failure(Oops()))
        #expect(p.count().result == .failure(Oops()))
        #expect(p.reduce(0) { log.calls += 1; return $0 + $1 }.result == .failure(Oops()))
        #expect(p.scan(0, +).result == .failure(Oops()))
        #expect(p.retry(3) == p)
        #expect(log.calls == 0)
        #expect(p.mapError { _ in Other() }.result == .failure(Other()))
        #expect(p.replaceError(with: 7).result == .success(7))
        #expect(throws: Oops.self) { try p.tryMap { $0 }.result.get() }
        assertMarbles(p.map { $0 * 2 }, "^")
        assertMarbles(p.replaceError(with: 7), "[7|]")
    }

    @Test func ignoreOutputOfAFailureFinishes() {
        // As in Combine: the specialization is an `Empty`, so the failure is dropped.
        assertMarbles(Self.failure.ignoreOutput(), "|")
        assertMarbles(Self.success.ignoreOutput(), "|")
    }

    @Test func closuresRunWhenTheOperatorIsCalled() {
        final class Log: @unchecked Sendable { var calls = 0 }
        let log = Log()
        let mapped = Self.success.map { value -> Int in log.calls += 1; return value }
        #expect(log.calls == 1)
        #expect(values(mapped) == [3])
        #expect(values(mapped) == [3])
        #expect(log.calls == 1)
    }

    @Test func tryFormsTurnAThrowIntoAFailure_S14() throws {
        let p = Self.success
        #expect(try p.tryMap { $0 + 1 }.result.get() == 4)
        #expect(throws: Other.self) { try p.tryMap { _ -> Int in throw Other() }.result.get() }
        #expect(throws: Other.self) { try p.tryAllSatisfy { _ in throw Other() }.result.get() }
        #expect(throws: Other.self) { try p.tryContains { _ in throw Other() }.result.get() }
        #expect(throws: Other.self) { try p.tryReduce(0) { _, _ in throw Other() }.result.get() }
        #expect(throws: Other.self) { try p.tryScan(0) { _, _ in throw Other() }.result.get() }
        // As in Combine, these call the closure with the value twice.
        #expect(throws: Other.self) { try p.tryMin { _, _ in throw Other() }.result.get() }
        #expect(throws: Other.self) { try p.tryMax { _, _ in throw Other() }.result.get() }
        #expect(throws: Other.self) { try p.tryRemoveDuplicates { _, _ in throw Other() }.result.get() }
        #expect(try p.tryMin(by: <).result.get() == 3)
        // The upstream failure wins over the closure, which is not called.
        #expect(throws: Oops.self) { try Self.failure.tryMap { _ -> Int in throw Other() }.result.get() }

        let subscriber = RecordingSubscriber<Int, any Error>()
        p.tryMap { _ -> Int in throw Other() }.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error is Other)
    }
}
