import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// `delay`, `debounce`, `throttle` and `timeout` on real dispatch queues (run under
/// ThreadSanitizer by `.ci/run`). Bounded in count and time: every wait has a timeout, and the
/// intervals are a few milliseconds at most.
@Suite("Time operators on real queues")
struct TimingStressTests {
    /// Passes everything to a recorder and signals `done` after the completion has reached it.
    final class Signalling<Input, Failure: Error>: Subscriber, @unchecked Sendable {  // immutable
        let recorder: RecordingSubscriber<Input, Failure>
        let done = DispatchSemaphore(value: 0)
        init(_ recorder: RecordingSubscriber<Input, Failure>) { self.recorder = recorder }
        func receive(subscription: Subscription) { recorder.receive(subscription: subscription) }
        func receive(_ input: Input) -> Subscribers.Demand { recorder.receive(input) }
        func receive(completion: Subscribers.Completion<Failure>) {
            recorder.receive(completion: completion)
            done.signal()
        }
        /// Waits up to ten seconds for the completion.
        func waitForCompletion() -> Bool { done.wait(timeout: .now() + 10) == .success }
    }

    /// A queue that can tell whether the current code runs on it.
    struct MarkedQueue {
        let queue: DispatchQueue
        let key = DispatchSpecificKey<Bool>()
        init(_ label: String, concurrent: Bool) {
            queue = DispatchQueue(label: label, attributes: concurrent ? .concurrent : [])
            queue.setSpecific(key: key, value: true)
        }
        var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
    }

    /// Even on a concurrent queue, where the delivery work runs in parallel, values arrive in
    /// the upstream's order, one call at a time, on the queue (S3, S13).
    @Test func delayOnAConcurrentQueueDeliversInOrderOneAtATime_S3_S13() async {
        await onDedicatedThread {
            let marked = MarkedQueue("delay", concurrent: true)
            let offQueue = Atomic<Int>(0)
            let subject = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(onValue: { [marked] _ in
                if !marked.isCurrent { offQueue.add(1, ordering: .relaxed) }
                return .none
            })
            let subscriber = Signalling(recorder)
            subject.delay(for: .microseconds(100), scheduler: marked.queue).subscribe(subscriber)
            DispatchQueue.global().async {
                for value in 0..<2_000 { subject.send(value) }
                subject.send(completion: .finished)
            }
            #expect(subscriber.waitForCompletion())
            #expect(recorder.values == Array(0..<2_000))
            #expect(recorder.completion == .finished)
            #expect(recorder.violations.isEmpty)
            #expect(offQueue.load(ordering: .relaxed) == 0)
        }
    }

    /// A cancel racing the debounce timer on the queue: never a completion, never two calls at
    /// once (S3, S6), and what was delivered before the cancel is in order. (On a slow run both
    /// timers can fire before the cancel lands: 1 and then 2.)
    @Test func debounceCancelRacingTheTimer_S6() async {
        await onDedicatedThread {
            let queue = DispatchQueue(label: "debounce")
            for _ in 0..<200 {
                let subject = PassthroughSubject<Int, Never>()
                let recorder = RecordingSubscriber<Int, Never>()
                subject.debounce(for: .microseconds(20), scheduler: queue).subscribe(recorder)
                subject.send(1)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { recorder.cancel() } else { subject.send(2) }
                }
                subject.send(completion: .finished)
                queue.sync {}  // let any timer that was already firing finish
                #expect([[], [1], [2], [1, 2]].contains(recorder.values))
                #expect(recorder.completion == nil)
                #expect(recorder.violations.isEmpty)
            }
        }
    }

    /// Values from one thread, requests from another: `throttle` never sends more than was
    /// asked for (S1), and only on its queue (S13).
    @Test func throttleWithRequestsFromAnotherThreadNeverExceedsDemand_S1() async {
        await onDedicatedThread {
            let marked = MarkedQueue("throttle", concurrent: false)
            let offQueue = Atomic<Int>(0)
            let subject = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(demand: nil, onValue: { [marked] _ in
                if !marked.isCurrent { offQueue.add(1, ordering: .relaxed) }
                return .none
            })
            let subscriber = Signalling(recorder)
            subject.throttle(for: .microseconds(10), scheduler: marked.queue, latest: true).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<20_000 { subject.send(value) }
                } else {
                    for _ in 0..<300 { recorder.request(.max(1)) }
                }
            }
            subject.send(completion: .finished)
            #expect(subscriber.waitForCompletion())
            #expect(recorder.values.count <= 300)
            #expect(recorder.values == recorder.values.sorted())
            #expect(recorder.violations.isEmpty)
            #expect(offQueue.load(ordering: .relaxed) == 0)
        }
    }

    /// On a real queue the timeout fires, cancels the upstream and fails with the custom error
    /// after the values that came in time.
    @Test func timeoutOnARealQueue() async {
        await onDedicatedThread {
            struct Late: Error, Equatable {}
            let queue = DispatchQueue(label: "timeout")
            let upstream = TestPublisher<Int, Late>()
            let recorder = RecordingSubscriber<Int, Late>()
            let subscriber = Signalling(recorder)
            upstream.timeout(.milliseconds(20), scheduler: queue, customError: { Late() }).subscribe(subscriber)
            upstream.send(1)
            #expect(subscriber.waitForCompletion())
            #expect(recorder.events == [.subscription, .value(1), .completion(.failure(Late()))])
            #expect(upstream.isCancelled)
        }
    }
}
