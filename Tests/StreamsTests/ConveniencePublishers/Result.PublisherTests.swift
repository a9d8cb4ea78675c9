import Streams
import StreamsTesting
import Testing

@Suite("Result.Publisher")
struct ResultPublisherTests {
    struct Oops: Error, Equatable {}

    @Test func successAndFailure() {
        assertMarbles(Result<Int, Oops>.success(7).publisher, "[7|]")
        assertMarbles(Result<Int, Oops>.failure(Oops()).publisher, "^", demand: .none)
        assertMarbles(Result<Int, Oops>.Publisher(8), "[8|]")
        assertMarbles(Result<Int, Oops>.Publisher(Oops()), "^")
    }

    @Test func successWaitsForDemand_S1() {
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        Result<Int, Oops>.success(1).publisher.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        Result<Int, Oops>.success(1).publisher.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("Result.Publisher") == true)
    }

    @Test func requestingNoneOfAFailureIsIgnored_S9() {
        // A failure is sent at once with `Subscriptions.empty`, which ignores every request.
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        Result<Int, Oops>.failure(Oops()).publisher.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.isEmpty)
        #expect(subscriber.completion == .failure(Oops()))
    }

    // A `Subscribers.Sink` gets the value without a subscription object (`sendOneValue`,
    // Engines/OneValueSubscription.swift), and exactly what a subscription would deliver.
    @Test func aSinkGetsTheValueThenFinishedUnlessItHasASubscriptionAlready_S2() {
        let log = LockedLog()
        let first = loggingSink(log)
        Result<Int, Never>.Publisher(1).subscribe(first)
        #expect(log.entries == ["1", "finished"])
        let second = loggingSink(log)
        let upstream = TestPublisher<Int, Never>()
        upstream.subscribe(second)
        Result<Int, Never>.Publisher(1).subscribe(second)
        #expect(log.entries == ["1", "finished"])
        second.cancel()
    }

    @Test func contract() {
        checkContract { Result<Int, Oops>.success(1).publisher }
        checkContract { Result<Int, Oops>.failure(Oops()).publisher }
        checkContract { Result<Int, Oops>.success(1).publisher.map { $0 + 1 } }
        checkContract { Result<Int, Oops>.failure(Oops()).publisher.tryMap { $0 + 1 } }
    }
}
