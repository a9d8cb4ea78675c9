import Streams
import StreamsTesting
import Testing

@Suite("PassthroughSubject")
struct PassthroughSubjectTests {
    struct Oops: Error, Equatable {}

    @Test func deliversToSubscribersWithDemandAndDropsForOthers_S10() {
        let subject = PassthroughSubject<Int, Never>()
        let eager = RecordingSubscriber<Int, Never>()
        let lazy = RecordingSubscriber<Int, Never>(demand: nil)
        subject.subscribe(eager)
        subject.subscribe(lazy)
        subject.send(1)
        lazy.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(eager.values == [1, 2, 3])
        #expect(lazy.values == [2])
        #expect(lazy.violations.isEmpty)
    }

    @Test func deliversInSubscriptionOrder_S10() {
        final class Log: @unchecked Sendable { var entries: [String] = [] }
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        var bag: [AnyCancellable] = []
        for name in ["a", "b", "c", "d"] {
            subject.sink { log.entries.append("\(name)\($0)") }.store(in: &bag)
        }
        subject.send(1)
        subject.send(2)
        #expect(log.entries == ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"])
    }

    @Test func lateSubscriberGetsTheCompletion_S10() {
        let subject = PassthroughSubject<Int, Oops>()
        subject.send(completion: .failure(Oops()))
        let late = RecordingSubscriber<Int, Oops>(demand: nil)
        subject.subscribe(late)
        #expect(late.completion == .failure(Oops()))
        #expect(late.violations.isEmpty)
    }

    @Test func nothingAfterCompletion_S4() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelledSubscriberIsRemovedAndReleased_S7_S10() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(1)
            subscriber.cancel()
            subscriber.releaseSubscription()
            subject.send(2)
            #expect(subscriber.values == [1])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func manySubscribeCancelCyclesLeaveNothingBehind_S10() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakLast: RecordingSubscriber<Int, Never>?
        for _ in 0..<1_000 {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakLast = subscriber
            subject.subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakLast == nil)
        let survivor = RecordingSubscriber<Int, Never>()
        subject.subscribe(survivor)
        subject.send(1)
        #expect(survivor.values == [1])
    }

    @Test func sendFromInsideASubscriberIsQueuedInOrder_S11() {
        final class Log: @unchecked Sendable { var entries: [String] = [] }
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.sink { value in
            log.entries.append("a\(value)")
            if value < 3 { subject.send(value + 1) }
        }
        let second = subject.sink { log.entries.append("b\($0)") }
        subject.send(1)
        #expect(log.entries == ["a1", "b1", "a2", "b2", "a3", "b3"])
        _ = (first, second)
    }

    @Test func deepReentrantSendDoesNotRecurse_S11() {
        let subject = PassthroughSubject<Int, Never>()
        final class Box: @unchecked Sendable { var count = 0; var lowest = UInt.max; var highest = UInt.min }
        let box = Box()
        let cancellable = subject.sink { value in
            box.count += 1
            var marker = 0
            let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
            box.lowest = min(box.lowest, address)
            box.highest = max(box.highest, address)
            if value < 100_000 { subject.send(value + 1) }
        }
        subject.send(1)
        #expect(box.count == 100_000)
        // Sent recursively, 100,000 values would span megabytes of stack. Queued, the span is a
        // few frames: the first value goes out on the sender's fast path and the rest from the
        // drain loop, whose frames differ, and more so under a sanitizer (4.5 KB with ASan).
        #expect(box.highest - box.lowest < 65_536)
        _ = cancellable
    }

    @Test func completionSentFromInsideASubscriberComesAfterTheValue_S11() {
        // The completion is queued behind the value being delivered: every subscriber gets the
        // value, then the completion, and a value sent after it goes nowhere.
        let subject = PassthroughSubject<Int, Never>()
        let first = RecordingSubscriber<Int, Never>(onValue: { _ in
            subject.send(completion: .finished)
            subject.send(2)
            return .none
        })
        let second = RecordingSubscriber<Int, Never>()
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        subject.send(3)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .value(1), .completion(.finished)])
        #expect(first.violations.isEmpty && second.violations.isEmpty)
    }

    @Test func sendsAfterQueuedWorkWasDrainedAreDeliveredAtOnce_S11() {
        // Once the queued sends have gone out, the subject is idle again: the next send is
        // delivered inside the call, to subscribers attached meanwhile too.
        let subject = PassthroughSubject<Int, Never>()
        let late = RecordingSubscriber<Int, Never>()
        let early = RecordingSubscriber<Int, Never>(onValue: { value in
            if value == 1 {
                subject.send(2)
                subject.subscribe(late)
            }
            return .none
        })
        subject.subscribe(early)
        subject.send(1)
        #expect(early.values == [1, 2])
        #expect(late.values == [])
        subject.send(3)
        #expect(early.values == [1, 2, 3])
        #expect(late.values == [3])
    }

    @Test func subscribeFromInsideASubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        let late = RecordingSubscriber<Int, Never>()
        let cancellable = subject.sink { value in
            if value == 1 { subject.subscribe(late) }
        }
        subject.send(1)
        subject.send(2)
        #expect(late.values == [2])
        #expect(late.violations.isEmpty)
        _ = cancellable
    }

    @Test func sendVoid() {
        let subject = PassthroughSubject<Void, Never>()
        let subscriber = RecordingSubscriber<Void, Never>()
        subject.subscribe(subscriber)
        subject.send()
        #expect(subscriber.values.count == 1)
    }

    @Test func subscribesToAnUpstreamPublisher() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let cancellable = [1, 2, 3].publisher.subscribe(subject)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        _ = cancellable
    }

    @Test func cancellingTheUpstreamSubscriptionDetachesTheSubject() {
        let upstream = TestPublisher<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let cancellable = upstream.subscribe(subject)
        upstream.send(1)
        cancellable.cancel()
        upstream.send(2)
        #expect(subscriber.values == [1])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        subject.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
    }

    @Test func contract() {
        checkContract {
            Deferred { () -> PassthroughSubject<Int, Never> in
                let subject = PassthroughSubject<Int, Never>()
                subject.send(completion: .finished)
                return subject
            }
        }
    }
}

@Suite("Subjects subscribed to upstreams")
struct SubjectUpstreamTests {
    @Test func passthroughAsksItsUpstreamOnlyOnceASubscriberHasDemand() {
        // As Combine: nothing is asked before one of the subject's subscribers asks; then
        // `.unlimited`, once per upstream subscription, and at once for a later one.
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestPublisher<Int, Never>()
        let cancellable = upstream.subscribe(subject)
        #expect(upstream.history == [])
        let first = RecordingSubscriber<Int, Never>(demand: nil)
        subject.subscribe(first)
        #expect(upstream.history == [])
        first.request(.max(1))
        #expect(upstream.history == [.requested(.unlimited)])
        let second = RecordingSubscriber<Int, Never>(demand: .max(2))
        subject.subscribe(second)
        #expect(upstream.history == [.requested(.unlimited)])

        let later = TestPublisher<Int, Never>()
        let laterCancellable = later.subscribe(subject)
        #expect(later.history == [.requested(.unlimited)])
        _ = (cancellable, laterCancellable)
    }

    @Test func valuesAnUpstreamWouldSendBeforeAnySubscriberAreHeldBack() {
        // As Combine: the subject asks for nothing until a subscriber asks, so a synchronous
        // upstream waits instead of sending into the void.
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = [1, 2, 3].publisher.subscribe(subject)
        let subscriber = RecordingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        _ = cancellable
    }

    @Test func currentValueSubjectAsksItsUpstreamAtOnce() {
        // As Combine's CurrentValueSubject.
        let subject = CurrentValueSubject<Int, Never>(0)
        let upstream = TestPublisher<Int, Never>()
        let cancellable = upstream.subscribe(subject)
        #expect(upstream.history == [.requested(.unlimited)])
        _ = cancellable
    }

    @Test func theUpstreamSubscriberIsAnObjectOfItsOwnNamedSubject() {
        let log = LockedLog()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = DescribingPublisher(log: log).subscribe(subject)
        #expect(log.entries == ["Subject"])
        _ = cancellable
    }

    @Test func theUpstreamSubscriberIgnoresMisbehavingUpstream_S2() {
        checkIgnoresMisbehavingUpstream({ $0.multicast { PassthroughSubject() }.autoconnect() },
                                        value: 1, failure: SubjectFailure())
        checkIgnoresMisbehavingUpstream({ $0.multicast { CurrentValueSubject(0) }.autoconnect().dropFirst() },
                                        value: 1, failure: SubjectFailure())
    }

    @Test func cancelledUpstreamSubscriptionsAreLetGo() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscription: TestPublisher<Int, Never>.TestSubscription?
        do {
            let upstream = TestPublisher<Int, Never>()
            let cancellable = upstream.subscribe(subject)
            weakSubscription = upstream.subscriptions.first
            cancellable.cancel()
        }
        #expect(weakSubscription == nil)
    }
}

struct SubjectFailure: Error, Equatable {}

/// Hands its subscriber an empty subscription and logs the subscriber's description.
private struct DescribingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let log: LockedLog

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        log.append("\(subscriber)")
        subscriber.receive(subscription: Subscriptions.empty)
    }
}
