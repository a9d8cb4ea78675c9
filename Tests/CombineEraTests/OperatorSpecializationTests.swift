// Combine declares concrete return types for operators on `Just`, `Optional.Publisher`,
// `Result.Publisher` and `Publishers.Sequence`; Combine code that spells those types out must
// compile unchanged against Streams.
import Streams
import Testing

@Suite("Combine's operator specializations, Swift 5 mode")
struct OperatorSpecializationTests {
    struct Failure: Error, Equatable {}

    @Test func onJust() {
        let mapped: Just<Int> = Just(1).map { $0 + 1 }
        let filtered: Optional<Int>.Publisher = Just(1).filter { $0 > 0 }
        let tried: Result<Int, Error>.Publisher = Just(1).tryMap { $0 * 3 }
        let appended: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
        let counted: Just<Int> = Just(1).count()
        #expect(mapped.output == 2)
        #expect(filtered.output == 1)
        #expect((try? tried.result.get()) == 3)
        #expect(appended.sequence == [1, 2, 3])
        #expect(counted.output == 1)
    }

    @Test func onSequence() {
        let mapped: Publishers.Sequence<[Int], Never> = [1, 2].publisher.map { $0 * 10 }
        let counted: Just<Int> = [1, 2].publisher.count()
        let smallest: Optional<Int>.Publisher = [3, 1, 2].publisher.min()
        let filtered: Publishers.Sequence<[Int], Never> = [1, 2, 3, 4].publisher.filter { $0.isMultiple(of: 2) }
        #expect(mapped.sequence == [10, 20])
        #expect(counted.output == 2)
        #expect(smallest.output == 1)
        #expect(filtered.sequence == [2, 4])
    }

    @Test func onOptionalAndResult() {
        let mapped: Optional<String>.Publisher = Optional(2).publisher.map { "\($0)" }
        let failing: Result<Int, Failure>.Publisher = Result<Int, Failure>.Publisher(.failure(Failure())).map { $0 + 1 }
        #expect(mapped.output == "2")
        #expect(failing.result == .failure(Failure()))
    }
}
