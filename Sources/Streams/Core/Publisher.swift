/// A type that can deliver a sequence of values over time to subscribers.
///
/// A publisher does nothing until a ``Subscriber`` attaches with ``subscribe(_:)->()``. It
/// then hands the subscriber a ``Subscription``; the subscriber asks for values through it
/// (``Subscribers/Demand``), and the publisher sends at most that many values, followed by at most
/// one completion: `.finished` or `.failure(Failure)`. The rules every publisher in this library
/// keeps are listed, with IDs, in the [stream contract](doc:/Contract/StreamContract) ([S1]–[S16]).
///
/// Implement ``receive(subscriber:)`` to write a publisher; call ``subscribe(_:)->()`` to
/// use one. Most code never implements a publisher: it starts from a source (``Just``,
/// ``PassthroughSubject``, `array.publisher`, ...) and chains operators (`map`, `filter`, ...).
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///     .map { $0 * 10 }
///     .sink { print($0) }
/// // Prints: 10, 20, 30 (one per line)
/// ```
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S16]: doc:/Contract/StreamContract#S16
public protocol Publisher<Output, Failure> {
    /// The kind of values this publisher produces.
    associatedtype Output
    /// The kind of error this publisher may fail with; `Never` when it cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber` to this publisher. Called by ``subscribe(_:)->()``; call that
    /// instead, which is the public entry point.
    ///
    /// An implementation must call `subscriber.receive(subscription:)` exactly once ([S2]), then
    /// deliver no more values than requested ([S1]) and at most one completion ([S4]).
    ///
    /// - Parameter subscriber: The subscriber to attach; it receives a subscription, then the
    ///   values it asks for and the completion.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S4]: doc:/Contract/StreamContract#S4
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches `subscriber` to this publisher.
    ///
    /// The subscriber receives a ``Subscription`` first; nothing flows until it requests values.
    ///
    /// - Parameter subscriber: The subscriber to attach; it receives a subscription, then the
    ///   values it asks for and the completion.
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }

    /// Attaches a subject to this publisher: every value and the completion are sent into
    /// `subject`, which forwards them to its own subscribers.
    ///
    /// The subscription holds the subject weakly, as Combine's does: it does not keep the subject
    /// alive on its own (the subject's subscribers do). Once the subject is gone, its upstream
    /// subscriptions are cancelled.
    ///
    /// - Parameter subject: The subject to send this publisher's values and completion into.
    /// - Returns: A cancellable that detaches the subject from this publisher.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
    where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        receive(subscriber: subscriber)
        return AnyCancellable(subscriber)
    }
}

/// A namespace for the publisher types that operators return (`Publishers.Map`, ...).
public enum Publishers {}
