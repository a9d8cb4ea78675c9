import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("ObservableObjectPublisher")
struct ObservableObjectPublisherTests {
    @Test func nothingArrivesBeforeTheFirstRequest() {
        let publisher = ObservableObjectPublisher()
        let subscriber = RecordingSubscriber<Void, Never>(demand: nil)
        publisher.subscribe(subscriber)
        publisher.send()
        #expect(subscriber.values.isEmpty)
    }

    @Test func afterAnyRequestEverySignalArrives() {
        // Combine ignores the amount (OpenCombine's ObservableObjectPublisherTests record it):
        // after request(.max(1)), every later send is delivered.
        let publisher = ObservableObjectPublisher()
        let subscriber = RecordingSubscriber<Void, Never>(demand: nil)
        publisher.subscribe(subscriber)
        subscriber.request(.max(1))
        #expect(subscriber.values.isEmpty)
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(subscriber.values.count == 3)
        subscriber.request(.max(3))
        #expect(subscriber.values.count == 3)
        for _ in 0..<4 { publisher.send() }
        #expect(subscriber.values.count == 7)
    }

    @Test func requestingNoneIsAcceptedAndStartsNothing() {
        let publisher = ObservableObjectPublisher()
        let subscriber = RecordingSubscriber<Void, Never>(demand: nil)
        publisher.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        publisher.send()
        #expect(subscriber.values.isEmpty)
    }

    @Test func subscribersAreCalledInSubscriptionOrder() {
        let publisher = ObservableObjectPublisher()
        var log: [String] = []
        let a = publisher.sink { log.append("a") }
        let b = publisher.sink { log.append("b") }
        publisher.send()
        publisher.send()
        #expect(log == ["a", "b", "a", "b"])
        _ = (a, b)
    }

    @Test func aLateSubscriberGetsOnlyLaterSignals() {
        let publisher = ObservableObjectPublisher()
        publisher.send()
        let subscriber = RecordingSubscriber<Void, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        publisher.send()
        #expect(subscriber.values.count == 1)
        #expect(subscriber.completion == nil)
    }

    @Test func cancelStopsDeliveryAndReleasesTheSubscriber_S7() {
        let publisher = ObservableObjectPublisher()
        weak var weakSubscriber: RecordingSubscriber<Void, Never>?
        var subscription: Subscription?
        do {
            let subscriber = RecordingSubscriber<Void, Never>()
            weakSubscriber = subscriber
            publisher.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
            publisher.send()
            #expect(subscriber.values.count == 1)
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        publisher.send()
        #expect(weakSubscriber == nil)
    }

    @Test func aSendFromInsideASubscriberIsDeliveredAfterTheCurrentSignal_S11() {
        let publisher = ObservableObjectPublisher()
        var log: [String] = []
        var depth = 0
        let a = publisher.sink {
            depth += 1
            log.append("a depth \(depth)")
            if log.count == 1 { publisher.send() }
            depth -= 1
        }
        let b = publisher.sink { log.append("b") }
        publisher.send()
        #expect(log == ["a depth 1", "b", "a depth 1", "b"])
        _ = (a, b)
    }

    @Test func sendsFromManyThreadsArriveOneAtATime_S3() {
        let publisher = ObservableObjectPublisher()
        let first = RecordingSubscriber<Void, Never>()
        let second = RecordingSubscriber<Void, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 { publisher.send() }
        }
        #expect(first.values.count == 2_000)
        #expect(second.values.count == 2_000)
        #expect(first.violations.isEmpty)
        #expect(second.violations.isEmpty)
    }

    @Test func subscriptionDescription() {
        let publisher = ObservableObjectPublisher()
        let subscriber = RecordingSubscriber<Void, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "ObservableObjectPublisher")
    }
}
