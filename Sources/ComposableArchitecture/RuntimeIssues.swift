import Foundation

/// Where the architecture reports misuse that it survives — an action for state that is gone —
/// instead of crashing or silently doing the wrong thing.
///
/// By default a report is written to standard error, prefixed with `[ComposableArchitecture]`.
/// `TestStore` binds ``handler`` so that a report fails the test. Every message names the action
/// and the reducer (by where it was made: file and line).
public enum RuntimeIssues {
    /// The current task's handler; `nil` writes to standard error.
    @TaskLocal public static var handler: (@Sendable (String) -> Void)?

    /// Reports `message`.
    public static func report(_ message: String) {
        if let handler {
            handler(message)
        } else {
            FileHandle.standardError.write(Data("[ComposableArchitecture] \(message)\n".utf8))
        }
    }
}
