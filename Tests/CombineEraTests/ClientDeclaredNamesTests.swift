// A library written for Combine declares names of its own inside Combine's namespaces: Point-Free's
// combine-schedulers and CombineExt both declare a `Publishers.Timer<Scheduler>` and
// `Scheduler.timerPublisher(every:tolerance:options:)`, and many a library an
// `AsyncSequence.publisher`. Copied with `import Combine` changed to `import Streams`, such code
// must compile unchanged: Streams adds no public name to those namespaces that Combine lacks
// (`Scripts/public-names.py` checks), so every use below refers to the client's declaration
// without ambiguity. Streams' own scheduler timer is the top-level `SchedulerTimer`.
import Dispatch
import Foundation
import Streams
import Testing

// MARK: - The client library's declarations (in the style of combine-schedulers 1.2 / CombineExt)

extension Scheduler {
    /// The client's timer publisher, as combine-schedulers declares it.
    func timerPublisher(
        every interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride? = nil,
        options: SchedulerOptions? = nil
    ) -> Publishers.Timer<Self> {
        Publishers.Timer(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
}

extension Publishers {
    /// The client's scheduler-driven timer: connectable, ticking `scheduler.now` every interval
    /// once connected (a simplified copy of the shape combine-schedulers and CombineExt declare).
    final class Timer<S: Scheduler>: ConnectablePublisher {
        typealias Output = S.SchedulerTimeType
        typealias Failure = Never

        let interval: S.SchedulerTimeType.Stride
        let tolerance: S.SchedulerTimeType.Stride?
        let scheduler: S
        let options: S.SchedulerOptions?
        private let subject = PassthroughSubject<S.SchedulerTimeType, Never>()

        init(
            every interval: S.SchedulerTimeType.Stride,
            tolerance: S.SchedulerTimeType.Stride? = nil,
            scheduler: S,
            options: S.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        func receive<Sub: Subscriber>(subscriber: Sub) where Sub.Input == Output, Sub.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        func connect() -> Cancellable {
            scheduler.schedule(
                after: scheduler.now.advanced(by: interval),
                interval: interval,
                tolerance: tolerance ?? scheduler.minimumTolerance,
                options: options
            ) { [subject, scheduler] in
                subject.send(scheduler.now)
            }
        }
    }
}

extension AsyncSequence {
    /// The client's bridge from an asynchronous sequence (one element, here, to keep it short).
    var publisher: Just<String> { Just("the client's AsyncSequence.publisher") }
}

// MARK: - Uses: each must pick the client's declaration, unambiguously

@Suite("A client's own names in Combine's namespaces, Swift 5 mode")
struct ClientDeclaredNamesTests {
    @Test func theClientsTimerAndTimerPublisherAreUnambiguous() {
        let scheduler = ImmediateScheduler.shared
        let timer: Publishers.Timer<ImmediateScheduler> = scheduler.timerPublisher(every: .seconds(1))
        let direct = Publishers.Timer(every: .seconds(2), scheduler: scheduler)
        #expect(timer.interval == .seconds(1))
        #expect(direct.interval == .seconds(2))
        let inferred = scheduler.timerPublisher(every: .seconds(3), tolerance: .seconds(1))
        #expect(inferred.tolerance == .seconds(1))
    }

    @Test func theClientsTimerTicks() {
        // The client's timer, driven by a dispatch queue for a few ticks.
        let queue = DispatchQueue(label: "client timer")
        let ticks = Ticks()
        let cancellable = queue.timerPublisher(every: .milliseconds(5)).autoconnect().sink { _ in ticks.add() }
        let deadline = DispatchTime.now() + .seconds(5)
        while ticks.count < 2 && DispatchTime.now() < deadline { usleep(1_000) }
        cancellable.cancel()
        #expect(ticks.count >= 2)
    }

    @Test func streamsOwnTimerHasAPlaceOfItsOwn() {
        let scheduler = ImmediateScheduler.shared
        let streams: SchedulerTimer<ImmediateScheduler> = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        #expect(streams.interval == .seconds(1))
    }

    @Test func theClientsAsyncSequenceBridgeIsUnambiguous() {
        let stream = AsyncStream<Int> { $0.finish() }
        var received: [String] = []
        _ = stream.publisher.sink { received.append($0) }
        #expect(received == ["the client's AsyncSequence.publisher"])
    }
}

/// A tick counter shared with the dispatch queue the client's timer runs on.
final class Ticks: @unchecked Sendable {  // `value` guarded by `lock`
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    func add() { lock.lock(); value += 1; lock.unlock() }
}
