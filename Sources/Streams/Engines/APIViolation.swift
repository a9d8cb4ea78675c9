/// Where reports of broken contract rules go.
///
/// By default a violation stops the program with a message naming the rule (see the [stream contract](doc:/Contract/StreamContract)). A
/// test can bind `current` to record violations instead (StreamsTesting's
/// `recordingAPIViolations`), so that a contract check can assert that, say, `request(.none)`
/// is reported, without crashing the test process. Reading it costs nothing until a violation
/// happens.
package enum APIViolationReporter {
    /// The handler of the current task; `nil` stops the program.
    @TaskLocal package static var current: (@Sendable (String) -> Void)?
}

/// Stops the program for a broken rule of the stream contract, with a message that names the
/// rule, or hands the message to a test's handler. Used instead of `precondition`, whose message
/// optimized builds drop.
@usableFromInline
package func reportAPIViolation(
    _ rule: StaticString, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    let text = "API violation (\(rule)): \(message())"
    if let handler = APIViolationReporter.current {
        handler(text)
        return
    }
    fatalError(text, file: file, line: line)
}

extension Subscribers.Demand {
    /// Rule [S9], for the publishers where Combine traps on a zero request (`Just`, `Future`,
    /// subjects, `Optional`/`Result` publishers, `dropFirst`, `drop(while:)`, `collect(_:)`,
    /// `flatMap`, `switchToLatest`, `replaceError`, `replaceEmpty`, `catch`): reports `.none` as
    /// an API violation and returns `false`. Every other publisher ignores `.none` instead.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    package func isValidRequest(
        of publisher: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
    ) -> Bool {
        if rawValue != 0 { return true }
        reportAPIViolation(
            "S9", "\(publisher()) was asked for .none; a request must be for at least one value", file: file, line: line
        )
        return false
    }
}
