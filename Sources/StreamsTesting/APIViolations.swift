import Streams

/// Runs `body` with contract violations recorded instead of stopping the program, and returns
/// the messages reported on this task while it ran.
///
/// A publisher that detects a broken rule (for example `request(.none)`, [S9]) normally stops the
/// program with a message naming the rule. Inside this function the message is collected and the
/// publisher carries on as if the call had not been made, so a test can assert it:
///
/// ```swift
/// let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
/// Just(1).subscribe(subscriber)
/// let messages = recordingAPIViolations { subscriber.request(.none) }
/// // messages == ["API violation (S9): Just was asked for .none; ..."]
/// ```
///
/// Only violations reported on the calling task are seen (the recorder is a task-local value).
///
/// - Parameter body: The code to run.
/// - Returns: The messages of the violations reported while `body` ran, in order.
///
/// [S9]: doc:/Contract/StreamContract#S9
public func recordingAPIViolations(_ body: () throws -> Void) rethrows -> [String] {
    let messages = LockedList<String>()
    try APIViolationReporter.$current.withValue({ messages.append($0) }, operation: body)
    return messages.all
}
