import Observation
import Streams

/// What a view observes: a store's state with the duplicates removed, and a way to send it
/// actions.
///
/// A ``Store`` publishes after every outermost send, whether or not the state changed. A view
/// store passes on only the states that differ from the last one it passed on (by `==`, or by
/// the `removeDuplicates` function it was made with), so a view redraws, or a label is set, only
/// when what it shows changed. Its ``state`` is always that last state.
///
/// Code written for Combine (a view model, a UIKit view controller) subscribes to the view
/// store's ``publisher``, or to a part of it, and sends actions with ``send(_:)``:
///
/// ```swift
/// @MainActor final class CounterViewModel {
///     let viewStore: ViewStore<CounterState, CounterAction>
///     private(set) var countLabel = ""
///     private var cancellables: Set<AnyCancellable> = []
///
///     init(store: Store<CounterState, CounterAction>) {
///         viewStore = ViewStore(store)
///         viewStore.publisher(for: \.count)
///             .sink { [weak self] count in self?.countLabel = "\(count)" }
///             .store(in: &cancellables)
///     }
///
///     func incrementButtonTapped() {
///         viewStore.send(.increment)
///     }
/// }
/// ```
///
/// A view store is also an `ObservableObject` (``objectWillChange`` fires before each change it
/// passes on) and `Observable` (a read of ``state``, or of a part of it through a dynamic member
/// such as `viewStore.count`, inside `withObservationTracking` is told of the next change it
/// passes on, once). Both follow the [store contract](doc:/Contract/StoreContract) ([A1]–[A12]): a send,
/// and every action it causes synchronously, is seen at most once, with the final state ([A3]).
///
/// A view store lives on the main actor, as its store does. It keeps its store alive (it sends
/// to it); the store does not keep the view store. A subscription to its ``publisher`` keeps the
/// view store alive until the subscription is cancelled. To give a child view part of the state,
/// scope the store (``Store/scope(state:action:)``) and make a view store of the child store.
///
/// [A1]: doc:/Contract/StoreContract#A1
/// [A3]: doc:/Contract/StoreContract#A3
/// [A12]: doc:/Contract/StoreContract#A12
@MainActor
@dynamicMemberLookup
public final class ViewStore<State, Action> {
    /// The store: actions are sent to it, and its publications are what this view store
    /// de-duplicates.
    let store: Store<State, Action>
    /// Whether two states are the same for the view (then the second is not passed on).
    let isDuplicate: (State, State) -> Bool
    /// The state as last passed on.
    var current: State
    /// The store's publications, while this view store exists.
    var storeSubscription: AnyCancellable?
    /// Created when ``publisher`` is first asked for.
    var stateSubject: CurrentValueSubject<State, Never>?
    /// Created when ``objectWillChange`` is first asked for.
    var willChange: ObservableObjectPublisher?
    let registrar = ObservationRegistrar()

    /// A view store of `store`'s state that passes on a state only when `isDuplicate` says it
    /// differs from the last one it passed on.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// let viewStore = ViewStore(store, removeDuplicates: { $0.count == $1.count })
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe and send actions to. The view store keeps it alive.
    ///   - isDuplicate: Whether two states are the same for the view: called with the state last
    ///     passed on and a state the store published; when it returns `true`, nothing happens.
    public init(_ store: Store<State, Action>, removeDuplicates isDuplicate: @escaping (State, State) -> Bool) {
        self.store = store
        self.isDuplicate = isDuplicate
        // The store's subject (made observed, if it was not yet) holds its current state; the
        // subscription then sees the store's publications only.
        let storeStates = store.subject
        current = storeStates.value
        storeSubscription = storeStates.dropFirst().sink { [weak self] state in
            self?.update(to: state)
        }
    }

    /// The state: the last one the view store passed on.
    ///
    /// Reading it registers the read with Observation: a `withObservationTracking` that reads it
    /// is told of the next change the view store passes on.
    public var state: State {
        registrar.access(self, keyPath: \.state)
        return current
    }

    /// The part of the ``state`` at `keyPath`: `viewStore.count` is `viewStore.state.count`
    /// (and is registered with Observation as a read of the state).
    ///
    /// - Parameter keyPath: The part of the state to read.
    /// - Returns: The value at `keyPath` in the current state.
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        state[keyPath: keyPath]
    }

    /// The state over time: the current state when subscribed, then each state the view store
    /// passes on. A send that changed nothing (for the view store's `removeDuplicates`)
    /// publishes nothing.
    ///
    /// When a value arrives, ``state`` already shows it. `viewStore.publisher.fact` is a
    /// publisher of a part of the state that sends only when that part changes; for a part whose
    /// name is also an operator's (`count`, `first`, ...), use ``publisher(for:)``. A
    /// subscription keeps the view store alive until it is cancelled.
    public var publisher: StorePublisher<State> {
        let subject = subject
        // Retained by the subscription's `receiveCancel` until the subscriber cancels.
        let keepAlive = { @Sendable [self] in withExtendedLifetime(self) {} }
        return StorePublisher(subject.handleEvents(receiveCancel: keepAlive).eraseToAnyPublisher())
    }

    /// A publisher of the part of the state at `keyPath`: its current value when subscribed, then
    /// each change. The same as `viewStore.publisher.fact`, for a part whose name is also an
    /// operator's (`count`, `first`, `min`, ...), which the dynamic member cannot reach.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// let c = viewStore.publisher(for: \.count).sink { print("count:", $0) }
    /// ```
    ///
    /// - Parameter keyPath: The part of the state to publish.
    /// - Returns: A publisher of the value at `keyPath`, without consecutive duplicates.
    public func publisher<Value: Equatable>(for keyPath: KeyPath<State, Value>) -> StorePublisher<Value> {
        publisher[dynamicMember: keyPath]
    }

    /// Sends `action` to the store (``Store/send(_:)``): it runs, with everything it causes
    /// synchronously, before this returns, and the view store has passed on the resulting state.
    ///
    /// - Parameter action: The action to send.
    /// - Returns: A handle on the effects the action started: cancel them, or `await` their end.
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        store.send(action)
    }

    /// Sends `action`, then suspends until `predicate` is `false` for the view store's state:
    /// for example until the effects the action started have loaded what was asked for.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// await viewStore.send(.refresh, while: \.isLoading)
    /// ```
    ///
    /// The predicate is checked on the state after the send, then on each state the view store
    /// passes on. Cancelling the waiting task stops the wait and cancels the effects the action
    /// started.
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - predicate: How long to wait: while it returns `true`.
    public func send(_ action: Action, while predicate: @escaping (State) -> Bool) async {
        let task = send(action)
        await suspend(while: predicate, onCancel: { task.cancel() })
    }

    /// Suspends until `predicate` is `false` for the view store's state: returns at once when it
    /// already is, otherwise when the view store passes on a state for which it is. Cancelling
    /// the waiting task stops the wait.
    ///
    /// To send an action and wait for what it started, use ``send(_:while:)``.
    ///
    /// - Parameter predicate: How long to wait: while it returns `true`.
    public func yield(while predicate: @escaping (State) -> Bool) async {
        await suspend(while: predicate, onCancel: {})
    }

    /// Waits while `predicate` holds; `onCancel` runs if the task is cancelled first.
    func suspend(while predicate: @escaping (State) -> Bool, onCancel: @escaping @MainActor @Sendable () -> Void) async
    {
        guard predicate(current) else { return }
        let wait = StateWait(onCancel: onCancel)
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else {
                    onCancel()
                    continuation.resume()
                    return
                }
                wait.continuation = continuation
                let subscription = subject.sink { [weak wait] state in
                    if !predicate(state) { wait?.finish() }
                }
                // The subject sends the current state at once: the wait may be over already.
                if wait.continuation == nil {
                    subscription.cancel()
                } else {
                    wait.subscription = subscription
                }
            }
        } onCancel: {
            Task { @MainActor in wait.cancel() }
        }
    }

    /// The subject that publishes the state the view store passes on.
    var subject: CurrentValueSubject<State, Never> {
        if let stateSubject { return stateSubject }
        let subject = CurrentValueSubject<State, Never>(current)
        stateSubject = subject
        return subject
    }

    /// A state the store published: passed on unless it is a duplicate of the current one.
    func update(to new: State) {
        if isDuplicate(current, new) { return }
        willChange?.send()
        registrar.willSet(self, keyPath: \.state)
        current = new
        registrar.didSet(self, keyPath: \.state)
        stateSubject?.send(new)
    }
}

extension ViewStore where State: Equatable {
    /// A view store of `store`'s state that passes on a state only when it differs (`!=`) from the
    /// last one it passed on.
    ///
    /// - Parameter store: The store to observe and send actions to. The view store keeps it
    ///   alive.
    public convenience init(_ store: Store<State, Action>) {
        self.init(store, removeDuplicates: { $0 == $1 })
    }
}

extension ViewStore where State == Void {
    /// A view store of a store without state (``Store/stateless``): it only sends actions, and
    /// never publishes after the state it starts with.
    ///
    /// - Parameter store: The store to send actions to. The view store keeps it alive.
    public convenience init(_ store: Store<Void, Action>) {
        self.init(store, removeDuplicates: { _, _ in true })
    }
}

extension ViewStore: Observable {}

extension ViewStore: @MainActor ObservableObject {
    /// Fires before each state the view store passes on, while ``state`` still shows the one
    /// before it; never for a state that is a duplicate of the current one.
    public var objectWillChange: ObservableObjectPublisher {
        if let willChange { return willChange }
        let publisher = ObservableObjectPublisher()
        willChange = publisher
        return publisher
    }
}

/// One wait of ``ViewStore/yield(while:)`` or ``ViewStore/send(_:while:)``: the suspended task and
/// the subscription that watches the state for it.
@MainActor
final class StateWait {
    var continuation: CheckedContinuation<Void, Never>?
    var subscription: AnyCancellable?
    let onCancel: @MainActor @Sendable () -> Void

    init(onCancel: @escaping @MainActor @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// The predicate became `false`: resumes the task (once).
    func finish() {
        subscription?.cancel()
        subscription = nil
        continuation?.resume()
        continuation = nil
    }

    /// The task was cancelled: runs `onCancel` and resumes the task, unless it already resumed.
    func cancel() {
        guard continuation != nil else { return }
        onCancel()
        finish()
    }
}
