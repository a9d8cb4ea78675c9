import Foundation
import PrimeTimeCore
import Testing

@Suite("Terminal commands to actions")
struct TerminalActionsTests {
    let counter = AppState(count: 3, favoritePrimes: [2])
    var modal: AppState { AppState(count: 3, favoritePrimes: [2], isPrimeModalShown: true) }
    var favorites: AppState { AppState(count: 3, favoritePrimes: [2, 3], screen: .favoritePrimes) }
    var answered: AppState { AppState(count: 3, nthPrimeAlert: NthPrimeAlert(n: 3, prime: 5)) }

    func rejection(_ command: TerminalCommand, _ state: AppState) -> String? {
        if case let .failure(rejection) = command.actions(in: state) { return rejection.message }
        return nil
    }

    // MARK: - Each command where it applies

    @Test func counterCommands() {
        #expect(TerminalCommand.increment.actions(in: counter) == .success([.counter(.incrementButtonTapped)]))
        #expect(TerminalCommand.decrement.actions(in: counter) == .success([.counter(.decrementButtonTapped)]))
        #expect(TerminalCommand.isThisPrime.actions(in: counter) == .success([.isPrimeButtonTapped]))
        #expect(TerminalCommand.nthPrime.actions(in: counter) == .success([.nthPrime(.nthPrimeButtonTapped)]))
        #expect(TerminalCommand.showFavorites.actions(in: counter) == .success([.screenSelected(.favoritePrimes)]))
    }

    @Test func primeModalCommands() {
        #expect(TerminalCommand.saveFavorite.actions(in: modal) == .success([.primeModal(.saveFavoritePrimeTapped)]))
        var saved = modal
        saved.favoritePrimes = [3]
        #expect(TerminalCommand.removeFavorite.actions(in: saved) == .success([.primeModal(.removeFavoritePrimeTapped)]))
        #expect(TerminalCommand.dismiss.actions(in: modal) == .success([.primeModalDismissed]))
    }

    @Test func favoritesCommands() {
        #expect(TerminalCommand.showCounter.actions(in: favorites) == .success([.screenSelected(.counter)]))
        #expect(TerminalCommand.deleteFavorite(number: 2).actions(in: favorites)
                == .success([.favoritePrimes(.deleteFavoritePrimes(atOffsets: IndexSet(integer: 1)))]))
        #expect(TerminalCommand.saveFile.actions(in: favorites) == .success([.favoritePrimes(.saveButtonTapped)]))
        #expect(TerminalCommand.loadFile.actions(in: favorites) == .success([.favoritePrimes(.loadButtonTapped)]))
    }

    @Test func commandsThatApplyAnywhere() {
        for state in [counter, modal, favorites, answered] {
            #expect(TerminalCommand.toggleLog.actions(in: state) == .success([.loggingToggled]))
            #expect(TerminalCommand.help.actions(in: state) == .success([]))
            #expect(TerminalCommand.quit.actions(in: state) == .success([]))
        }
    }

    @Test func dismissClosesTheAnswerFirstThenTheModalThenTheMessage() {
        var state = answered
        state.isPrimeModalShown = true
        state.message = "Oops."
        #expect(TerminalCommand.dismiss.actions(in: state) == .success([.nthPrime(.alertDismissButtonTapped)]))
        state.nthPrimeAlert = nil
        #expect(TerminalCommand.dismiss.actions(in: state) == .success([.primeModalDismissed]))
        state.isPrimeModalShown = false
        #expect(TerminalCommand.dismiss.actions(in: state) == .success([.favoritePrimes(.messageDismissed)]))
        state.message = nil
        #expect(rejection(.dismiss, state) == "Nothing to dismiss.")
        var onFavorites = favorites
        onFavorites.message = "Oops."
        #expect(TerminalCommand.dismiss.actions(in: onFavorites) == .success([.favoritePrimes(.messageDismissed)]))
    }

    // MARK: - Wrong screen: a message, no action

    @Test func counterCommandsElsewhere() {
        #expect(rejection(.increment, favorites) == "\"inc\" works on the counter screen. Type \"counter\" to go back.")
        #expect(rejection(.decrement, modal) == "\"dec\" is not available on \"is this prime?\". Type \"dismiss\" to close it.")
        #expect(rejection(.isThisPrime, answered) == "\"prime\" is not available while the answer is shown. Type \"dismiss\" first.")
        #expect(rejection(.nthPrime, favorites) == "\"nth\" works on the counter screen. Type \"counter\" to go back.")
        #expect(rejection(.showFavorites, modal) == "\"favorites\" is not available on \"is this prime?\". Type \"dismiss\" to close it.")
        var computing = counter
        computing.nthPrimeRequestedN = 3
        #expect(rejection(.nthPrime, computing) == "Already computing; wait for the answer.")
    }

    @Test func primeModalCommandsElsewhere() {
        #expect(rejection(.saveFavorite, counter) == "\"save\" works on \"is this prime?\". Type \"prime\" to open it.")
        #expect(rejection(.removeFavorite, favorites) == "\"remove\" works on \"is this prime?\". Type \"counter\", then \"prime\".")
        var answeredModal = modal
        answeredModal.nthPrimeAlert = NthPrimeAlert(n: 3, prime: 5)
        #expect(rejection(.saveFavorite, answeredModal) == "\"save\" is not available while the answer is shown. Type \"dismiss\" first.")
    }

    @Test func primeModalCommandsThatWouldChangeNothing() {
        var notPrime = modal
        notPrime.count = 4
        #expect(rejection(.saveFavorite, notPrime) == "4 is not prime, so it cannot be a favorite.")
        var favorite = modal
        favorite.favoritePrimes = [3]
        #expect(rejection(.saveFavorite, favorite) == "3 is already a favorite.")
        #expect(rejection(.removeFavorite, modal) == "3 is not a favorite.")
    }

    @Test func favoritesCommandsElsewhere() {
        for (command, name) in [(TerminalCommand.showCounter, "counter"), (.deleteFavorite(number: 1), "del"),
                                (.saveFile, "save-file"), (.loadFile, "load")] {
            #expect(rejection(command, counter)
                    == "\"\(name)\" works on the favorite primes screen. Type \"favorites\" to go there.")
        }
    }

    @Test func deletingANumberThatIsNotListed() {
        #expect(rejection(.deleteFavorite(number: 3), favorites) == "There is no favorite number 3: the list has 2 favorites.")
        #expect(rejection(.deleteFavorite(number: 0), favorites) == "There is no favorite number 0: the list has 2 favorites.")
        var one = favorites
        one.favoritePrimes = [2]
        #expect(rejection(.deleteFavorite(number: -1), one) == "There is no favorite number -1: the list has 1 favorite.")
        one.favoritePrimes = []
        #expect(rejection(.deleteFavorite(number: 1), one) == "There is no favorite number 1: the list is empty.")
    }

    /// Issue 24: interactive mode said "Type \"dismiss\"" where the user presses "d".
    @Test func interactiveModeSaysWhichKeyToPress() {
        func rejection(_ command: TerminalCommand, _ state: AppState) -> String? {
            if case let .failure(rejection) = command.actions(in: state, mode: .interactive) { return rejection.message }
            return nil
        }
        #expect(rejection(.increment, favorites) == "\"inc\" works on the counter screen. Press \"c\" to go back.")
        #expect(rejection(.decrement, modal) == "\"dec\" is not available on \"is this prime?\". Press \"d\" to close it.")
        #expect(rejection(.isThisPrime, answered) == "\"prime\" is not available while the answer is shown. Press \"d\" first.")
        #expect(rejection(.saveFavorite, counter) == "\"save\" works on \"is this prime?\". Press \"p\" to open it.")
        #expect(rejection(.removeFavorite, favorites) == "\"remove\" works on \"is this prime?\". Press \"c\", then \"p\".")
        #expect(rejection(.saveFile, counter) == "\"save-file\" works on the favorite primes screen. Press \"f\" to go there.")
        #expect(TerminalMode.interactive.ask("load") == "Type \":load\"")
        #expect(TerminalMode.line.ask("counter", then: "prime") == "Type \"counter\", then \"prime\"")
    }
}
