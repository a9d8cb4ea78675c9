import Streams
import StreamsTesting
import Testing

@Suite("print")
struct PrintTests {
    struct Boom: Error, Equatable, CustomStringConvertible {
        var description: String { "Boom" }
    }

    /// Collects what `print` writes; `onWrite` lets a test act from inside a write.
    final class TextLog: TextOutputStream {
        var text = ""
        var writes = 0
        /// Every `write(_:)` call's string, in order.
        var calls: [String] = []
        var onWrite: ((String) -> Void)?
        func write(_ string: String) {
            text += string
            writes += 1
            calls.append(string)
            onWrite?(string)
        }
        /// The lines written, each with its newline.
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    // MARK: Marbles

    @Test func marbles() {
        let log = TextLog()
        assertMarbles("-1-2-|", { $0.print(to: log) }, "-1-2-|")
        assertMarbles("-1-^", { $0.print("m", to: log) }, "-1-^")
        assertMarbles([1, 2, 3].publisher.print(to: log), "[123|]")
    }

    @Test func docExampleOutputs() {
        let log = TextLog()
        let cancellable = [1, 2].publisher.print("n", to: log).sink { _ in }
        #expect(log.lines == [
            "n: receive subscription: (Sequence)",
            "n: request unlimited",
            "n: receive value: (1)",
            "n: receive value: (2)",
            "n: receive finished",
        ])
        _ = cancellable
    }

    @Test func logsJustExactly() {
        let log = TextLog()
        let cancellable = Just(1).print(to: log).sink { _ in }
        #expect(log.text == """
            receive subscription: (Just)
            request unlimited
            receive value: (1)
            receive finished

            """)
        // Three writes per line, as Combine makes them: "", the line, "\n".
        #expect(log.writes == 12)
        _ = cancellable
    }

    @Test func writesEachLineInTheCallsCombineMakes() {
        // Combine writes each line with `Swift.print(_:to:)`: three `write(_:)` calls, an empty
        // separator, the line, and the newline. Demand returned from `receive(_:)` is logged
        // with "(synchronous)"; `.none` returned is not logged.
        let log = TextLog()
        let upstream = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>(demand: .max(2), onValue: { $0 == 1 ? .max(1) : .none })
        upstream.print("👉", to: log).subscribe(subscriber)
        _ = upstream.send(1)
        _ = upstream.send(2)
        subscriber.request(.unlimited)
        upstream.send(completion: .failure(Boom()))
        #expect(log.calls == [
            "", "👉: receive subscription: (TestSubscription)", "\n",
            "", "👉: request max: (2)", "\n",
            "", "👉: receive value: (1)", "\n",
            "", "👉: request max: (1) (synchronous)", "\n",
            "", "👉: receive value: (2)", "\n",
            "", "👉: request unlimited", "\n",
            "", "👉: receive error: (Boom)", "\n",
        ])
    }

    @Test func writesCancelInTheCallsCombineMakes() {
        let log = TextLog()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        upstream.print(to: log).subscribe(subscriber)
        _ = upstream.send(7)
        subscriber.cancel()
        #expect(log.calls == [
            "", "receive subscription: (TestSubscription)", "\n",
            "", "request unlimited", "\n",
            "", "receive value: (7)", "\n",
            "", "receive cancel", "\n",
        ])
        #expect(upstream.isCancelled)
    }

    // MARK: Demand

    @Test func logsLimitedDemandOfASequence() {
        let log = TextLog()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        [1, 2, 3].publisher.print("p", to: log).subscribe(subscriber)
        subscriber.request(.max(1))
        #expect(log.lines == [
            "p: receive subscription: (Sequence)",
            "p: request max: (2)",
            "p: receive value: (1)",
            "p: receive value: (2)",
            "p: request max: (1)",
            "p: receive value: (3)",
            "p: receive finished",
        ])
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func logsDemandReturnedFromReceiveAsSynchronous() {
        let log = TextLog()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { value in
            switch value {
            case 1: .max(1)
            case 2: .unlimited
            default: .none
            }
        })
        [1, 2, 3].publisher.print(to: log).subscribe(subscriber)
        #expect(log.lines == [
            "receive subscription: (Sequence)",
            "request max: (1)",
            "receive value: (1)",
            "request max: (1) (synchronous)",
            "receive value: (2)",
            "request unlimited (synchronous)",
            "receive value: (3)",
            "receive finished",
        ])
    }

    /// `.none` goes to the upstream as it is, and is logged (S9): TestPublisher records it,
    /// `Just` reports it (see `contract` for a sequence, which ignores it).
    @Test func requestingNoneFollowsTheUpstream_S9() {
        let log = TextLog()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.print(to: log).subscribe(subscriber)
        #expect(recordingAPIViolations { subscriber.request(.none) }.isEmpty)
        #expect(upstream.history == [.requested(.none)])
        #expect(log.lines == ["receive subscription: (TestSubscription)", "request max: (0)"])

        let fromJust = recordingAPIViolations {
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            Just(1).print(to: TextLog()).subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(fromJust.count == 1 && fromJust[0].contains("S9") && fromJust[0].contains("Just"))
    }

    // MARK: Completion and failure

    @Test func logsAFailure() {
        let log = TextLog()
        let subscriber = RecordingSubscriber<Int, Boom>()
        Fail<Int, Boom>(error: Boom()).print("f", to: log).subscribe(subscriber)
        #expect(log.lines == ["f: receive subscription: (Empty)", "f: request unlimited", "f: receive error: (Boom)"])
        #expect(subscriber.events == [.subscription, .completion(.failure(Boom()))])

        let later = TextLog()
        let upstream = TestPublisher<Int, Boom>()
        upstream.print(to: later).subscribe(RecordingSubscriber<Int, Boom>(demand: .max(3)))
        upstream.send(5)
        upstream.send(completion: .failure(Boom()))
        #expect(later.lines == [
            "receive subscription: (TestSubscription)", "request max: (3)", "receive value: (5)", "receive error: (Boom)",
        ])
    }

    @Test func logsNothingAfterTheCompletion_S4() {
        let log = TextLog()
        let subscriber = RecordingSubscriber<Int, Never>()
        HandleEventsTests.SendsAfterCompletion().print(to: log).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
        #expect(log.lines == ["receive subscription: (Empty)", "request unlimited", "receive value: (1)", "receive finished"])
    }

    @Test func completionReleasesTheStream_S7() {
        weak var weakLog: TextLog?
        var cancellable: AnyCancellable?
        let upstream = TestPublisher<Int, Never>()
        do {
            let log = TextLog()
            weakLog = log
            cancellable = upstream.print(to: log).sink { _ in }
        }
        #expect(weakLog != nil)
        upstream.send(completion: .finished)
        #expect(weakLog == nil)
        _ = cancellable
    }

    // MARK: Cancellation

    @Test func logsACancellationOnce() {
        let log = TextLog()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.print("c", to: log).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(log.lines == [
            "c: receive subscription: (TestSubscription)",
            "c: request max: (1)",
            "c: receive value: (1)",
            "c: receive cancel",
        ])
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    /// A stream that cancels while a value's line is written: the value is not delivered.
    @Test func cancelFromInsideTheValuesLineStopsTheValue_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let log = TextLog()
        log.onWrite = { line in
            if line == "receive value: (2)" { box.subscriber?.cancel() }
        }
        let subscriber = RecordingSubscriber<Int, Never>(demand: .unlimited)
        box.subscriber = subscriber
        [1, 2, 3].publisher.print(to: log).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(log.lines == [
            "receive subscription: (Sequence)",
            "request unlimited",
            "receive value: (1)",
            "receive value: (2)",
            "receive cancel",
        ])
    }

    @Test func cancelReleasesTheStreamAndTheSubscriber_S7() {
        weak var weakLog: TextLog?
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        let upstream = TestPublisher<Int, Never>()
        do {
            let log = TextLog()
            weakLog = log
            let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakSubscriber = subscriber
            upstream.print(to: log).subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakLog != nil && weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakLog == nil)
        #expect(weakSubscriber == nil)
    }

    // MARK: Reentrancy

    /// A stream whose `write` makes the pipeline log again: the new line is written after the
    /// current one, in order, without deadlock.
    @Test func aLineLoggedFromInsideWriteFollowsInOrder() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let log = TextLog()
        log.onWrite = { line in
            if line.hasPrefix("receive value") { box.subscriber?.request(.max(1)) }
        }
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        box.subscriber = subscriber
        [1, 2, 3].publisher.print(to: log).subscribe(subscriber)
        box.subscriber = nil
        #expect(log.lines == [
            "receive subscription: (Sequence)",
            "request max: (1)",
            "receive value: (1)",
            "request max: (1)",
            "receive value: (2)",
            "request max: (1)",
            "receive value: (3)",
            "request max: (1)",
            "receive finished",
        ])
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let log = TextLog()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<10_000).publisher.print(to: log).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
        // subscription, 10,001 requests, 10,000 values, finished
        #expect(log.lines.count == 20_003)
    }

    // MARK: Description

    @Test func subscriptionIsNamedAsInCombine() {
        // What `print()` shows as "receive subscription: (Print)", as in Combine.
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        TestPublisher<Int, Never>().print(to: TextLog()).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Print")
    }

    // MARK: Misbehaving upstream (S2)

    @Test func ignoresMisbehavingUpstream_S2() {
        // print keeps state (it sees requests and cancels), so it ignores what its upstream
        // sends before the subscription or after its end, and cancels a second subscription.
        checkIgnoresMisbehavingUpstream({ $0.print(to: TextLog()) }, value: 1, failure: Boom())
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.print(to: TextLog()) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.print("t", to: TextLog()) }, requestingNone: .isIgnored)
        checkContract { Just(1).print(to: TextLog()) }
        checkContract { Fail<Int, Boom>(error: Boom()).print(to: TextLog()) }
    }
}
