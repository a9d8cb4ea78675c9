import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("Future")
struct FutureTests {
    struct Oops: Error, Equatable {}

    /// A future whose promise the test fulfils by hand.
    func makeFuture() -> (Future<Int, Oops>, Future<Int, Oops>.Promise) {
        final class Slot: @unchecked Sendable { var promise: Future<Int, Oops>.Promise? }
        let slot = Slot()
        let future = Future<Int, Oops> { slot.promise = $0 }
        return (future, slot.promise!)
    }

    @Test func runsItsClosureOnceAtCreation_S12() {
        final class Counter: @unchecked Sendable { var runs = 0 }
        let counter = Counter()
        let future = Future<Int, Never> { promise in
            counter.runs += 1
            promise(.success(counter.runs))
        }
        #expect(counter.runs == 1)
        #expect(values(future) == [1])
        #expect(values(future) == [1])
        #expect(counter.runs == 1)
    }

    @Test func earlyAndLateSubscribersGetTheSameResult_S12() {
        let (future, promise) = makeFuture()
        let early = RecordingSubscriber<Int, Oops>()
        future.subscribe(early)
        #expect(early.values.isEmpty)
        promise(.success(4))
        let late = RecordingSubscriber<Int, Oops>()
        future.subscribe(late)
        for subscriber in [early, late] {
            #expect(subscriber.values == [4])
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func secondPromiseCallIsIgnored_S12() {
        let (future, promise) = makeFuture()
        promise(.success(1))
        promise(.success(2))
        promise(.failure(Oops()))
        #expect(values(future) == [1])
    }

    @Test func valueWaitsForDemand_S1() {
        let (future, promise) = makeFuture()
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        future.subscribe(subscriber)
        promise(.success(1))
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func failureArrivesWithoutDemand_S5() {
        let (future, promise) = makeFuture()
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        future.subscribe(subscriber)
        promise(.failure(Oops()))
        #expect(subscriber.completion == .failure(Oops()))
    }

    @Test func cancelledSubscriberGetsNothingAndIsReleased_S6_S7() {
        let (future, promise) = makeFuture()
        weak var weakSubscriber: RecordingSubscriber<Int, Oops>?
        do {
            let subscriber = RecordingSubscriber<Int, Oops>()
            weakSubscriber = subscriber
            future.subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
            promise(.success(1))
            #expect(subscriber.values.isEmpty)
        }
        #expect(weakSubscriber == nil)
    }

    @Test func promiseFromAnotherThread() async {
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(42)) }
        }
        let box = CancellableBox()
        let value = await withCheckedContinuation { continuation in
            box.cancellable = future.sink { continuation.resume(returning: $0) }
        }
        #expect(value == 42)
        _ = box
    }

    final class CancellableBox: @unchecked Sendable { var cancellable: AnyCancellable? }

    @Test func requestingNoneIsAnAPIViolation_S9() {
        let (future, _) = makeFuture()
        let subscriber = RecordingSubscriber<Int, Oops>(demand: nil)
        future.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("Future") == true)
    }

    @Test func contract() {
        checkContract { Future<Int, Never> { $0(.success(1)) } }
        checkContract { Future<Int, Oops> { $0(.failure(Oops())) } }
    }
}
