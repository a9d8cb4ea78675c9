import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Real threads against the subjects. Bounded: a few thousand operations per thread, well under a
/// second each; `.ci/run` runs this target again under ThreadSanitizer.
@Suite("Subjects under concurrency")
struct SubjectStressTests {
    static let threads = 4
    static let perThread = 2_000

    @Test func concurrentSendsAreSerializedAndAllDelivered_S3() async {
        await onDedicatedThread {
            let subject = PassthroughSubject<Int, Never>()
            let subscribers = (0..<3).map { _ in RecordingSubscriber<Int, Never>() }
            for subscriber in subscribers { subject.subscribe(subscriber) }
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for i in 0..<Self.perThread { subject.send(thread * 1_000_000 + i) }
            }
            for subscriber in subscribers {
                let values = subscriber.values
                #expect(values.count == Self.threads * Self.perThread)
                #expect(subscriber.violations.isEmpty)
                for thread in 0..<Self.threads {
                    let fromThread = values.filter { $0 / 1_000_000 == thread }
                    #expect(fromThread == (0..<Self.perThread).map { thread * 1_000_000 + $0 })
                }
            }
            // Every subscriber saw the values in the same order (one delivery loop at a time).
            #expect(subscribers[0].values == subscribers[1].values)
            #expect(subscribers[1].values == subscribers[2].values)
        }
    }

    @Test func subscribeAndCancelWhileSending_S6_S10() async {
        await onDedicatedThread {
            let subject = PassthroughSubject<Int, Never>()
            let steady = RecordingSubscriber<Int, Never>()
            subject.subscribe(steady)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                if thread == 0 {
                    for i in 0..<Self.perThread * 2 { subject.send(i) }
                } else {
                    for _ in 0..<Self.perThread / 4 {
                        let transient = RecordingSubscriber<Int, Never>()
                        subject.subscribe(transient)
                        transient.cancel()
                        let seen = transient.values.count
                        #expect(transient.violations.isEmpty)
                        // Once cancel() has returned and any in-flight value has landed, nothing more.
                        subject.send(-1)
                        #expect(transient.values.count <= seen + 1)
                    }
                }
            }
            #expect(steady.values.filter { $0 >= 0 } == Array(0..<Self.perThread * 2))
            #expect(steady.violations.isEmpty)
        }
    }

    @Test func concurrentRequestsNeverExceedDemand_S1() async {
        await onDedicatedThread {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            subject.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch thread {
                case 0: for i in 0..<Self.perThread * 4 { subject.send(i) }
                default: for _ in 0..<Self.perThread { subscriber.request(.max(1)) }
                }
            }
            #expect(subscriber.values.count <= Self.perThread * 2)
            #expect(subscriber.violations.isEmpty)
            #expect(subscriber.values == subscriber.values.sorted())
        }
    }

    @Test func completionRacingSendsIsDeliveredOnceAndLast_S4() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let subject = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>()
                subject.subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    if thread == 2 {
                        subject.send(completion: .finished)
                    } else {
                        for i in 0..<50 { subject.send(i) }
                    }
                }
                #expect(subscriber.completion == .finished)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func currentValueSubjectUnderConcurrentSendsAndRequests_S1_S10() async {
        await onDedicatedThread {
            let subject = CurrentValueSubject<Int, Never>(0)
            let limited = RecordingSubscriber<Int, Never>(demand: nil)
            let unlimited = RecordingSubscriber<Int, Never>()
            subject.subscribe(limited)
            subject.subscribe(unlimited)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                switch thread {
                case 0: for i in 1...Self.perThread { subject.send(i) }
                case 1: for _ in 0..<Self.perThread / 2 { limited.request(.max(1)) }
                default: for _ in 0..<Self.perThread { _ = subject.value }
                }
            }
            #expect(subject.value == Self.perThread)
            #expect(unlimited.values == Array(0...Self.perThread))
            #expect(limited.values.count <= Self.perThread / 2)
            #expect(limited.values == limited.values.sorted())
            #expect(limited.violations.isEmpty)
            #expect(unlimited.violations.isEmpty)
        }
    }

    @Test func reentrantSendsFromSeveralThreads_S11() async {
        await onDedicatedThread {
            let subject = PassthroughSubject<Int, Never>()
            let echoes = Atomic<Int>(0)
            let cancellable = subject.sink { value in
                if value >= 0 {
                    echoes.add(1, ordering: .relaxed)
                    subject.send(-value - 1)
                }
            }
            let recorder = RecordingSubscriber<Int, Never>()
            subject.subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for i in 0..<500 { subject.send(thread * 1_000 + i) }
            }
            #expect(echoes.load(ordering: .relaxed) == Self.threads * 500)
            #expect(recorder.values.count == Self.threads * 500 * 2)
            #expect(recorder.violations.isEmpty)
            _ = cancellable
        }
    }
}
