import Foundation
import Streams
import StreamsTesting
import Testing

// The contexts of the ```swift examples of Streams and StreamsTesting that need names they do
// not declare. An example annotated `<!-- example context: NAME -->` is compiled in a copy of
// the function after the line `// <!-- example context: NAME -->`, in place of its line
// `// example` (see Scripts/extract-examples). Each copy is compiled, never called or run.

// <!-- example context: suite -->
/// An example that is a `@Test` function, as a test suite writes it: inside a suite, which is
/// disabled (the example is compiled, not run). It has the names such an example leaves to the
/// suite around it: `Boom`, an error to fail with, and `check(_:)`, the check of one random
/// program of a model-based test.
@Suite(.disabled("a doc example: compiled, not run"))
struct ExampleSuite {
    struct Boom: Error {}

    func check(_ seed: Int) {}

    // example
}

// <!-- example context: marble -->
/// The expression of a marble annotation (see `MarbleBlock`), as a closure: `scheduler` is the
/// diagram's `DispatchQueue.test`, `upstream` its input row (`$0`), `future` a `Future` that a
/// diagram awaits.
@MainActor func marbleExpression(
    scheduler: TestSchedulerOf<DispatchQueue>,
    upstream: TestPublisher<String, MarbleFailure>,
    future: Future<String, Never>
) {
    let expression = {
        // example
    }
    _ = expression
}
