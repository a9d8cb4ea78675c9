/// A subscriber's connection to a publisher, through which it asks for values and cancels.
///
/// Both methods may be called from any thread, at any time, also from inside the subscriber's
/// own `receive` methods ([S6], [S8]). After `cancel()`, both do nothing.
///
/// [S6]: doc:/Contract/StreamContract#S6
/// [S8]: doc:/Contract/StreamContract#S8
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Asks the publisher for up to `demand` more values. The demand adds to what was asked for
    /// before. Asking for `.none` is an API violation ([S9]), except on `Publishers.Sequence`.
    ///
    /// - Parameter demand: How many more values to ask for.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for ready-made subscriptions.
public enum Subscriptions {}

extension Subscriptions {
    /// A subscription that does nothing: requests and cancellation are ignored.
    ///
    /// Useful for a publisher that completes at once (``Empty``, ``Fail``) and must still give its
    /// subscriber a subscription first ([S2]).
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    public static var empty: Subscription { EmptySubscription.shared }
}

@usableFromInline
final class EmptySubscription: Subscription, Sendable {
    static let shared = EmptySubscription()
    @usableFromInline let combineIdentifier = CombineIdentifier()
    @usableFromInline func request(_ demand: Subscribers.Demand) {}
    @usableFromInline func cancel() {}
}

extension EmptySubscription: CustomStringConvertible {
    @usableFromInline var description: String { "Empty" }
}
