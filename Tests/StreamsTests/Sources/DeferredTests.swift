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

    @Test func contract() {
        checkContract({ Deferred { (0..<300).publisher } }, requestingNone: .isIgnored)
        checkContract { Deferred { Just(1) } }
    }
}
