import Streams
import StreamsTesting
import Testing

@Suite("CurrentValueSubject")
struct CurrentValueSubjectTests {
    struct Oops: Error, Equatable {}

    @Test func newSubscriberGetsTheCurrentValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = RecordingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.value = 2
        #expect(subscriber.values == [0, 1, 2])
        #expect(subject.value == 2)
    }

    @Test func valueCanBeAssignedAfterCompletion() {
        // As Combine: assigning `value` after the completion changes what it reads and delivers
        // nothing; `send` after the completion changes nothing.
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = RecordingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.value = 42
        #expect(subject.value == 42)
        subject.send(7)
        #expect(subject.value == 42)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func aRequestInsideReceiveSubscriptionGetsTheValueInsideThatRequest() {
        // As Combine: the current value arrives inside the request call.
        let log = LockedLog()
        let subject = CurrentValueSubject<Int, Never>(5)
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                subscription.request(.max(1))
                log.append("requested")
            },
            receiveValue: { log.append("\($0)"); return .none })
        subject.subscribe(subscriber)
        #expect(log.entries == ["5", "requested"])
        subject.send(6)
        #expect(log.entries == ["5", "requested"])

        // A subscriber that got the value early still gets the later ones it asks for.
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))  // asks inside receive(subscription:)
        subject.subscribe(recorder)
        recorder.request(.max(1))
        subject.send(7)
        #expect(recorder.values == [6, 7])
        #expect(recorder.violations.isEmpty)
    }

    @Test func aValueSentWhileTheSubscriberIsBeingAttachedIsNotMissed() {
        // The subscriber gets the current value inside its request, before it is attached; a
        // value sent before the attach completes is owed to it and delivered then.
        let subject = CurrentValueSubject<Int, Never>(5)
        let log = LockedLog()
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                subscription.request(.max(2))
                subject.send(6)
            },
            receiveValue: { log.append("\($0)"); return .none })
        subject.subscribe(subscriber)
        #expect(log.entries == ["5", "6"])
        subject.send(7)
        #expect(log.entries == ["5", "6"])
    }

    @Test func currentValueWaitsForDemand_S1() {
        let subject = CurrentValueSubject<Int, Never>(5)
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        subject.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])
    }

    @Test func subscriberWithoutDemandGetsTheLatestWhenItAsks_S10() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [0])
        subscriber.request(.max(5))
        #expect(subscriber.values == [0, 3])
        subject.send(4)
        #expect(subscriber.values == [0, 3, 4])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func valueIsUpdatedEvenWhileDeliveryIsQueued() {
        let subject = CurrentValueSubject<Int, Never>(0)
        final class Log: @unchecked Sendable { var seen: [Int] = [] }
        let log = Log()
        let cancellable = subject.sink { value in
            if value == 1 {
                subject.send(2)
                log.seen.append(subject.value)
            }
        }
        subject.send(1)
        #expect(log.seen == [2])
        _ = cancellable
    }

    @Test func completionKeepsTheValueAndLateSubscribersGetTheCompletion() {
        let subject = CurrentValueSubject<Int, Oops>(1)
        subject.send(completion: .failure(Oops()))
        subject.send(2)
        #expect(subject.value == 1)
        let late = RecordingSubscriber<Int, Oops>()
        subject.subscribe(late)
        #expect(late.values.isEmpty)
        #expect(late.completion == .failure(Oops()))
    }

    @Test func optionalOutputHoldingNil() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        let subscriber = RecordingSubscriber<Int?, Never>()
        subject.subscribe(subscriber)
        subject.send(3)
        #expect(subscriber.values == [nil, 3])
    }

    @Test func reentrantSendsStayInOrder_S11() {
        let subject = CurrentValueSubject<Int, Never>(0)
        final class Log: @unchecked Sendable { var entries: [String] = [] }
        let log = Log()
        let a = subject.sink { value in
            log.entries.append("a\(value)")
            if value == 1 { subject.send(2) }
        }
        let b = subject.sink { log.entries.append("b\($0)") }
        subject.send(1)
        #expect(log.entries == ["a0", "b0", "a1", "b1", "a2", "b2"])
        _ = (a, b)
    }

    @Test func valueReadFromAnotherSubscriberIsTheLatestSent() {
        // `value` is the latest value sent, also while that value is still on its way to the
        // subscribers after the one reading it.
        let subject = CurrentValueSubject<Int, Never>(0)
        final class Log: @unchecked Sendable { var entries: [String] = [] }
        let log = Log()
        let a = subject.sink { value in
            if value == 1 { subject.send(2) }
        }
        let b = subject.sink { log.entries.append("b\($0) value=\(subject.value)") }
        subject.send(1)
        #expect(log.entries == ["b0 value=0", "b1 value=2", "b2 value=2"])
        subject.send(3)
        #expect(log.entries.last == "b3 value=3")
        _ = (a, b)
    }

    @Test func requestFromInsideReceiveDoesNotRecurse_S8() {
        let subject = CurrentValueSubject<Int, Never>(0)
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        subject.subscribe(subscriber)
        for i in 1...1_000 { subject.send(i) }
        box.subscriber = nil
        #expect(subscriber.values == Array(0...1_000))
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        checkContract { CurrentValueSubject<Int, Never>(7) }
    }
}
