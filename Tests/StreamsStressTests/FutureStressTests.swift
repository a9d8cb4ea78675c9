import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("Future under concurrency")
struct FutureStressTests {
    final class PromiseSlot: @unchecked Sendable { var promise: Future<Int, Never>.Promise? }

    @Test func promiseRacingSubscribersRequestsAndCancels_S6_S12() async {
        await onDedicatedThread {
            for round in 0..<300 {
                let slot = PromiseSlot()
                let future = Future<Int, Never> { slot.promise = $0 }
                let promise = slot.promise!
                let subscribers = (0..<3).map { _ in RecordingSubscriber<Int, Never>(demand: nil) }
                DispatchQueue.concurrentPerform(iterations: 5) { index in
                    switch index {
                    case 0: promise(.success(round))
                    case 1: promise(.success(-1))
                    case 2: for subscriber in subscribers { future.subscribe(subscriber) }
                    case 3: for subscriber in subscribers { subscriber.request(.max(1)) }
                    default: subscribers[2].cancel()
                    }
                }
                for subscriber in subscribers {
                    subscriber.request(.max(1))
                    #expect(subscriber.violations.isEmpty)
                    #expect(subscriber.values.count <= 1)
                }
                // The first two never cancel: each gets exactly one value, the same one.
                let first = subscribers[0].values
                #expect(first.count == 1)
                #expect(subscribers[1].values == first)
                #expect(subscribers[0].completion == .finished)
            }
        }
    }
}
