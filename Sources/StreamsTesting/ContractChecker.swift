import Dispatch
import Streams
import Testing

/// What a publisher does when asked for `.none` (rule [S9]), as Combine's does.
///
/// [S9]: doc:/Contract/StreamContract#S9
public enum NoneRequestBehavior: Sendable {
    /// Reports an API violation naming [S9]: the publishers where Combine traps (`Just`, `Future`,
    /// subjects, `Optional` and `Result` publishers, `dropFirst`, `drop(while:)`, `collect(_:)`,
    /// `flatMap`, `switchToLatest`, `replaceError`, `replaceEmpty`, `catch`), and an operator
    /// that passes requests straight on to one of them (`map`, `handleEvents`, ...).
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    case isViolation
    /// Accepts it and does nothing: most operators (one with a subscription of its own does not
    /// pass `.none` on), `buffer`, `Publishers.Sequence`, and an operator that passes requests
    /// straight on to one of these.
    case isIgnored
}

/// Runs the rules [S1]–[S9] of the [stream contract](doc:/Contract/StreamContract) against a publisher and records a test
/// issue, naming the rule, for each one it breaks.
///
/// `makePublisher` is called once per check, so it must make a fresh publisher each time, and
/// the publisher must deliver synchronously, on the subscribing or requesting thread (a
/// sequence, `Just`, an operator chain on one, ...). Time-based publishers are checked with the
/// TestScheduler instead. The checks:
///
/// - [S1]: requesting `.max(1)` at a time never yields more values than requested; demand returned
///   from `receive(_:)` is honoured; both give the same values as unlimited demand (when
///   `deterministic`).
/// - [S2], [S3], [S4]: the subscription comes first, once; signals never overlap; nothing follows the
///   completion (watched by ``RecordingSubscriber`` in every run).
/// - [S5]: a completion that arrives without demand is accepted (nothing to check: it is allowed).
/// - [S6]: nothing arrives once `cancel()` has returned: `cancel()` twice, then `request`,
///   delivers nothing; cancelling after the first value of a stepwise run, then requesting
///   more, delivers nothing more; cancelling inside the first value stops delivery; `request`
///   racing `cancel` on two threads never breaks [S3] or crashes, and nothing arrives after both
///   have returned.
/// - [S7]: after `cancel()`, and after the completion, the subscription no longer keeps the
///   subscriber alive.
/// - [S8]: requesting from inside `receive(subscription:)` and `receive(_:)` delivers the same
///   values, without the stack growing with the number of values (checked from 100 values on).
/// - [S9]: `request(.none)` is reported as a violation, or ignored, as `requestingNone` says.
///   Combine traps only for a few publishers (see ``NoneRequestBehavior``); most operators
///   ignore it, so pass `.isIgnored` for them. The default, `.isViolation`, is kept for the
///   callers that check a trapping publisher without naming it.
///
/// <!-- example context: suite -->
/// ```swift
/// @Test func contract() {
///     checkContract { (1...500).publisher.map { $0 * 2 } }
/// }
/// ```
///
/// - Parameters:
///   - makePublisher: A closure that makes a fresh publisher for each check.
///   - deterministic: Whether the publisher sends the same values each time, so that runs with
///     different demand can be compared; `true` by default.
///   - requestingNone: What the publisher does when asked for `.none`: reports a violation (by
///     default) or ignores it.
///   - sourceLocation: Where to report a failure; the caller's location by default.
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
/// [S4]: doc:/Contract/StreamContract#S4
/// [S5]: doc:/Contract/StreamContract#S5
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
/// [S8]: doc:/Contract/StreamContract#S8
/// [S9]: doc:/Contract/StreamContract#S9
public func checkContract<P: Publisher>(
    _ makePublisher: @escaping () -> P,
    deterministic: Bool = true,
    requestingNone: NoneRequestBehavior = .isViolation,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for problem in contractProblems(makePublisher, deterministic: deterministic, requestingNone: requestingNone) {
        TestFailures.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
}

/// Runs the checks of ``checkContract(_:deterministic:requestingNone:sourceLocation:)`` and
/// returns the problems found, each starting with the rule it breaks (`"S1: ..."`), instead of
/// recording them as test issues.
///
/// - Parameters:
///   - makePublisher: A closure that makes a fresh publisher for each check.
///   - deterministic: Whether the publisher sends the same values each time, so that runs with
///     different demand can be compared; `true` by default.
///   - requestingNone: What the publisher does when asked for `.none`: reports a violation (by
///     default) or ignores it.
/// - Returns: The problems found, each naming the rule it breaks; empty when there are none.
public func contractProblems<P: Publisher>(
    _ makePublisher: @escaping () -> P,
    deterministic: Bool = true,
    requestingNone: NoneRequestBehavior = .isViolation
) -> [String] {
    let checker = ContractChecker(
        makePublisher: makePublisher, deterministic: deterministic,
        requestingNone: requestingNone)
    checker.run()
    return checker.problems.all
}

private struct ContractChecker<P: Publisher> {
    typealias Recorder = RecordingSubscriber<P.Output, P.Failure>
    let makePublisher: () -> P
    let deterministic: Bool
    let requestingNone: NoneRequestBehavior
    let problems = ProblemList()

    func fail(_ rule: String, _ message: String) {
        problems.append("\(rule): \(message)")
    }

    func report(_ recorder: Recorder, in check: String) {
        for violation in recorder.violations {
            fail(String(violation.prefix(2)), "\(violation) [\(check)]")
        }
        if !recorder.events.isEmpty, case .subscription = recorder.events[0] {
        } else {
            fail("S2", "no subscription arrived first [\(check)]")
        }
    }

    func subscribe(_ recorder: Recorder) {
        makePublisher().subscribe(recorder)
    }

    func run() {
        let reference = Recorder(demand: .unlimited)
        subscribe(reference)
        report(reference, in: "unlimited demand")
        let expected = Outcome(reference)

        checkStepwiseDemand(expected)
        checkReturnedDemand(expected)
        checkReentrantRequests(expected)
        checkCancellation()
        checkRelease(finishes: reference.completion != nil)
        checkNoneRequest()
    }

    // MARK: S1

    func checkStepwiseDemand(_ expected: Outcome) {
        let recorder = Recorder(demand: nil)
        subscribe(recorder)
        if !recorder.values.isEmpty {
            fail("S1", "\(recorder.values.count) value(s) arrived before any demand")
        }
        let limit = expected.finished ? expected.values.count + 2 : 1_000
        var requested = 0
        while recorder.completion == nil && requested < limit {
            recorder.request(.max(1))
            requested += 1
            if recorder.values.count > requested {
                fail("S1", "\(recorder.values.count) values arrived after requesting \(requested)")
                break
            }
        }
        report(recorder, in: "request(.max(1)) at a time")
        compare(Outcome(recorder), expected, "request(.max(1)) at a time")
    }

    func checkReturnedDemand(_ expected: Outcome) {
        let recorder = Recorder(demand: .max(1), onValue: { _ in .max(1) })
        subscribe(recorder)
        report(recorder, in: "returning .max(1) from receive(_:)")
        compare(Outcome(recorder), expected, "returning .max(1) from receive(_:)")
    }

    func compare(_ actual: Outcome, _ expected: Outcome, _ check: String) {
        guard deterministic, expected.finished else { return }
        if actual.values != expected.values || actual.completion != expected.completion {
            fail("S1", "with \(check) the publisher sent \(actual) instead of \(expected)")
        }
    }

    // MARK: S8

    func checkReentrantRequests(_ expected: Outcome) {
        let slot = RecorderSlot<Recorder>()
        let stack = StackSpan()
        let recorder = Recorder(
            demand: nil,
            onSubscription: { _ in slot.recorder?.request(.max(1)) },
            onValue: { _ in
                stack.record()
                slot.recorder?.request(.max(1))
                return .none
            })
        slot.recorder = recorder
        subscribe(recorder)
        slot.recorder = nil
        report(recorder, in: "request(.max(1)) from inside receive")
        compare(Outcome(recorder), expected, "request(.max(1)) from inside receive")
        if stack.count >= 100 && stack.span > 64 * 1024 {
            fail("S8", "the stack grew by \(stack.span) bytes over \(stack.count) re-entrant requests")
        }
    }

    // MARK: S6

    func checkCancellation() {
        let recorder = Recorder(demand: nil)
        subscribe(recorder)
        let before = recorder.events.count
        recorder.cancel()
        recorder.cancel()
        recorder.request(.max(1))
        recorder.request(.unlimited)
        if recorder.events.count != before {
            fail("S6", "events arrived after cancel(): \(recorder.events.dropFirst(before).map(\.description))")
        }
        report(recorder, in: "cancel")

        // Cancelled after its first value, a stream sends nothing more, whatever is asked for.
        let stepwise = Recorder(demand: nil)
        subscribe(stepwise)
        stepwise.request(.max(1))
        if stepwise.completion == nil && !stepwise.values.isEmpty {
            let seen = stepwise.events.count
            stepwise.cancel()
            stepwise.request(.max(1))
            stepwise.request(.unlimited)
            if stepwise.events.count != seen {
                fail(
                    "S6",
                    "events arrived after cancel() following the first value: \(stepwise.events.dropFirst(seen).map(\.description))"
                )
            }
        }
        report(stepwise, in: "cancel after the first value")

        let slot = RecorderSlot<Recorder>()
        let cancelling = Recorder(
            demand: .unlimited,
            onValue: { _ in
                slot.recorder?.cancel()
                return .none
            })
        slot.recorder = cancelling
        subscribe(cancelling)
        slot.recorder = nil
        let events = cancelling.events
        if let first = events.firstIndex(where: { if case .value = $0 { true } else { false } }),
            first + 1 < events.count
        {
            fail(
                "S6",
                "events arrived after cancel() inside receive(_:): \(events.dropFirst(first + 1).map(\.description))")
        }
        report(cancelling, in: "cancel inside receive(_:)")

        for _ in 0..<100 {
            let racing = Recorder(demand: nil)
            subscribe(racing)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { racing.request(.max(1)) } else { racing.cancel() }
            }
            racing.cancel()
            let seen = racing.events.count
            racing.request(.unlimited)
            if racing.events.count != seen {
                fail(
                    "S6",
                    "events arrived after cancel() [request racing cancel]: \(racing.events.dropFirst(seen).map(\.description))"
                )
                break
            }
            for violation in racing.violations {
                fail(String(violation.prefix(2)), "\(violation) [request racing cancel]")
            }
        }
    }

    // MARK: S7

    func checkRelease(finishes: Bool) {
        var (released, subscription) = subscribeAndDrop(demand: nil) { $0.cancel() }
        if !released {
            fail("S7", "after cancel(), the subscription still keeps the subscriber alive")
        }
        subscription = nil
        if finishes {
            (released, subscription) = subscribeAndDrop(demand: .unlimited) { _ in }
            if !released {
                fail("S7", "after the completion, the subscription still keeps the subscriber alive")
            }
        }
        _ = subscription
    }

    /// Subscribes a recorder, runs `body`, drops every reference to the recorder except the
    /// publisher's, and tells whether the recorder is gone; hands back the subscription so it
    /// stays alive during the check.
    func subscribeAndDrop(demand: Subscribers.Demand?, _ body: (Recorder) -> Void) -> (Bool, Subscription?) {
        weak var weakRecorder: Recorder?
        var subscription: Subscription?
        do {
            let recorder = Recorder(demand: demand)
            weakRecorder = recorder
            subscribe(recorder)
            subscription = recorder.subscription
            body(recorder)
            recorder.releaseSubscription()
        }
        return (weakRecorder == nil, subscription)
    }

    // MARK: S9

    func checkNoneRequest() {
        let recorder = Recorder(demand: nil)
        subscribe(recorder)
        guard recorder.completion == nil, let subscription = recorder.subscription else { return }
        let before = recorder.events.count
        let messages = recordingAPIViolations { subscription.request(.none) }
        switch requestingNone {
        case .isViolation:
            if !messages.contains(where: { $0.contains("S9") }) {
                fail("S9", "request(.none) was not reported as an API violation naming S9 (reported: \(messages))")
            }
        case .isIgnored:
            if !messages.isEmpty {
                fail("S9", "request(.none) should be ignored but was reported: \(messages)")
            }
        }
        if recorder.events.count != before {
            fail("S9", "request(.none) delivered events: \(recorder.events.dropFirst(before).map(\.description))")
        }
        recorder.cancel()
    }

    // MARK: Helpers

    struct Outcome: Equatable, CustomStringConvertible {
        var values: [String]
        var completion: String?
        var finished: Bool { completion != nil }

        init(_ recorder: Recorder) {
            values = recorder.values.map { String(describing: $0) }
            completion = recorder.completion.map { completion in
                switch completion {
                case .finished: "finished"
                case .failure(let error): "failure(\(error))"
                }
            }
        }

        var description: String {
            let shown =
                values.count > 20
                ? values.prefix(20).joined(separator: ", ") + ", … (\(values.count) values)"
                : values.joined(separator: ", ")
            return "[\(shown)] then \(completion ?? "no completion")"
        }
    }
}

private final class ProblemList: @unchecked Sendable {  // `items` is guarded by `lock`
    private let lock = Lock()
    private var items: [String] = []
    func append(_ problem: String) { lock.withLock { items.append(problem) } }
    var all: [String] { lock.withLock { items } }
}

/// Lets a recorder's hooks reach the recorder itself.
private final class RecorderSlot<Recorder: AnyObject>: @unchecked Sendable {  // `value` guarded by `lock`
    private let lock = Lock()
    private var value: Recorder?
    var recorder: Recorder? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Measures how far the stack pointer moves across calls of `record()`.
private final class StackSpan: @unchecked Sendable {  // fields guarded by `lock`
    private let lock = Lock()
    private var lowest = UInt.max
    private var highest = UInt.min
    private(set) var count = 0

    @inline(never)
    func record() {
        var marker = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        lock.withLock {
            lowest = min(lowest, address)
            highest = max(highest, address)
            count += 1
        }
    }

    var span: UInt { lock.withLock { count == 0 ? 0 : highest - lowest } }
}
