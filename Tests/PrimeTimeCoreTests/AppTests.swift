import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
@testable import PrimeTimeCore
import StreamsTesting
import Testing

/// The app's dependencies for a test: a test scheduler for the main queue and the nth-prime
/// calculator (the live `computing`, 400 ms), a stub file, a clock, and a log collected in memory.
@MainActor
final class AppHarness {
    let scheduler = DispatchQueue.test
    let file = FileStub()
    let clock = TestClock()
    var log: [String] = []

    var environment: AppEnvironment {
        let queue = scheduler.eraseToAnyScheduler()
        return AppEnvironment(
            nthPrime: NthPrimeEnvironment.computing(on: queue, latency: .milliseconds(400)),
            mainQueue: queue,
            favoritesFile: file.client,
            now: { self.clock.now() },
            log: { self.log.append($0) })
    }

    func makeStore(_ state: AppState = AppState()) -> TestStore<AppState, AppAction, AppEnvironment> {
        TestStore(initialState: state, reducer: appReducer, environment: environment)
    }
}

func at(_ seconds: TimeInterval, _ kind: Activity.Kind) -> Activity {
    Activity(timestamp: Date(timeIntervalSince1970: seconds), kind: kind)
}

@MainActor
@Suite("App")
struct AppTests {
    // MARK: Launch and the favorites file

    @Test func launchLoadsTheFavoritesIntoTheListButNotTheFeed() {
        let app = AppHarness()
        app.file.loadResult = .success(.primes([2, 3]))
        let store = app.makeStore()
        store.send(.favoritePrimes(.launched))
        app.scheduler.advance()
        store.receive(.favoritePrimes(.loadResponse(.success(.primes([2, 3]))))) {
            $0.favoritePrimes = [2, 3]
            $0.favoritesFileStatus = .inSync
        }
        // Reading the file is not activity, and what was loaded is not written back.
        app.scheduler.advance(by: .seconds(1))
        #expect(app.file.saved == [])
    }

    @Test func favoritesAnotherProcessSavedAppearButAreNotActivityAndOneAddedMeanwhileIsSaved() {
        let app = AppHarness()
        app.file.othersSaved = [11]
        // The file has not been read yet: a change is not autosaved, only the explicit save writes.
        let store = app.makeStore(AppState(count: 5, favoritePrimes: [2], isPrimeModalShown: true))
        store.send(.favoritePrimes(.saveButtonTapped)) { $0.favoritesFileRequest = .save }
        // While that save is in flight, the user adds 5.
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [2, 5]
            $0.activityFeed = [at(0, .addedFavoritePrime(5))]
        }
        app.scheduler.advance()
        // The file now holds [2, 11] (another process saved 11): 11 appears, 5 stays, and the
        // autosave writes them all; 11 is not the user's activity.
        store.receive(.favoritePrimes(.mergedSaveResponse(sent: [2], written: [2, 11]))) {
            $0.favoritePrimes = [2, 5, 11]
            $0.favoritesFileStatus = .inSync
            $0.message = "Saved 2 favorites to the favorites file, with the changes another PrimeTime made to it."
            $0.favoritesFileRequest = nil
        }
        app.scheduler.advance()
        store.receive(.favoritePrimes(.saveResponse(.success([2, 5, 11])))) { $0.message = nil }
        #expect(store.state.activityFeed == [at(0, .addedFavoritePrime(5))])
        #expect(app.file.saved == [[2], [2, 5, 11]])
    }

    @Test func aCorruptFileIsReportedAndOnlyAnExplicitSaveOverwritesIt() {
        let app = AppHarness()
        app.file.loadResult = .failure(notJSON)
        let store = app.makeStore(AppState(count: 7))
        store.send(.favoritePrimes(.launched))
        app.scheduler.advance()
        store.receive(.favoritePrimes(.loadResponse(.failure(notJSON)))) {
            $0.favoritesFileStatus = .leftUntouched
            $0.message = notJSON.message
        }
        // Saving a favorite on the modal changes memory only.
        store.send(.isPrimeButtonTapped) { $0.isPrimeModalShown = true }
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [7]
            $0.activityFeed = [at(0, .addedFavoritePrime(7))]
        }
        app.scheduler.advance(by: .seconds(1))
        #expect(app.file.saved == [])
        // The user saves: the file is overwritten, the message says so, autosave resumes.
        store.send(.favoritePrimes(.saveButtonTapped)) { $0.favoritesFileRequest = .save }
        app.scheduler.advance()
        store.receive(.favoritePrimes(.saveResponse(.success([7])))) {
            $0.favoritesFileStatus = .inSync
            $0.message = "Saved 1 favorite to the favorites file."
            $0.favoritesFileRequest = nil
        }
        store.send(.primeModal(.removeFavoritePrimeTapped)) {
            $0.favoritePrimes = []
            $0.activityFeed.append(at(1, .removedFavoritePrime(7)))
        }
        app.scheduler.advance()
        store.receive(.favoritePrimes(.saveResponse(.success([])))) { $0.message = nil }
        #expect(app.file.saved == [[7], []])
    }

    @Test func aWriteFailureIsShownAndNothingIsLostInMemory() {
        let app = AppHarness()
        app.file.saveError = unwritable
        let store = app.makeStore(AppState(favoritePrimes: [2, 3, 5], screen: .favoritePrimes, favoritesFileStatus: .inSync))
        store.send(.favoritePrimes(.deleteFavoritePrimes(atOffsets: [1]))) {
            $0.favoritePrimes = [2, 5]
            $0.activityFeed = [at(0, .removedFavoritePrime(3))]
        }
        app.scheduler.advance()
        store.receive(.favoritePrimes(.saveResponse(.failure(unwritable)))) {
            $0.message = unwritable.message
            $0.favoritesFileStatus = .unsaved
        }
        #expect(store.state.favoritePrimes == [2, 5])
        store.send(.favoritePrimes(.messageDismissed)) { $0.message = nil }
    }

    // MARK: Counter, modal and navigation

    @Test func counterAndThePrimeModalWithAutosaveAndTheFeed() {
        let app = AppHarness()
        let store = app.makeStore(AppState(count: 4, favoritesFileStatus: .inSync))
        store.send(.counter(.incrementButtonTapped)) { $0.count = 5 }
        #expect(store.state.isPrime && !store.state.isFavorite)
        store.send(.isPrimeButtonTapped) { $0.isPrimeModalShown = true }
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [5]
            $0.activityFeed = [at(0, .addedFavoritePrime(5))]
        }
        app.scheduler.advance()
        store.receive(.favoritePrimes(.saveResponse(.success([5]))))
        #expect(store.state.isFavorite)
        // A duplicate changes nothing and saves nothing.
        store.send(.primeModal(.saveFavoritePrimeTapped))
        store.send(.primeModal(.removeFavoritePrimeTapped)) {
            $0.favoritePrimes = []
            $0.activityFeed.append(at(1, .removedFavoritePrime(5)))
        }
        app.scheduler.advance()
        store.receive(.favoritePrimes(.saveResponse(.success([]))))
        store.send(.primeModalDismissed) { $0.isPrimeModalShown = false }
        // A non-prime cannot be saved.
        store.send(.counter(.decrementButtonTapped)) { $0.count = 4 }
        store.send(.isPrimeButtonTapped) { $0.isPrimeModalShown = true }
        store.send(.primeModal(.saveFavoritePrimeTapped))
        #expect(app.file.saved == [[5], []])
    }

    @Test func actionsOfAScreenThatIsNotShownAreIgnored() {
        let app = AppHarness()
        let store = app.makeStore(AppState(count: 3))
        // The modal's actions while it is hidden.
        store.send(.primeModal(.saveFavoritePrimeTapped))
        store.send(.primeModalDismissed)
        // The counter's while the modal is shown.
        store.send(.isPrimeButtonTapped) { $0.isPrimeModalShown = true }
        store.send(.counter(.incrementButtonTapped))
        store.send(.nthPrime(.nthPrimeButtonTapped))
        store.send(.isPrimeButtonTapped)
        // The counter screen's on the favorites screen; leaving closes the modal.
        store.send(.screenSelected(.favoritePrimes)) {
            $0.screen = .favoritePrimes
            $0.isPrimeModalShown = false
        }
        store.send(.counter(.decrementButtonTapped))
        store.send(.isPrimeButtonTapped)
        store.send(.nthPrime(.nthPrimeButtonTapped))
        store.send(.primeModal(.saveFavoritePrimeTapped))
        store.send(.screenSelected(.favoritePrimes))
        store.send(.screenSelected(.counter)) { $0.screen = .counter }
        store.send(.counter(.incrementButtonTapped)) { $0.count = 4 }
    }

    @Test func accepts() {
        let counter = AppState()
        #expect(counter.accepts(.counter(.incrementButtonTapped)))
        #expect(counter.accepts(.isPrimeButtonTapped))
        #expect(counter.accepts(.nthPrime(.nthPrimeButtonTapped)))
        #expect(!counter.accepts(.primeModal(.saveFavoritePrimeTapped)))
        #expect(!counter.accepts(.primeModalDismissed))
        for action: AppAction in [
            .screenSelected(.favoritePrimes), .loggingToggled, .favoritePrimes(.saveButtonTapped),
            .nthPrime(.alertDismissButtonTapped), .nthPrime(.nthPrimeResponse(n: 1, prime: 2)),
        ] {
            #expect(counter.accepts(action))
            #expect(AppState(screen: .favoritePrimes).accepts(action))
            #expect(AppState(isPrimeModalShown: true).accepts(action))
        }
        let modal = AppState(isPrimeModalShown: true)
        #expect(modal.accepts(.primeModal(.removeFavoritePrimeTapped)))
        #expect(modal.accepts(.primeModalDismissed))
        #expect(!modal.accepts(.counter(.decrementButtonTapped)))
        #expect(!modal.isNthPrimeButtonEnabled)
        let favorites = AppState(screen: .favoritePrimes)
        #expect(!favorites.accepts(.counter(.incrementButtonTapped)))
        #expect(!favorites.isNthPrimeButtonEnabled)
        #expect(!AppState(nthPrimeAlert: NthPrimeAlert(n: 1, prime: 2)).isNthPrimeButtonEnabled)
        #expect(!AppState(nthPrimeRequestedN: 1).accepts(.nthPrime(.nthPrimeButtonTapped)))
    }

    // MARK: Nth prime

    @Test func nthPrimeIsAskedAboutTheCountAtTheTimeAndDisabledInFlight() {
        let app = AppHarness()
        let store = app.makeStore(AppState(count: 6))
        #expect(store.state.isNthPrimeButtonEnabled)
        store.send(.nthPrime(.nthPrimeButtonTapped)) { $0.nthPrimeRequestedN = 6 }
        #expect(!store.state.isNthPrimeButtonEnabled)
        store.send(.nthPrime(.nthPrimeButtonTapped))
        store.send(.counter(.incrementButtonTapped)) { $0.count = 7 }
        app.scheduler.advance(by: .milliseconds(400))
        store.receive(.nthPrime(.nthPrimeResponse(n: 6, prime: 13))) {
            $0.nthPrimeRequestedN = nil
            $0.nthPrimeAlert = NthPrimeAlert(n: 6, prime: 13)
        }
        #expect(!store.state.isNthPrimeButtonEnabled)
        store.send(.nthPrime(.alertDismissButtonTapped)) { $0.nthPrimeAlert = nil }
        #expect(store.state.isNthPrimeButtonEnabled)
    }

    @Test func leavingTheCounterScreenCancelsTheNthPrimeInFlight() {
        let app = AppHarness()
        let store = app.makeStore(AppState(count: 100))
        store.send(.nthPrime(.nthPrimeButtonTapped)) { $0.nthPrimeRequestedN = 100 }
        app.scheduler.advance(by: .milliseconds(399))
        store.send(.screenSelected(.favoritePrimes)) {
            $0.screen = .favoritePrimes
            $0.nthPrimeRequestedN = nil
        }
        #expect(store.runningEffectCount == 0)
        app.scheduler.advance(by: .seconds(10))
        store.send(.screenSelected(.counter)) { $0.screen = .counter }
        #expect(store.state.nthPrimeAlert == nil)
        #expect(store.state.isNthPrimeButtonEnabled)
    }

    // MARK: Logging

    @Test func whileLoggingIsOnEveryActionAndItsDiffIsWrittenToTheLog() throws {
        let app = AppHarness()
        let store = app.makeStore(AppState(count: 1))
        store.send(.counter(.incrementButtonTapped)) { $0.count = 2 }
        #expect(app.log == [])

        // Turning logging on is logged.
        store.send(.loggingToggled) { $0.isLogging = true }
        #expect(app.log.count == 1)
        #expect(app.log.last?.hasPrefix("received action:\n  AppAction.loggingToggled\n") == true)
        #expect(app.log.last?.contains("\n-   isLogging: false,\n+   isLogging: true,\n") == true)

        store.send(.counter(.incrementButtonTapped)) { $0.count = 3 }
        #expect(app.log.last == """
            received action:
              AppAction.counter(CounterAction.incrementButtonTapped)
              AppState(
            -   count: 2,
            +   count: 3,
                favoritePrimes: [],
                screen: Screen.counter,
                isPrimeModalShown: false,
                … (8 unchanged lines)
            """)

        // Actions effects send back are logged too, and so are ignored ones.
        store.send(.nthPrime(.nthPrimeButtonTapped)) { $0.nthPrimeRequestedN = 3 }
        app.scheduler.advance(by: .milliseconds(400))
        store.receive(.nthPrime(.nthPrimeResponse(n: 3, prime: 5))) {
            $0.nthPrimeRequestedN = nil
            $0.nthPrimeAlert = NthPrimeAlert(n: 3, prime: 5)
        }
        store.send(.primeModalDismissed)
        try #require(app.log.count == 5)
        #expect(app.log[3].hasPrefix("received action:\n  AppAction.nthPrime(NthPrimeAction.nthPrimeResponse(n: 3, prime: 5"))
        #expect(app.log[4] == "received action:\n  AppAction.primeModalDismissed\n  (No state changes)")

        // Turning it off is logged; after that nothing is.
        store.send(.loggingToggled) { $0.isLogging = false }
        #expect(app.log.count == 6)
        #expect(app.log.last?.contains("\n-   isLogging: true,\n+   isLogging: false,\n") == true)
        store.send(.counter(.incrementButtonTapped)) { $0.count = 4 }
        store.send(.nthPrime(.alertDismissButtonTapped)) { $0.nthPrimeAlert = nil }
        #expect(app.log.count == 6)
    }

    // MARK: The live environment

    @Test func theLiveNthPrimeComputesOffTheMainQueueWithLatency() async {
        let environment = AppEnvironment.live(
            favoritesFile: URL(fileURLWithPath: "/nonexistent/favorites.json"),
            logFile: URL(fileURLWithPath: "/nonexistent/log.txt"))
        let start = ContinuousClock.now
        var answer: Int??
        for await value in environment.nthPrime(10_000).values { answer = value }
        #expect(answer == .some(104_729))
        #expect(ContinuousClock.now - start >= .milliseconds(300))
    }

    @Test func theLogFileAppendsReports() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("PrimeTimeLog-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        let log = LogFile(url: url)
        log.append("first\nreport")
        log.append("second")
        log.flush()
        #expect(try String(contentsOf: url, encoding: .utf8) == "first\nreport\nsecond\n")
        // A log that cannot be written is skipped without a fuss.
        let nowhere = LogFile(url: URL(fileURLWithPath: "/nonexistent-dir/log.txt"))
        nowhere.append("lost")
        nowhere.flush()
    }
}
