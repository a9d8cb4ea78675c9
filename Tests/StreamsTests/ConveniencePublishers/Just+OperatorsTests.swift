import Dispatch
import Streams
import StreamsTesting
import Testing

/// The operators Combine declares on `Just` itself (Just+Operators.swift).
@Suite("Just operators")
struct JustOperatorsTests {
    struct Oops: Error, Equatable {}

    /// A `mapError` transform to `Oops` for any failure type (for a `Just`, one that is never
    /// called).
    static func toOops<F>(_ failure: F) -> Oops { Oops() }

    @Test func specializationsReturnConcretePublishers() {
        let just = Just(1)
        #expect(type(of: just.map { $0 + 1 }) == Just<Int>.self)
        #expect(type(of: just.filter { $0 > 0 }) == Optional<Int>.Publisher.self)
        #expect(type(of: just.tryMap { $0 + 1 }) == Result<Int, any Error>.Publisher.self)
        #expect(type(of: just.append(2, 3)) == Publishers.Sequence<[Int], Never>.self)
        let _: Just<Bool> = just.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = just.tryAllSatisfy { $0 > 0 }
        let _: Just<Bool> = just.contains(1)
        let _: Just<Bool> = just.contains { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = just.tryContains { $0 > 0 }
        let _: Just<[Int]> = just.collect()
        let _: Just<Int> = just.count()
        let _: Just<Int> = just.min()
        let _: Just<Int> = just.max()
        let _: Just<Int> = just.min(by: <)
        let _: Just<Int> = just.max(by: <)
        let _: Optional<Int>.Publisher = just.compactMap { $0 }
        let _: Optional<Int>.Publisher = just.dropFirst()
        let _: Optional<Int>.Publisher = just.drop { $0 > 0 }
        let _: Just<Int> = just.first()
        let _: Optional<Int>.Publisher = just.first { $0 > 0 }
        let _: Just<Int> = just.last()
        let _: Optional<Int>.Publisher = just.last { $0 > 0 }
        let _: Empty<Int, Never> = just.ignoreOutput()
        let _: Result<Int, Oops>.Publisher = just.mapError(Self.toOops)
        let _: Result<Int, Oops>.Publisher = just.setFailureType(to: Oops.self)
        let _: Optional<Int>.Publisher = just.output(at: 0)
        let _: Optional<Int>.Publisher = just.output(in: 0..<2)
        let _: Optional<Int>.Publisher = just.prefix(1)
        let _: Optional<Int>.Publisher = just.prefix { $0 > 0 }
        let _: Result<Int, Never>.Publisher = just.reduce(0, +)
        let _: Result<Int, any Error>.Publisher = just.tryReduce(0, +)
        let _: Result<Int, Never>.Publisher = just.scan(0, +)
        let _: Result<Int, any Error>.Publisher = just.tryScan(0, +)
        let _: Just<Int> = just.removeDuplicates()
        let _: Just<Int> = just.removeDuplicates(by: ==)
        let _: Result<Int, any Error>.Publisher = just.tryRemoveDuplicates(by: ==)
        let _: Just<Int> = just.replaceError(with: 0)
        let _: Just<Int> = just.replaceEmpty(with: 0)
        let _: Just<Int> = just.retry(3)
        let _: Publishers.Sequence<[Int], Never> = just.prepend(-1, 0)
        let _: Publishers.Sequence<[Int], Never> = just.prepend(-1...0)
        let _: Publishers.Sequence<[Int], Never> = just.append(2...3)
    }

    @Test func closuresRunWhenTheOperatorIsCalledNotWhenSubscribed() {
        // As in Combine: the specializations are evaluated eagerly, once.
        final class Log: @unchecked Sendable { var calls = 0 }
        let log = Log()
        let mapped = Just(2).map { value -> Int in
            log.calls += 1
            return value * 10
        }
        #expect(log.calls == 1)
        #expect(values(mapped) == [20])
        #expect(values(mapped) == [20])
        #expect(log.calls == 1)
        _ = Just(2).filter { _ in log.calls += 1; return true }
        _ = Just(2).reduce(0) { log.calls += 1; return $0 + $1 }
        #expect(log.calls == 3)
    }

    @Test func filteringSpecializationsPublishTheValueOrNothing() {
        #expect(Just(4).filter { $0.isMultiple(of: 2) }.output == 4)
        #expect(Just(3).filter { $0.isMultiple(of: 2) }.output == nil)
        #expect(Just("7").compactMap { Int($0) }.output == 7)
        #expect(Just("x").compactMap { Int($0) }.output == nil)
        #expect(Just(5).drop { $0 < 3 }.output == 5)
        #expect(Just(1).drop { $0 < 3 }.output == nil)
        #expect(Just(5).first { $0 > 3 }.output == 5)
        #expect(Just(5).last { $0 > 9 }.output == nil)
        #expect(Just(5).prefix { $0 > 3 }.output == 5)
        #expect(Just(5).prefix { $0 > 9 }.output == nil)
        assertMarbles(Just(3).filter { $0.isMultiple(of: 2) }, "|")
        assertMarbles(Just(4).filter { $0.isMultiple(of: 2) }, "[4|]")
    }

    @Test func positionalSpecializations() {
        #expect(Just(9).dropFirst(0).output == 9)
        #expect(Just(9).dropFirst().output == nil)
        #expect(Just(9).dropFirst(5).output == nil)
        #expect(Just(9).output(at: 0).output == 9)
        #expect(Just(9).output(at: 1).output == nil)
        #expect(Just(9).output(in: 0..<3).output == 9)
        #expect(Just(9).output(in: 0...0).output == 9)
        #expect(Just(9).output(in: ...4).output == 9)
        #expect(Just(9).output(in: 1..<3).output == nil)
        #expect(Just(9).prefix(0).output == nil)
        #expect(Just(9).prefix(5).output == 9)
    }

    @Test func outputInARangeStartingBelowZeroPublishesNothingAndGoesOn() {
        // As Combine's `Just`: `Just(12).output(in: -10..<10)` is `Optional.Publisher(nil)`.
        #expect(Just(12).output(in: -10..<10).output == nil)
        #expect(Just(12).output(in: (-10)...).output == nil)
        #expect(Just(12).output(in: -10...10).output == nil)
        #expect(Just(12).output(in: -10 ..< -5).output == nil)
        #expect(Just(12).output(in: ..<(-1)).output == nil)
        #expect(Just(12).output(in: 0..<10).output == 12)
        #expect(Just(12).output(in: 0..<Int.max).output == 12)
        #expect(Optional(12).publisher.output(in: -10..<10).output == nil)
        #expect(Optional(12).publisher.output(in: ...(-3)).output == nil)
        #expect(Optional(12).publisher.output(in: 0..<10).output == 12)
        #expect(Optional<Int>.none.publisher.output(in: -1..<10).output == nil)
    }

    @Test func emptyRangeOutputPublishesNothing() {
        // Deliberately unlike Combine, whose `Just.output(in: 0..<0)` publishes the value
        // (FB6169621): an empty range selects no position, as for the general operator.
        #expect(Just(9).output(in: 0..<0).output == nil)
    }

    @Test func reducingSpecializationsAnswerForTheOneValue() {
        #expect(Just(3).count().output == 1)
        #expect(Just(3).collect().output == [3])
        #expect(Just(3).min().output == 3)
        #expect(Just(3).max(by: >).output == 3)
        #expect(Just(3).contains(3).output == true)
        #expect(Just(3).contains(4).output == false)
        #expect(Just(3).contains { $0 > 2 }.output == true)
        #expect(Just(3).allSatisfy { $0 > 5 }.output == false)
        #expect(Just(3).reduce(10, +).result == .success(13))
        #expect(Just(3).scan(10, +).result == .success(13))
        #expect(Just(3).removeDuplicates().output == 3)
        #expect(Just(3).replaceEmpty(with: 0).output == 3)
        #expect(Just(3).retry(2) == Just(3))
        #expect(Just(3).replaceError(with: 0) == Just(3))
        #expect(Just(3).ignoreOutput() == Empty<Int, Never>())
        assertMarbles(Just(3).ignoreOutput(), "|")
        #expect(values(Just(3).collect()) == [[3]])
    }

    @Test func failureTypeSpecializations() {
        #expect(Just(3).setFailureType(to: Oops.self).result == .success(3))
        #expect(Just(3).mapError(Self.toOops).result == .success(3))
        assertMarbles(Just(3).setFailureType(to: Oops.self), "[3|]")
    }

    @Test func tryFormsTurnAThrowIntoAFailure_S14() throws {
        #expect(try Just(2).tryMap { $0 * 2 }.result.get() == 4)
        #expect(throws: Oops.self) { try Just(2).tryMap { _ -> Int in throw Oops() }.result.get() }
        #expect(try Just(2).tryAllSatisfy { $0 > 1 }.result.get() == true)
        #expect(throws: Oops.self) { try Just(2).tryAllSatisfy { _ in throw Oops() }.result.get() }
        #expect(try Just(2).tryContains { $0 > 5 }.result.get() == false)
        #expect(throws: Oops.self) { try Just(2).tryContains { _ in throw Oops() }.result.get() }
        #expect(try Just(2).tryReduce(1, +).result.get() == 3)
        #expect(throws: Oops.self) { try Just(2).tryReduce(1) { _, _ in throw Oops() }.result.get() }
        #expect(try Just(2).tryScan(1, +).result.get() == 3)
        #expect(throws: Oops.self) { try Just(2).tryScan(1) { _, _ in throw Oops() }.result.get() }
        #expect(throws: Oops.self) { try Just(2).tryRemoveDuplicates { _, _ in throw Oops() }.result.get() }

        let subscriber = RecordingSubscriber<Int, any Error>()
        Just(2).tryMap { _ -> Int in throw Oops() }.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error is Oops)
    }

    @Test func tryRemoveDuplicatesCallsThePredicateWithTheValueTwice() throws {
        // As in Combine.
        final class Log: @unchecked Sendable { var pairs: [[Int]] = [] }
        let log = Log()
        let result = Just(7).tryRemoveDuplicates { log.pairs.append([$0, $1]); return false }
        #expect(log.pairs == [[7, 7]])
        #expect(try result.result.get() == 7)
    }

    @Test func appendAndPrependGiveOneSequence() {
        #expect(Just(1).append(2, 3).sequence == [1, 2, 3])
        #expect(Just(1).append([2, 3]).sequence == [1, 2, 3])
        #expect(Just(3).prepend(1, 2).sequence == [1, 2, 3])
        #expect(Just(3).prepend(1...2).sequence == [1, 2, 3])
        assertMarbles(Just(1).append(2, 3), "[123|]")
    }

    @Test func negativeCountsStopTheProgramWithAClearMessage() async {
        let drop = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).dropFirst(-1)
        }
        let dropText = String(decoding: drop?.standardErrorContent ?? [], as: UTF8.self)
        #expect(dropText.contains("dropFirst(-1): the number of values to drop must not be negative"))
        let output = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).output(at: -2)
        }
        let outputText = String(decoding: output?.standardErrorContent ?? [], as: UTF8.self)
        #expect(outputText.contains("output(at: -2): the index must not be negative"))
    }
}
