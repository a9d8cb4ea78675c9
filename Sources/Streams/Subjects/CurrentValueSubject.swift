// Engine: Subjects/SubjectCore.swift.

/// A subject that holds one value, its latest, and gives it to every new subscriber.
///
/// A new subscriber receives the current value as soon as it asks for one, then every later
/// value it has demand for. A subscriber that had no demand when values were sent receives the
/// *latest* value when demand arrives, not the values it missed ([S10]). Setting ``value`` is the
/// same as calling ``send(_:)``.
///
/// <!-- marble currentValueSubject: feeding(CurrentValueSubject("0"), from: $0[1]) -->
/// ```text
/// value:         0
/// send:          -1-2-|
/// subscriber:    01-2-|      (subscribed at the start, unlimited demand: 0 at once)
/// ```
///
/// ![Marble diagram of currentValueSubject](marble-currentValueSubject)
///
/// ```swift
/// let count = CurrentValueSubject<Int, Never>(0)
/// let c = count.sink { print($0) }   // Prints: 0
/// count.value += 1                    // Prints: 1
/// count.send(5)                       // Prints: 5
/// ```
///
/// - Threading: as ``PassthroughSubject``: any thread, subscribers called one at a time in
///   subscription order, reentrant sends queued without recursion ([S3], [S10], [S11]). ``value`` is
///   updated as soon as `send` is called, even if delivery is queued behind another thread's.
/// - Demand: per subscriber; asking for `.none` is an API violation ([S9]). A subscriber that asks
///   from inside `receive(subscription:)` gets the current value inside that request, as in
///   Combine (unless another thread is delivering at that moment: then right after). An
///   upstream subscription (``send(subscription:)``) is asked for `.unlimited` at once.
/// - Combine compatibility: as Combine, with subscription-order delivery guaranteed.
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S9]: doc:/Contract/StreamContract#S9
/// [S10]: doc:/Contract/StreamContract#S10
/// [S11]: doc:/Contract/StreamContract#S11
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject whose current value is `value`.
    ///
    /// - Parameter value: The first current value.
    public init(_ value: Output) {
        core = SubjectCore(currentValue: value)
    }

    deinit {
        core.cancelUpstreams()
    }

    /// The latest value sent (or the initial one). Setting it sends the new value; once the
    /// subject has completed, setting it still changes what it reads (nothing is delivered), as
    /// in Combine, while ``send(_:)`` changes nothing.
    public var value: Output {
        get { core.lock.withLock { core.currentValue! } }
        set { core.send(newValue, keepingAfterCompletion: true) }
    }

    /// Makes `value` the current value and sends it to every subscriber that has demand for it.
    /// Does nothing once the subject has completed.
    ///
    /// - Parameter value: The new current value.
    @inlinable
    public func send(_ value: Output) {
        core.send(value)
    }

    /// Finishes every subscriber, and every later one, with `completion`. Later sends do nothing;
    /// ``value`` keeps the last value.
    ///
    /// - Parameter completion: The completion: `.finished` or `.failure(error)`.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Accepts an upstream subscription (when this subject subscribes to a publisher) and requests
    /// unlimited values from it at once, as Combine's does. Cancelled when the subject is
    /// deallocated; one given after the completion is cancelled at once.
    ///
    /// - Parameter subscription: The subscription to the publisher this subject is subscribed to.
    public func send(subscription: Subscription) {
        core.send(subscription: subscription)
    }

    /// Attaches `subscriber`; it receives the current value as soon as it has demand.
    ///
    /// - Parameter subscriber: The subscriber that receives the current value, later values and the
    ///   completion.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.receive(subscriber: subscriber, owner: self)
    }
}

extension CurrentValueSubject: Sendable where Output: Sendable {}
