import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Real threads against share, multicast, buffer and prefix/drop(untilOutputFrom:). Bounded: a
/// few hundred rounds of a few hundred operations; `.ci/run` runs this target again under
/// ThreadSanitizer (`swift test --sanitize=thread --filter ShareStress`).
@Suite("share, multicast, buffer, prefix/drop(untilOutputFrom:) under concurrency")
struct ShareStressTests {
    /// Counts the upstream subscriptions a shared publisher makes and cancels.
    final class Connections: Sendable {
        let subscribed = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)
        var open: Int { subscribed.load(ordering: .sequentiallyConsistent) - cancelled.load(ordering: .sequentiallyConsistent) }
    }

    // MARK: share

    @Test func subscribersJoinAndLeaveWhileTheUpstreamSendsFromAnotherThread_S3_S7() async {
        await onDedicatedThread {
            for _ in 0..<50 {
                let subject = PassthroughSubject<Int, Never>()
                let connections = Connections()
                let shared = Shared(subject
                    .handleEvents(
                        receiveSubscription: { _ in connections.subscribed.add(1, ordering: .sequentiallyConsistent) },
                        receiveCancel: { connections.cancelled.add(1, ordering: .sequentiallyConsistent) })
                    .share())
                let steady = RecordingSubscriber<Int, Never>()
                shared.value.subscribe(steady)
                let transients = WeakList<RecordingSubscriber<Int, Never>>()
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    if thread == 0 {
                        for value in 0..<400 { subject.send(value) }
                        return
                    }
                    for _ in 0..<40 {
                        let transient = RecordingSubscriber<Int, Never>()
                        transients.append(transient)
                        shared.value.subscribe(transient)
                        let values = transient.values
                        #expect(values == values.sorted())
                        transient.cancel()
                        #expect(transient.violations.isEmpty)
                        transient.releaseSubscription()
                    }
                }
                // The steady subscriber was there all along: every value, in order, one at a time.
                #expect(steady.values == Array(0..<400))
                #expect(steady.violations.isEmpty)
                #expect(connections.subscribed.load(ordering: .sequentiallyConsistent) == 1)
                // Every subscriber that left has been let go (a cancel made while another thread was
                // delivering is completed by that thread, which has finished by now).
                #expect(transients.liveCount == 0)
                // The last subscriber leaves: the upstream is cancelled and nothing holds it.
                steady.cancel()
                #expect(connections.open == 0)
            }
        }
    }

    @Test func everyConnectionIsCancelledWhenTheLastSubscriberLeaves() async {
        await onDedicatedThread {
            for _ in 0..<100 {
                let subject = PassthroughSubject<Int, Never>()
                let connections = Connections()
                let shared = Shared(subject
                    .handleEvents(
                        receiveSubscription: { _ in connections.subscribed.add(1, ordering: .sequentiallyConsistent) },
                        receiveCancel: { connections.cancelled.add(1, ordering: .sequentiallyConsistent) })
                    .share())
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    for round in 0..<20 {
                        if thread == 0 { subject.send(round) }
                        let subscriber = RecordingSubscriber<Int, Never>()
                        shared.value.subscribe(subscriber)
                        subscriber.cancel()
                        #expect(subscriber.violations.isEmpty)
                    }
                }
                #expect(connections.subscribed.load(ordering: .sequentiallyConsistent) >= 1)
                #expect(connections.open == 0)
                // Everyone left: the next subscriber starts a new upstream subscription and gets values.
                let last = RecordingSubscriber<Int, Never>()
                let before = connections.subscribed.load(ordering: .sequentiallyConsistent)
                shared.value.subscribe(last)
                subject.send(99)
                #expect(connections.subscribed.load(ordering: .sequentiallyConsistent) == before + 1)
                #expect(last.values == [99])
                last.cancel()
                #expect(connections.open == 0)
            }
        }
    }

    // MARK: multicast

    @Test func connectingAndDisconnectingWhileSending() async {
        await onDedicatedThread {
            for _ in 0..<50 {
                let subject = PassthroughSubject<Int, Never>()
                let multicast = Shared(subject.multicast { PassthroughSubject<Int, Never>() })
                let subscriber = RecordingSubscriber<Int, Never>()
                multicast.value.subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    switch thread {
                    case 0: for value in 0..<300 { subject.send(value) }
                    default: for _ in 0..<30 { multicast.value.connect().cancel() }
                    }
                }
                let values = subscriber.values
                #expect(values == values.sorted())
                #expect(Set(values).count == values.count)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    // MARK: prefix(untilOutputFrom:), drop(untilOutputFrom:)

    @Test func prefixWithTheTriggerFiringOnAnotherThread_S3_S4() async {
        await onDedicatedThread {
            for _ in 0..<300 {
                let upstream = PassthroughSubject<Int, Never>()
                let trigger = PassthroughSubject<Void, Never>()
                let subscriber = RecordingSubscriber<Int, Never>()
                upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    if thread == 0 {
                        for value in 0..<200 { upstream.send(value) }
                    } else {
                        trigger.send()
                    }
                }
                // Finished exactly once, after a prefix of the values, never two calls at once.
                #expect(subscriber.completion == .finished)
                #expect(subscriber.values == Array(0..<subscriber.values.count))
                #expect(subscriber.violations.isEmpty)
                if case .completion? = subscriber.events.last {} else {
                    Issue.record("the completion was not the last event: \(subscriber.events.suffix(3))")
                }
            }
        }
    }

    @Test func prefixWithTheTriggerFiredFromInsideReceiveAndFromAnotherThread() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let upstream = PassthroughSubject<Int, Never>()
                let trigger = PassthroughSubject<Void, Never>()
                let subscriber = RecordingSubscriber<Int, Never>(onValue: { value in
                    if value == 150 { trigger.send() }
                    return .none
                })
                upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    if thread == 0 {
                        for value in 0..<200 { upstream.send(value) }
                    } else {
                        trigger.send()
                    }
                }
                // Usually the trigger fired inside `receive(150)` ends the stream right after 150.
                // But when the other thread is itself in the middle of `trigger.send()`, the inner
                // send is queued behind it and returns at once (a subject never blocks a sender), so
                // the end comes when that thread gets to it: any prefix of the values is correct.
                #expect(subscriber.completion == .finished)
                #expect(subscriber.values == Array(0..<subscriber.values.count))
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func dropWithTheTriggerFiringOrFailingOnAnotherThread_S3() async {
        await onDedicatedThread {
            struct Boom: Error {}
            for round in 0..<300 {
                let upstream = PassthroughSubject<Int, Boom>()
                let trigger = PassthroughSubject<Void, Boom>()
                let subscriber = RecordingSubscriber<Int, Boom>()
                upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    if thread == 0 {
                        for value in 0..<200 { upstream.send(value) }
                        upstream.send(completion: .finished)
                    } else if round.isMultiple(of: 2) {
                        trigger.send()
                    } else {
                        trigger.send(completion: .failure(Boom()))
                    }
                }
                let values = subscriber.values
                // Once open, every later value passes: what arrived is the tail of the values.
                if let first = values.first { #expect(values == Array(first..<200)) }
                #expect(subscriber.completion != nil)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    // MARK: buffer

    @Test func bufferUnderConcurrentRequestsAndSends_S1_S3() async {
        await onDedicatedThread {
            for prefetch in [Publishers.PrefetchStrategy.keepFull, .byRequest] {
                for _ in 0..<50 {
                    let upstream = PassthroughSubject<Int, Never>()
                    let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
                    // keepFull asks the subject for 8 at a time, so the subject drops values the
                    // buffer has not asked for; byRequest asks for everything and holds it all.
                    let size = prefetch == .keepFull ? 8 : 1_000
                    upstream.buffer(size: size, prefetch: prefetch, whenFull: .dropNewest).subscribe(subscriber)
                    DispatchQueue.concurrentPerform(iterations: 3) { thread in
                        if thread == 0 {
                            for value in 0..<300 { upstream.send(value) }
                        } else {
                            for _ in 0..<100 { subscriber.request(.max(1)) }
                        }
                    }
                    subscriber.request(.unlimited)
                    let values = subscriber.values
                    #expect(subscriber.violations.isEmpty)
                    if prefetch == .byRequest {
                        #expect(values == Array(0..<300))
                    } else {
                        #expect(values == values.sorted())
                        #expect(Set(values).count == values.count)
                    }
                }
            }
        }
    }
}

/// Hands a thread-safe publisher whose type is not `Sendable` (it holds non-`Sendable` closures:
/// `handleEvents`'s, `multicast`'s `createSubject`) to several threads.
struct Shared<Value>: @unchecked Sendable {  // the publishers wrapped here are thread-safe
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Weak references collected from several threads.
final class WeakList<Element: AnyObject>: @unchecked Sendable {  // `items` is guarded by `lock`
    private struct Weak { weak var object: Element? }
    private let lock = Lock()
    private var items: [Weak] = []
    func append(_ object: Element) { lock.withLock { items.append(Weak(object: object)) } }
    var liveCount: Int { lock.withLock { items.filter { $0.object != nil }.count } }
}
