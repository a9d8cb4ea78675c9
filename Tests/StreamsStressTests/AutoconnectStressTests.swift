import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("autoconnect under concurrency")
struct AutoconnectStressTests {
    /// A connectable publisher that counts its connects and disconnects. Subscribers attach to a
    /// `TestPublisher`, which hands them their subscription at once.
    final class Counting: ConnectablePublisher, Sendable {
        typealias Output = Int
        typealias Failure = Never
        let subject = TestPublisher<Int, Never>()
        let connects = Atomic<Int>(0)
        let disconnects = Atomic<Int>(0)

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subject.subscribe(subscriber)
        }

        func connect() -> Cancellable {
            connects.add(1, ordering: .sequentiallyConsistent)
            return AnyCancellable { [self] in disconnects.add(1, ordering: .sequentiallyConsistent) }
        }
    }

    /// Violations seen on `concurrentPerform`'s threads, asserted on the test's own (an `#expect`
    /// there is not attributed to the test).
    final class Violations: @unchecked Sendable {  // `all` is guarded by `lock`
        private let lock = Lock()
        private var all: [String] = []
        func add(_ violations: [String]) { lock.withLock { all += violations } }
        var list: [String] { lock.withLock { all } }
    }

    @Test func subscribersComingAndGoingOnManyThreadsLeaveNoConnectionBehind() async {
        await onDedicatedThread {
            for _ in 0..<200 {
                let connectable = Counting()
                let autoconnected = connectable.autoconnect()
                let violations = Violations()
                DispatchQueue.concurrentPerform(iterations: 4) { index in
                    for _ in 0..<5 {
                        let subscriber = RecordingSubscriber<Int, Never>()
                        autoconnected.subscribe(subscriber)
                        if index == 0 { connectable.subject.send(1) }
                        subscriber.cancel()
                        subscriber.cancel()
                        violations.add(subscriber.violations)
                    }
                }
                #expect(violations.list.isEmpty)
                let connects = connectable.connects.load(ordering: .sequentiallyConsistent)
                #expect(connects >= 1)
                #expect(connectable.disconnects.load(ordering: .sequentiallyConsistent) == connects)
                // Everyone left: the next subscriber connects again.
                let last = RecordingSubscriber<Int, Never>()
                autoconnected.subscribe(last)
                #expect(connectable.connects.load(ordering: .sequentiallyConsistent) == connects + 1)
                last.cancel()
            }
        }
    }
}
