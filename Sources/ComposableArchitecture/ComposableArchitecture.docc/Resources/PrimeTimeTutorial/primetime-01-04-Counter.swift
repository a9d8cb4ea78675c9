import ComposableArchitecture

/// The counter's state: the number on screen.
struct CounterState: Equatable {
    var count = 0
}

/// What the user can do with the counter.
enum CounterAction: Equatable {
    case decrementButtonTapped
    case incrementButtonTapped
}

/// The counter's logic: how each action changes the state. The counter needs nothing from the
/// outside world, so its environment is `Void`, and it starts no work: it returns `.none`.
@MainActor let counterReducer = Reducer<CounterState, CounterAction, Void> { state, action, _ in
    switch action {
    case .decrementButtonTapped:
        state.count -= 1
        return .none

    case .incrementButtonTapped:
        state.count += 1
        return .none
    }
}
