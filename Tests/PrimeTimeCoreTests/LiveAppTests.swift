import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
@testable import PrimeTimeCore
import Testing

/// The app with the live environment (real queues, a real favorites file and log file in a
/// temporary directory), asserted step by step with a TestStore. Only the clock is fixed.
@MainActor
@Suite("App with the live environment")
struct LiveAppTests {
    @Test func loadSaveAutosaveNthPrimeAndLogging() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PrimeTimeLive-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let favoritesURL = directory.appendingPathComponent("favorites.json")
        let logURL = directory.appendingPathComponent("log.txt")
        try Data("[2, 3]".utf8).write(to: favoritesURL)

        var environment = AppEnvironment.live(favoritesFile: favoritesURL, logFile: logURL)
        environment.now = { Date(timeIntervalSince1970: 0) }
        let logFile = LogFile(url: logURL)
        environment.log = logFile.append
        let store = TestStore(initialState: AppState(count: 5), reducer: appReducer, environment: environment)
        store.timeout = .seconds(5)

        store.send(.favoritePrimes(.launched))
        await store.receive(.favoritePrimes(.loadResponse(.success(.primes([2, 3]))))) {
            $0.favoritePrimes = [2, 3]
            $0.favoritesFileStatus = .inSync
        }

        store.send(.loggingToggled) { $0.isLogging = true }
        store.send(.isPrimeButtonTapped) { $0.isPrimeModalShown = true }
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [2, 3, 5]
            $0.activityFeed = [at(0, .addedFavoritePrime(5))]
        }
        await store.receive(.favoritePrimes(.saveResponse(.success([2, 3, 5]))))
        #expect(try String(contentsOf: favoritesURL, encoding: .utf8) == "[2,3,5]")
        store.send(.primeModalDismissed) { $0.isPrimeModalShown = false }

        store.send(.nthPrime(.nthPrimeButtonTapped)) { $0.nthPrimeRequestedN = 5 }
        await store.receive(.nthPrime(.nthPrimeResponse(n: 5, prime: 11))) {
            $0.nthPrimeRequestedN = nil
            $0.nthPrimeAlert = NthPrimeAlert(n: 5, prime: 11)
        }
        store.send(.loggingToggled) { $0.isLogging = false }
        await store.finish()

        logFile.flush()
        let log = try String(contentsOf: logURL, encoding: .utf8)
        #expect(log.contains("FavoritePrimesAction.saveResponse("))
        let actions = log.split(separator: "\n").filter { $0.hasPrefix("  AppAction.") }
        #expect(actions == [
            "  AppAction.loggingToggled",
            "  AppAction.isPrimeButtonTapped",
            "  AppAction.primeModal(PrimeModalAction.saveFavoritePrimeTapped)",
            "  AppAction.favoritePrimes(",   // the save's response, written over several lines
            "  AppAction.primeModalDismissed",
            "  AppAction.nthPrime(NthPrimeAction.nthPrimeButtonTapped)",
            "  AppAction.nthPrime(NthPrimeAction.nthPrimeResponse(n: 5, prime: 11))",
            "  AppAction.loggingToggled",
        ])
    }
}
