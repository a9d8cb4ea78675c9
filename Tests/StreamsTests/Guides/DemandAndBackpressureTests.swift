import Streams
import StreamsTesting
import Testing

// The examples of `Sources/Streams/Streams.docc/DemandAndBackpressure.md`, run as written there.
@Suite("Guide: Demand and backpressure")
struct DemandAndBackpressureTests {
    /// The guide's subscriber that keeps its subscription and asks by hand.
    final class Puller: Subscriber {
        typealias Input = Int
        typealias Failure = Never
        var subscription: (any Subscription)?
        var received: [Int] = []
        var isFinished = false

        func receive(subscription: any Subscription) {
            self.subscription = subscription  // asks for nothing yet
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            received.append(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            isFinished = true
        }
    }

    /// The guide's subscriber that asks for one value at a time.
    final class OneAtATime: Subscriber {
        typealias Input = Int
        typealias Failure = Never
        var received: [Int] = []

        func receive(subscription: any Subscription) {
            subscription.request(.max(1))
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            received.append(input)
            return .max(1)  // one more, please
        }

        func receive(completion: Subscribers.Completion<Never>) {}
    }

    @Test func aSubscriberGetsOnlyWhatItAsksFor_S1() {
        let puller = Puller()
        (1...5).publisher.subscribe(puller)
        #expect(puller.received == [])
        puller.subscription?.request(.max(2))
        #expect(puller.received == [1, 2])
        puller.subscription?.request(.max(10))
        #expect(puller.received == [1, 2, 3, 4, 5])
        #expect(puller.isFinished)
    }

    @Test func askingForOneMoreInReceiveDoesNotGrowTheStack_S8() {
        let subscriber = OneAtATime()
        (1...100_000).publisher.subscribe(subscriber)
        #expect(subscriber.received.count == 100_000)
        #expect(subscriber.received.last == 100_000)
    }

    @Test func demandArithmeticSaturates() {
        #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
        #expect(Subscribers.Demand.max(2) + .unlimited == .unlimited)
        #expect(Subscribers.Demand.max(1) - .max(3) == .none)
        #expect(Subscribers.Demand.unlimited - .max(5) == .unlimited)
    }

    @Test func aSubjectDropsWhatNobodyAskedFor_S10() {
        let subject = PassthroughSubject<Int, Never>()
        let puller = Puller()
        subject.subscribe(puller)
        subject.send(1)  // no demand: missed
        puller.subscription?.request(.max(1))
        subject.send(2)
        subject.send(3)  // the demand is used up: missed
        #expect(puller.received == [2])
    }

    @Test func aBufferKeepsWhatNobodyAskedForYet() {
        let subject = PassthroughSubject<Int, Never>()
        let puller = Puller()
        subject
            .buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)
            .subscribe(puller)
        subject.send(1)
        subject.send(2)
        puller.subscription?.request(.max(1))
        #expect(puller.received == [1])
        puller.subscription?.request(.max(1))
        #expect(puller.received == [1, 2])
    }

    @Test func relayOperatorsPassRequestsUpOneByOne() {
        // `dropFirst` (a relay operator): the handover's requests go up as one request, with the
        // values it drops; later requests go straight up.
        let upstream = TestPublisher<Int, Never>()
        let puller = Puller()
        upstream.dropFirst(2).subscribe(puller)
        #expect(upstream.history == [.requested(.max(2))])
        puller.subscription?.request(.max(1))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1))])
    }
}
