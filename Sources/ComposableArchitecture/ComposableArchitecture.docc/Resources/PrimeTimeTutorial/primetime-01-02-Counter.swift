import ComposableArchitecture

/// The counter's state: the number on screen.
struct CounterState: Equatable {
    var count = 0
}
