// Engine: Subjects/SubjectCore.swift.

/// A subject that passes each value it is sent to its current subscribers, and keeps nothing.
///
/// Values flow only to subscribers that have asked for them: a subscriber with no outstanding
/// demand when a value is sent misses that value ([S10]). A subscriber that arrives after
/// ``send(completion:)`` receives the completion at once.
///
/// <!-- marble passthroughSubject row=2 inputs=1: feeding(PassthroughSubject(), from: $0) -->
/// ```text
/// send:          -a-b-c-|
/// subscriber 1:  -a-b-c-|      (subscribed before a)
/// subscriber 2:  ----c--|      (subscribed between b and c)
/// ```
///
/// ![Marble diagram of passthroughSubject](marble-passthroughSubject)
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let c = subject.sink { print("got", $0) }
/// subject.send("a")
/// subject.send("b")
/// // Prints: got a
/// //         got b
/// ```
///
/// - Threading: every method may be called from any thread. Subscribers are called one at a time
///   ([S3]), in subscription order ([S10]). A `send` made while another thread is delivering is
///   delivered by that thread, after the value it is delivering, and the `send` returns at once;
///   a `send` from inside a subscriber is delivered after the current value reaches every
///   subscriber, without recursion ([S11]).
/// - Demand: each subscriber's demand is its own. Asking for `.none` is an API violation ([S9]).
///   Upstream subscriptions (``send(subscription:)``, `publisher.subscribe(subject)`) are asked
///   for `.unlimited` once any subscriber has asked for a value, as in Combine.
/// - Cancellation: a cancelled subscriber is removed at once and released ([S7], [S10]).
/// - Combine compatibility: Combine documents no delivery order; this subject guarantees
///   subscription order (see "Deviations from Combine").
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
/// [S9]: doc:/Contract/StreamContract#S9
/// [S10]: doc:/Contract/StreamContract#S10
/// [S11]: doc:/Contract/StreamContract#S11
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core = SubjectCore<Output, Failure>(currentValue: nil)

    /// Creates a subject with no subscribers.
    public init() {}

    deinit {
        core.cancelUpstreams()
    }

    /// Sends `value` to every subscriber that has demand for it.
    ///
    /// - Parameter value: The value to send.
    @inlinable
    public func send(_ value: Output) {
        core.send(value)
    }

    /// Finishes every subscriber, and every later one, with `completion`. Later sends do nothing.
    ///
    /// - Parameter completion: The completion: `.finished` or `.failure(error)`.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Accepts an upstream subscription (when this subject subscribes to a publisher). As
    /// Combine's, it asks the upstream for nothing until one of its own subscribers has asked for
    /// a value, then for `.unlimited`; so values an upstream would send before anyone subscribes
    /// are held back by the upstream instead of being lost. Cancelled when the subject is
    /// deallocated; one given after the completion is cancelled at once.
    ///
    /// - Parameter subscription: The subscription to the publisher this subject is subscribed to.
    public func send(subscription: Subscription) {
        core.send(subscription: subscription)
    }

    /// Attaches `subscriber`.
    ///
    /// - Parameter subscriber: The subscriber that receives the values sent from now on and the
    ///   completion.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.receive(subscriber: subscriber, owner: self)
    }
}

extension PassthroughSubject: Sendable where Output: Sendable {}
