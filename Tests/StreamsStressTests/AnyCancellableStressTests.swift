import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// `AnyCancellable` is not `Sendable` (as in Combine: it may wrap any closure), but its `cancel()`
/// is thread-safe; this hands one instance to several threads on purpose, to prove that.
final class SharedCancellable: @unchecked Sendable {  // immutable; AnyCancellable locks itself
    let cancellable: AnyCancellable
    init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
}

@Suite("AnyCancellable and subscriptions under concurrency")
struct AnyCancellableStressTests {
    @Test func concurrentCancelRunsTheActionOnce_S6() async {
        await onDedicatedThread {
            for _ in 0..<1_000 {
                let runs = Atomic<Int>(0)
                let shared = SharedCancellable(AnyCancellable { runs.add(1, ordering: .relaxed) })
                DispatchQueue.concurrentPerform(iterations: 4) { _ in shared.cancellable.cancel() }
                #expect(runs.load(ordering: .relaxed) == 1)
            }
        }
    }

    @Test func sinkCancelledWhileValuesFlow_S6() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let subject = PassthroughSubject<Int, Never>()
                let received = Atomic<Int>(0)
                let shared = SharedCancellable(subject.sink { _ in received.add(1, ordering: .relaxed) })
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    if index == 0 {
                        shared.cancellable.cancel()
                    } else {
                        for i in 0..<100 { subject.send(i) }
                    }
                }
                let seen = received.load(ordering: .relaxed)
                subject.send(0)
                #expect(received.load(ordering: .relaxed) == seen)
            }
        }
    }

    @Test func sinkCompletionRacingCancel_S6() async {
        // The completion and `cancel()` race for the sink's subscription: exactly one of them
        // takes it, and the completion closure runs at most once.
        await onDedicatedThread {
            for _ in 0..<500 {
                let subject = PassthroughSubject<Int, Never>()
                let completions = Atomic<Int>(0)
                let shared = SharedCancellable(
                    subject.sink(
                        receiveCompletion: { _ in completions.add(1, ordering: .relaxed) }, receiveValue: { _ in }))
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        shared.cancellable.cancel()
                    } else {
                        subject.send(completion: .finished)
                    }
                }
                #expect(completions.load(ordering: .relaxed) <= 1)
            }
        }
    }

    @Test func sequenceRequestRacingCancel_S6() async {
        await onDedicatedThread {
            for _ in 0..<500 {
                let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
                (0..<1_000).publisher.subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    if index == 2 {
                        subscriber.cancel()
                    } else {
                        for _ in 0..<10 { subscriber.request(.max(5)) }
                    }
                }
                let count = subscriber.values.count
                subscriber.request(.max(10))
                #expect(subscriber.values.count == count)
                #expect(subscriber.values == Array(0..<count))
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func justRequestRacingCancel_S6() async {
        await onDedicatedThread {
            for _ in 0..<1_000 {
                let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
                Just(1).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { subscriber.request(.max(1)) } else { subscriber.cancel() }
                }
                #expect(subscriber.values.count <= 1)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    /// A value too big to sit inside `Just`'s subscription object (kept in a block of its own):
    /// whichever of the request and the cancel wins takes it, exactly once, and it is released.
    @Test func justWithALargeValueRequestRacingCancel_S6_S7() async {
        final class Token: Sendable {}
        struct Large: Sendable {
            let token: Token
            let numbers: (Int, Int, Int, Int, Int, Int, Int)
        }
        await onDedicatedThread {
            for _ in 0..<1_000 {
                weak var weakToken: Token?
                let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
                do {
                    let token = Token()
                    weakToken = token
                    Publishers.Map(
                        upstream: Just(Large(token: token, numbers: (1, 2, 3, 4, 5, 6, 7))), transform: \.numbers.6
                    )
                    .subscribe(subscriber)
                }
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { subscriber.request(.max(1)) } else { subscriber.cancel() }
                }
                #expect(subscriber.values.count <= 1)
                #expect(subscriber.values.allSatisfy { $0 == 7 })
                #expect(weakToken == nil)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    /// `Just` hands a sink its value with no subscription object (`sendOneValue`): a `cancel()` on
    /// another thread races that delivery. The completion comes only after the value, at most
    /// once, and both closures are released either way (S6, S7).
    @Test func justDeliveringToASinkRacingCancel_S6_S7() async {
        final class Token: Sendable {}
        /// A sink handed to another thread on purpose, to race its delivery with its cancel.
        final class SharedSink: @unchecked Sendable {  // immutable; the sink is thread-safe
            let sink: Subscribers.Sink<Int, Never>
            init(_ sink: Subscribers.Sink<Int, Never>) { self.sink = sink }
        }
        await onDedicatedThread {
            for _ in 0..<1_000 {
                let values = Atomic<Int>(0)
                let completions = Atomic<Int>(0)
                weak var weakToken: Token?
                do {
                    let token = Token()
                    weakToken = token
                    let sink = SharedSink(
                        Subscribers.Sink(
                            receiveCompletion: { _ in
                                _ = token
                                // Counts 1 only if the value came first.
                                completions.add(values.load(ordering: .relaxed) == 1 ? 1 : 2, ordering: .relaxed)
                            },
                            receiveValue: { _ in values.add(1, ordering: .relaxed) }))
                    let shared = SharedCancellable(AnyCancellable(sink.sink))
                    DispatchQueue.concurrentPerform(iterations: 2) { index in
                        if index == 0 { Just(1).subscribe(sink.sink) } else { shared.cancellable.cancel() }
                    }
                }
                #expect(values.load(ordering: .relaxed) <= 1)
                #expect(completions.load(ordering: .relaxed) <= values.load(ordering: .relaxed))
                #expect(weakToken == nil)
            }
        }
    }
}
