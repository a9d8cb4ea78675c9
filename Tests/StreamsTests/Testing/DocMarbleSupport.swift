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

/// Subscribes to `input` and calls `apply(target, value)` for each of its values: an input row
/// that does something to an object (sets a property, calls `send()`) at its ticks. Returns
/// `target`.
func driving<Target: AnyObject>(
    _ target: Target, by input: TestPublisher<String, MarbleFailure>, _ apply: @escaping (Target, String) -> Void
) -> Target {
    input.subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { [target] in apply(target, $0) }))
    return target
}

/// An object with one `@Published` property, for the `Published` and `ObservableObject`
/// diagrams.
final class PublishedModel: ObservableObject {
    @Published var value: String
    init(_ value: String) { self.value = value }
}

/// An object whose property records each value set into it as a row: the `assign` diagrams.
final class PropertyLog {
    let row: PassthroughSubject<String, Never>
    var value = "" { didSet { row.send(value) } }
    init(_ row: PassthroughSubject<String, Never>) { self.row = row }
}

/// The text of a value that has a name in the key-path `map` diagrams.
struct User { let name: String }
struct Point: Codable { let x: Int, y: Int }
struct Color { let r: Int, g: Int, b: Int }

/// The value a legend entry's text names, for the diagrams whose values are structs: the input
/// row's values arrive as the legend's text (`User(name: "Ann")`).
func legendValue<Value>(_ text: String, as type: Value.Type = Value.self) -> Value {
    let values: [String: Any] = [
        #"User(name: "Ann")"#: User(name: "Ann"), #"User(name: "Bo")"#: User(name: "Bo"),
        "Point(x: 1, y: 2)": Point(x: 1, y: 2), "Point(x: 3, y: 4)": Point(x: 3, y: 4),
        "Color(r: 1, g: 2, b: 3)": Color(r: 1, g: 2, b: 3),
    ]
    return values[text] as! Value
}

/// A JSON encoder with sorted keys (the diagrams' JSON texts are stable).
let sortedKeysEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
}()

/// Data as its UTF-8 text.
func utf8(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
