import Foundation

/// Where the architecture reports misuse that it survives — an action for state that is gone —
/// instead of crashing or silently doing the wrong thing.
///
/// By default a report is written to standard error, prefixed with `[ComposableArchitecture]`.
/// `TestStore` binds ``handler`` so that a report fails the test. Every message names the action
/// and the reducer or store that received it (by where it was made: file and line). In each
/// case the action changes nothing and starts nothing:
/// - ``Reducer/optional(fileID:line:)`` got an action while its state was `nil`: "An
///   `optional()` reducer (file:line) received an action while its state was nil: `action`. ..."
/// - a `forEach` reducer (over an array, by index, or over an ``IdentifiedArray``, by id) got an
///   action for an element that is not in its collection: "A `forEach` reducer (file:line) received an action for an element
///   that is not in its collection: id `id`, action `action`. ..."
/// - a store made by ``Store/ifLet(then:else:fileID:line:)`` got an action after its state became
///   `nil`: "A store made by `ifLet` (file:line) received an action after its state had become
///   nil: `action`. The action was not sent ..."
/// - `Effect.run`'s `send` was called after the closure had returned (see
///   ``Effect/run(priority:operation:)``): "An action was sent with `send` after its `Effect.run`
///   closure had returned; it was dropped. ..."
///
/// A report is a bug in the app, usually an effect or a view that outlived the state it belongs
/// to: the message says which.
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
