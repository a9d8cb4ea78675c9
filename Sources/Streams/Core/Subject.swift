/// A publisher you can push values into: call ``send(_:)`` and every subscriber receives the
/// value (if it has demand for it).
///
/// The library has two: ``PassthroughSubject`` (no memory; a value sent while a subscriber has no
/// demand is dropped for that subscriber) and ``CurrentValueSubject`` (keeps the latest value and
/// gives it to each new subscriber). Both are thread-safe, deliver to subscribers in subscription
/// order ([S10]), and accept `send` from inside a subscriber ([S11]).
///
/// [S10]: doc:/Contract/StreamContract#S10
/// [S11]: doc:/Contract/StreamContract#S11
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    ///
    /// - Parameter value: The value to send.
    func send(_ value: Output)

    /// Ends the subject: every subscriber, and every later subscriber, receives `completion`.
    /// Later `send` calls do nothing.
    ///
    /// - Parameter completion: The completion: `.finished` or `.failure(error)`.
    func send(completion: Subscribers.Completion<Failure>)

    /// Gives the subject an upstream subscription (when the subject subscribes to a publisher);
    /// the subject requests values from it.
    ///
    /// - Parameter subscription: The subscription to the publisher the subject is subscribed to.
    func send(subscription: Subscription)
}

extension Subject where Output == Void {
    /// Sends the `Void` value: shorthand for `send(())`.
    @inlinable
    public func send() {
        send(())
    }
}
