import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Real threads against `flatMap` and `switchToLatest`: inner publishers sending from several
/// threads at once, requests and cancels racing them. Bounded: a few thousand values per
/// thread, well under a second each; `.ci/run` runs this target again under ThreadSanitizer.
@Suite("flatMap and switchToLatest under concurrency")
struct FlatMapStressTests {
    static let threads = 4
    static let perThread = 2_000

    /// Promises collected from `Future`s, to be kept from several threads.
    final class Promises: @unchecked Sendable {  // `promises` is guarded by `lock`
        private let lock = Lock()
        private var promises: [Int: Future<Int, Never>.Promise] = [:]
        func future(_ index: Int) -> Future<Int, Never> {
            Future { promise in self.lock.withLock { self.promises[index] = promise } }
        }
        /// Keeps the promise of `index`; `false` if its future is not made yet.
        @discardableResult
        func fulfil(_ index: Int) -> Bool {
            guard let promise = lock.withLock({ promises.removeValue(forKey: index) }) else { return false }
            promise(.success(index))
            return true
        }
    }

    @Test func innersSendingFromSeveralThreadsAreSerializedAndAllDelivered_S3() async {
        await onDedicatedThread {
            let upstream = PassthroughSubject<Int, Never>()
            let inners = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = RecordingSubscriber<Int, Never>()
            upstream.flatMap { inners[$0] }.subscribe(subscriber)
            for index in inners.indices { upstream.send(index) }
            upstream.send(completion: .finished)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for i in 0..<Self.perThread { inners[thread].send(thread * 1_000_000 + i) }
                inners[thread].send(completion: .finished)
            }
            let values = subscriber.values
            #expect(values.count == Self.threads * Self.perThread)
            for thread in 0..<Self.threads {
                #expect(values.filter { $0 / 1_000_000 == thread } == (0..<Self.perThread).map { thread * 1_000_000 + $0 })
            }
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// Futures keep their value until asked, so every value arrives, however the requests
    /// (one at a time, from another thread) and the promises (from several threads) interleave.
    @Test func limitedDemandFromAnotherThreadIsNeverExceededAndNothingIsLost_S1() async {
        await onDedicatedThread {
            let count = Self.threads * Self.perThread
            let promises = Promises()
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            (0..<count).publisher.flatMap { promises.future($0) }.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
                if thread == Self.threads {
                    for _ in 0..<count { subscriber.request(.max(1)) }
                } else {
                    for i in stride(from: thread, to: count, by: Self.threads) { promises.fulfil(i) }
                }
            }
            #expect(subscriber.values.sorted() == Array(0..<count))
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func maxPublishersBoundsTheLiveInnersUnderConcurrency() async {
        await onDedicatedThread {
            let count = 2_000
            let promises = Promises()
            let live = Atomic<Int>(0), mostLive = Atomic<Int>(0), subscribed = Atomic<Int>(0)
            let subscriber = RecordingSubscriber<Int, Never>()
            (0..<count).publisher
                .flatMap(maxPublishers: .max(3)) { index in
                    promises.future(index).handleEvents(
                        receiveSubscription: { _ in
                            subscribed.add(1, ordering: .relaxed)
                            let now = live.add(1, ordering: .acquiringAndReleasing).newValue
                            var most = mostLive.load(ordering: .relaxed)
                            while now > most {
                                let (exchanged, original) = mostLive.compareExchange(
                                    expected: most, desired: now, ordering: .relaxed)
                                if exchanged { break }
                                most = original
                            }
                        },
                        receiveCompletion: { _ in live.subtract(1, ordering: .acquiringAndReleasing) })
                }
                .subscribe(subscriber)
            // Fulfil each future once it is subscribed, from two threads, until all are through.
            // A lost request to the upstream shows as no new subscription for ten seconds; a busy
            // machine only makes the whole run slower, so the limit is on a stall, not the total.
            let stallLimit: UInt64 = 10_000_000_000
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                var next = thread
                var lastProgress = DispatchTime.now().uptimeNanoseconds
                while next < count
                    && DispatchTime.now().uptimeNanoseconds - lastProgress < stallLimit {
                    if next < subscribed.load(ordering: .acquiring) {
                        promises.fulfil(next)
                        next += 2
                        lastProgress = DispatchTime.now().uptimeNanoseconds
                    }
                }
            }
            #expect(subscriber.values.sorted() == Array(0..<count))
            #expect(mostLive.load(ordering: .relaxed) <= 3)
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func cancelRacingInnerSendsStopsDelivery_S6() async {
        await onDedicatedThread {
            for _ in 0..<50 {
                let upstream = PassthroughSubject<Int, Never>()
                let inners = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
                let subscriber = RecordingSubscriber<Int, Never>()
                upstream.flatMap { inners[$0] }.subscribe(subscriber)
                upstream.send(0)
                upstream.send(1)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    if thread < 2 {
                        for i in 0..<200 { inners[thread].send(i) }
                    } else {
                        subscriber.cancel()
                    }
                }
                let seen = subscriber.values.count
                inners[0].send(-1)
                inners[1].send(-1)
                #expect(subscriber.values.count == seen)
                #expect(subscriber.completion == nil)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func aFailureRacingValuesEndsTheStreamOnce_S4() async {
        await onDedicatedThread {
            struct Boom: Error, Equatable {}
            for _ in 0..<50 {
                let upstream = PassthroughSubject<Int, Boom>()
                let inners = (0..<3).map { _ in PassthroughSubject<Int, Boom>() }
                let subscriber = RecordingSubscriber<Int, Boom>()
                upstream.flatMap { inners[$0] }.subscribe(subscriber)
                for index in inners.indices { upstream.send(index) }
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    if thread == 2 {
                        inners[2].send(completion: .failure(Boom()))
                    } else {
                        for i in 0..<300 { inners[thread].send(i) }
                    }
                }
                #expect(subscriber.completion == .failure(Boom()))
                if case .completion? = subscriber.events.last {} else { Issue.record("the failure is not the last event") }
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    /// Inners that answer while they are subscribed (`Just`, handled in place, without a live
    /// slot) on the upstream's thread, while long-lived inners send from other threads: every
    /// value arrives, each source's in order, and the stream finishes once all have.
    @Test func innersAnsweringInPlaceRaceInnersSendingFromOtherThreads_S3() async {
        await onDedicatedThread {
            let upstream = PassthroughSubject<Int, Never>()
            let inners = (0..<Self.threads - 1).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = RecordingSubscriber<Int, Never>()
            upstream
                .flatMap { $0 < 0 ? inners[-$0 - 1].eraseToAnyPublisher() : Just($0).eraseToAnyPublisher() }
                .subscribe(subscriber)
            for index in inners.indices { upstream.send(-index - 1) }
            let last = Self.threads - 1
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                if thread == last {
                    for i in 0..<Self.perThread { upstream.send(last * 1_000_000 + i) }
                    upstream.send(completion: .finished)
                } else {
                    for i in 0..<Self.perThread { inners[thread].send(thread * 1_000_000 + i) }
                    inners[thread].send(completion: .finished)
                }
            }
            let values = subscriber.values
            #expect(values.count == Self.threads * Self.perThread)
            for thread in 0..<Self.threads {
                #expect(values.filter { $0 / 1_000_000 == thread } == (0..<Self.perThread).map { thread * 1_000_000 + $0 })
            }
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// Futures kept from another thread while the upstream subscribes them: each answers either
    /// in place (kept before it was subscribed) or from the other thread, during or after its
    /// subscribe. Every value arrives once, and the stream finishes.
    @Test func innersCompletingFromAnotherThreadWhileSubscribedAreDeliveredOnce() async {
        await onDedicatedThread {
            let count = Self.threads * Self.perThread
            let promises = Promises()
            let subscriber = RecordingSubscriber<Int, Never>()
            let upstream = PassthroughSubject<Int, Never>()
            upstream.flatMap { promises.future($0) }.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for i in 0..<count { upstream.send(i) }
                    upstream.send(completion: .finished)
                } else {
                    for i in 0..<count { while !promises.fulfil(i) {} }
                }
            }
            #expect(subscriber.values.sorted() == Array(0..<count))
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// A cancel racing inners that answer in place: nothing arrives after the cancel, and no
    /// completion.
    @Test func cancelRacingInnersAnsweringInPlaceStopsDelivery_S6() async {
        await onDedicatedThread {
            for _ in 0..<50 {
                let upstream = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>()
                upstream.flatMap { Just($0) }.subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    if thread == 0 {
                        for i in 0..<200 { upstream.send(i) }
                    } else {
                        subscriber.cancel()
                    }
                }
                let seen = subscriber.values
                upstream.send(-1)
                #expect(subscriber.values == seen)
                #expect(seen == Array(0..<seen.count))
                #expect(subscriber.completion == nil)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    /// A cancel from another thread may come while `transform` runs, inside an in-place
    /// window: the window's thread lets go of it then, so it is let go of either way (S7).
    @Test func cancelRacingTransformStillLetsGoOfIt_S7() async {
        final class Captured {}
        await onDedicatedThread {
            for _ in 0..<200 {
                weak var weakCaptured: Captured?
                let upstream = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>()
                do {
                    let captured = Captured()
                    weakCaptured = captured
                    upstream.flatMap { value in withExtendedLifetime(captured) { Just(value) } }.subscribe(subscriber)
                }
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    if thread == 0 {
                        for i in 0..<100 { upstream.send(i) }
                    } else {
                        subscriber.cancel()
                    }
                }
                #expect(weakCaptured == nil)
                let seen = subscriber.values
                #expect(seen == Array(0..<seen.count))
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func switchToLatestSwitchingWhileTheInnerSendsIsSerialized_S3() async {
        await onDedicatedThread {
            let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            let inners = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = RecordingSubscriber<Int, Never>()
            upstream.switchToLatest().subscribe(subscriber)
            upstream.send(inners[0])
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                if thread == 0 {
                    for next in 1..<Self.threads { upstream.send(inners[next]) }
                } else {
                    for i in 0..<Self.perThread {
                        for inner in inners { inner.send(thread * 1_000_000 + i) }
                    }
                }
            }
            inners.last!.send(-1)
            upstream.send(completion: .finished)
            inners.last!.send(completion: .finished)
            let values = subscriber.values
            #expect(values.last == -1)
            // Each sending thread's values arrive in the order it sent them.
            for thread in 1..<Self.threads {
                let fromThread = values.filter { $0 / 1_000_000 == thread }
                #expect(fromThread == fromThread.sorted())
            }
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }
}
