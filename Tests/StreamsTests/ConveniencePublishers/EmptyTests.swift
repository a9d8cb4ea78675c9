import Streams
import StreamsTesting
import Testing

@Suite("Empty")
struct EmptyTests {
    @Test func finishesAtOnceWithoutDemand_S5() {
        assertMarbles(Empty<Int, Never>(), "|")
        assertMarbles(Empty<Int, Never>(), "|", demand: .none)
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().subscribe(subscriber)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func neverCompletesWhenAskedNotTo() {
        assertMarbles(Empty<Int, Never>(completeImmediately: false), "")
        let subscriber = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).subscribe(subscriber)
        #expect(subscriber.isSubscribed)
        #expect(subscriber.completion == nil)
    }

    @Test func equality() {
        #expect(Empty<Int, Never>() == Empty<Int, Never>())
        #expect(Empty<Int, Never>() != Empty<Int, Never>(completeImmediately: false))
        #expect(Empty(completeImmediately: true, outputType: Int.self, failureType: Never.self) == Empty<Int, Never>())
    }

    @Test func requestingNoneIsIgnored_S9() {
        // As in Combine: its subscription is `Subscriptions.empty`, which ignores every request.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>(completeImmediately: false).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.isEmpty)
        #expect(subscriber.events == [.subscription])
    }

    @Test func contract() {
        checkContract { Empty<Int, Never>() }
        // Its subscription is `Subscriptions.empty`, which ignores every request, as in Combine.
        checkContract({ Empty<Int, Never>(completeImmediately: false) }, requestingNone: .isIgnored)
    }
}
