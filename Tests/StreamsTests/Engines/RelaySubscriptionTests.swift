import Foundation
import Streams
import StreamsTesting
import Testing

/// The shared behaviour of the operators built on the relay subscription (`dropFirst`,
/// `drop(while:)`, `prefix(while:)`, `removeDuplicates`, `output(in:)`, `encode`,
/// `measureInterval` and the `try` operators), checked here once through `tryMap` and, for each
/// operator, in its own test file with ``checkOwnSubscription(named:requestingNone:_:sourceLocation:)``
/// (which the reducing operators' subscriptions, `first`'s among them, pass too).
@Suite("relay subscription")
struct RelaySubscriptionTests {
    struct Boom: Error, Equatable {}

    @Test func theSubscriberGetsTheOperatorsOwnSubscription() {
        checkOwnSubscription(named: "TryMap") { $0.tryMap { $0 } }
    }

    /// Requests made while the subscriber receives its subscription go up as one request after
    /// it, so a synchronous upstream never sends into a subscriber still being subscribed.
    @Test func requestsDuringTheHandoverGoUpAsOneRequestAfterIt() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(2), onSubscription: { subscription in
            subscription.request(.max(3))
        })
        upstream.tryMap { $0 }.subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(5))])
    }

    @Test func cancelDuringTheHandoverAsksForNothing() {
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(2), onSubscription: { $0.cancel() })
        upstream.tryMap { $0 }.subscribe(subscriber)
        #expect(upstream.history == [.cancelled])
        upstream.send(1)
        #expect(subscriber.events.count == 1)
    }

    /// An upstream that keeps sending after the subscriber cancelled inside a value: nothing
    /// more arrives, and the upstream was cancelled once.
    @Test func nothingArrivesAfterACancelInsideAValue_S6() {
        let upstream = MisbehavingPublisher<Int, Boom>([.subscription, .value(1), .value(2), .completion(.finished)])
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, any Error>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, any Error>(onValue: { _ in
            box.subscriber?.cancel()
            return .none
        })
        box.subscriber = subscriber
        upstream.tryMap { $0 }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.events.count == 2)
        #expect(subscriber.values == [1])
        #expect(upstream.subscriptions.first?.history == [.requested(.unlimited), .cancelled])
    }

    /// Cancel, request and the upstream's values from several threads at once: nothing arrives
    /// once `cancel()` has returned, the upstream is cancelled once, and no rule is broken.
    @Test func cancelRacingRequestsAndValuesIsSafe_S6() async {
        for _ in 0..<200 {
            let upstream = TestPublisher<Int, Never>()
            let subscriber = RecordingSubscriber<Int, any Error>(demand: .unlimited)
            upstream.tryMap { $0 }.subscribe(subscriber)
            let countAfterCancel = await withTaskGroup(of: Int?.self) { group in
                group.addTask {
                    for value in 0..<50 { upstream.send(value) }
                    return nil
                }
                group.addTask {
                    for _ in 0..<50 { subscriber.subscription?.request(.max(1)) }
                    return nil
                }
                group.addTask {
                    subscriber.cancel()
                    return subscriber.events.count
                }
                var count = 0
                for await result in group { if let result { count = result } }
                return count
            }
            // At most one value may have been in flight when cancel() returned.
            #expect(subscriber.events.count <= countAfterCancel + 1)
            #expect(upstream.history.filter { $0 == .cancelled }.count == 1)
            #expect(subscriber.violations.isEmpty)
        }
    }
}

/// Checks what an operator that gives its subscriber a subscription of its own promises, over a
/// ``TestPublisher`` made by the check:
///
/// - the subscription's `description` and `playgroundDescription` are `name` (Combine's), its
///   mirror has no children;
/// - `request(.none)` is reported (S9) or ignored as `requestingNone` says, and never reaches
///   the upstream;
/// - a second `cancel()`, and requests after it, do not reach the upstream (S6);
/// - after the upstream's completion, requests and cancels do not reach it;
/// - a subscriber that cancels while receiving its subscription gets nothing more, even from an
///   upstream that keeps sending (S6);
/// - the subscriber is let go after the cancel and after the completion, even while it keeps its
///   subscription (S7).
func checkOwnSubscription<P: Publisher>(
    named name: String,
    requestingNone: NoneRequestBehavior = .isIgnored,
    _ makeOperator: (AnyPublisher<Int, RelaySubscriptionTests.Boom>) -> P,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    typealias Upstream = TestPublisher<Int, RelaySubscriptionTests.Boom>

    // The name, as `print()` shows it.
    do {
        let upstream = Upstream()
        let subscriber = RecordingSubscriber<P.Output, P.Failure>(demand: nil)
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { "\($0)" } == name, sourceLocation: sourceLocation)
        #expect((subscription as? CustomPlaygroundDisplayConvertible).map { "\($0.playgroundDescription)" } == name,
                sourceLocation: sourceLocation)
        #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0, sourceLocation: sourceLocation)

        // request(.none): reported or ignored, never passed up.
        let before = upstream.history
        let messages = recordingAPIViolations { subscription?.request(.none) }
        switch requestingNone {
        case .isViolation:
            #expect(messages.count == 1 && messages[0].contains("S9"), sourceLocation: sourceLocation)
        case .isIgnored:
            #expect(messages.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(upstream.history == before, sourceLocation: sourceLocation)

        // Cancel twice, then ask for more: the upstream sees one cancel and nothing after it.
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(5))
        #expect(upstream.history == before + [.cancelled], sourceLocation: sourceLocation)
        #expect(subscriber.violations.isEmpty, sourceLocation: sourceLocation)
    }

    // After the completion: requests and cancels stop here.
    for completion in [Subscribers.Completion<RelaySubscriptionTests.Boom>.finished, .failure(.init())] {
        let upstream = Upstream()
        let subscriber = RecordingSubscriber<P.Output, P.Failure>(demand: .max(1))
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        upstream.send(completion: completion)
        let before = upstream.history
        subscriber.request(.max(3))
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.history == before, sourceLocation: sourceLocation)
        #expect(subscriber.completion != nil, sourceLocation: sourceLocation)
        #expect(subscriber.violations.isEmpty, sourceLocation: sourceLocation)
    }

    // An upstream that keeps sending after the cancel: nothing more arrives.
    do {
        let upstream = MisbehavingPublisher<Int, RelaySubscriptionTests.Boom>(
            [.subscription, .value(1), .value(2), .completion(.finished)])
        let subscriber = RecordingSubscriber<P.Output, P.Failure>(demand: .unlimited, onSubscription: { $0.cancel() })
        makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
        #expect(subscriber.events.count == 1, "after cancel() the subscriber got \(subscriber.events)",
                sourceLocation: sourceLocation)
        #expect(upstream.subscriptions.first?.history.filter { $0 == .cancelled }.count == 1,
                sourceLocation: sourceLocation)
    }

    // The subscriber is let go after a cancel and after the completion (S7), also while it
    // keeps its subscription (a RecordingSubscriber does).
    for ends in ["cancel", "completion"] {
        let upstream = Upstream()
        weak var weakSubscriber: RecordingSubscriber<P.Output, P.Failure>?
        do {
            let subscriber = RecordingSubscriber<P.Output, P.Failure>(demand: .max(1))
            weakSubscriber = subscriber
            makeOperator(upstream.eraseToAnyPublisher()).subscribe(subscriber)
            if ends == "cancel" {
                subscriber.cancel()
            } else {
                upstream.send(completion: .finished)
            }
        }
        #expect(weakSubscriber == nil, "the subscriber was kept after the \(ends)", sourceLocation: sourceLocation)
    }
}
