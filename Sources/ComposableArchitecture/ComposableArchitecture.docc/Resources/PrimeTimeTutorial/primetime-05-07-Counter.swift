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

/// What the user can do with the counter, and the answer its effect sends back.
enum CounterAction: Equatable {
    case decrementButtonTapped
    case incrementButtonTapped
    case nthPrimeButtonTapped
    case nthPrimeCancelButtonTapped
    case nthPrimeResponse(n: Int, prime: Int?)
    case alertDismissButtonTapped
}

/// What the counter needs from the outside world.
struct CounterEnvironment {
    /// Computes the nth prime (`nil`: there is none), somewhere, eventually: an effect.
    var nthPrime: (Int) -> Effect<Int?>
    /// Where the answer is delivered: the main queue in the app, a test scheduler in tests.
    var mainQueue: AnySchedulerOf<DispatchQueue>
}

/// The identifier of the nth-prime question in flight, to cancel it by.
enum NthPrimeRequestID {}

/// The counter's logic. "What is the nth prime?" returns an effect: a publisher that computes
/// the answer, delivers it on the main queue, and turns it into the action the store runs next.
/// The effect is cancellable: asking again replaces the question in flight, and "cancel" stops it.
@MainActor let counterReducer = Reducer<CounterState, CounterAction, CounterEnvironment> { state, action, environment in
    switch action {
    case .decrementButtonTapped:
        state.count -= 1
        return .none

    case .incrementButtonTapped:
        state.count += 1
        return .none

    case .nthPrimeButtonTapped:
        state.isNthPrimeRequestInFlight = true
        let n = state.count
        return environment.nthPrime(n)
            .receive(on: environment.mainQueue)
            .map { CounterAction.nthPrimeResponse(n: n, prime: $0) }
            .cancellable(id: NthPrimeRequestID.self, cancelInFlight: true)

    case .nthPrimeCancelButtonTapped:
        state.isNthPrimeRequestInFlight = false
        return .cancel(id: NthPrimeRequestID.self)

    case let .nthPrimeResponse(n, prime):
        state.isNthPrimeRequestInFlight = false
        state.nthPrimeAlert = NthPrimeAlert(n: n, prime: prime)
        return .none

    case .alertDismissButtonTapped:
        state.nthPrimeAlert = nil
        return .none
    }
}
