import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Timers and `collect(_:options:)` on real dispatch queues: bounded rounds, and every wait has a
/// deadline (a semaphore with a timeout), never a fixed sleep.
@Suite("Timers and collect by time on real queues")
struct TimerAndCollectStressTests {
    @Test func aTimerOnAQueueWithRequestsAndCancelsFromOtherThreads() async {
        await onDedicatedThread {
            for _ in 0..<20 {
                let queue = DispatchQueue(label: "streams.timer")
                let reached = DispatchSemaphore(value: 0)
                let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>(demand: .max(1), onValue: { _ in
                    reached.signal()
                    return .none
                })
                let timer = UncheckedSendableBox(SchedulerTimer.publish(every: .milliseconds(1), on: queue))
                timer.value.subscribe(subscriber)
                let connection = timer.value.connect()
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    switch index {
                    case 0: for _ in 0..<5 { subscriber.request(.max(1)) }
                    case 1: _ = timer.value.connect()
                    default: _ = reached.wait(timeout: .now() + 5)
                    }
                }
                #expect(reached.wait(timeout: .now() + 5) == .success)
                connection.cancel()
                subscriber.cancel()
                let count = subscriber.values.count
                #expect(count >= 2 && count <= 6)
                #expect(subscriber.violations.isEmpty)
                #expect(zip(subscriber.values, subscriber.values.dropFirst()).allSatisfy { $0 < $1 })
            }
        }
    }

    @Test func collectByTimeOnAQueueKeepsEveryValueInOrder() async {
        await onDedicatedThread {
            for _ in 0..<20 {
                let queue = DispatchQueue(label: "streams.collect")
                let subject = PassthroughSubject<Int, Never>()
                let done = DispatchSemaphore(value: 0)
                let subscriber = RecordingSubscriber<[Int], Never>(demand: .max(1), onValue: { _ in .max(1) })
                subject
                    .collect(.byTimeOrCount(queue, .microseconds(300), 7))
                    .subscribe(SignallingSubscriber(recorder: subscriber, onCompletion: { done.signal() }))
                DispatchQueue.global().async {
                    for value in 0..<500 { subject.send(value) }
                    subject.send(completion: .finished)
                }
                #expect(done.wait(timeout: .now() + 10) == .success)
                #expect(subscriber.values.flatMap { $0 } == Array(0..<500))
                #expect(subscriber.values.allSatisfy { !$0.isEmpty && $0.count <= 7 })
                #expect(subscriber.completion == .finished)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func collectByTimeCancelRacesDeliveries() async {
        await onDedicatedThread {
            for _ in 0..<50 {
                let queue = DispatchQueue(label: "streams.collect.cancel", attributes: .concurrent)
                let subject = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<[Int], Never>(demand: .unlimited)
                subject.collect(.byTimeOrCount(queue, .microseconds(200), 3)).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    switch index {
                    case 0: for value in 0..<300 { subject.send(value) }
                    case 1: subscriber.request(.max(3))
                    default:
                        for _ in 0..<100 { _ = subscriber.values.count }
                        subscriber.cancel()
                    }
                }
                // Whatever was delivered before the cancel is a prefix of the values, in order.
                let flat = subscriber.values.flatMap { $0 }
                #expect(flat == Array(0..<flat.count))
                #expect(subscriber.violations.isEmpty)
                #expect(subscriber.completion == nil)
            }
        }
    }
}

/// Hands a thread-safe value that is not `Sendable` by its type (a timer on a dispatch queue,
/// whose `SchedulerOptions` is not `Sendable`) to other threads.
struct UncheckedSendableBox<Value>: @unchecked Sendable {  // only for values that are thread-safe
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Forwards everything to a recorder, then calls `onCompletion` after the completion.
struct SignallingSubscriber<Input, Failure: Error>: Subscriber {
    let recorder: RecordingSubscriber<Input, Failure>
    let onCompletion: () -> Void
    var combineIdentifier: CombineIdentifier { recorder.combineIdentifier }
    func receive(subscription: Subscription) { recorder.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { recorder.receive(input) }
    func receive(completion: Subscribers.Completion<Failure>) {
        recorder.receive(completion: completion)
        onCompletion()
    }
}
