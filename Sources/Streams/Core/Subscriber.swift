/// A type that receives values and a completion from a publisher.
///
/// A subscriber's life, in order ([S2]–[S4] of the [stream contract](doc:/Contract/StreamContract)): one ``receive(subscription:)``, any number of
/// ``receive(_:)`` calls (never more than it asked for), then at most one
/// ``receive(completion:)``. The publisher never calls it from two threads at once ([S3]).
///
/// The subscriber controls the flow: it asks for values with `subscription.request(_:)` and by
/// returning more demand from ``receive(_:)``. Most code uses the ready-made subscribers
/// `sink(receiveCompletion:receiveValue:)` and `assign(to:on:)` rather than implementing this.
///
/// [S2]: doc:/Contract/StreamContract#S2
/// [S3]: doc:/Contract/StreamContract#S3
/// [S4]: doc:/Contract/StreamContract#S4
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of error this subscriber may receive.
    associatedtype Failure: Error

    /// Tells the subscriber that it is attached and gives it the subscription through which it
    /// asks for values (`request(_:)`) or stops them (`cancel()`). Called once, first.
    ///
    /// - Parameter subscription: The subscription to ask for values through, or cancel.
    func receive(subscription: Subscription)

    /// Delivers one value. Returns how many *more* values the subscriber wants (added to the
    /// outstanding demand; `.none` for no more than already asked for).
    ///
    /// - Parameter input: The value the publisher sends.
    /// - Returns: How many more values the subscriber wants, on top of those it already asked for.
    func receive(_ input: Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has finished, normally or with an error. Nothing
    /// is delivered after it.
    ///
    /// - Parameter completion: `.finished`, or `.failure` with the error.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Delivers the `Void` value: shorthand for `receive(())`.
    ///
    /// - Returns: How many more values the subscriber wants, on top of those it already asked for.
    @inlinable
    @discardableResult
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A namespace for subscriber types and the types subscribers use (``Demand``, ``Completion``,
/// ``Sink``, ``Assign``).
public enum Subscribers {}
