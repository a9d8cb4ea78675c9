import ComposableArchitecture
import Dispatch

// "What is the nth prime?": asks a (slow) prime calculator about the count, shows the answer in
// an alert, keeps the button disabled while it waits, and stops waiting when the user leaves the
// screen.

/// The answer to "what is the nth prime?", shown as an alert until it is dismissed.
public struct NthPrimeAlert: Equatable, Sendable {
    /// The n asked about.
    public var n: Int
    /// The nth prime; `nil` when there is none (n < 1) or it is past ``Primes/largestN``.
    public var prime: Int?

    /// An alert for the answer `prime` to "what is the `n`th prime?".
    ///
    /// - Parameters:
    ///   - n: Which prime was asked for.
    ///   - prime: The answer, or `nil` when there is none.
    public init(n: Int, prime: Int?) {
        self.n = n
        self.prime = prime
    }

    /// The alert's text: "The 6th prime is 13.", "There is no 0th prime: primes are counted
    /// from 1." (for a negative n, "There is no prime number -1: ...", never "-1st") or, past
    /// ``Primes/largestN``, that PrimeTime does not go that far.
    public var message: String {
        if let prime {
            "The \(Primes.ordinal(n)) prime is \(prime)."
        } else if n > Primes.largestN {
            "The \(Primes.ordinal(n)) prime is further than PrimeTime computes (up to the \(Primes.ordinal(Primes.largestN)))."
        } else {
            "There is no \(n >= 0 ? "\(Primes.ordinal(n)) prime" : "prime number \(n)"): primes are counted from 1."
        }
    }

    /// How the `n`th prime is named in a sentence: "the 6th prime", "the 0th prime", and, since
    /// a negative number has no ordinal, "prime number -1".
    ///
    /// - Parameter n: Which prime.
    /// - Returns: Its name, such as "the 6th prime".
    public static func name(_ n: Int) -> String {
        n >= 0 ? "the \(Primes.ordinal(n)) prime" : "prime number \(n)"
    }
}

/// The nth-prime feature's state.
public struct NthPrimeState: Equatable, Sendable {
    /// The n to ask about (the counter's count).
    public var count: Int
    /// The answer on screen, if any.
    public var alert: NthPrimeAlert?
    /// The n of the question being computed, recorded when it was asked (the count may change
    /// meanwhile); `nil` when none is. The button is disabled meanwhile.
    public var requestedN: Int?

    /// A state for `count`, with no answer and nothing in flight by default.
    ///
    /// - Parameters:
    ///   - count: The `n` the next question asks about.
    ///   - alert: The answer on screen, or `nil`.
    ///   - requestedN: The `n` of the question being computed, or `nil` when none is.
    public init(count: Int, alert: NthPrimeAlert? = nil, requestedN: Int? = nil) {
        self.count = count
        self.alert = alert
        self.requestedN = requestedN
    }

    /// Whether a question is being computed (``requestedN`` is set).
    public var isRequestInFlight: Bool { requestedN != nil }

    /// Whether the "what is the nth prime?" button can be pressed: not while a question is in
    /// flight, nor while an answer is on screen.
    public var isButtonEnabled: Bool { !isRequestInFlight && alert == nil }
}

/// What happens on the nth-prime feature.
public enum NthPrimeAction: Equatable, Sendable {
    /// The user asks "what is the nth prime?" for the current count.
    case nthPrimeButtonTapped
    /// The calculator answered: the `n`th prime is `prime` (`nil`: there is none).
    case nthPrimeResponse(n: Int, prime: Int?)
    /// The user dismissed the answer.
    case alertDismissButtonTapped
    /// The screen went away (SwiftUI's `onDisappear`): a question still in flight is cancelled.
    case screenLeft
}

/// What the nth-prime feature needs from the outside world.
public struct NthPrimeEnvironment {
    /// Computes the nth prime (`nil` when there is none), somewhere, eventually.
    public var nthPrime: (Int) -> Effect<Int?>
    /// Where answers are delivered: the main queue live, a `TestScheduler` in tests.
    public var mainQueue: AnySchedulerOf<DispatchQueue>

    /// An environment asking `nthPrime` and delivering on `mainQueue`.
    ///
    /// - Parameters:
    ///   - nthPrime: A closure that takes `n` and returns an effect that computes the nth prime.
    ///   - mainQueue: Where the answers are delivered.
    public init(nthPrime: @escaping (Int) -> Effect<Int?>, mainQueue: AnySchedulerOf<DispatchQueue>) {
        self.nthPrime = nthPrime
        self.mainQueue = mainQueue
    }

    /// The live calculator: waits `latency` on `queue` (a background queue live; the latency
    /// stands in for the network service the original app asked), then computes the answer there
    /// with ``Primes/nth(_:)``. Cancelling during the wait means nothing is computed.
    ///
    /// ```swift
    /// let nthPrime = NthPrimeEnvironment.computing(on: DispatchQueue.global().eraseToAnyScheduler(), latency: .milliseconds(400))
    /// ```
    ///
    /// - Parameters:
    ///   - queue: The queue to wait and compute on.
    ///   - latency: How long to wait before computing.
    /// - Returns: A closure that takes `n` and returns an effect that sends the nth prime, or `nil`
    ///   when there is none.
    public static func computing(
        on queue: AnySchedulerOf<DispatchQueue>,
        latency: DispatchQueue.SchedulerTimeType.Stride
    ) -> (Int) -> Effect<Int?> {
        { n in
            Just(n)
                .delay(for: latency, scheduler: queue)
                .map { Primes.nth($0) }
                .eraseToEffect()
        }
    }
}

/// The identifier of the nth-prime question in flight, for `cancellable(id:)` and `cancel(id:)`.
enum NthPrimeRequestID: Hashable, Sendable {
    case request
}

/// The nth-prime logic.
///
/// Tapping the button (when enabled) records the n asked about (``NthPrimeState/requestedN``: the
/// count at that moment, which the screen shows while it waits even if the count changes) and returns the calculator's
/// effect, delivered on the main queue, mapped to ``NthPrimeAction/nthPrimeResponse(n:prime:)`` and
/// made cancellable. The response shows the alert; dismissing clears it. Leaving the screen cancels
/// the question (`.cancel(id:)`), so no answer pops up on another screen.
@MainActor public let nthPrimeReducer = Reducer<NthPrimeState, NthPrimeAction, NthPrimeEnvironment> {
    state, action, environment in
    switch action {
    case .nthPrimeButtonTapped:
        guard state.isButtonEnabled else { return .none }
        let n = state.count
        state.requestedN = n
        return environment.nthPrime(n)
            .receive(on: environment.mainQueue)
            .map { NthPrimeAction.nthPrimeResponse(n: n, prime: $0) }
            .cancellable(id: NthPrimeRequestID.request, cancelInFlight: true)

    case let .nthPrimeResponse(n, prime):
        state.requestedN = nil
        state.alert = NthPrimeAlert(n: n, prime: prime)
        return .none

    case .alertDismissButtonTapped:
        state.alert = nil
        return .none

    case .screenLeft:
        guard state.isRequestInFlight else { return .none }
        state.requestedN = nil
        return .cancel(id: NthPrimeRequestID.request)
    }
}
