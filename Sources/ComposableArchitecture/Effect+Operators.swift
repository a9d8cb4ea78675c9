import Streams

extension Effect {
    /// Builds an effect from other effects, passing the store's context on to each of them (so
    /// cancellation identifiers keep working through the composition).
    static func composed(_ make: @escaping (EffectContext) -> AnyPublisher<Output, Never>) -> Effect {
        Effect(operation: .contextual(make))
    }

    /// Transforms each action the effect sends; returns an `Effect`.
    ///
    /// <!-- marble effect-map: effect($0.map { Int($0)! }).map { $0 * 10 } -->
    /// ```text
    /// effect: -1-2-|
    ///         map { $0 * 10 }
    /// output: -a-b-|      (a = 10, b = 20)
    /// ```
    ///
    /// <!-- example context: primeFeature -->
    /// ```swift
    /// return environment.counter(state.count).map(AppAction.counter)
    /// ```
    ///
    /// - Parameter transform: A closure that takes an action the effect sends and returns the
    ///   action to send instead.
    /// - Returns: An effect that sends `transform`'s action for each action of this one.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Effect<T> {
        switch operation {
        case .none:
            return .none
        case .value(let box):
            return Effect<T>(value: transform(box.value))
        case .publisher(let publisher):
            return Effect<T>(publisher.map(transform))
        case .contextual(let make):
            return .composed { context in make(context).map(transform).eraseToAnyPublisher() }
        }
    }

    /// Runs effects at the same time and sends their actions as they come; finishes when all
    /// have finished. ``none``s are left out; one effect is returned as it is.
    ///
    /// <!-- marble effect-merge: Effect.merge(effect($0[0]), effect($0[1])) -->
    /// ```text
    /// a:      -1---3-|
    /// b:      ---2---|
    /// merge:  -1-2-3-|
    /// ```
    ///
    /// <!-- example context: primeFeature -->
    /// ```swift
    /// return .merge(
    ///     environment.save(state.favorites).fireAndForget(),
    ///     Effect(value: .savedFeedbackShown))
    /// ```
    ///
    /// - Parameter effects: The effects to run together.
    /// - Returns: One effect that runs them all.
    public static func merge(_ effects: Effect...) -> Effect {
        merge(effects)
    }

    /// Runs a sequence of effects at the same time; see ``merge(_:)-(Effect<Output>...)``.
    ///
    /// - Parameter effects: The effects to run together.
    /// - Returns: One effect that runs them all.
    public static func merge<S: Sequence>(_ effects: S) -> Effect where S.Element == Effect {
        let effects = effects.filter { !$0.isNone }
        switch effects.count {
        case 0: return .none
        case 1: return effects[0]
        default:
            return .composed { context in
                Publishers.MergeMany(effects.map { $0.publisherOrEmpty(in: context) }).eraseToAnyPublisher()
            }
        }
    }

    /// Runs this effect and `other` at the same time.
    ///
    /// - Parameter other: The effect to run alongside this one.
    /// - Returns: One effect that runs both.
    public func merge(with other: Effect) -> Effect {
        .merge(self, other)
    }

    /// Runs effects one after another: each starts when the one before it has finished.
    /// ``none``s are left out.
    ///
    /// <!-- marble effect-concatenate scheduler cold: Effect.concatenate(effect($0[0]), effect($0[1])) -->
    /// ```text
    /// a:           -1-|
    /// b:              -2-|     (subscribed when a finishes)
    /// concatenate: -1--2-|
    /// ```
    ///
    /// <!-- example context: primeFeature -->
    /// ```swift
    /// return .concatenate(.cancel(id: TimerID.self), startTimer)
    /// ```
    ///
    /// - Parameter effects: The effects to run, in order.
    /// - Returns: One effect that runs them one after another.
    public static func concatenate(_ effects: Effect...) -> Effect {
        concatenate(effects)
    }

    /// Runs a collection of effects one after another; see ``concatenate(_:)-(Effect<Output>...)``.
    ///
    /// - Parameter effects: The effects to run, in order.
    /// - Returns: One effect that runs them one after another.
    public static func concatenate<C: Collection>(_ effects: C) -> Effect where C.Element == Effect {
        let effects = effects.filter { !$0.isNone }
        switch effects.count {
        case 0: return .none
        case 1: return effects[0]
        default:
            return .composed { context in
                // Every part is made now, when the store starts the whole; each subscribes in turn.
                let parts = effects.map { $0.publisherOrEmpty(in: context) }
                return parts.dropFirst().reduce(parts[0]) { prefix, next in
                    prefix.append(next).eraseToAnyPublisher()
                }
            }
        }
    }

    /// Delivers the effect's actions on `scheduler`; returns an `Effect`.
    ///
    /// <!-- marble effect-receive scheduler: effect($0).receive(on: scheduler) -->
    /// ```text
    /// effect (background thread): -1-2-|
    ///                             receive(on: mainQueue)
    /// output (main queue):        -1-2-|
    /// ```
    ///
    /// <!-- example context: factFeature -->
    /// ```swift
    /// return environment.nthPrime(n).receive(on: environment.mainQueue).eraseToEffect()
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler to deliver the actions on.
    ///   - options: Options for the scheduler, or `nil`.
    /// - Returns: An effect that sends this effect's actions on `scheduler`.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Effect {
        switch operation {
        case .none:
            return .none
        case .value(let box):
            return Effect(Just(box.value).receive(on: scheduler, options: options))
        case .publisher(let publisher):
            return Effect(publisher.receive(on: scheduler, options: options))
        case .contextual(let make):
            return .composed { context in make(context).receive(on: scheduler, options: options).eraseToAnyPublisher() }
        }
    }
}
