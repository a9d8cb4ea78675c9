import Streams
import StreamsTesting
import Testing

@Suite("Optional.Publisher")
struct OptionalPublisherTests {
    @Test func someAndNone() {
        assertMarbles(Optional(3).publisher, "[3|]")
        assertMarbles(Optional<Int>.none.publisher, "|", demand: .none)
    }

    @Test func valueWaitsForDemand_S1() {
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Optional(1).publisher.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        // As in Combine, which traps.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Optional(1).publisher.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(
            messages == [
                "API violation (S9): Optional.Publisher was asked for .none; a request must be for at least one value"
            ])
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    @Test func requestingNoneOfAnEmptyOptionalIsIgnored_S9() {
        // `nil` finishes at once with `Subscriptions.empty`, which ignores every request.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Optional<Int>.none.publisher.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.isEmpty)
        #expect(subscriber.completion == .finished)
    }

    // A `Subscribers.Sink` gets the value without a subscription object (`sendOneValue`,
    // Engines/OneValueSubscription.swift), and exactly what a subscription would deliver.
    @Test func aSinkGetsTheValueThenFinishedUnlessItHasASubscriptionAlready_S2() {
        let log = LockedLog()
        let first = loggingSink(log)
        Optional(1).publisher.subscribe(first)
        #expect(log.entries == ["1", "finished"])
        let second = loggingSink(log)
        let upstream = TestPublisher<Int, Never>()
        upstream.subscribe(second)
        Optional(1).publisher.subscribe(second)
        #expect(log.entries == ["1", "finished"])
        second.cancel()
    }

    @Test func contract() {
        checkContract { Optional(1).publisher }
        checkContract { Optional<Int>.none.publisher }
        checkContract { Optional(1).publisher.map { $0 + 1 } }
        checkContract { Optional(1).publisher.replaceEmpty(with: 2) }
    }
}
