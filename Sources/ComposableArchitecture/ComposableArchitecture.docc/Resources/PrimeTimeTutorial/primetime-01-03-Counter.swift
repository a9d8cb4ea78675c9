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
