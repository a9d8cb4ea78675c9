import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// Real-thread races for `replaceError`, `handleEvents` and `print` (run under ThreadSanitizer
/// by `.ci/run`). Each is bounded in count.
@Suite("replaceError, handleEvents, print under concurrency")
struct ObservingOperatorsStressTests {
    struct Boom: Error, Equatable {}

    /// The failure and the request that makes room for the replacement race: whichever comes
    /// second delivers it, exactly once, followed by `.finished`.
    @Test func replaceErrorFailureRacingRequestDeliversOnce() async {
        await onDedicatedThread {
            for _ in 0..<500 {
                let upstream = TestPublisher<Int, Boom>()
                let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
                upstream.replaceError(with: 0).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { upstream.send(completion: .failure(Boom())) } else { subscriber.request(.max(1)) }
                }
                #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    /// Two threads cancel while a third sends values: `receiveCancel` runs once, and the
    /// subscriber never sees two signals at once or anything after a completion.
    @Test func handleEventsCancelRacingValues() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let cancels = Atomic<Int>(0)
                let subject = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
                subject.handleEvents(receiveCancel: { cancels.add(1, ordering: .relaxed) }).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    if index == 0 {
                        for value in 0..<50 { subject.send(value) }
                    } else {
                        subscriber.cancel()
                    }
                }
                #expect(cancels.load(ordering: .relaxed) == 1)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    /// Values on one thread, requests on another: the stream, which has no lock of its own,
    /// is never written from two threads at once, and no line is lost.
    @Test func printWritesNeverOverlap() async {
        await onDedicatedThread {
            final class CheckingStream: TextOutputStream, @unchecked Sendable {  // `text` is only touched by the writer `print` lets in
                let inside = Atomic<Int>(0)
                let overlaps = Atomic<Int>(0)
                var text = ""
                func write(_ string: String) {
                    if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                        overlaps.add(1, ordering: .relaxed)
                    }
                    text += string
                    inside.subtract(1, ordering: .acquiringAndReleasing)
                }
            }
            let stream = CheckingStream()
            let requests = 200
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            subject.print(to: stream).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<requests { subject.send(value) }
                } else {
                    for _ in 0..<requests { subscriber.request(.max(1)) }
                }
            }
            subject.send(completion: .finished)
            #expect(stream.overlaps.load(ordering: .relaxed) == 0)
            let lines = stream.text.split(separator: "\n")
            #expect(lines.filter { $0 == "request max: (1)" }.count == requests)
            #expect(lines.filter { $0.hasPrefix("receive value: (") }.count == subscriber.values.count)
            #expect(lines.first == "receive subscription: (PassthroughSubject)")
            #expect(lines.last == "receive finished")
            #expect(subscriber.violations.isEmpty)
        }
    }
}
