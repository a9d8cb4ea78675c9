import Foundation

extension TerminalCommand {
    /// What this command does in `state`: the app's actions to send, or — when it does not apply
    /// where the user is — the message to show, in which case nothing is sent.
    ///
    /// The rules follow the screens: counter commands need the counter screen with nothing over
    /// it; the nth-prime answer is an alert, so it must be dismissed before anything else on
    /// the counter; `save` and `remove` need "is this prime?" open (and a count they apply to);
    /// the list and file commands need the favorites screen. `help` and `quit` are the front
    /// end's own and send nothing.
    ///
    /// The messages tell the user what to do in their `mode`: "Type \"dismiss\" first." in line
    /// mode, "Press \"d\" first." in interactive mode.
    ///
    /// ```swift
    /// let increment = TerminalCommand.increment.actions(in: AppState())
    /// // .success([.counter(.incrementButtonTapped)])
    /// let save = TerminalCommand.saveFavorite.actions(in: AppState())
    /// // .failure(... "\"save\" works on \"is this prime?\". Type \"prime\" to open it.")
    /// let pressed = TerminalCommand.saveFavorite.actions(in: AppState(), mode: .interactive)
    /// // .failure(... "\"save\" works on \"is this prime?\". Press \"p\" to open it.")
    /// ```
    ///
    /// - Parameters:
    ///   - state: The app's state now.
    ///   - mode: The front end the command was typed in, for the wording of a rejection.
    /// - Returns: The actions to send, or the rejection to show.
    public func actions(in state: AppState, mode: TerminalMode = .line) -> Result<[AppAction], TerminalRejection> {
        switch self {
        case .increment:
            return Self.counterCommand("inc", state, mode) ?? .success([.counter(.incrementButtonTapped)])
        case .decrement:
            return Self.counterCommand("dec", state, mode) ?? .success([.counter(.decrementButtonTapped)])
        case .isThisPrime:
            return Self.counterCommand("prime", state, mode) ?? .success([.isPrimeButtonTapped])
        case .nthPrime:
            if let rejected = Self.counterCommand("nth", state, mode) { return rejected }
            if state.isNthPrimeRequestInFlight { return Self.reject("Already computing; wait for the answer.") }
            return .success([.nthPrime(.nthPrimeButtonTapped)])
        case .showFavorites:
            return Self.counterCommand("favorites", state, mode) ?? .success([.screenSelected(.favoritePrimes)])
        case .saveFavorite:
            if let rejected = Self.primeModalCommand("save", state, mode) { return rejected }
            if !state.isPrime { return Self.reject("\(state.count) is not prime, so it cannot be a favorite.") }
            if state.isFavorite { return Self.reject("\(state.count) is already a favorite.") }
            return .success([.primeModal(.saveFavoritePrimeTapped)])
        case .removeFavorite:
            if let rejected = Self.primeModalCommand("remove", state, mode) { return rejected }
            if !state.isFavorite { return Self.reject("\(state.count) is not a favorite.") }
            return .success([.primeModal(.removeFavoritePrimeTapped)])
        case .dismiss:
            if state.screen == .counter, state.nthPrimeAlert != nil {
                return .success([.nthPrime(.alertDismissButtonTapped)])
            }
            if state.screen == .counter, state.isPrimeModalShown { return .success([.primeModalDismissed]) }
            if state.message != nil { return .success([.favoritePrimes(.messageDismissed)]) }
            return Self.reject("Nothing to dismiss.")
        case .showCounter:
            return Self.favoritesCommand("counter", state, mode) ?? .success([.screenSelected(.counter)])
        case let .deleteFavorite(number):
            if let rejected = Self.favoritesCommand("del", state, mode) { return rejected }
            let count = state.favoritePrimes.count
            guard number >= 1, number <= count else {
                let list =
                    switch count {
                    case 0: "the list is empty"
                    case 1: "the list has 1 favorite"
                    default: "the list has \(count) favorites"
                    }
                return Self.reject("There is no favorite number \(number): \(list).")
            }
            return .success([.favoritePrimes(.deleteFavoritePrimes(atOffsets: IndexSet(integer: number - 1)))])
        case .saveFile:
            return Self.favoritesCommand("save-file", state, mode) ?? .success([.favoritePrimes(.saveButtonTapped)])
        case .loadFile:
            return Self.favoritesCommand("load", state, mode) ?? .success([.favoritePrimes(.loadButtonTapped)])
        case .toggleLog:
            return .success([.loggingToggled])
        case .help, .quit:
            return .success([])
        }
    }

    private static func reject(_ message: String) -> Result<[AppAction], TerminalRejection> {
        .failure(TerminalRejection(message))
    }

    /// The rejection of a counter-screen command, unless the counter screen is shown with nothing over it.
    private static func counterCommand(
        _ name: String, _ state: AppState, _ mode: TerminalMode
    ) -> Result<[AppAction], TerminalRejection>? {
        if state.screen != .counter {
            return reject("\"\(name)\" works on the counter screen. \(mode.ask("counter")) to go back.")
        }
        if state.nthPrimeAlert != nil {
            return reject("\"\(name)\" is not available while the answer is shown. \(mode.ask("dismiss")) first.")
        }
        if state.isPrimeModalShown {
            return reject("\"\(name)\" is not available on \"is this prime?\". \(mode.ask("dismiss")) to close it.")
        }
        return nil
    }

    /// The rejection of an "is this prime?" command, unless that screen is open.
    private static func primeModalCommand(
        _ name: String, _ state: AppState, _ mode: TerminalMode
    ) -> Result<[AppAction], TerminalRejection>? {
        if state.screen == .counter, state.isPrimeModalShown, state.nthPrimeAlert == nil { return nil }
        if state.screen == .counter, state.nthPrimeAlert != nil {
            return reject("\"\(name)\" is not available while the answer is shown. \(mode.ask("dismiss")) first.")
        }
        let hint =
            state.screen == .counter ? "\(mode.ask("prime")) to open it." : "\(mode.ask("counter", then: "prime"))."
        return reject("\"\(name)\" works on \"is this prime?\". \(hint)")
    }

    /// The rejection of a favorites-screen command, unless that screen is shown.
    private static func favoritesCommand(
        _ name: String, _ state: AppState, _ mode: TerminalMode
    ) -> Result<[AppAction], TerminalRejection>? {
        if state.screen == .favoritePrimes { return nil }
        return reject("\"\(name)\" works on the favorite primes screen. \(mode.ask("favorites")) to go there.")
    }
}

/// Why a command was not run where the user is; its ``message`` is shown, and nothing changes.
public struct TerminalRejection: Error, Equatable, Sendable {
    /// The sentence shown to the user.
    public let message: String

    /// A rejection saying `message`.
    ///
    /// - Parameter message: The message to show the user.
    public init(_ message: String) {
        self.message = message
    }
}
