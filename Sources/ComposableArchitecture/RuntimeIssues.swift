import Foundation
import Streams

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
///   ``Effect/run(priority:operation:catch:fileID:line:)``): "An action was sent with `send` after
///   its `Effect.run` closure had returned; it was dropped. ..."
/// - the work of an `Effect.task`, `Effect.run` or `Effect { ... }` threw an error and no `catch`
///   handler was given (see ``Effect/task(priority:operation:catch:fileID:line:)``): "An effect
///   made by `Effect.task` at file:line threw an error that nothing handles: `error`. ..." The
///   effect finishes without an action.
/// - a store started an ``Effect/unimplemented(_:fileID:line:)`` effect: "An unimplemented effect
///   was started: `description` (made at file:line). ..."
///
/// A report is a bug in the app, usually an effect or a view that outlived the state it belongs
/// to: the message says which.
///
/// The handler is a task-local value: a report made by an effect's work goes to the handler bound
/// where the store started the effect, since the effect's task inherits it. `TestStore` binds it
/// while the reducer runs and while the effect it returned is started, so a report from the
/// effect — at once, or later from its task — fails the test at the step that sent (or
/// received) the action that returned the effect. A test of a plain ``Store`` can do the same
/// around `send`:
///
/// <!-- example context: runtimeIssues -->
/// ```swift
/// let reports = SendableLog<String>()
/// RuntimeIssues.$handler.withValue({ reports.append($0) }) {
///     _ = store.send("refresh")   // its reducer returns `.unimplemented("Environment.refresh")`
/// }
/// #expect(reports.entries.count == 1)
/// ```
///
/// Without a binding, a plain store's reports go to standard error: this module does not link a
/// test framework, so it cannot fail a test by itself.
public enum RuntimeIssues {
    /// The current task's handler; `nil` writes to standard error.
    @TaskLocal public static var handler: (@Sendable (String) -> Void)?

    /// Reports `message`.
    ///
    /// - Parameter message: The text of the report.
    public static func report(_ message: String) {
        if let handler {
            handler(message)
        } else {
            FileHandle.standardError.write(Data("[ComposableArchitecture] \(message)\n".utf8))
        }
    }
}

extension Effect {
    /// This effect, with `handler` bound as the ``RuntimeIssues`` handler while a store starts
    /// it (subscribes to it): a report made then — by ``unimplemented(_:fileID:line:)`` — goes to
    /// `handler`, and so do the later reports of tasks started then (an unhandled error in a
    /// ``task(priority:operation:catch:fileID:line:)``), which inherit the binding.
    ///
    /// A `TestStore` binds its own handler this way, to fail the test at the step whose action
    /// returned the effect. Work subscribed later, outside the subscription (the rest of a
    /// `concatenate` after an effect that finished off any task, an effect delayed with
    /// `deferred` or `debounce`), reports to the handler bound where it is subscribed.
    package func reportingRuntimeIssues(to handler: @escaping @Sendable (String) -> Void) -> Effect {
        switch operation {
        case .none, .value:
            // Nothing to report: nothing runs.
            return self
        case .publisher, .contextual:
            return Effect(
                operation: .contextual { context in
                    IssueReportingEffect(upstream: self.publisherOrEmpty(in: context), handler: handler)
                        .eraseToAnyPublisher()
                })
        }
    }
}

/// The publisher behind ``Effect/reportingRuntimeIssues(to:)``: subscribes its upstream with the
/// handler bound; everything else passes straight through (the subscriber gets the upstream's
/// own subscription).
struct IssueReportingEffect<Output>: Publisher {
    typealias Failure = Never
    let upstream: AnyPublisher<Output, Never>
    let handler: @Sendable (String) -> Void

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        RuntimeIssues.$handler.withValue(handler) {
            upstream.receive(subscriber: subscriber)
        }
    }
}
