// Combine-era app code, as the episodes and tutorials this project teaches from wrote it, in
// Swift 5 language mode. The only change from the original Combine program is the import: this
// file must compile and run with `import Streams` in place of `import Combine`.
import Dispatch
import Streams

/// The episodes' effect: a publisher that never fails, wrapping any such publisher.
struct Effect<Output>: Publisher {
    typealias Failure = Never

    let publisher: AnyPublisher<Output, Never>

    func receive<S>(subscriber: S) where S: Subscriber, S.Failure == Never, S.Input == Output {
        publisher.receive(subscriber: subscriber)
    }
}

extension Publisher where Failure == Never {
    func eraseToEffect() -> Effect<Output> {
        Effect(publisher: eraseToAnyPublisher())
    }
}

extension Effect {
    /// Work that runs when the effect is subscribed and produces one value.
    static func sync(work: @escaping () -> Output) -> Effect {
        Deferred { Just(work()) }.eraseToEffect()
    }

    /// Work that runs for its side effect and sends nothing.
    static func fireAndForget(work: @escaping () -> Void) -> Effect {
        Deferred { () -> Empty<Output, Never> in
            work()
            return Empty(completeImmediately: true)
        }.eraseToEffect()
    }
}

typealias Reducer<Value, Action> = (inout Value, Action) -> [Effect<Action>]

func combine<Value, Action>(_ reducers: Reducer<Value, Action>...) -> Reducer<Value, Action> {
    return { value, action in
        let effects = reducers.flatMap { $0(&value, action) }
        return effects
    }
}

func pullback<LocalValue, GlobalValue, LocalAction, GlobalAction>(
    _ reducer: @escaping Reducer<LocalValue, LocalAction>,
    value: WritableKeyPath<GlobalValue, LocalValue>,
    action: WritableKeyPath<GlobalAction, LocalAction?>
) -> Reducer<GlobalValue, GlobalAction> {
    return { globalValue, globalAction in
        guard let localAction = globalAction[keyPath: action] else { return [] }
        let localEffects = reducer(&globalValue[keyPath: value], localAction)
        return localEffects.map { localEffect in
            localEffect.map { localAction -> GlobalAction in
                var globalAction = globalAction
                globalAction[keyPath: action] = localAction
                return globalAction
            }.eraseToEffect()
        }
    }
}

/// The episodes' store: an `ObservableObject` whose `@Published` value views observe, which
/// runs effects and keeps their subscriptions in a set of cancellables.
final class Store<Value, Action>: ObservableObject {
    private let reducer: Reducer<Value, Action>
    @Published private(set) var value: Value
    private var viewCancellable: Cancellable?
    private var effectCancellables: Set<AnyCancellable> = []

    init(initialValue: Value, reducer: @escaping Reducer<Value, Action>) {
        self.reducer = reducer
        self.value = initialValue
    }

    var runningEffects: Int { effectCancellables.count }

    func send(_ action: Action) {
        let effects = reducer(&value, action)
        effects.forEach { effect in
            var effectCancellable: AnyCancellable?
            var didComplete = false
            effectCancellable = effect.sink(
                receiveCompletion: { [weak self] _ in
                    didComplete = true
                    guard let effectCancellable = effectCancellable else { return }
                    self?.effectCancellables.remove(effectCancellable)
                },
                receiveValue: { [weak self] action in self?.send(action) }
            )
            if !didComplete, let effectCancellable = effectCancellable {
                effectCancellables.insert(effectCancellable)
            }
        }
    }

    func view<LocalValue, LocalAction>(
        value toLocalValue: @escaping (Value) -> LocalValue,
        action toGlobalAction: @escaping (LocalAction) -> Action
    ) -> Store<LocalValue, LocalAction> {
        let localStore = Store<LocalValue, LocalAction>(
            initialValue: toLocalValue(value),
            reducer: { localValue, localAction in
                self.send(toGlobalAction(localAction))
                localValue = toLocalValue(self.value)
                return []
            }
        )
        localStore.viewCancellable = $value.sink { [weak localStore] newValue in
            localStore?.value = toLocalValue(newValue)
        }
        return localStore
    }
}
