import Dispatch
import Streams
import StreamsTesting
import Testing

/// Real-thread races on the subscriptions of the reducing operators (`reduce`, `collect`, ...),
/// `collect(_:)` and `replaceEmpty`. Bounded in count; `.ci/run` runs them under ThreadSanitizer.
@Suite("Reducing operators under concurrency")
struct ReducingStressTests {
    @Test func requestRacingTheUpstreamsCompletionDeliversTheResultOnce_S1_S3() async {
        await onDedicatedThread {
            for _ in 0..<300 {
                let upstream = TestPublisher<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
                upstream.reduce(0, +).subscribe(subscriber)
                upstream.send(1)
                upstream.send(2)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { upstream.send(completion: .finished) } else { subscriber.request(.max(1)) }
                }
                #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func cancelRacingTheEarlyAnswerNeverDeliversACompletionAlone_S6() async {
        await onDedicatedThread {
            for _ in 0..<300 {
                let upstream = TestPublisher<Int, Never>()
                let subscriber = RecordingSubscriber<Bool, Never>()
                upstream.contains(2).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { upstream.send(2) } else { subscriber.cancel() }
                }
                // Either the answer arrived before the cancel, or nothing did; a completion never
                // arrives without the answer.
                let events = subscriber.events
                let allowed: [[RecordingSubscriber<Bool, Never>.Event]] = [
                    [.subscription],
                    [.subscription, .value(true)],
                    [.subscription, .value(true), .completion(.finished)],
                ]
                #expect(allowed.contains(events))
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func collectByCountUnderRequestsFromAnotherThreadNeverExceedsDemand_S1() async {
        await onDedicatedThread {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = RecordingSubscriber<[Int], Never>(demand: nil)
            subject.collect(2).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<20_000 { subject.send(value) }
                } else {
                    for _ in 0..<2_000 { subscriber.request(.max(1)) }
                }
            }
            subject.send(completion: .finished)
            let arrays = subscriber.values
            #expect(arrays.count <= 2_000)
            #expect(arrays.allSatisfy { $0.count == 2 || $0 == arrays.last })
            let flat = arrays.flatMap { $0 }
            #expect(flat == flat.sorted())
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func replaceEmptyCancelRacingValuesStopsDelivery_S4_S6() async {
        await onDedicatedThread {
            for _ in 0..<100 {
                let subject = PassthroughSubject<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>()
                subject.replaceEmpty(with: -1).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        for value in 0..<200 { subject.send(value) }
                        subject.send(completion: .finished)
                    } else {
                        subscriber.cancel()
                    }
                }
                let values = subscriber.values
                #expect(values == Array(0..<values.count))
                #expect(subscriber.violations.isEmpty)
            }
        }
    }
}
