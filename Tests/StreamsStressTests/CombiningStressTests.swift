import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Real threads against `merge`, `zip` and `combineLatest`: upstreams that send from several
/// threads at once. Bounded: a few thousand values per thread; `.ci/run` runs this target again
/// under ThreadSanitizer. `RecordingSubscriber.violations` catches two calls into the downstream
/// at once (S3), a value beyond demand (S1) and anything after the completion (S4).
@Suite("merge, zip, combineLatest under concurrency")
struct CombiningStressTests {
    struct Boom: Error, Equatable {}

    static let threads = 4
    static let perThread = 2_000

    /// Value `i` of thread `t`, so that each value tells where it came from.
    static func tagged(_ thread: Int, _ i: Int) -> Int { thread * 1_000_000 + i }

    /// Checks that `values` holds every thread's values exactly once, each thread's in order.
    static func expectEveryThreadInOrder(_ values: [Int], threads: Int = threads, perThread: Int = perThread,
                                         sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(values.count == threads * perThread, sourceLocation: sourceLocation)
        for thread in 0..<threads {
            let fromThread = values.filter { $0 / 1_000_000 == thread }
            #expect(fromThread == (0..<perThread).map { tagged(thread, $0) }, sourceLocation: sourceLocation)
        }
    }

    // MARK: merge

    @Test func mergeSerializesUpstreamsSendingAtOnce_S3() async {
        await onDedicatedThread {
            let subjects = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = RecordingSubscriber<Int, Never>()
            subjects[0].merge(with: subjects[1], subjects[2], subjects[3]).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for i in 0..<Self.perThread { subjects[thread].send(Self.tagged(thread, i)) }
                subjects[thread].send(completion: .finished)
            }
            Self.expectEveryThreadInOrder(subscriber.values)
            #expect(subscriber.completion == .finished)
            if case .completion? = subscriber.events.last {} else { Issue.record("the completion was not last") }
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func mergeManySerializesUpstreamsSendingAtOnce_S3() async {
        await onDedicatedThread {
            let subjects = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = RecordingSubscriber<Int, Never>()
            Publishers.MergeMany(subjects).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for i in 0..<Self.perThread { subjects[thread].send(Self.tagged(thread, i)) }
            }
            Self.expectEveryThreadInOrder(subscriber.values)
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// Limited demand: three well-behaved upstreams each send only what they were asked for,
    /// from their own thread, and each thread also requests one value downstream before each of
    /// its sends, so requests race values. Every value arrives, each upstream's in order, never
    /// beyond the demand. (No thread can wait forever: while a value waits, merge has no demand
    /// left, and every thread has requested one more than it has sent.)
    @Test func mergeUnderLimitedDemandRequestedWhileValuesArrive_S1() async {
        await onDedicatedThread {
            let senders = 3
            let perSender = 500
            let upstreams = (0..<senders).map { _ in TestPublisher<Int, Never>() }
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            Publishers.MergeMany(upstreams).subscribe(subscriber)
            let deadline = DispatchTime.now().uptimeNanoseconds + 20_000_000_000
            DispatchQueue.concurrentPerform(iterations: senders) { thread in
                for i in 0..<perSender {
                    subscriber.request(.max(1))
                    // Only this thread sends into its upstream, so the demand it sees cannot shrink
                    // before it sends.
                    while upstreams[thread].demand == .none && DispatchTime.now().uptimeNanoseconds < deadline {}
                    upstreams[thread].send(Self.tagged(thread, i))
                }
            }
            subscriber.request(.unlimited)
            Self.expectEveryThreadInOrder(subscriber.values, threads: senders, perThread: perSender)
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// Cancel from one thread while two others send: nothing is delivered once `cancel()` has
    /// returned and the value in flight (if any) has landed, and signals never overlap.
    @Test func mergeCancelRacingValues_S6() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let a = PassthroughSubject<Int, Never>()
                let b = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>()
                a.merge(with: b).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    switch thread {
                    case 0: for i in 0..<100 { a.send(i) }
                    case 1: for i in 0..<100 { b.send(i) }
                    default: subscriber.cancel()
                    }
                }
                let seen = subscriber.values.count
                a.send(-1)
                b.send(-1)
                #expect(subscriber.values.count == seen)
                #expect(subscriber.completion == nil)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    /// A failure on one thread while values come on others: the failure is delivered once, last.
    @Test func mergeFailureRacingValues_S4() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let subjects = (0..<3).map { _ in PassthroughSubject<Int, Boom>() }
                let subscriber = RecordingSubscriber<Int, Boom>()
                Publishers.MergeMany(subjects).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    if thread == 2 {
                        subjects[2].send(completion: .failure(Boom()))
                    } else {
                        for i in 0..<100 { subjects[thread].send(i) }
                    }
                }
                #expect(subscriber.completion == .failure(Boom()))
                if case .completion? = subscriber.events.last {} else { Issue.record("the completion was not last") }
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    // MARK: zip

    @Test func zipPairsUpstreamsSendingAtOnce_S3() async {
        await onDedicatedThread {
            let subjects = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = RecordingSubscriber<[Int], Never>()
            subjects[0].zip(subjects[1], subjects[2], subjects[3]) { [$0, $1, $2, $3] }.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for i in 0..<Self.perThread { subjects[thread].send(Self.tagged(thread, i)) }
            }
            #expect(subscriber.values == (0..<Self.perThread).map { i in (0..<Self.threads).map { Self.tagged($0, i) } })
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// Limited demand requested from another thread while two threads send: the pairs never
    /// exceed the demand, and each is a pair of values sent at the same position.
    @Test func zipUnderRequestsFromAnotherThread_S1() async {
        await onDedicatedThread {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let subscriber = RecordingSubscriber<(Int, Int), Never>(demand: nil)
            a.zip(b).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch thread {
                case 0: for i in 0..<Self.perThread { a.send(i) }
                case 1: for i in 0..<Self.perThread { b.send(i) }
                default: for _ in 0..<(Self.perThread / 2) { subscriber.request(.max(1)) }
                }
            }
            let pairs = subscriber.values
            #expect(pairs.count <= Self.perThread / 2)
            // A subject drops what nobody asked for, so the positions can differ, but each side
            // keeps its order.
            #expect(pairs.map(\.0) == pairs.map(\.0).sorted())
            #expect(pairs.map(\.1) == pairs.map(\.1).sorted())
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func zipCompletionRacingValues_S4() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let a = PassthroughSubject<Int, Never>()
                let b = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<(Int, Int), Never>()
                a.zip(b).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    switch thread {
                    case 0: for i in 0..<100 { a.send(i) }
                    case 1: for i in 0..<100 { b.send(i) }
                    default: a.send(completion: .finished)
                    }
                }
                b.send(completion: .finished)
                #expect(subscriber.completion == .finished)
                if case .completion? = subscriber.events.last {} else { Issue.record("the completion was not last") }
                #expect(subscriber.values.allSatisfy { $0.0 == $0.1 })
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    // MARK: combineLatest

    /// Once both upstreams have a value, each value from either thread makes exactly one tuple,
    /// and each side of the tuples keeps its upstream's order.
    @Test func combineLatestUnderUpstreamsSendingAtOnce_S3() async {
        await onDedicatedThread {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let subscriber = RecordingSubscriber<(Int, Int), Never>()
            a.combineLatest(b).subscribe(subscriber)
            a.send(0)
            b.send(0)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let subject = thread == 0 ? a : b
                for i in 1...Self.perThread { subject.send(i) }
            }
            let tuples = subscriber.values
            #expect(tuples.count == 1 + 2 * Self.perThread)
            #expect(tuples.map(\.0) == tuples.map(\.0).sorted())
            #expect(tuples.map(\.1) == tuples.map(\.1).sorted())
            #expect(tuples.last.map { [$0.0, $0.1] } == [Self.perThread, Self.perThread])
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func combineLatestCancelRacingValues_S6() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let a = PassthroughSubject<Int, Never>()
                let b = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<(Int, Int), Never>()
                a.combineLatest(b).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    switch thread {
                    case 0: for i in 0..<100 { a.send(i) }
                    case 1: for i in 0..<100 { b.send(i) }
                    default: subscriber.cancel()
                    }
                }
                let seen = subscriber.values.count
                a.send(-1)
                b.send(-1)
                #expect(subscriber.values.count == seen)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }
}
