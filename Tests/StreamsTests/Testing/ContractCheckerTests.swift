import Streams
import StreamsTesting
import Testing

/// The contract checker must catch broken publishers: each fake here breaks one rule on purpose.
@Suite("checkContract catches broken publishers")
struct ContractCheckerTests {
    /// Sends all its values on subscription, ignoring demand (breaks S1).
    struct IgnoresDemand: Publisher {
        typealias Output = Int
        typealias Failure = Never
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: Subscriptions.empty)
            for value in 0..<3 { _ = subscriber.receive(value) }
            subscriber.receive(completion: .finished)
        }
    }

    /// Sends a value after finishing (breaks S4).
    struct SendsAfterCompletion: Publisher {
        typealias Output = Int
        typealias Failure = Never
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            _ = subscriber.receive(1)
        }
    }

    /// Delivers the next value from inside `request`, recursively (breaks S8), and keeps its
    /// subscriber after cancel (breaks S7), and accepts `.none` silently (breaks S9).
    struct Recursive: Publisher {
        typealias Output = Int
        typealias Failure = Never
        let count: Int
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: RecursiveSubscription(subscriber: subscriber, count: count))
        }
        final class RecursiveSubscription<S: Subscriber>: Subscription where S.Input == Int {
            let subscriber: S
            let count: Int
            var next = 0
            init(subscriber: S, count: Int) {
                self.subscriber = subscriber
                self.count = count
            }
            func request(_ demand: Subscribers.Demand) {
                guard demand > 0, next < count else { return }
                next += 1
                let more = subscriber.receive(next)
                if next == count {
                    subscriber.receive(completion: .finished)
                } else if more > 0 {
                    request(more)
                }
            }
            func cancel() { next = count }
        }
    }

    /// Delivers its values as they are asked for, but its `cancel()` does nothing (breaks S6).
    struct IgnoresCancel: Publisher {
        typealias Output = Int
        typealias Failure = Never
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: IgnoringSubscription(subscriber: subscriber))
        }
        final class IgnoringSubscription<S: Subscriber>: Subscription, @unchecked Sendable  // `next`, `subscriber` guarded by `lock`
        where S.Input == Int, S.Failure == Never {
            let lock = Lock()
            var subscriber: S?
            var next = 0
            init(subscriber: S) { self.subscriber = subscriber }
            func request(_ demand: Subscribers.Demand) {
                var demand = demand
                while demand > 0 {
                    let (subscriber, value): (S?, Int) = lock.withLock {
                        next += 1
                        return (next <= 10 ? self.subscriber : nil, next)
                    }
                    guard let subscriber else { return }
                    demand -= 1
                    demand += subscriber.receive(value)
                    if value == 10 {
                        lock.withLock { self.subscriber = nil }
                        subscriber.receive(completion: .finished)
                    }
                }
            }
            func cancel() {}
        }
    }

    @Test func catchesValuesBeyondDemand_S1() {
        let problems = contractProblems { IgnoresDemand() }
        #expect(problems.contains { $0.hasPrefix("S1:") }, "\(problems)")
    }

    @Test func catchesEventsAfterCompletion_S4() {
        let problems = contractProblems { SendsAfterCompletion() }
        #expect(problems.contains { $0.hasPrefix("S4:") }, "\(problems)")
    }

    @Test func catchesUnboundedRecursion_S8() {
        let problems = contractProblems { Recursive(count: 500) }
        #expect(problems.contains { $0.hasPrefix("S8:") }, "\(problems)")
    }

    @Test func catchesSubscriberKeptAfterCancel_S7() {
        let problems = contractProblems { Recursive(count: 5) }
        #expect(problems.contains { $0.hasPrefix("S7:") }, "\(problems)")
    }

    @Test func catchesSilentNoneRequest_S9() {
        let problems = contractProblems { Recursive(count: 5) }
        #expect(problems.contains { $0.hasPrefix("S9:") }, "\(problems)")
    }

    @Test func catchesEventsAfterCancel_S6() {
        let problems = contractProblems({ IgnoresCancel() }, requestingNone: .isIgnored)
        #expect(problems.contains { $0.hasPrefix("S6:") && $0.contains("after cancel()") }, "\(problems)")
    }

    @Test func passesAGoodPublisher() {
        checkContract { Just(1) }
        checkContract({ (0..<200).publisher }, requestingNone: .isIgnored)
    }
}
