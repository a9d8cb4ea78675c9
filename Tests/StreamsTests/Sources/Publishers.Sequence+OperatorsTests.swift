import Streams
import StreamsTesting
import Testing

@Suite("Publishers.Sequence fusion: dropFirst, prefix")
struct SequenceFusionTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles([1, 2, 3, 4].publisher.dropFirst(2), "[34|]")
        assertMarbles([1, 2, 3, 4].publisher.dropFirst(), "[234|]")
        assertMarbles([1, 2, 3, 4].publisher.prefix(2), "[12|]")
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
