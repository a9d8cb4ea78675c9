import ComposableArchitecture
import Dispatch

/// The counter's state: the number on screen, and the answer to "what is the nth prime?".
struct CounterState: Equatable {
    var count = 0
    /// The answer on screen, until the user dismisses it.
    var nthPrimeAlert: NthPrimeAlert?
    /// Whether a question is being computed: the screen offers to cancel it meanwhile.
    var isNthPrimeRequestInFlight = false
}

/// An answer to "what is the nth prime?".
struct NthPrimeAlert: Equatable {
    var n: Int
    var prime: Int?

    /// What the alert says.
    var message: String {
        if let prime { "Prime number \(n) is \(prime)." } else { "There is no prime number \(n)." }
    }
}

/// What the user can do with the counter.
enum CounterAction: Equatable {
    case decrementButtonTapped
    case incrementButtonTapped
}

/// What the counter needs from the outside world.
struct CounterEnvironment {
    /// Computes the nth prime (`nil`: there is none), somewhere, eventually: an effect.
    var nthPrime: (Int) -> Effect<Int?>
    /// Where the answer is delivered: the main queue in the app, a test scheduler in tests.
    var mainQueue: AnySchedulerOf<DispatchQueue>
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
