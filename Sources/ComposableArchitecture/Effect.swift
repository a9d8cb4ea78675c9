/// A unit of work a reducer hands back to the store: a publisher of actions that cannot fail.
///
/// Reducers stay pure: instead of doing work themselves (network calls, timers, disk), they
/// return an `Effect` that describes it. The store subscribes to the effect and feeds every
/// action it sends back into the reducer. An effect is an ordinary Streams publisher whose
/// `Failure` is `Never`, so any publisher that cannot fail becomes one with ``Streams/Publisher/eraseToEffect()``,
/// and one that can fail with ``Streams/Publisher/catchToEffect()`` or ``Streams/Publisher/ignoreFailure()``.
///
/// <!-- example context: factFeatureCases -->
/// ```swift
/// case .numberFactButtonTapped:
///     state.isLoading = true
///     return environment.numberFact(state.count)
///         .receive(on: environment.mainQueue)
///         .catchToEffect(AppAction.numberFactResponse)
/// ```
///
/// Its own operators (`map`, ``merge(_:)-(Effect<Output>...)``, ``concatenate(_:)-(Effect<Output>...)``,
/// `cancellable(id:)`, ...) return `Effect`, so the common case needs no erasing. ``none``, the
/// effect that does nothing, allocates nothing and the store does not even subscribe to it.
///
/// Cancellation identifiers (`cancellable(id:)`, `cancel(id:)`) belong to the store that runs the
/// effect, and its scopes: two stores, or two tests, never cancel each other's effects. An effect
/// subscribed to directly, outside any store, uses one process-wide set of identifiers.
public struct Effect<Output>: Publisher {
    /// An effect cannot fail: failures are turned into actions before they reach the store.
    public typealias Failure = Never

    @usableFromInline
    enum Operation {
        /// Does nothing; nothing is allocated or subscribed.
        case none
        /// Sends one action at once, then finishes (``init(value:)``): the store runs it without
        /// subscribing to anything. Boxed, so that `Effect` stays as small and as cheap to move
        /// as a reference, whatever `Output` is.
        case value(EffectValue<Output>)
        /// A publisher that needs nothing from the store.
        case publisher(AnyPublisher<Output, Never>)
        /// A publisher made when the store starts the effect, with the store's context
        /// (its cancellation identifiers).
        case contextual((EffectContext) -> AnyPublisher<Output, Never>)
    }

    @usableFromInline let operation: Operation

    @inlinable
    init(operation: Operation) {
        self.operation = operation
    }

    /// Wraps a publisher that cannot fail.
    ///
    /// - Parameter publisher: The publisher that does the work and sends the actions.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Never {
        if let effect = publisher as? Effect<Output> {
            self = effect
        } else {
            operation = .publisher(publisher.eraseToAnyPublisher())
        }
    }

    /// An effect that sends `value` at once, then finishes. A store runs it without subscribing
    /// to anything: it costs no allocation.
    ///
    /// - Parameter value: The action to send.
    @inlinable
    public init(value: Output) {
        operation = .value(EffectValue(value))
    }

    /// The effect that does nothing. It allocates nothing, and the store does not subscribe to it.
    @inlinable
    public static var none: Effect {
        Effect(operation: .none)
    }

    /// Whether this is ``none``.
    @inlinable
    public var isNone: Bool {
        if case .none = operation { true } else { false }
    }

    /// The publisher to subscribe to for this effect, in `context`; `nil` for ``none``.
    @usableFromInline
    package func publisher(in context: EffectContext) -> AnyPublisher<Output, Never>? {
        switch operation {
        case .none: nil
        case .value(let box): Just(box.value).eraseToAnyPublisher()
        case .publisher(let publisher): publisher
        case .contextual(let make): make(context)
        }
    }

    /// Subscribes `subscriber` to the work, with the process-wide cancellation identifiers (the
    /// store uses its own).
    ///
    /// - Parameter subscriber: The subscriber that receives the effect's actions and its
    ///   completion.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        if let publisher = publisher(in: .shared) {
            publisher.receive(subscriber: subscriber)
        } else {
            Empty<Output, Never>().receive(subscriber: subscriber)
        }
    }

    /// A contextual effect made from `self` in `context`; `Empty` stands in for ``none``.
    package func publisherOrEmpty(in context: EffectContext) -> AnyPublisher<Output, Never> {
        publisher(in: context) ?? Empty().eraseToAnyPublisher()
    }
}

/// The action of an `Effect(value:)`.
@usableFromInline
final class EffectValue<Output> {
    @usableFromInline let value: Output

    @inlinable
    init(_ value: Output) {
        self.value = value
    }
}

// MARK: - Erasing

extension Publisher where Failure == Never {
    /// Turns this publisher into an ``Effect``.
    ///
    /// <!-- example context: factFeature -->
    /// ```swift
    /// return SchedulerTimer.publish(every: .seconds(1), on: environment.mainQueue).autoconnect()
    ///     .map { _ in .tick }
    ///     .eraseToEffect()
    /// ```
    ///
    /// - Returns: An effect that sends this publisher's values.
    public func eraseToEffect() -> Effect<Output> {
        Effect(self)
    }

    /// Turns this publisher into an ``Effect`` of actions made from its values.
    ///
    /// <!-- example context: factFeature -->
    /// ```swift
    /// return environment.locations().eraseToEffect(AppAction.locationUpdated)
    /// ```
    ///
    /// - Parameter transform: A closure that takes a value and returns the action to send.
    /// - Returns: An effect that sends `transform`'s action for each value.
    public func eraseToEffect<T>(_ transform: @escaping (Output) -> T) -> Effect<T> {
        Effect(map(transform))
    }
}

extension Publisher {
    /// Turns this publisher into an ``Effect`` of `Result`s: each value becomes `.success`, and a
    /// failure becomes one last `.failure` value before the effect finishes.
    ///
    /// <!-- example context: factFeatureCode -->
    /// ```swift
    /// let results = environment.fetchFact(n).catchToEffect()   // Effect<Result<String, FactError>>
    /// ```
    ///
    /// - Returns: An effect that sends each value as `.success`, and the failure, if any, as
    ///   `.failure`.
    public func catchToEffect() -> Effect<Result<Output, Failure>> {
        Effect(map(Result<Output, Failure>.success).catch { Just(.failure($0)) })
    }

    /// Turns this publisher into an ``Effect`` of actions made from `Result`s: each value becomes
    /// `transform(.success(value))`, and a failure one last `transform(.failure(error))`.
    ///
    /// <!-- example context: factFeature -->
    /// ```swift
    /// return environment.fetchFact(n).catchToEffect(AppAction.factResponse)
    /// ```
    ///
    /// - Parameter transform: A closure that takes a `Result` and returns the action to send.
    /// - Returns: An effect that sends `transform`'s action for each value and for the failure.
    public func catchToEffect<T>(_ transform: @escaping (Result<Output, Failure>) -> T) -> Effect<T> {
        Effect(map { transform(.success($0)) }.catch { Just(transform(.failure($0))) })
    }

    /// Turns this publisher into an ``Effect`` that ignores its failure: values go through, and a
    /// failure just finishes the effect (the "hush" erasure).
    ///
    /// <!-- example context: factFeature -->
    /// ```swift
    /// return environment.saveFavorites(primes).ignoreFailure()
    /// ```
    ///
    /// - Returns: An effect that sends this publisher's values and finishes, failure or not.
    public func ignoreFailure() -> Effect<Output> {
        Effect(self.catch { _ in Empty<Output, Never>() })
    }
}
