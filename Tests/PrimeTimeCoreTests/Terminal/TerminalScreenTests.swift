import Foundation
import PrimeTimeCore
import Testing

@Suite("Terminal screen")
struct TerminalScreenTests {
    @Test func counter() {
        #expect(TerminalScreen.lines(AppState(count: 4, favoritePrimes: [2, 3])) == [
            "== Counter ==",
            "Count: 4",
            "Favorites: 2 | Log: off",
        ])
    }

    @Test func isThisPrime() {
        let prime = AppState(count: 7, favoritePrimes: [2], isPrimeModalShown: true)
        #expect(TerminalScreen.lines(prime) == [
            "== Counter > Is this prime? ==", "Count: 7", "7 is prime.  (save)", "Favorites: 1 | Log: off",
        ])
        var favorite = prime
        favorite.favoritePrimes = [2, 7]
        #expect(TerminalScreen.lines(favorite)[2] == "7 is prime, and a favorite.  (remove)")
        var notPrime = prime
        notPrime.count = 9
        #expect(TerminalScreen.lines(notPrime)[2] == "9 is not prime.")
    }

    @Test func nthPrimeComputingAndAnswered() {
        #expect(TerminalScreen.lines(AppState(count: 3, nthPrimeRequestedN: 3)) == [
            "== Counter ==", "Count: 3", "Computing the 3rd prime…", "Favorites: 0 | Log: off",
        ])
        #expect(TerminalScreen.lines(AppState(count: 3, nthPrimeAlert: NthPrimeAlert(n: 3, prime: 5))) == [
            "== Counter ==", "Count: 3", "The 3rd prime is 5.  (dismiss)", "Favorites: 0 | Log: off",
        ])
    }

    @Test func favoritesWithActivityMessageNoticeAndLog() {
        let time = Date(timeIntervalSince1970: 0)
        let feed = [2, 3, 5, 7, 11, 13].map { Activity(timestamp: time, kind: .addedFavoritePrime($0)) }
            + [Activity(timestamp: time, kind: .removedFavoritePrime(5))]
        let state = AppState(favoritePrimes: [2, 3, 7, 11, 13, 17, 19, 23, 29, 31], screen: .favoritePrimes,
                             activityFeed: feed, isLogging: true, message: "The favorites file f.json is not valid JSON.")
        #expect(TerminalScreen.lines(state, notice: "Unknown command \"x\".") == [
            "== Favorite primes ==",
            " 1. 2", " 2. 3", " 3. 7", " 4. 11", " 5. 13", " 6. 17", " 7. 19", " 8. 23", " 9. 29", "10. 31",
            "Activity:",
            "  (2 earlier)",
            "  + 5 added", "  + 7 added", "  + 11 added", "  + 13 added", "  - 5 removed",
            "Message: The favorites file f.json is not valid JSON.  (dismiss)",
            "! Unknown command \"x\".",
            "Favorites: 10 | Log: on",
        ])
        // Interactive mode stamps the activity with the time.
        let stamped = TerminalScreen.lines(state, time: { _ in "12:00:00" })
        #expect(stamped.contains("  12:00:00  - 5 removed"))
    }

    @Test func emptyFavorites() {
        #expect(TerminalScreen.lines(AppState(screen: .favoritePrimes)) == [
            "== Favorite primes ==", "(none yet: on the counter, \"prime\" then \"save\")", "Favorites: 0 | Log: off",
        ])
    }

    @Test func theKeyLineListsWhatAppliesHere() {
        #expect(TerminalScreen.keyLine(AppState())
                == "Keys: + inc  - dec  p prime  n nth  f favorites  l log  h help  q quit  : command")
        #expect(TerminalScreen.keyLine(AppState(count: 2, isPrimeModalShown: true))
                == "Keys: s save  d dismiss  l log  h help  q quit  : command")
        #expect(TerminalScreen.keyLine(AppState(screen: .favoritePrimes))
                == "Keys: c counter  l log  h help  q quit  : command")
    }

    /// Issue 24: "Computing the nth prime…" showed the count, not the n asked (press n at 5, then
    /// +: it said "Computing the 6th prime…", then answered "The 5th prime is 11").
    @Test func computingNamesTheNAskedNotTheCount() {
        #expect(TerminalScreen.lines(AppState(count: 6, nthPrimeRequestedN: 5))
                == ["== Counter ==", "Count: 6", "Computing the 5th prime…", "Favorites: 0 | Log: off"])
    }

    /// Issue 24: a negative n was "the -1st prime".
    @Test func aNegativeNHasNoOrdinal() {
        #expect(TerminalScreen.lines(AppState(count: -1, nthPrimeRequestedN: -1))[2] == "Computing prime number -1…")
        #expect(TerminalScreen.lines(AppState(count: -1, nthPrimeAlert: NthPrimeAlert(n: -1, prime: nil)))[2]
                == "There is no prime number -1: primes are counted from 1.  (dismiss)")
    }

    /// Issue 24: interactive mode said "(dismiss)", a command's name, where a key is pressed.
    @Test func interactiveModeNamesTheKeys() {
        let answered = AppState(count: 3, nthPrimeAlert: NthPrimeAlert(n: 3, prime: 5), message: "Saved 1 favorite to f.json.")
        #expect(TerminalScreen.lines(answered, mode: .interactive) == [
            "== Counter ==", "Count: 3", "The 3rd prime is 5.  (press d to dismiss)",
            "Message: Saved 1 favorite to f.json.  (press d to dismiss)", "Favorites: 0 | Log: off",
        ])
        #expect(TerminalScreen.lines(AppState(count: 7, isPrimeModalShown: true), mode: .interactive)[2]
                == "7 is prime.  (press s to save)")
        #expect(TerminalScreen.lines(AppState(count: 7, favoritePrimes: [7], isPrimeModalShown: true), mode: .interactive)[2]
                == "7 is prime, and a favorite.  (press r to remove)")
        #expect(TerminalScreen.lines(AppState(screen: .favoritePrimes), mode: .interactive)[1]
                == "(none yet: on the counter, press \"p\" then \"s\")")
    }
}
