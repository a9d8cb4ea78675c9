import ComposableArchitecture

// The counter: the number every other feature asks about.

/// The counter's state: the count.
public struct CounterState: Equatable, Sendable {
    /// The number shown, which the other features ask about ("is it prime?", "the nth prime").
    public var count: Int

    /// A counter at `count`.
    ///
    /// - Parameter count: The counter's number; 0 by default.
    public init(count: Int = 0) {
        self.count = count
    }
}

/// What the user does with the counter.
public enum CounterAction: Equatable, Sendable {
    /// `+`: add one.
    case incrementButtonTapped
    /// `-`: take one away.
    case decrementButtonTapped
}

/// The counter's logic: `+` and `-` change the count by one (stopping at `Int`'s limits rather
/// than overflowing). It needs nothing from the outside world, so its environment is `Void` and
/// it never returns an effect.
@MainActor public let counterReducer = Reducer<CounterState, CounterAction, Void> { state, action, _ in
    switch action {
    case .incrementButtonTapped:
        if state.count < .max { state.count += 1 }
    case .decrementButtonTapped:
        if state.count > .min { state.count -= 1 }
    }
    return .none
}
