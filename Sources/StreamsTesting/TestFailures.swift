import Streams
import Testing

/// Where the package's testing libraries record a test failure: StreamsTesting's assertions, the
/// test store of ComposableArchitectureTesting, the scheduler doubles.
///
/// A failure is recorded with `Issue.record` (or `XCTFail`), unless a test of the package itself
/// is checking that the failure is reported: inside ``capturingTestFailures(_:)`` the failure is
/// handed to the capture instead, so a passing `swift test` prints no failure text and counts no
/// known issue. The capture is a task-local value: a task started inside it (an effect's work, a
/// marble run's task) inherits it.
package enum TestFailures {
    /// The current task's capture; `nil` records failures as failures.
    @TaskLocal package static var capture: LockedList<CapturedFailure>?

    /// Records `comment` as a failure at `sourceLocation`, or hands it to the capture.
    ///
    /// - Parameters:
    ///   - comment: What failed.
    ///   - sourceLocation: The line the failure points at.
    package static func record(_ comment: Comment, sourceLocation: SourceLocation) {
        if let capture {
            capture.append(CapturedFailure(comments: [comment], sourceLocation: sourceLocation))
        } else {
            Issue.record(comment, sourceLocation: sourceLocation)
        }
    }

    /// Records `comment` as a failure of the current test, or hands it to the capture.
    ///
    /// - Parameter comment: What failed.
    package static func record(_ comment: Comment) {
        if let capture {
            capture.append(CapturedFailure(comments: [comment], sourceLocation: nil))
        } else {
            Issue.record(comment)
        }
    }
}

/// A failure reported inside ``capturingTestFailures(_:)``: what `Issue.record` would have been
/// given, with the names a Swift Testing `Issue` has (`description`, `comments`,
/// `sourceLocation`).
package struct CapturedFailure: Sendable, CustomStringConvertible {
    /// What failed.
    package let comments: [Comment]
    /// The line the failure points at, if it names one.
    package let sourceLocation: SourceLocation?

    /// A failure with `comments`, pointing at `sourceLocation`.
    ///
    /// - Parameters:
    ///   - comments: What failed.
    ///   - sourceLocation: The line the failure points at, if any.
    package init(comments: [Comment], sourceLocation: SourceLocation?) {
        self.comments = comments
        self.sourceLocation = sourceLocation
    }

    /// The failure's text.
    package var description: String { comments.map(\.rawValue).joined(separator: "\n") }
}

/// Runs `body` and returns the test failures the package's testing libraries reported while it
/// ran, instead of recording them.
///
/// For the package's own tests of those failures.
///
/// - Parameter body: The code that should report failures.
/// - Returns: The failures, in the order they were reported.
package func capturingTestFailures(_ body: () throws -> Void) rethrows -> [CapturedFailure] {
    let capture = LockedList<CapturedFailure>()
    try TestFailures.$capture.withValue(capture) { try body() }
    return capture.all
}

/// Runs `body` and returns the test failures the package's testing libraries reported while it
/// ran (and in the tasks it started, until it returned), instead of recording them.
///
/// - Parameters:
///   - isolation: The actor `body` runs on: the caller's.
///   - body: The code that should report failures.
/// - Returns: The failures, in the order they were reported.
package func capturingTestFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [CapturedFailure] {
    let capture = LockedList<CapturedFailure>()
    try await TestFailures.$capture.withValue(capture) { try await body() }
    return capture.all
}

/// Expects `body` to report at least one test failure, each matching `matching`; the failures
/// are not recorded as failures of the test (see ``capturingTestFailures(_:)``).
///
/// - Parameters:
///   - body: The code that should report failures.
///   - matching: Whether a failure is one the test expects.
///   - fileID: The file the expectation is in.
///   - filePath: The file's path.
///   - line: The line of the expectation.
///   - column: The column of the expectation.
package func expectFailures(
    _ body: () throws -> Void,
    matching: (CapturedFailure) -> Bool = { _ in true },
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) rethrows {
    let failures = try capturingTestFailures(body)
    checkFailures(failures, matching, SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Expects `body` to report at least one test failure, each matching `matching`; the failures
/// are not recorded as failures of the test (see ``capturingTestFailures(_:)``).
///
/// - Parameters:
///   - isolation: The actor `body` runs on: the caller's.
///   - body: The code that should report failures.
///   - matching: Whether a failure is one the test expects.
///   - fileID: The file the expectation is in.
///   - filePath: The file's path.
///   - line: The line of the expectation.
///   - column: The column of the expectation.
package func expectFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void,
    matching: (CapturedFailure) -> Bool = { _ in true },
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) async rethrows {
    let failures = try await capturingTestFailures(body)
    checkFailures(failures, matching, SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

private func checkFailures(
    _ failures: [CapturedFailure], _ matching: (CapturedFailure) -> Bool,
    _ location: SourceLocation
) {
    if failures.isEmpty {
        Issue.record("Expected a test failure to be reported; none was", sourceLocation: location)
    }
    for failure in failures where !matching(failure) {
        Issue.record(
            Comment(rawValue: "A test failure that was not expected was reported:\n\(failure)"),
            sourceLocation: failure.sourceLocation ?? location)
    }
}
