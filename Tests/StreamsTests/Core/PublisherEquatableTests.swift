import Streams
import StreamsTesting
import Testing

/// Combine declares `Equatable` on the publishers whose stored properties are all comparable:
/// two such publishers are equal when their upstreams and parameters are. These tests pin a
/// representative set; each builds its publishers with the type's initializer, so that an
/// operator specialization (`Just(1).count()` is a `Just`) does not stand in for the type.
@Suite("Equatable publishers")
struct PublisherEquatableTests {
    struct Oops: Error, Equatable {}
    struct Other: Error, Equatable {}

    @Test func sources() {
        #expect(Just(1) == Just(1))
        #expect(Just(1) != Just(2))
        #expect(Empty<Int, Never>() == Empty<Int, Never>())
        #expect(Empty<Int, Never>() != Empty<Int, Never>(completeImmediately: false))
        #expect(Fail<Int, Oops>(error: Oops()) == Fail<Int, Oops>(error: Oops()))
        #expect([1, 2].publisher == [1, 2].publisher)
        #expect([1, 2].publisher != [2, 1].publisher)
        #expect(Optional(1).publisher == Optional(1).publisher)
        #expect(Optional(1).publisher != Optional<Int>.none.publisher)
        #expect(Result<Int, Oops>.success(1).publisher == Result<Int, Oops>.success(1).publisher)
        #expect(Result<Int, Oops>.success(1).publisher != Result<Int, Oops>.failure(Oops()).publisher)
    }

    @Test func failOfAnEquatableError() {
        enum Code: Error, Equatable { case a, b }
        #expect(Fail<Int, Code>(error: .a) == Fail<Int, Code>(error: .a))
        #expect(Fail<Int, Code>(error: .a) != Fail<Int, Code>(error: .b))
    }

    @Test func dropComparesUpstreamAndCount() {
        #expect(Publishers.Drop(upstream: Just(1), count: 2) == Publishers.Drop(upstream: Just(1), count: 2))
        #expect(Publishers.Drop(upstream: Just(1), count: 2) != Publishers.Drop(upstream: Just(1), count: 3))
        #expect(Publishers.Drop(upstream: Just(1), count: 2) != Publishers.Drop(upstream: Just(2), count: 2))
    }

    @Test func outputComparesUpstreamAndRange() {
        #expect(Publishers.Output(upstream: Just(1), range: 0..<2) == Publishers.Output(upstream: Just(1), range: 0..<2))
        #expect(Publishers.Output(upstream: Just(1), range: 0..<2) != Publishers.Output(upstream: Just(1), range: 1..<2))
    }

    @Test func firstLastCountIgnoreOutputCompareTheirUpstream() {
        #expect(Publishers.First(upstream: Just(1)) == Publishers.First(upstream: Just(1)))
        #expect(Publishers.First(upstream: Just(1)) != Publishers.First(upstream: Just(2)))
        #expect(Publishers.Last(upstream: Just(1)) == Publishers.Last(upstream: Just(1)))
        #expect(Publishers.Last(upstream: Just(1)) != Publishers.Last(upstream: Just(2)))
        #expect(Publishers.Count(upstream: Just(1)) != Publishers.Count(upstream: Just(2)))
        #expect(Publishers.IgnoreOutput(upstream: Just(1)) != Publishers.IgnoreOutput(upstream: Just(2)))
    }

    @Test func collectComparesUpstreamAndCount() {
        #expect(Publishers.Collect(upstream: Just(1)) == Publishers.Collect(upstream: Just(1)))
        #expect(Publishers.Collect(upstream: Just(1)) != Publishers.Collect(upstream: Just(2)))
        #expect(Publishers.CollectByCount(upstream: Just(1), count: 2) == Publishers.CollectByCount(upstream: Just(1), count: 2))
        #expect(Publishers.CollectByCount(upstream: Just(1), count: 2) != Publishers.CollectByCount(upstream: Just(1), count: 3))
    }

    @Test func containsComparesUpstreamAndValue() {
        let upstream = [1, 2].publisher
        #expect(Publishers.Contains(upstream: upstream, output: 1) == Publishers.Contains(upstream: upstream, output: 1))
        #expect(Publishers.Contains(upstream: upstream, output: 1) != Publishers.Contains(upstream: upstream, output: 2))
    }

    @Test func replaceEmptyAndReplaceErrorCompareUpstreamAndReplacement() {
        let upstream = Empty<Int, Never>()
        #expect(Publishers.ReplaceEmpty(upstream: upstream, output: 1) == Publishers.ReplaceEmpty(upstream: upstream, output: 1))
        #expect(Publishers.ReplaceEmpty(upstream: upstream, output: 1) != Publishers.ReplaceEmpty(upstream: upstream, output: 2))
        let failing = Fail<Int, Oops>(error: Oops())
        #expect(Publishers.ReplaceError(upstream: failing, output: 1) == Publishers.ReplaceError(upstream: failing, output: 1))
        #expect(Publishers.ReplaceError(upstream: failing, output: 1) != Publishers.ReplaceError(upstream: failing, output: 2))
    }

    @Test func retryComparesUpstreamAndRetries() {
        let failing = Fail<Int, Oops>(error: Oops())
        #expect(Publishers.Retry(upstream: failing, retries: 2) == Publishers.Retry(upstream: failing, retries: 2))
        #expect(Publishers.Retry(upstream: failing, retries: 2) != Publishers.Retry(upstream: failing, retries: nil))
    }

    @Test func setFailureTypeComparesItsUpstream() {
        let a = Publishers.SetFailureType<Just<Int>, Oops>(upstream: Just(1))
        #expect(a == Publishers.SetFailureType<Just<Int>, Oops>(upstream: Just(1)))
        #expect(a != Publishers.SetFailureType<Just<Int>, Oops>(upstream: Just(2)))
    }

    @Test func concatenateComparesBothParts() {
        let a = Publishers.Concatenate(prefix: Just(1), suffix: Just(2))
        #expect(a == Publishers.Concatenate(prefix: Just(1), suffix: Just(2)))
        #expect(a != Publishers.Concatenate(prefix: Just(1), suffix: Just(3)))
        #expect(a != Publishers.Concatenate(prefix: Just(0), suffix: Just(2)))
    }

    @Test func mergeZipAndCombineLatestCompareEverySource() {
        #expect(Publishers.Merge(Just(1), Just(2)) == Publishers.Merge(Just(1), Just(2)))
        #expect(Publishers.Merge(Just(1), Just(2)) != Publishers.Merge(Just(1), Just(3)))
        #expect(Publishers.Merge3(Just(1), Just(2), Just(3)) != Publishers.Merge3(Just(1), Just(2), Just(4)))
        #expect(Publishers.MergeMany(Just(1), Just(2)) == Publishers.MergeMany(Just(1), Just(2)))
        #expect(Publishers.MergeMany(Just(1), Just(2)) != Publishers.MergeMany(Just(1)))
        #expect(Publishers.Zip(Just(1), Just("a")) == Publishers.Zip(Just(1), Just("a")))
        #expect(Publishers.Zip(Just(1), Just("a")) != Publishers.Zip(Just(1), Just("b")))
        #expect(Publishers.CombineLatest(Just(1), Just("a")) == Publishers.CombineLatest(Just(1), Just("a")))
        #expect(Publishers.CombineLatest(Just(1), Just("a")) != Publishers.CombineLatest(Just(2), Just("a")))
    }

    @Test func untilOutputOperatorsCompareBothPublishers() {
        let a = Publishers.DropUntilOutput(upstream: Just(1), other: Just("x"))
        #expect(a == Publishers.DropUntilOutput(upstream: Just(1), other: Just("x")))
        #expect(a != Publishers.DropUntilOutput(upstream: Just(1), other: Just("y")))
        let b = Publishers.PrefixUntilOutput(upstream: Just(1), other: Just("x"))
        #expect(b != Publishers.PrefixUntilOutput(upstream: Just(2), other: Just("x")))
    }

    @Test func shareIsEqualOnlyToItself() {
        // A class: equality is identity, as in Combine.
        let upstream = Just(1)
        let share = Publishers.Share(upstream: upstream)
        #expect(share == share)
        #expect(share != Publishers.Share(upstream: upstream))
    }
}
