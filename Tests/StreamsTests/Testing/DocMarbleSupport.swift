import Foundation
import Streams
import StreamsTesting
import Synchronization

// Helpers the <!-- marble ... --> annotations of doc comments use (see MarbleBlock's doc
// comment): an input row's values arrive as their text, these turn them into what the
// documented operator takes.

extension Publisher where Output == String {
    /// The values as numbers: `"1"` -> `1`.
    var ints: Publishers.Map<Self, Int> { map { Int($0)! } }
}

/// What a documented closure throws.
struct DocError: Error, Equatable {}

/// `text`, or a thrown ``DocError`` for `x`: "the closure throws for x".
func failOnX(_ text: String) throws -> String {
    if text == "x" { throw DocError() }
    return text
}

/// `1 / n`, throwing for 0.
func reciprocal(_ n: Int) throws -> Double {
    if n == 0 { throw DocError() }
    return 1 / Double(n)
}

/// `a / b`, throwing for a zero divisor.
func divide(_ a: Int, by b: Int) throws -> Int {
    if b == 0 { throw DocError() }
    return a / b
}

/// The error the `mapError` diagram maps to.
enum AppError: Error {
    case network(MarbleFailure)
}

/// A print stream that keeps nothing.
struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// Subscribes `subject` to `input` and returns it: a subject fed by an input row.
func feeding<S: Subject>(_ subject: S, from input: TestPublisher<String, MarbleFailure>) -> S
where S.Output == String, S.Failure == MarbleFailure {
    input.subscribe(AnySubscriber(subject))
    return subject
}

/// A publisher whose `n`th subscription subscribes to `inputs[n]`: one input row per attempt.
func attempts(_ inputs: [TestPublisher<String, MarbleFailure>]) -> Deferred<TestPublisher<String, MarbleFailure>> {
    let next = Counter()
    return Deferred { inputs[min(next.increment(), inputs.count - 1)] }
}

final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() -> Int { count.add(1, ordering: .relaxed).oldValue }
}

/// Whole seconds since a `DispatchQueue.test` scheduler started.
func seconds(_ time: DispatchQueue.SchedulerTimeType) -> Int {
    Int(time.dispatchTime.uptimeNanoseconds / 1_000_000_000)
}
