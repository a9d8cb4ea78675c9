import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("TestPublisher")
struct TestPublisherTests {
    // MARK: Recording

    @Test func recordsRequestsAndCancelInOrder() {
        let publisher = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        publisher.subscribe(subscriber)
        subscriber.request(.max(3))
        subscriber.cancel()
        #expect(publisher.history == [.requested(.max(2)), .requested(.max(3)), .cancelled])
        #expect(publisher.isCancelled)
    }

    @Test func sendDeliversWithoutDemandAndTracksWhatIsOutstanding() {
        let publisher = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        publisher.subscribe(subscriber)
        publisher.send(1)
        #expect(publisher.demand == .none)
        publisher.send(2)   // the test decides: delivered anyway
        #expect(subscriber.values == [1, 2])
    }

    @Test func aLateSubscriberGetsTheCompletionAtOnce() {
        let publisher = TestPublisher<Int, Never>()
        publisher.send(completion: .finished)
        let subscriber = RecordingSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Threads

    /// A subscriber that, while it is being handed its subscription, waits for another thread
    /// to send a value and a completion: neither may reach it before it has its subscription (S3).
    final class SlowToSubscribe: Subscriber, @unchecked Sendable {  // `events` is only touched serially, by contract
        typealias Input = Int
        typealias Failure = Never
        let publisher: TestPublisher<Int, Never>
        var events: [String] = []
        var isSubscribing = false
        var overlapped = false

        init(_ publisher: TestPublisher<Int, Never>) {
            self.publisher = publisher
        }

        func receive(subscription: any Subscription) {
            isSubscribing = true
            subscription.request(.unlimited)
            let done = DispatchSemaphore(value: 0)
            let publisher = self.publisher
            Thread.detachNewThread {
                publisher.send(1)
                publisher.send(completion: .finished)
                done.signal()
            }
            done.wait()
            events.append("subscription")
            isSubscribing = false
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            if isSubscribing { overlapped = true }
            events.append("\(input)")
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            if isSubscribing { overlapped = true }
            events.append("finished")
        }
    }

    @Test func whatAnotherThreadSendsDuringTheHandoverWaitsOrPassesBy_S3() {
        let publisher = TestPublisher<Int, Never>()
        let subscriber = SlowToSubscribe(publisher)
        publisher.subscribe(subscriber)
        #expect(!subscriber.overlapped)
        // The value passed the subscriber by; the completion waited for the handover.
        #expect(subscriber.events == ["subscription", "finished"])
    }
}
