import Streams
import StreamsTesting
import Testing

/// The operators Combine declares on `Optional.Publisher` itself (Optional.Publisher+Operators.swift).
@Suite("Optional.Publisher operators")
struct OptionalPublisherOperatorsTests {
    @Test func specializationsReturnConcretePublishers() {
        let some = Optional(1).publisher
        #expect(type(of: some.map { $0 + 1 }) == Optional<Int>.Publisher.self)
        #expect(type(of: some.map { "\($0)" }) == Optional<String>.Publisher.self)
        #expect(type(of: some.replaceEmpty(with: 0)) == Just<Int>.self)
        let _: Optional<Bool>.Publisher = some.allSatisfy { $0 > 0 }
        let _: Optional<Bool>.Publisher = some.contains(1)
        let _: Optional<Bool>.Publisher = some.contains { $0 > 0 }
        let _: Optional<[Int]>.Publisher = some.collect()
        let _: Optional<Int>.Publisher = some.count()
        let _: Optional<Int>.Publisher = some.compactMap { $0 }
        let _: Optional<Int>.Publisher = some.min()
        let _: Optional<Int>.Publisher = some.max()
        let _: Optional<Int>.Publisher = some.min(by: <)
        let _: Optional<Int>.Publisher = some.max(by: <)
        let _: Optional<Int>.Publisher = some.dropFirst()
        let _: Optional<Int>.Publisher = some.drop { $0 > 0 }
        let _: Optional<Int>.Publisher = some.first()
        let _: Optional<Int>.Publisher = some.first { $0 > 0 }
        let _: Optional<Int>.Publisher = some.last()
        let _: Optional<Int>.Publisher = some.last { $0 > 0 }
        let _: Optional<Int>.Publisher = some.filter { $0 > 0 }
        let _: Empty<Int, Never> = some.ignoreOutput()
        let _: Optional<Int>.Publisher = some.output(at: 0)
        let _: Optional<Int>.Publisher = some.output(in: 0...1)
        let _: Optional<Int>.Publisher = some.prefix(1)
        let _: Optional<Int>.Publisher = some.prefix { $0 > 0 }
        let _: Optional<Int>.Publisher = some.reduce(0, +)
        let _: Optional<Int>.Publisher = some.scan(0, +)
        let _: Optional<Int>.Publisher = some.removeDuplicates()
        let _: Optional<Int>.Publisher = some.removeDuplicates(by: ==)
        let _: Optional<Int>.Publisher = some.replaceError(with: 0)
        let _: Optional<Int>.Publisher = some.retry(1)
    }

    @Test func specializationsOfAValue() {
        let some = Optional(3).publisher
        #expect(some.map { $0 * 2 }.output == 6)
        #expect(some.filter { $0 > 5 }.output == nil)
        #expect(some.compactMap { $0 > 2 ? "\($0)" : nil }.output == "3")
        #expect(some.allSatisfy { $0 > 2 }.output == true)
        #expect(some.contains(3).output == true)
        #expect(some.contains { $0 > 5 }.output == false)
        #expect(some.collect().output == [3])
        #expect(some.count().output == 1)
        #expect(some.min(by: <).output == 3)
        #expect(some.dropFirst(0).output == 3)
        #expect(some.dropFirst().output == nil)
        #expect(some.drop { $0 < 5 }.output == nil)
        #expect(some.first { $0 == 3 }.output == 3)
        #expect(some.last { $0 == 4 }.output == nil)
        #expect(some.output(at: 0).output == 3)
        #expect(some.output(at: 1).output == nil)
        #expect(some.output(in: 0..<1).output == 3)
        #expect(some.output(in: 1...).output == nil)
        #expect(some.prefix(1).output == 3)
        #expect(some.prefix(0).output == nil)
        #expect(some.prefix { $0 < 5 }.output == 3)
        #expect(some.reduce(10, +).output == 13)
        #expect(some.scan(10, +).output == 13)
        #expect(some.replaceEmpty(with: 0) == Just(3))
        #expect(some.replaceError(with: 0) == some)
        #expect(some.retry(3) == some)
        assertMarbles(some.map { $0 * 2 }, "[6|]")
        assertMarbles(some.ignoreOutput(), "|")
    }

    @Test func emptyStaysEmptyExceptCollectAndReplaceEmpty() {
        // As in Combine: `count`, `allSatisfy`, `contains`, `reduce`, `scan` of nil publish
        // nothing, not the answer the general operators give for an empty stream.
        let none = Optional<Int>.none.publisher
        #expect(none.count().output == nil)
        #expect(none.allSatisfy { _ in false }.output == nil)
        #expect(none.contains(1).output == nil)
        #expect(none.contains { _ in true }.output == nil)
        #expect(none.reduce(10, +).output == nil)
        #expect(none.scan(10, +).output == nil)
        #expect(none.map { $0 * 2 }.output == nil)
        #expect(none.dropFirst(0).output == nil)
        #expect(none.output(at: 0).output == nil)
        #expect(none.collect().output == [])
        #expect(none.replaceEmpty(with: 5) == Just(5))
        #expect(values(none.collect()) == [[]])
        assertMarbles(none.count(), "|")
    }

    @Test func closuresRunWhenTheOperatorIsCalledAndNotForNil() {
        final class Log: @unchecked Sendable { var calls = 0 }
        let log = Log()
        let mapped = Optional(1).publisher.map { value -> Int in log.calls += 1; return value }
        #expect(log.calls == 1)
        _ = values(mapped)
        #expect(log.calls == 1)
        _ = Optional<Int>.none.publisher.filter { _ in log.calls += 1; return true }
        #expect(log.calls == 1)
    }

    @Test func negativePrefixStopsTheProgramWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.prefix(-1)
        }
        let resultText = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(resultText.contains("prefix(-1): the maximum length must not be negative"))
    }
}
