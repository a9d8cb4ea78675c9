/// A subscriber that hides the type of the subscriber (or subject, or closures) it wraps.
///
/// Useful to store subscribers of different types together, or to make a subscriber out of three
/// closures without declaring a type. Wrapping an `AnySubscriber` reuses it.
///
/// ```swift
/// let printer = AnySubscriber<Int, Never>(
///     receiveSubscription: { $0.request(.max(2)) },
///     receiveValue: { print($0); return .none },
///     receiveCompletion: { print($0) })
/// [1, 2, 3].publisher.subscribe(printer)
/// // Prints: 1, 2 (it asked for two values)
/// ```
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline let box: AnySubscriberBox<Input, Failure>
    @usableFromInline let describe: () -> String

    /// The identity of the wrapped subscriber (so wrapping does not change identity).
    public let combineIdentifier: CombineIdentifier

    /// Wraps `subscriber`.
    ///
    /// - Parameter subscriber: The subscriber to wrap.
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        box = SubscriberBox(subscriber)
        combineIdentifier = subscriber.combineIdentifier
        describe = { String(describing: subscriber) }
    }

    /// Wraps `subject`, as `Publisher.subscribe(_ subject:)` does: the first subscription, every
    /// value and the first completion are sent into it; a second subscription is cancelled, and
    /// anything after the completion is ignored ([S2]), as in Combine. Its description is
    /// `"Subject"`.
    ///
    /// - Parameter subject: The subject to send the subscription, the values and the completion
    ///   into.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        self.init(SubjectSubscriber(subject))
    }

    /// Makes a subscriber out of closures; a missing closure does nothing (a missing
    /// `receiveValue` asks for nothing more).
    ///
    /// - Parameters:
    ///   - receiveSubscription: A closure that takes the subscription; call `request(_:)` on it to
    ///     get values.
    ///   - receiveValue: A closure that takes a value and returns how many more values to ask for.
    ///   - receiveCompletion: A closure that takes the completion.
    public init(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        box = ClosureSubscriberBox(
            receiveSubscription: receiveSubscription ?? { _ in },
            receiveValue: receiveValue ?? { _ in .none },
            receiveCompletion: receiveCompletion ?? { _ in })
        combineIdentifier = CombineIdentifier()
        describe = { "Anonymous AnySubscriber" }
    }

    /// Forwards to the wrapped subscriber.
    ///
    /// - Parameter subscription: The subscription to hand to the wrapped subscriber.
    @inlinable
    public func receive(subscription: Subscription) { box.receive(subscription: subscription) }

    /// Forwards to the wrapped subscriber.
    ///
    /// - Parameter value: The value to hand to the wrapped subscriber.
    /// - Returns: The demand the wrapped subscriber returns.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand { box.receive(value) }

    /// Forwards to the wrapped subscriber.
    ///
    /// - Parameter completion: The completion to hand to the wrapped subscriber.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) { box.receive(completion: completion) }

    /// The wrapped subscriber's description.
    public var description: String { describe() }
}

@usableFromInline
class AnySubscriberBox<Input, Failure: Error> {
    @inlinable init() {}
    @usableFromInline func receive(subscription: Subscription) { fatalError("abstract") }
    @usableFromInline func receive(_ value: Input) -> Subscribers.Demand { fatalError("abstract") }
    @usableFromInline func receive(completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
}

@usableFromInline
final class SubscriberBox<S: Subscriber>: AnySubscriberBox<S.Input, S.Failure> {
    @usableFromInline let subscriber: S
    @inlinable init(_ subscriber: S) { self.subscriber = subscriber }
    @inlinable override func receive(subscription: Subscription) { subscriber.receive(subscription: subscription) }
    @inlinable override func receive(_ value: S.Input) -> Subscribers.Demand { subscriber.receive(value) }
    @inlinable override func receive(completion: Subscribers.Completion<S.Failure>) {
        subscriber.receive(completion: completion)
    }
}

@usableFromInline
final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBox<Input, Failure> {
    @usableFromInline let receiveSubscription: (Subscription) -> Void
    @usableFromInline let receiveValue: (Input) -> Subscribers.Demand
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    init(
        receiveSubscription: @escaping (Subscription) -> Void,
        receiveValue: @escaping (Input) -> Subscribers.Demand,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        self.receiveSubscription = receiveSubscription
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
    }
    @inlinable override func receive(subscription: Subscription) { receiveSubscription(subscription) }
    @inlinable override func receive(_ value: Input) -> Subscribers.Demand { receiveValue(value) }
    @inlinable override func receive(completion: Subscribers.Completion<Failure>) { receiveCompletion(completion) }
}
