import Streams
import StreamsTesting
import Testing

/// `checkIgnoresMisbehavingUpstream` must catch an operator that lets a misbehaving upstream's
/// signals through, and pass one that guards them.
@Suite("checkIgnoresMisbehavingUpstream")
struct MisbehavingUpstreamTests {
    struct Boom: Error, Equatable {}

    /// Passes every signal straight on, as a stateless operator does: it breaks nothing itself,
    /// but it does not guard its downstream either.
    struct PassThrough<Upstream: Publisher>: Publisher {
        typealias Output = Upstream.Output
        typealias Failure = Upstream.Failure
        let upstream: Upstream
        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: AnySubscriber(subscriber))
        }
    }

    /// Keeps the downstream only between the upstream's subscription and its end, as Combine's
    /// stateful operators do.
    struct Guarding<Upstream: Publisher>: Publisher {
        typealias Output = Upstream.Output
        typealias Failure = Upstream.Failure
        let upstream: Upstream
        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: AnySubscriber(subscriber)))
        }

        final class Inner: Subscriber {
            var downstream: AnySubscriber<Output, Failure>?
            var subscribed = false
            init(downstream: AnySubscriber<Output, Failure>) { self.downstream = downstream }
            func receive(subscription: Subscription) {
                guard !subscribed, let downstream else { return subscription.cancel() }
                subscribed = true
                downstream.receive(subscription: subscription)
            }
            func receive(_ input: Output) -> Subscribers.Demand {
                guard subscribed, let downstream else { return .none }
                return downstream.receive(input)
            }
            func receive(completion: Subscribers.Completion<Failure>) {
                guard subscribed, let downstream else { return }
                self.downstream = nil
                downstream.receive(completion: completion)
            }
        }
    }

    @Test func passesAnOperatorThatGuards() {
        checkIgnoresMisbehavingUpstream({ Guarding(upstream: $0) }, value: 1, failure: Boom())
    }

    @Test func catchesAnOperatorThatLetsSignalsThrough() {
        expectFailures {
            checkIgnoresMisbehavingUpstream({ PassThrough(upstream: $0) }, value: 1, failure: Boom())
        }
    }

    @Test func transparencyCheckPassesAPassThroughOperator() {
        checkPassesMisbehavingUpstreamThrough({ PassThrough(upstream: $0) }, value: 1, failure: Boom())
    }

    @Test func transparencyCheckCatchesAnOperatorThatGuards() {
        expectFailures {
            checkPassesMisbehavingUpstreamThrough({ Guarding(upstream: $0) }, value: 1, failure: Boom())
        }
    }

    @Test func theScriptRunsInOrderAndRecordsSubscriptions() {
        let upstream = MisbehavingPublisher<Int, Never>([.subscription, .value(1), .value(2), .subscription, .value(3)])
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(3))
        upstream.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(upstream.subscriptions.count == 2)
        #expect(upstream.subscriptions[0].history == [.requested(.max(3))])
        #expect(upstream.subscriptions[1].history == [.cancelled])
        #expect(subscriber.violations == ["S2: a second subscription arrived (it was cancelled)"])
    }
}
