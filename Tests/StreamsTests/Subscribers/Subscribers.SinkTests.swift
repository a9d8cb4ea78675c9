import Streams
import StreamsTesting
import Testing

@Suite("sink")
struct SinkTests {
    struct Boom: Error, Equatable {}
    struct Oops: Error, Equatable {}
    final class Log: @unchecked Sendable { var entries: [String] = [] }

    @Test func receivesValuesThenCompletion() {
        let log = Log()
        let cancellable = [1, 2].publisher.sink(
            receiveCompletion: { log.entries.append("done: \($0)") },
            receiveValue: { log.entries.append("value: \($0)") })
        #expect(log.entries == ["value: 1", "value: 2", "done: finished"])
        _ = cancellable
    }

    @Test func requestsUnlimited() {
        let upstream = TestPublisher<Int, Never>()
        let cancellable = upstream.sink { _ in }
        #expect(upstream.history == [.requested(.unlimited)])
        cancellable.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func droppingTheCancellableCancels() {
        let upstream = TestPublisher<Int, Never>()
        do {
            _ = upstream.sink { _ in }
        }
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func ignoresEverythingAfterCancel_S6() {
        let upstream = TestPublisher<Int, Oops>()
        let log = Log()
        let cancellable = upstream.sink(receiveCompletion: { _ in log.entries.append("done") },
                                        receiveValue: { log.entries.append("\($0)") })
        upstream.send(1)
        cancellable.cancel()
        cancellable.cancel()
        #expect(log.entries == ["1"])
    }

    @Test func completionReleasesTheClosures_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = Just(1).sink(receiveCompletion: { _ in _ = captured }, receiveValue: { _ in _ = captured })
        }
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func cancelReleasesTheSinkAndItsClosures_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = subject.sink { _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
    }

    /// A deliberate difference (README, "Deviations from Combine"): a `Subscribers.Sink` held
    /// directly and cancelled keeps its closures until it is released itself, since another thread
    /// may be calling one of them at that moment (releasing them at once would cost every value a
    /// read-modify-write). It passes nothing on after the cancel.
    @Test func aCancelledSinkHeldDirectlyKeepsItsClosuresUntilItIsReleased_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let log = LockedLog()
        let subject = PassthroughSubject<Int, Never>()
        var sink: Subscribers.Sink<Int, Never>?
        do {
            let captured = Captured()
            weakCaptured = captured
            sink = Subscribers.Sink(receiveCompletion: { _ in _ = captured },
                                    receiveValue: { _ = captured; log.append("\($0)") })
            subject.subscribe(sink!)
        }
        subject.send(1)
        sink?.cancel()
        subject.send(2)
        #expect(log.entries == ["1"])
        #expect(weakCaptured != nil)  // still held: the sink is
        sink = nil
        #expect(weakCaptured == nil)
    }

    @Test func ignoresMisbehavingUpstream_S2() {
        // As Combine's Sink: nothing before the subscription, nothing after the completion.
        let log = LockedLog()
        let early = MisbehavingPublisher<Int, Boom>([.value(1), .completion(.failure(Boom())), .subscription,
                                                     .value(2), .completion(.finished), .value(3),
                                                     .completion(.failure(Boom())), .subscription])
        let cancellable = early.sink(receiveCompletion: { log.append("\($0)") }, receiveValue: { log.append("\($0)") })
        #expect(log.entries == ["2", "finished"])
        #expect(early.subscriptions.map(\.history) == [[.requested(.unlimited)], [.cancelled]])
        _ = cancellable
    }

    @Test func secondSubscriptionIsCancelled_S2() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(first.history == [.requested(.unlimited)])
        #expect(second.history == [.cancelled])
        sink.cancel()
    }

    @Test func subscriptionAfterCancelIsCancelled() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        sink.cancel()
        let upstream = TestPublisher<Int, Never>()
        upstream.subscribe(sink)
        #expect(upstream.history == [.cancelled])
    }

    @Test func closuresAreReadable() {
        let log = Log()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in log.entries.append("c") },
                                                receiveValue: { log.entries.append("\($0)") })
        sink.receiveValue(3)
        sink.receiveCompletion(.finished)
        #expect(log.entries == ["3", "c"])
        #expect(sink.description == "Sink")
    }

    @Test func cancelInsideReceiveValueStopsTheCompletion_S6() {
        final class Holder { var sink: Subscribers.Sink<Int, Never>? }
        let log = Log()
        let holder = Holder()
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in log.entries.append("done") },
            receiveValue: { log.entries.append("\($0)"); holder.sink?.cancel() })
        holder.sink = sink
        Just(1).subscribe(sink)
        #expect(log.entries == ["1"])
        holder.sink = nil
    }

    @Test func completionReleasesTheSubscription_S7() {
        final class Upstream: Subscription {
            var requested: [Subscribers.Demand] = []
            func request(_ demand: Subscribers.Demand) { requested.append(demand) }
            func cancel() {}
        }
        weak var weakUpstream: Upstream?
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        do {
            let upstream = Upstream()
            weakUpstream = upstream
            sink.receive(subscription: upstream)
            #expect(upstream.requested == [.unlimited])
        }
        #expect(weakUpstream != nil)
        sink.receive(completion: .finished)
        #expect(weakUpstream == nil)
    }

    @Test func cancelReleasesTheSubscription() {
        final class Upstream: Subscription {
            var cancels = 0
            func request(_ demand: Subscribers.Demand) {}
            func cancel() { cancels += 1 }
        }
        weak var weakUpstream: Upstream?
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        do {
            let upstream = Upstream()
            weakUpstream = upstream
            sink.receive(subscription: upstream)
            sink.cancel()
            sink.cancel()
            #expect(upstream.cancels == 1)
        }
        #expect(weakUpstream == nil)
    }

    @Test func releasedWhileSubscribedCancelsTheSubscription() {
        final class Upstream: Subscription {
            var cancels = 0
            func request(_ demand: Subscribers.Demand) {}
            func cancel() { cancels += 1 }
        }
        let upstream = Upstream()
        do {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            sink.receive(subscription: upstream)
        }
        #expect(upstream.cancels == 1)
    }
}
