#if !canImport(Combine)
import Dispatch
import Foundation
import StreamsFoundation
import StreamsTesting
import Testing

@Suite("NotificationCenter.Publisher")
struct NotificationCenterPublisherTests {
    static let ping = Notification.Name("ping")
    static let pong = Notification.Name("pong")

    final class Sender: @unchecked Sendable {}  // no state

    func names(_ subscriber: RecordingSubscriber<Notification, Never>) -> [String] {
        subscriber.values.map(\.name.rawValue)
    }

    @Test func deliversTheNotificationsOfItsNameAsTheyArePosted() {
        let center = NotificationCenter()
        let subscriber = RecordingSubscriber<Notification, Never>()
        center.publisher(for: Self.ping).subscribe(subscriber)
        center.post(name: Self.ping, object: nil)
        center.post(name: Self.pong, object: nil)
        center.post(name: Self.ping, object: nil, userInfo: ["n": 2])
        #expect(names(subscriber) == ["ping", "ping"])
        #expect(subscriber.values.last?.userInfo?["n"] as? Int == 2)
        #expect(subscriber.completion == nil)
    }

    @Test func anObjectLimitsItToThatSender() {
        let center = NotificationCenter()
        let sender = Sender()
        let subscriber = RecordingSubscriber<Notification, Never>()
        center.publisher(for: Self.ping, object: sender).subscribe(subscriber)
        center.post(name: Self.ping, object: Sender())
        center.post(name: Self.ping, object: nil)
        center.post(name: Self.ping, object: sender)
        #expect(subscriber.values.count == 1)
        #expect(subscriber.values.first?.object as? Sender === sender)
    }

    @Test func nothingIsObservedBeforeSubscribing() {
        let center = NotificationCenter()
        let publisher = center.publisher(for: Self.ping)
        center.post(name: Self.ping, object: nil)
        let subscriber = RecordingSubscriber<Notification, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
    }

    // MARK: Demand

    @Test func notificationsWithoutDemandAreDropped_S1() {
        // As Combine: a notification posted while there is no demand is lost, not buffered.
        let center = NotificationCenter()
        let subscriber = RecordingSubscriber<Notification, Never>(demand: nil)
        center.publisher(for: Self.ping).subscribe(subscriber)
        center.post(name: Self.ping, object: nil, userInfo: ["n": 1])
        subscriber.request(.max(1))
        #expect(subscriber.values.isEmpty)
        center.post(name: Self.ping, object: nil, userInfo: ["n": 2])
        center.post(name: Self.ping, object: nil, userInfo: ["n": 3])
        #expect(subscriber.values.map { $0.userInfo?["n"] as? Int } == [2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func returnedDemandIsHonoured() {
        let center = NotificationCenter()
        let subscriber = RecordingSubscriber<Notification, Never>(demand: .max(1), onValue: { _ in .max(1) })
        center.publisher(for: Self.ping).subscribe(subscriber)
        for _ in 0..<5 { center.post(name: Self.ping, object: nil) }
        #expect(subscriber.values.count == 5)
    }

    @Test func requestingNoneIsAcceptedAndDoesNothing_S9() {
        let center = NotificationCenter()
        let subscriber = RecordingSubscriber<Notification, Never>(demand: nil)
        center.publisher(for: Self.ping).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        center.post(name: Self.ping, object: nil)
        #expect(subscriber.values.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelStopsObservingAndReleasesTheSubscriber_S7() {
        let center = NotificationCenter()
        weak var weakSubscriber: RecordingSubscriber<Notification, Never>?
        var subscription: Subscription?
        do {
            let subscriber = RecordingSubscriber<Notification, Never>()
            weakSubscriber = subscriber
            center.publisher(for: Self.ping).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
            center.post(name: Self.ping, object: nil)
            #expect(subscriber.values.count == 1)
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        center.post(name: Self.ping, object: nil)
        #expect(weakSubscriber == nil)
    }

    @Test func cancellingFromInsideTheSubscriberStopsDelivery_S6() {
        let center = NotificationCenter()
        var received = 0
        var cancellable: AnyCancellable?
        cancellable = center.publisher(for: Self.ping).sink { _ in
            received += 1
            cancellable?.cancel()
        }
        center.post(name: Self.ping, object: nil)
        center.post(name: Self.ping, object: nil)
        #expect(received == 1)
    }

    // MARK: Threads and reentrancy

    @Test func aPostFromInsideTheSubscriberIsDeliveredAfterTheCurrentOne_S11() {
        let center = NotificationCenter()
        var log: [String] = []
        var depth = 0
        let cancellable = center.publisher(for: Self.ping).sink { notification in
            depth += 1
            let n = notification.userInfo?["n"] as? Int ?? 0
            log.append("\(n) at depth \(depth)")
            if n == 1 { center.post(name: Self.ping, object: nil, userInfo: ["n": 2]) }
            depth -= 1
        }
        center.post(name: Self.ping, object: nil, userInfo: ["n": 1])
        #expect(log == ["1 at depth 1", "2 at depth 1"])
        _ = cancellable
    }

    @Test func postsFromManyThreadsArriveOneAtATime_S3() {
        let center = NotificationCenter()
        let subscriber = RecordingSubscriber<Notification, Never>()
        center.publisher(for: Self.ping).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<200 { center.post(name: Self.ping, object: nil) }
        }
        #expect(subscriber.values.count == 800)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: The publisher

    @Test func publishersOfTheSameObservationAreEqual() {
        let center = NotificationCenter()
        let sender = Sender()
        #expect(center.publisher(for: Self.ping) == NotificationCenter.Publisher(center: center, name: Self.ping))
        #expect(center.publisher(for: Self.ping, object: sender) == center.publisher(for: Self.ping, object: sender))
        #expect(center.publisher(for: Self.ping, object: sender) != center.publisher(for: Self.ping))
        #expect(center.publisher(for: Self.ping) != center.publisher(for: Self.pong))
        #expect(center.publisher(for: Self.ping) != NotificationCenter().publisher(for: Self.ping))
        let publisher = center.publisher(for: Self.pong, object: sender)
        #expect(publisher.center === center)
        #expect(publisher.name == Self.pong)
        #expect(publisher.object === sender)
    }

    @Test func subscriptionDescription() {
        let subscriber = RecordingSubscriber<Notification, Never>()
        NotificationCenter().publisher(for: Self.ping).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "NotificationCenter Observer")
    }

    @Test func worksWithOperators() {
        let center = NotificationCenter()
        var seen: [Int] = []
        let cancellable = center.publisher(for: Self.ping)
            .compactMap { $0.userInfo?["n"] as? Int }
            .filter { $0.isMultiple(of: 2) }
            .sink { seen.append($0) }
        for n in 1...6 { center.post(name: Self.ping, object: nil, userInfo: ["n": n]) }
        #expect(seen == [2, 4, 6])
        _ = cancellable
    }
}
#endif
