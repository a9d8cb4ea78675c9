import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

// The examples of `Sources/Streams/Streams.docc/SerializedDelivery.md`, run as written there.
@Suite("Guide: Serialized delivery")
struct SerializedDeliveryTests {
    @Test func aSendFromInsideASubscriberWaitsForTheCurrentValue_S11() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let a = subject.sink { value in
            log.append("a\(value)")
            if value == 1 { subject.send(2) }
        }
        let b = subject.sink { value in log.append("b\(value)") }
        subject.send(1)
        // Combine would log a1, a2, b2, b1 (the inner send is delivered recursively).
        #expect(log == ["a1", "b1", "a2", "b2"])
        _ = (a, b)
    }

    @Test func aLongFeedbackLoopRunsInALoop_S11() {
        let subject = PassthroughSubject<Int, Never>()
        var last = 0
        let cancellable = subject.sink { value in
            last = value
            if value < 100_000 { subject.send(value + 1) }
        }
        subject.send(1)
        #expect(last == 100_000)
        _ = cancellable
    }

    @Test func aSenderOnAnotherThreadNeverWaitsForTheDelivery_S3() {
        final class Flags: Sendable {
            let otherSendReturned = Atomic<Bool>(false)
            let overlapped = Atomic<Bool>(false)
            let inside = Atomic<Bool>(false)
        }
        let flags = Flags()
        let subject = PassthroughSubject<Int, Never>()
        let returned = DispatchSemaphore(value: 0)
        let received = RecordingSubscriber<Int, Never>(onValue: { value in
            if flags.inside.exchange(true, ordering: .acquiringAndReleasing) {
                flags.overlapped.store(true, ordering: .relaxed)
            }
            if value == 1 {
                // Another thread sends while this thread is delivering 1: its `send` queues 2
                // and returns at once, without waiting for this call to end.
                DispatchQueue.global().async {
                    subject.send(2)
                    flags.otherSendReturned.store(true, ordering: .releasing)
                    returned.signal()
                }
                _ = returned.wait(timeout: .now() + 10)
            }
            flags.inside.store(false, ordering: .releasing)
            return .none
        })
        subject.subscribe(received)
        subject.send(1)  // this thread delivers 1, then the queued 2
        let otherSendReturned = flags.otherSendReturned.load(ordering: .acquiring)
        let overlapped = flags.overlapped.load(ordering: .relaxed)
        #expect(otherSendReturned)
        #expect(received.values == [1, 2])
        #expect(!overlapped)
        #expect(received.violations.isEmpty)
    }

    @Test func mergeDeliversAValueSentFromInsideReceiveAfterTheCurrentOne_S3() {
        let numbers = PassthroughSubject<Int, Never>()
        let letters = PassthroughSubject<Int, Never>()
        var log: [Int] = []
        let cancellable = numbers.merge(with: letters).sink { value in
            log.append(value)
            if value == 1 { letters.send(10) }
            log.append(-value)  // marks the end of the call for `value`
        }
        numbers.send(1)
        #expect(log == [1, -1, 10, -10])
        _ = cancellable
    }

    @Test func aBufferEmptiedOneRequestAtATimeRunsInALoop_S8() {
        // The guide's `var`s, in a box: AnySubscriber's closures are `@Sendable`.
        final class Box: @unchecked Sendable {
            var subscription: (any Subscription)?
            var count = 0
        }
        let box = Box()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { box.subscription = $0 },
            receiveValue: { _ in
                box.count += 1
                box.subscription?.request(.max(1))  // asks for the next value from inside
                return .none
            })
        subject.buffer(size: 100_000, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...100_000 { subject.send(value) }  // all buffered: nothing was asked for
        #expect(box.count == 0)
        box.subscription?.request(.max(1))
        // 100,000 nested calls would overflow the stack; the drain loop makes them one after
        // another.
        #expect(box.count == 100_000)
    }
}
