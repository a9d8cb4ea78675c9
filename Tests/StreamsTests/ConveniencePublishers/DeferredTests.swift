import Streams
import StreamsTesting
import Testing

@Suite("Deferred")
struct DeferredTests {
    @Test func runsTheClosurePerSubscription_S12() {
        final class Counter: @unchecked Sendable { var runs = 0 }
        let counter = Counter()
        let deferred = Deferred { () -> Just<Int> in
            counter.runs += 1
            return Just(counter.runs)
        }
        #expect(counter.runs == 0)
        #expect(values(deferred) == [1])
        #expect(values(deferred) == [2])
        #expect(counter.runs == 2)
    }

    @Test func marbles() {
        assertMarbles(Deferred { [1, 2].publisher }, "[12|]")
    }

    @Test func demandGoesToTheMadePublisher() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(3))
        Deferred { upstream }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(3)), .cancelled])
    }

    @Test func requestingNoneIsUpToTheMadePublisher_S9() {
        // As in Combine: `Deferred` hands its subscriber to the publisher it makes, so that
        // publisher's subscription answers: `Just` reports `.none`, a sequence ignores it.
        let just = RecordingSubscriber<Int, Never>(demand: nil)
        Deferred { Just(1) }.subscribe(just)
        let reported = recordingAPIViolations { just.subscription?.request(.none) }
        #expect(reported == ["API violation (S9): Just was asked for .none; a request must be for at least one value"])
        let sequence = RecordingSubscriber<Int, Never>(demand: nil)
        Deferred { [1, 2].publisher }.subscribe(sequence)
        let ignored = recordingAPIViolations { sequence.subscription?.request(.none) }
        #expect(ignored.isEmpty)
        #expect(just.values.isEmpty && sequence.values.isEmpty)
    }

    @Test func contract() {
        checkContract({ Deferred { (0..<300).publisher } }, requestingNone: .isIgnored)
        checkContract { Deferred { Just(1) } }
    }
}
