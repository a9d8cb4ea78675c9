import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Streams
import StreamsTesting
import Synchronization
import Testing

/// `receive(on:)` and `subscribe(on:)` on real dispatch queues. Bounded: a few thousand values
/// per thread; a wait gives up after a minute (a generous bound: the machine may be busy, and
/// ThreadSanitizer slows everything down), and none is a fixed sleep. `.ci/run` runs this
/// target again under ThreadSanitizer.
///
/// The tests await (``idle(_:within:)``, ``drained(_:)``) instead of blocking their thread: test
/// functions run on the same pool of threads as `DispatchQueue.global()`, and a few blocked
/// tests running in parallel would starve the very queues they wait for.
@Suite("receive(on:) and subscribe(on:) on real queues")
struct ReceiveOnStressTests {
    static let senders = 4
    static let perSender = 2_000

    /// Sends `perSender` values from each of `senders` threads at once, then `.finished`, into a
    /// subject received on `scheduler`; returns the recorder once every delivery pass has run
    /// (each pass joins the group passed in the options).
    func deliverFromFourSenders<S: Scheduler>(on scheduler: S) async -> RecordingSubscriber<Int, Never>?
    where S.SchedulerOptions == DispatchQueue.SchedulerOptions {
        let subject = PassthroughSubject<Int, Never>()
        let passes = DispatchGroup()
        // The recorder reports overlapping calls (S3) only while it records; this widens the
        // window to the whole delivery (a few microseconds, yielding) so that a second pass
        // running on another thread would be caught.
        let inFlight = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let recorder = RecordingSubscriber<Int, Never>(onValue: { _ in
            if inFlight.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                overlaps.add(1, ordering: .relaxed)
            }
            let end = DispatchTime.now().uptimeNanoseconds + 5_000
            while DispatchTime.now().uptimeNanoseconds < end { sched_yield() }
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
            return .none
        })
        subject.receive(on: scheduler, options: .init(group: passes)).subscribe(recorder)
        DispatchQueue.concurrentPerform(iterations: Self.senders) { sender in
            for i in 0..<Self.perSender { subject.send(sender * 1_000_000 + i) }
        }
        subject.send(completion: .finished)
        guard await idle(passes) else {
            Issue.record("the delivery passes did not finish within 60 seconds")
            return nil
        }
        #expect(overlaps.load(ordering: .relaxed) == 0, "values were delivered at once (S3)")
        return recorder
    }

    /// A scheduler as concurrent as can be: each action runs at once on a new thread of its
    /// own (and joins the options' group while it runs).
    static let threadPerAction = AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
        minimumTolerance: { .nanoseconds(0) },
        now: { DispatchQueue.global().now },
        scheduleImmediately: { options, action in
            let group = options?.group
            group?.enter()
            Thread {
                action()
                group?.leave()
            }.start()
        },
        delayed: { _, _, _, _ in fatalError("not used") },
        interval: { _, _, _, _, _ in fatalError("not used") })

    func expectEveryValueOnceInSenderOrder(_ recorder: RecordingSubscriber<Int, Never>) {
        let values = recorder.values
        #expect(values.count == Self.senders * Self.perSender)
        #expect(Set(values).count == values.count)
        for sender in 0..<Self.senders {
            let fromSender = values.filter { $0 / 1_000_000 == sender }
            #expect(fromSender == (0..<Self.perSender).map { sender * 1_000_000 + $0 })
        }
        if case .completion(.finished)? = recorder.events.last {} else {
            Issue.record("the completion is not the last event: \(String(describing: recorder.events.last))")
        }
        #expect(recorder.violations.isEmpty)  // S1-S4, among them: no two deliveries at once (S3)
    }

    @Test func fourSendersOntoASerialQueue_S3_S13() async {
        await onDedicatedThread {
            let queue = DispatchQueue(label: "receive-on.serial")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let offQueue = Atomic<Int>(0)
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.receive(on: queue).sink { _ in
                if DispatchQueue.getSpecific(key: key) != true { offQueue.add(1, ordering: .relaxed) }
            }
            if let recorder = await deliverFromFourSenders(on: queue) {
                expectEveryValueOnceInSenderOrder(recorder)
            }
            DispatchQueue.concurrentPerform(iterations: Self.senders) { _ in
                for i in 0..<500 { subject.send(i) }
            }
            await drained(queue)
            #expect(offQueue.load(ordering: .relaxed) == 0)
            _ = cancellable
        }
    }

    @Test func fourSendersOntoAConcurrentQueue_S3_S13() async {
        await onDedicatedThread {
            if let recorder = await deliverFromFourSenders(on: DispatchQueue.global()) {
                expectEveryValueOnceInSenderOrder(recorder)
            }
        }
    }

    @Test func fourSendersOntoAThreadPerActionScheduler_S3_S13() async {
        await onDedicatedThread {
            if let recorder = await deliverFromFourSenders(on: Self.threadPerAction) {
                expectEveryValueOnceInSenderOrder(recorder)
            }
        }
    }

    @Test func cancelFromAnotherThreadLetsAtMostTheEventInFlightThrough_S6() async {
        for _ in 0..<10 {
            let subject = PassthroughSubject<Int, Never>()
            let passes = DispatchGroup()
            let delivered = Atomic<Int>(0)
            let hundredDelivered = DispatchGroup()
            hundredDelivered.enter()
            let recorder = RecordingSubscriber<Int, Never>(onValue: { _ in
                if delivered.add(1, ordering: .relaxed).newValue == 100 { hundredDelivered.leave() }
                return .none
            })
            subject.receive(on: DispatchQueue.global(), options: .init(group: passes)).subscribe(recorder)
            let senders = DispatchGroup()
            DispatchQueue.global().async(group: senders) {
                DispatchQueue.concurrentPerform(iterations: 2) { sender in
                    for i in 0..<5_000 { subject.send(sender * 1_000_000 + i) }
                }
            }
            #expect(await idle(hundredDelivered))
            recorder.cancel()
            let countAtCancel = recorder.values.count
            #expect(await idle(senders))
            #expect(await idle(passes))
            #expect(recorder.values.count <= countAtCancel + 1)
            #expect(recorder.violations.isEmpty)
        }
    }

    @Test func noValueWhileTheSubscriptionIsHandedOverOnAnotherThread_S3() async {
        await onDedicatedThread {
            // `Just` sends its value inside the first request, during receive(subscription:); the
            // pass that the scheduler then runs on another thread must leave it queued until the
            // handover is over.
            let scheduler = DispatchQueue.test
            let slot = RecorderSlot<Int, Never>()
            let valuesDuringHandover = Atomic<Int>(-1)
            let recorder = RecordingSubscriber<Int, Never>(onSubscription: { _ in
                let advanced = DispatchSemaphore(value: 0)
                Thread {  // its own thread: waiting here must not depend on a pool thread
                    scheduler.advance()
                    advanced.signal()
                }.start()
                _ = advanced.wait(timeout: .now() + 60)
                valuesDuringHandover.store(slot.recorder?.values.count ?? -1, ordering: .relaxed)
            })
            slot.recorder = recorder
            Just(1).receive(on: scheduler).subscribe(recorder)
            slot.recorder = nil
            #expect(valuesDuringHandover.load(ordering: .relaxed) == 0)
            #expect(recorder.values == [])
            #expect(scheduler.pendingCount == 1)  // scheduled again once the handover was over
            scheduler.advance()
            #expect(recorder.events == [.subscription, .value(1), .completion(.finished)])
        }
    }

    @Test func docExampleDeliversOnTheQueue() async {
        let queue = DispatchQueue(label: "work")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let log = LockedValues()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let cancellable = [1, 2, 3].publisher
                .receive(on: queue)
                .sink(receiveCompletion: { _ in done.resume() }, receiveValue: { value in
                    log.append(DispatchQueue.getSpecific(key: key) == true ? value : -value)
                })
            log.keep(cancellable)
        }
        #expect(log.values == [1, 2, 3])
    }

    @Test func subscribeOnAndReceiveOnWithDemandOneAtATime() async {
        let serial = DispatchQueue(label: "receive-on.one-at-a-time")
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in .max(1) })
        let completed = DispatchGroup()
        completed.enter()
        (0..<2_000).publisher
            .subscribe(on: DispatchQueue.global())
            .receive(on: serial)
            .subscribe(SignallingCompletion(recorder: recorder, completed: completed))
        #expect(await idle(completed))
        #expect(recorder.values.elementsEqual(0..<2_000))
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test func subscribeOnRunsSubscribeRequestsAndCancelOnTheQueue() async {
        let queue = DispatchQueue(label: "subscribe-on")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = LockedValues()
        func mark(_ code: Int) { onQueue.append(DispatchQueue.getSpecific(key: key) == true ? code : -code) }
        let tenDelivered = DispatchGroup()
        tenDelivered.enter()
        let recorder = RecordingSubscriber<Int, Never>(demand: nil, onValue: { value in
            if value == 9 { tenDelivered.leave() }
            return .none
        })
        (0..<1_000).publisher
            .handleEvents(receiveSubscription: { _ in mark(1) }, receiveCancel: { mark(3) },
                          receiveRequest: { _ in mark(2) })
            .subscribe(on: queue)
            .subscribe(recorder)
        await drained(queue)
        for _ in 0..<10 { recorder.request(.max(1)) }
        #expect(await idle(tenDelivered))
        recorder.cancel()
        await drained(queue)
        #expect(onQueue.values == [1] + Array(repeating: 2, count: 10) + [3])
        #expect(recorder.values == Array(0..<10))
        #expect(recorder.violations.isEmpty)
    }
}

/// Waits, without blocking a thread, until `group` is empty; `false` if it is not within
/// `seconds`.
func idle(_ group: DispatchGroup, within seconds: Int = 60) async -> Bool {
    await withCheckedContinuation { continuation in
        let once = Once()
        group.notify(queue: .global()) {
            if once.claim() { continuation.resume(returning: true) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
            if once.claim() { continuation.resume(returning: false) }
        }
    }
}

/// Waits, without blocking a thread, until what was queued on `queue` so far has run.
func drained(_ queue: DispatchQueue) async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
}

/// The first caller of ``claim()`` gets `true`.
final class Once: Sendable {
    private let claimed = Atomic<Bool>(false)
    func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}

/// Passes everything on to a recorder, and leaves `completed` once the recorder has the
/// completion (so that a test can await it).
struct SignallingCompletion<Input, Failure: Error>: Subscriber {
    let recorder: RecordingSubscriber<Input, Failure>
    let completed: DispatchGroup
    var combineIdentifier: CombineIdentifier { recorder.combineIdentifier }
    func receive(subscription: any Subscription) { recorder.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { recorder.receive(input) }
    func receive(completion: Subscribers.Completion<Failure>) {
        recorder.receive(completion: completion)
        completed.leave()
    }
}

/// Integers, and anything to keep alive, collected from any thread.
final class LockedValues: @unchecked Sendable {  // all fields guarded by `lock`
    private let lock = Lock()
    private var items: [Int] = []
    private var kept: [AnyCancellable] = []
    func append(_ value: Int) { lock.withLock { items.append(value) } }
    func keep(_ cancellable: AnyCancellable) { lock.withLock { kept.append(cancellable) } }
    var values: [Int] { lock.withLock { items } }
}

/// Lets a recorder's hooks reach the recorder itself.
final class RecorderSlot<Input, Failure: Error>: @unchecked Sendable {  // `value` guarded by `lock`
    private let lock = Lock()
    private var value: RecordingSubscriber<Input, Failure>?
    var recorder: RecordingSubscriber<Input, Failure>? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
