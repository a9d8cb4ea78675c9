import Streams
import StreamsTesting
import Testing

@Suite("Publishers.Sequence operators")
struct SequenceOperatorsTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles([1, 2, 3, 4].publisher.dropFirst(), "[234|]")
        assertMarbles([1, 2, 3, 4].publisher.dropFirst(1).prefix(2), "[23|]")
        assertMarbles([1, 2].publisher.prefix(0), "|")
        assertMarbles([1, 2].publisher.dropFirst(5), "|")
    }

    @Test func docExampleOutputs() {
        #expect(values([1, 2, 3, 4].publisher.dropFirst(2)) == [3, 4])
        #expect(values((0...10).publisher.prefix(2)) == [0, 1])
    }

    @Test func returnTypesStayASequence() {
        let dropped: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher.dropFirst()
        let prefixed: Publishers.Sequence<PrefixSequence<[Int]>, Never> = [1, 2, 3].publisher.prefix(2)
        let chained: Publishers.Sequence<PrefixSequence<DropFirstSequence<ClosedRange<Int>>>, Never> =
            (1...10).publisher.dropFirst(3).prefix(2)
        let failing: Publishers.Sequence<DropFirstSequence<[Int]>, Boom> =
            Publishers.Sequence<[Int], Boom>(sequence: [1, 2]).dropFirst()
        #expect(values(dropped) == [2, 3])
        #expect(values(prefixed) == [1, 2])
        #expect(values(chained) == [4, 5])
        #expect(values(failing) == [2])
        #expect(dropped.sequence.elementsEqual([2, 3]))
    }

    @Test func fusedMatchesUnfusedForEveryCount() {
        let sequence = [10, 20, 30, 40, 50].publisher
        for count in [0, 1, 2, 5, 8] {
            let fusedDrop = sequence.dropFirst(count)
            let unfusedDrop = Publishers.Drop(upstream: sequence, count: count)
            #expect(unlimitedEvents(fusedDrop) == unlimitedEvents(unfusedDrop), "dropFirst(\(count))")
            #expect(stepwiseEvents(fusedDrop) == stepwiseEvents(unfusedDrop), "dropFirst(\(count)), one at a time")

            let fusedPrefix = sequence.prefix(count)
            let unfusedPrefix = Publishers.Output(upstream: sequence, range: 0..<count)
            #expect(unlimitedEvents(fusedPrefix) == unlimitedEvents(unfusedPrefix), "prefix(\(count))")
            #expect(stepwiseEvents(fusedPrefix) == stepwiseEvents(unfusedPrefix), "prefix(\(count)), one at a time")
        }
        #expect(unlimitedEvents([Int]().publisher.dropFirst()) == [.subscription, .completion(.finished)])
        #expect(unlimitedEvents([Int]().publisher.prefix(3)) == [.subscription, .completion(.finished)])
    }

    // MARK: Demand

    @Test func fusedPrefixHonoursDemand() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        (1...10).publisher.prefix(3).subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func fusedDropFirstFinishesWithoutDemandWhenNothingIsLeft_S5() {
        // The unfused operator would wait for demand to see the upstream's last values go by;
        // the fused sequence knows at once that it is empty. Allowed by S5, and what Combine does.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        [1, 2].publisher.dropFirst(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Completion and failure

    @Test func failureTypeIsKept() {
        let subscriber = RecordingSubscriber<Int, Boom>()
        Publishers.Sequence<[Int], Boom>(sequence: [1, 2, 3]).dropFirst().prefix(1).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func nothingIsEvaluatedUntilSubscription() {
        let counter = CountingSequence(count: 10)
        let publisher = counter.publisher.dropFirst(2).prefix(3)
        #expect(counter.log.reads == 0)
        #expect(values(publisher) == [2, 3, 4])
        // Two dropped, three published; nothing after the prefix is read.
        #expect(counter.log.reads == 5)
    }

    @Test func negativeDropCountStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = [1, 2].publisher.dropFirst(-2)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("dropFirst(-2): the number of values to drop must not be negative"))
    }

    @Test func negativePrefixStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = [1, 2].publisher.prefix(-1)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("prefix(-1): the maximum length must not be negative"))
    }

    // MARK: Cancellation

    @Test func cancelStopsTheFusedSequence() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        (1...10).publisher.dropFirst(2).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(3)])
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
        (0..<20_000).publisher.dropFirst(5_000).prefix(10_000).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == Array(5_000..<15_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.dropFirst(100) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.prefix(200) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.dropFirst(50).prefix(200) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.prefix(0) }, requestingNone: .isIgnored)
    }
}


// MARK: - Operators Combine evaluates at once

extension SequenceOperatorsTests {
    @Test func specializationsReturnConcretePublishers() {
        let numbers = [3, 1, 2].publisher
        #expect(type(of: numbers.map { $0 + 1 }) == Publishers.Sequence<[Int], Never>.self)
        #expect(type(of: numbers.count()) == Just<Int>.self)
        #expect(type(of: numbers.min()) == Optional<Int>.Publisher.self)
        #expect(type(of: numbers.collect()) == Result<[Int], Never>.Publisher.self)
        let _: Publishers.Sequence<[String], Never> = numbers.map { "\($0)" }
        let _: Publishers.Sequence<[Int], Never> = numbers.compactMap { $0 }
        let _: Publishers.Sequence<[Int], Never> = numbers.filter { $0 > 1 }
        let _: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
        let _: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)
        let _: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 > 2 }
        let _: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 > 2 }
        let _: Empty<Int, Never> = numbers.ignoreOutput()
        let _: Publishers.Sequence<[Int], Boom> = numbers.setFailureType(to: Boom.self)
        let _: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = numbers.tryAllSatisfy { $0 > 0 }
        let _: Result<Bool, Never>.Publisher = numbers.contains { $0 > 0 }
        let _: Result<Bool, any Error>.Publisher = numbers.tryContains { $0 > 0 }
        let _: Result<Bool, Never>.Publisher = numbers.contains(2)
        let _: Result<Int, Never>.Publisher = numbers.reduce(0, +)
        let _: Result<Int, any Error>.Publisher = numbers.tryReduce(0, +)
        let _: Publishers.Sequence<[Int], Never> = numbers.removeDuplicates()
        let _: Optional<Int>.Publisher = numbers.max()
        let _: Optional<Int>.Publisher = numbers.min(by: <)
        let _: Optional<Int>.Publisher = numbers.max(by: <)
        let _: Optional<Int>.Publisher = numbers.first()
        let _: Optional<Int>.Publisher = numbers.first { $0 > 1 }
        let _: Optional<Int>.Publisher = numbers.last()
        let _: Optional<Int>.Publisher = numbers.last { $0 > 1 }
        let _: Optional<Int>.Publisher = numbers.output(at: 1)
        let _: Publishers.Sequence<[Int], Never> = numbers.output(in: 0..<2)
        let _: Publishers.Sequence<[Int], Never> = numbers.append(4, 5)
        let _: Publishers.Sequence<[Int], Never> = numbers.append(4...5)
        let _: Publishers.Sequence<[Int], Never> = numbers.append([4].publisher)
        let _: Publishers.Sequence<[Int], Never> = numbers.prepend(0)
        let _: Publishers.Sequence<[Int], Never> = numbers.prepend(-1...0)
        let _: Publishers.Sequence<[Int], Never> = numbers.prepend([0].publisher)
    }

    @Test func withAFailureTypeTheAnswersKeepIt() {
        // As in Combine: where the answer could be a `Just` or an `Optional.Publisher` only for
        // `Failure == Never`, a sequence with another failure type gets a `Result.Publisher` or
        // the general operator.
        let numbers = Publishers.Sequence<[Int], Boom>(sequence: [3, 1, 2])
        let _: Result<Int, Boom>.Publisher = numbers.count()
        let _: Result<[Int], Boom>.Publisher = numbers.collect()
        let _: Result<Int, Boom>.Publisher = numbers.reduce(0, +)
        let _: Publishers.Sequence<[Int], Boom> = numbers.map { $0 }
        let _: Publishers.Comparison<Publishers.Sequence<[Int], Boom>> = numbers.min()
        let _: Publishers.First<Publishers.Sequence<[Int], Boom>> = numbers.first()
        let _: Publishers.Sequence<[Int], Never> = numbers.setFailureType(to: Never.self)
        #expect(numbers.count().result == .success(3))
        #expect(values(numbers.min()) == [1])
        // Not a random-access collection: a `Result.Publisher`, even without a failure.
        let _: Result<Int, Never>.Publisher = Set([1, 2]).publisher.count()
    }

    @Test func transformingOperatorsGiveTheTransformedSequence() {
        #expect([1, 2, 3].publisher.map { $0 * 10 }.sequence == [10, 20, 30])
        #expect(["1", "x", "3"].publisher.compactMap { Int($0) }.sequence == [1, 3])
        #expect((1...6).publisher.filter { $0.isMultiple(of: 2) }.sequence == [2, 4, 6])
        #expect((0..<5).publisher.scan(0, +).sequence == [0, 1, 3, 6, 10])
        #expect([1, nil, 3].publisher.replaceNil(with: 0).sequence == [1, 0, 3])
        #expect(Array((0..<7).publisher.drop { $0 < 5 }.sequence) == [5, 6])
        #expect((0..<10).publisher.prefix { $0 < 4 }.sequence == [0, 1, 2, 3])
        #expect([0, 0, 1, 0, 1, 1, 2].publisher.removeDuplicates().sequence == [0, 1, 0, 1, 2])
        assertMarbles([1, 2, 3].publisher.map { $0 * 2 }, "[246|]")
        assertMarbles([1, 2, 3].publisher.map { $0 * 2 }, "[24]", demand: .max(2))
        assertMarbles((1...4).publisher.filter { $0 > 2 }.map { $0 + 5 }, "[89|]")
        assertMarbles((0..<10).publisher.ignoreOutput(), "|")
    }

    @Test func answeringOperatorsGiveTheAnswer() {
        #expect([1, 2, 3].publisher.allSatisfy { $0 > 0 }.result == .success(true))
        #expect([Int]().publisher.allSatisfy { $0 > 0 }.result == .success(true))
        #expect([1, 2, 3].publisher.contains { $0 > 2 }.result == .success(true))
        #expect((0..<12).publisher.contains(12).result == .success(false))
        #expect((0...12).publisher.contains(12).result == .success(true))
        #expect((1..<5).publisher.collect().result == .success([1, 2, 3, 4]))
        #expect((0..<5).publisher.reduce(10, +).result == .success(20))
        #expect([Int]().publisher.reduce(1, *).result == .success(1))
        #expect([3, 4, 5, -1, 2].publisher.min().output == -1)
        #expect([3, 4, 5, -1, 2].publisher.max().output == 5)
        #expect([3, 4, 5, -1, 2].publisher.min(by: >).output == 5)
        #expect([3, 4, 5, -1, 2].publisher.max(by: >).output == -1)
        #expect([Int]().publisher.min().output == nil)
        #expect((1..<9).publisher.first { $0.isMultiple(of: 4) }.output == 4)
        #expect((1..<9).publisher.last { $0.isMultiple(of: 4) }.output == 8)
        #expect((1..<9).publisher.first { $0 > 20 }.output == nil)
        #expect([1, 2, 3].publisher.first().output == 1)
        #expect([1, 2, 3].publisher.last().output == 3)
        #expect([Int]().publisher.last().output == nil)
        #expect((0..<Int.max).publisher.count() == Just(Int.max))
        #expect([1, 1, 1].publisher.count() == Just(3))
        assertMarbles([1, 2, 3].publisher.reduce(0, +), "[6|]")
        assertMarbles([1, 2, 3].publisher.max(), "[3|]")
        assertMarbles([Int]().publisher.max(), "|")
        assertMarbles([1, 2, 3].publisher.count(), "[3|]")
    }

    @Test func tryFormsTurnAThrowIntoAFailure_S14() throws {
        #expect(try (0..<5).publisher.tryReduce(10, +).result.get() == 20)
        #expect(throws: Boom.self) { try [1].publisher.tryReduce(0) { _, _ in throw Boom() }.result.get() }
        #expect(try [Int]().publisher.tryReduce(0) { _, _ in throw Boom() }.result.get() == 0)
        #expect(try (0..<100).publisher.tryContains { $0 > 100 }.result.get() == false)
        #expect(throws: Boom.self) { try [2].publisher.tryContains { _ in throw Boom() }.result.get() }
        #expect(try (1..<10).publisher.tryAllSatisfy { $0 > 0 }.result.get() == true)
        #expect(throws: Boom.self) { try [2].publisher.tryAllSatisfy { _ in throw Boom() }.result.get() }
    }

    @Test func outputAtAndInUseTheCollectionsIndices() {
        #expect([1, 2, 3, 4, 5, 6, 7].publisher.output(at: 3).output == 4)
        #expect([1, 2, 3].publisher.output(at: 100).output == nil)
        #expect([1, 2, 3].publisher.output(at: -1).output == nil)
        #expect([1, 2, 3, 4, 5, 6, 7].publisher.output(in: 1..<4).sequence == [2, 3, 4])
        // As in Combine: an index of the collection, which for a slice is not a position.
        let slice = [10, 20, 30, 40][2...]
        #expect(slice.publisher.output(at: 2).output == 30)
        #expect(slice.publisher.output(at: 0).output == nil)
        #expect(slice.publisher.output(in: 3..<4).sequence == [40])
    }

    @Test func outputInClampsARangeOutsideTheCollection() {
        // Deliberately unlike a bounds trap: the range is clamped, which gives what the general
        // operator gives for an array.
        #expect([1, 2, 3].publisher.output(in: 1..<10).sequence == [2, 3])
        #expect([1, 2, 3].publisher.output(in: 5..<10).sequence == [])
        assertMarbles([1, 2, 3].publisher.output(in: 1..<10), "[23|]")
    }

    @Test func appendAndPrependJoinTheCollections() {
        #expect([1, 2].publisher.append(3, 4).sequence == [1, 2, 3, 4])
        #expect([1, 2].publisher.append(3...4).sequence == [1, 2, 3, 4])
        #expect([1, 2].publisher.append([3, 4].publisher).sequence == [1, 2, 3, 4])
        #expect([3, 4].publisher.prepend(1, 2).sequence == [1, 2, 3, 4])
        #expect([3, 4].publisher.prepend(1...2).sequence == [1, 2, 3, 4])
        #expect([3, 4].publisher.prepend([1, 2].publisher).sequence == [1, 2, 3, 4])
        #expect(values([3, 4].publisher.prepend(1, 2)) == [1, 2, 3, 4])
        #expect(values([1, 2].publisher.append(3...4)) == [1, 2, 3, 4])
    }

    @Test func closuresRunWhenTheOperatorIsCalledNotWhenSubscribed() {
        // As in Combine: the whole sequence is read and transformed when `map` is called.
        let counter = CountingSequence(count: 5)
        final class Log: @unchecked Sendable { var calls = 0 }
        let log = Log()
        let mapped = counter.publisher.map { value -> Int in log.calls += 1; return value * 2 }
        #expect(counter.log.reads == 5)
        #expect(log.calls == 5)
        #expect(values(mapped) == [0, 2, 4, 6, 8])
        #expect(values(mapped) == [0, 2, 4, 6, 8])
        #expect(log.calls == 5)
        #expect(counter.log.reads == 5)
        // An answer reads only as far as it needs.
        let other = CountingSequence(count: 10)
        #expect(other.publisher.first { $0 == 3 }.output == 3)
        #expect(other.log.reads == 4)
    }

    @Test func requestingNoneOfTheResultsBehavesAsTheirPublisherDoes_S9() {
        // A `Publishers.Sequence` ignores it; `Optional.Publisher` and `Result.Publisher` report it.
        let sequence = RecordingSubscriber<Int, Never>(demand: nil)
        [1, 2].publisher.map { $0 }.subscribe(sequence)
        let ignored = recordingAPIViolations { sequence.subscription?.request(.none) }
        #expect(ignored.isEmpty)
        let optional = RecordingSubscriber<Int, Never>(demand: nil)
        [1, 2].publisher.first().subscribe(optional)
        let reported = recordingAPIViolations { optional.subscription?.request(.none) }
        #expect(reported.count == 1)
    }

    @Test func chainsStayUnambiguousNextToTheGeneralOperatorsFusions() {
        // The specializations take escaping closures, like the general operators, so that a
        // chain that could also be built from the library's own fusions (`Map.compactMap`,
        // `CompactMap.map`, ...) still resolves to the specializations, as it does in Combine.
        func make<P: Publisher>(_ build: () -> P) -> P { build() }
        let chained = make { (0..<10).publisher.map { $0 * 3 }.compactMap { $0.isMultiple(of: 2) ? $0 : nil }.map { $0 + 1 } }
        #expect(type(of: chained) == Publishers.Sequence<[Int], Never>.self)
        #expect(chained.sequence == [1, 7, 13, 19, 25])
        let onJust = make { Just(2).map { $0 * 3 }.compactMap { $0 > 1 ? $0 : nil }.map { $0 + 1 } }
        #expect(type(of: onJust) == Optional<Int>.Publisher.self)
        #expect(onJust.output == 7)
    }

    @Test func contractOfTheResults() {
        checkContract({ (0..<300).publisher.map { $0 * 2 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.filter { $0.isMultiple(of: 3) }.scan(0, +) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.drop { $0 < 100 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.output(in: 100..<200) }, requestingNone: .isIgnored)
        checkContract { (0..<300).publisher.reduce(0, +) }
        checkContract { (0..<300).publisher.first { $0 > 100 } }
        checkContract { (0..<300).publisher.count() }
    }
}

/// The events of a subscriber with unlimited demand.
private func unlimitedEvents<P: Publisher>(_ publisher: P) -> [RecordingSubscriber<P.Output, P.Failure>.Event]
where P.Output: Equatable, P.Failure: Equatable {
    let subscriber = RecordingSubscriber<P.Output, P.Failure>()
    publisher.subscribe(subscriber)
    #expect(subscriber.violations.isEmpty)
    return subscriber.events
}

/// The events of a subscriber that asks for one value at a time until the completion.
private func stepwiseEvents<P: Publisher>(_ publisher: P) -> [RecordingSubscriber<P.Output, P.Failure>.Event]
where P.Output: Equatable, P.Failure: Equatable {
    let subscriber = RecordingSubscriber<P.Output, P.Failure>(demand: .max(1))
    publisher.subscribe(subscriber)
    for _ in 0..<100 where subscriber.completion == nil {
        subscriber.request(.max(1))
    }
    #expect(subscriber.violations.isEmpty)
    return subscriber.events
}

/// A sequence of 0..<count that counts how many elements are read from it.
private struct CountingSequence: Sequence {
    final class Log: @unchecked Sendable { var reads = 0 }
    let count: Int
    let log = Log()

    struct Iterator: IteratorProtocol {
        var position = 0
        let count: Int
        let log: Log
        mutating func next() -> Int? {
            guard position < count else { return nil }
            log.reads += 1
            defer { position += 1 }
            return position
        }
    }

    func makeIterator() -> Iterator { Iterator(count: count, log: log) }
}
