import ComposableArchitecture
import Dispatch
import StreamsTesting
import Testing
import XCTest

/// Where a step of a test was written: what a failure points at.
struct StepLocation: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// `File.swift:42`, for messages that point at another step.
    var short: String {
        let fileID = "\(self.fileID)"
        let file = fileID.split(separator: "/").last.map(String.init) ?? fileID
        return "\(file):\(line)"
    }
}

/// Records test failures, in Swift Testing or in XCTest, whichever runs the test.
///
/// A failure found while an effect's action runs outside any step of the test — delivered from
/// another thread, through a main-queue block — has no current Swift Testing test to go to (the
/// test is a task-local). Such failures wait here and are recorded at the test's next step.
@MainActor
final class FailureReporter {
    /// Whether the store was made inside a Swift Testing test.
    private let isSwiftTesting = Test.current != nil
    private var pending: [(message: String, location: StepLocation)] = []

    nonisolated init() {}

    /// Records a failure now, or at the next step when there is no test to record it in now.
    func fail(_ message: String, at location: StepLocation) {
        if isSwiftTesting && Test.current == nil {
            pending.append((message, location))
        } else {
            recordNow(message, at: location)
        }
    }

    /// Records the failures that were waiting for a step (call at the start of every step).
    func flush() {
        guard !pending.isEmpty else { return }
        let failures = pending
        pending = []
        for failure in failures { recordNow(failure.message, at: failure.location) }
    }

    /// Records a failure from any thread: now on the main queue, else at the next step.
    nonisolated func failFromAnyThread(_ message: String, at location: StepLocation) {
        onMainQueue { [self] in fail(message, at: location) }
    }

    /// Records a failure at once: with `Issue.record` inside a Swift Testing test or for a store
    /// made in one (Swift Testing then reports it outside any test), else with `XCTFail`.
    func recordNow(_ message: String, at location: StepLocation) {
        let sourceLocation = SourceLocation(
            fileID: "\(location.fileID)", filePath: "\(location.filePath)",
            line: Int(location.line), column: Int(max(location.column, 1)))
        if let capture = TestFailures.capture {
            // A test of the package that checks this failure is reported (capturingTestFailures).
            capture.append(CapturedFailure(comments: [Comment(rawValue: message)], sourceLocation: sourceLocation))
        } else if isSwiftTesting || Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            XCTFail(message, file: location.filePath, line: location.line)
        }
    }
}
