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
}
