import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("Publishers.Sequence")
struct SequenceTests {
    // MARK: Marbles

    @Test func marbles() {
        assertMarbles([Int]().publisher, "|", demand: .none)
    }

    // MARK: Demand

    @Test func deliversOnlyWhatIsRequested_S1() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        (1...5).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishesRightAfterTheLastValueWithoutMoreDemand() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        [1, 2].publisher.subscribe(subscriber)
        #expect(subscriber.completion == .finished)
    }

    @Test func returnedDemandAddsUp_S1() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { $0 == 2 ? .max(2) : .none })
        (1...10).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func requestsFromInsideReceiveAddToReturnedDemand_S1() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(
            demand: .max(1),
            onValue: { value in
                if value == 1 { box.subscriber?.request(.max(2)) }
                return value == 3 ? .max(1) : .none
            })
        box.subscriber = subscriber
        (1...6).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        subscriber.request(.unlimited)
        box.subscriber = nil
        #expect(subscriber.values == [1, 2, 3, 4, 5, 6])
        #expect(subscriber.completion == .finished)
    }

    @Test func demandAboveIntMaxInTotalIsUnlimited_S1() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(Int.max))
        (1...3).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        let more = RecordingSubscriber<Int, Never>(demand: .max(1))
        (1...3).publisher.subscribe(more)
        more.request(.max(Int.max))
        more.request(.max(Int.max))
        #expect(more.values == [1, 2, 3])
        #expect(more.completion == .finished)
        #expect(more.violations.isEmpty)
    }

    @Test func requestingNoneIsIgnored_S9() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        [1].publisher.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.isEmpty)
        #expect(subscriber.values.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelInsideReceiveStops_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 3 { box.subscriber?.cancel() }
            return .none
        })
        box.subscriber = subscriber
        (1...10).publisher.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
    }

    @Test func cancelReleasesTheIteratorAndSubscriber_S7() {
        final class Token {}
        weak var weakToken: Token?
        let subscriber = RecordingSubscriber<Token, Never>(demand: .max(1))
        do {
            let tokens = [Token(), Token()]
            weakToken = tokens[1]
            tokens.publisher.subscribe(subscriber)
        }
        #expect(weakToken != nil)
        subscriber.cancel()
        #expect(weakToken == nil)
    }

    @Test func concurrentRequestsDeliverEachValueOnce_S3() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        (0..<10_000).publisher.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_500 { subscriber.request(.max(1)) }
        }
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Reentrancy (S8)

    /// Requests one value at a time, from inside `receive(_:)` or by returning `.max(1)`, and
    /// measures how far the stack moves.
    final class OneByOne: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        let returnsDemand: Bool
        var subscription: Subscription?
        var count = 0
        var finished = false
        var lowest = UInt.max
        var highest = UInt.min
        init(returnsDemand: Bool) { self.returnsDemand = returnsDemand }
        func receive(subscription: Subscription) {
            self.subscription = subscription
            subscription.request(.max(1))
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            count += 1
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            lowest = min(lowest, address)
            highest = max(highest, address)
            if returnsDemand { return .max(1) }
            subscription?.request(.max(1))
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {
            finished = true
            subscription = nil
        }
        var stackSpan: UInt { highest - lowest }
    }

    @Test(arguments: [false, true])
    func oneMillionValuesOneAtATimeDoNotGrowTheStack_S8(returnsDemand: Bool) {
        let direct = OneByOne(returnsDemand: returnsDemand)
        (0..<1_000_000).publisher.subscribe(direct)
        #expect(direct.count == 1_000_000)
        #expect(direct.finished)
        #expect(direct.stackSpan < 4_096)

        let throughOperators = OneByOne(returnsDemand: returnsDemand)
        (0..<2_000_000).publisher.map { $0 + 1 }.filter { $0 % 2 == 0 }.subscribe(throughOperators)
        #expect(throughOperators.count == 1_000_000)
        #expect(throughOperators.finished)
        #expect(throughOperators.stackSpan < 4_096)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher }, requestingNone: .isIgnored)
        checkContract({ [Int]().publisher }, requestingNone: .isIgnored)
        checkContract({ "hello".publisher }, requestingNone: .isIgnored)
    }
}
