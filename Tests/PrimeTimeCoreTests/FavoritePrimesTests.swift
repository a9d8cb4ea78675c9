import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
import PrimeTimeCore
import StreamsTesting
import Testing

/// A file client whose answers the test chooses; both answer at once (delivery is on the
/// reducer's main queue, a `TestScheduler`). It counts loads and records what it was asked to save.
@MainActor
final class FileStub {
    var loadResult: Result<FavoritesFileRead, FavoritesFileError> = .success(.missing)
    var saveError: FavoritesFileError?
    var loads = 0
    var saved: [[Int]] = []
    /// Favorites another process saved to the file: a save answers with them added (as the live
    /// client's merge does).
    var othersSaved: [Int] = []
    /// Favorites another process removed from the file: a save answers without them.
    var othersRemoved: [Int] = []

    var client: FavoritesFileClient {
        FavoritesFileClient(
            load: {
                self.loads += 1
                return Effect(value: self.loadResult)
            },
            save: { primes in
                self.saved.append(primes)
                let merged = primes.filter { !self.othersRemoved.contains($0) }
                    + self.othersSaved.filter { !primes.contains($0) }
                return Effect(value: self.saveError.map { .failure($0) } ?? .success(merged))
            })
    }
}

let notJSON = FavoritesFileError(.notJSON, path: "/tmp/favorites.json", reason: "Unexpected character")
let unwritable = FavoritesFileError(.unwritable, path: "/ro/favorites.json", reason: "Read-only file system")

@MainActor
@Suite("Favorite primes")
struct FavoritePrimesTests {
    /// The feature with autosave, as the app runs it.
    static let reducer = favoritePrimesReducer.autosavingFavoritePrimes(
        state: \.self, action: /FavoritePrimesAction.self, environment: { $0 })

    func makeStore(_ state: FavoritePrimesState, file: FileStub, scheduler: TestSchedulerOf<DispatchQueue>)
        -> TestStore<FavoritePrimesState, FavoritePrimesAction, FavoritePrimesEnvironment>
    {
        TestStore(
            initialState: state, reducer: Self.reducer,
            environment: FavoritePrimesEnvironment(file: file.client, mainQueue: scheduler.eraseToAnyScheduler()))
    }

    // MARK: Load

    @Test func loadReplacesTheListAndDoesNotWriteItBack() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.loadResult = .success(.primes([2, 3, 5]))
        let store = makeStore(FavoritePrimesState(favoritePrimes: [7], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.launched)
        // Delivered on the main queue: nothing before the scheduler runs.
        scheduler.advance()
        store.receive(.loadResponse(.success(.primes([2, 3, 5])))) {
            $0.favoritePrimes = [2, 3, 5]
            $0.fileStatus = .inSync
        }
        scheduler.advance(by: .seconds(1))
        #expect(file.loads == 1)
        #expect(file.saved == [])
    }

    @Test func aMissingFileStartsEmpty() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.loadResult = .success(.missing)
        let store = makeStore(FavoritePrimesState(), file: file, scheduler: scheduler)
        store.send(.launched)
        scheduler.advance()
        store.receive(.loadResponse(.success(.missing))) { $0.fileStatus = .inSync }
        #expect(store.state.message == nil)
        #expect(file.saved == [])
    }

    @Test func aCorruptFileIsReportedLeftUntouchedAndOnlyAnExplicitSaveWritesIt() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.loadResult = .failure(notJSON)
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3, 7]), file: file, scheduler: scheduler)
        store.send(.launched)
        scheduler.advance()
        store.receive(.loadResponse(.failure(notJSON))) {
            $0.fileStatus = .leftUntouched
            $0.message = "The favorites file /tmp/favorites.json is not valid JSON: Unexpected character. "
                + "It was left untouched; saving overwrites it."
        }
        // A change is not autosaved: no effect, nothing written.
        store.send(.deleteFavoritePrimes(atOffsets: [1])) { $0.favoritePrimes = [2, 7] }
        scheduler.advance(by: .seconds(1))
        #expect(file.saved == [])

        // The user saves: now the file is written, and changes are autosaved again.
        store.send(.saveButtonTapped) { $0.request = .save }
        scheduler.advance()
        store.receive(.saveResponse(.success([2, 7]))) {
            $0.fileStatus = .inSync
            $0.message = "Saved 2 favorites to the favorites file."
            $0.request = nil
        }
        // An autosave's answer is not reported: the report of the save goes.
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [7] }
        scheduler.advance()
        store.receive(.saveResponse(.success([7]))) { $0.message = nil }
        #expect(file.saved == [[2, 7], [7]])
    }

    @Test func aSaveShowsFavoritesAnotherProcessSavedAndDoesNotSaveThemAgain() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.othersSaved = [11]
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [3] }
        scheduler.advance()
        store.receive(.mergedSaveResponse(sent: [3], written: [3, 11])) { $0.favoritePrimes = [3, 11] }
        // The file holds [3, 11] already: no second save.
        scheduler.advance(by: .seconds(1))
        #expect(file.saved == [[3]])
    }

    @Test func aFavoriteAnotherProcessRemovedGoesAndIsNotSavedBack() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.othersRemoved = [2]
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3, 5], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.deleteFavoritePrimes(atOffsets: [1])) { $0.favoritePrimes = [2, 5] }
        scheduler.advance()
        store.receive(.mergedSaveResponse(sent: [2, 5], written: [5])) { $0.favoritePrimes = [5] }
        scheduler.advance(by: .seconds(1))
        #expect(file.saved == [[2, 5]])
    }

    @Test func aLoadKeepsFavoritesOnlyMemoryHoldsAndSavesThem() {
        // A favorite saved before the launch load returns is not in the file yet.
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.loadResult = .success(.primes([2, 3]))
        let store = makeStore(FavoritePrimesState(favoritePrimes: [7, 3]), file: file, scheduler: scheduler)
        store.send(.launched)
        scheduler.advance()
        store.receive(.loadResponse(.success(.primes([2, 3])))) {
            $0.favoritePrimes = [2, 3, 7]
            $0.fileStatus = .inSync
        }
        scheduler.advance()
        store.receive(.saveResponse(.success([2, 3, 7])))
        #expect(file.saved == [[2, 3, 7]])
    }

    @Test func aLoadAfterAWriteFailedKeepsWhatWasNotWritten() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.saveError = unwritable
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.saveButtonTapped) { $0.request = .save }
        scheduler.advance()
        store.receive(.saveResponse(.failure(unwritable))) {
            $0.message = unwritable.message
            $0.fileStatus = .unsaved
            $0.request = nil
        }
        // Meanwhile the file came to hold [5] (written elsewhere): the load adds it and keeps 2,
        // and says so.
        file.saveError = nil
        file.loadResult = .success(.primes([5]))
        store.send(.loadButtonTapped) { $0.request = .load }
        scheduler.advance()
        store.receive(.loadResponse(.success(.primes([5])))) {
            $0.favoritePrimes = [5, 2]
            $0.fileStatus = .inSync
            $0.message = "Read 1 favorite from the favorites file. "
                + "1 favorite that was not in the file is kept, and saved to it."
            $0.request = nil
        }
        scheduler.advance()
        store.receive(.saveResponse(.success([5, 2]))) { $0.message = nil }
        #expect(file.saved == [[2], [5, 2]])
    }

    @Test func aNewLoadCancelsTheOneInFlight() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.loadResult = .success(.primes([2]))
        let store = makeStore(FavoritePrimesState(), file: file, scheduler: scheduler)
        store.send(.launched)
        file.loadResult = .success(.primes([3]))
        store.send(.launched)
        scheduler.advance()
        store.receive(.loadResponse(.success(.primes([3])))) {
            $0.favoritePrimes = [3]
            $0.fileStatus = .inSync
        }
        #expect(file.loads == 2)
    }

    // MARK: Save

    @Test func saveWritesTheListAndSaysSoInPlaceOfAnEarlierMessage() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        let store = makeStore(
            FavoritePrimesState(favoritePrimes: [5, 2], message: "old problem", fileStatus: .inSync),
            file: file, scheduler: scheduler)
        store.send(.saveButtonTapped) { $0.request = .save }
        #expect(file.saved == [[5, 2]])
        scheduler.advance()
        store.receive(.saveResponse(.success([5, 2]))) {
            $0.message = "Saved 2 favorites to the favorites file."
            $0.request = nil
        }
    }

    @Test func aSaveTheUserAskedForIsReportedEvenWhenAnAutosaveReplacesIt() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.othersSaved = [11]
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.saveButtonTapped) { $0.request = .save }
        // Before it answers, a change autosaves, which replaces the save's answer.
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [3] }
        scheduler.advance()
        store.receive(.mergedSaveResponse(sent: [3], written: [3, 11])) {
            $0.favoritePrimes = [3, 11]
            $0.message = "Saved 2 favorites to the favorites file, with the changes another PrimeTime made to it."
            $0.request = nil
        }
        #expect(file.saved == [[2, 3], [3]])
    }

    @Test func aLoadTheUserAskedForSaysWhatItRead() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        let client = file.client
        let environment = FavoritePrimesEnvironment(
            file: FavoritesFileClient(path: "/home/me/favorites.json", load: client.load, save: client.save),
            mainQueue: scheduler.eraseToAnyScheduler())
        let store = TestStore(initialState: FavoritePrimesState(fileStatus: .inSync), reducer: Self.reducer,
                              environment: environment)
        file.loadResult = .success(.primes([2, 3, 5]))
        store.send(.loadButtonTapped) { $0.request = .load }
        scheduler.advance()
        store.receive(.loadResponse(.success(.primes([2, 3, 5])))) {
            $0.favoritePrimes = [2, 3, 5]
            $0.message = "Read 3 favorites from /home/me/favorites.json."
            $0.request = nil
        }
        file.loadResult = .success(.missing)
        store.send(.loadButtonTapped) { $0.request = .load }
        scheduler.advance()
        store.receive(.loadResponse(.success(.missing))) {
            $0.favoritePrimes = []
            $0.message = "There is no favorites file at /home/me/favorites.json yet: the next save creates it."
            $0.request = nil
        }
        file.loadResult = .failure(notJSON)
        store.send(.loadButtonTapped) { $0.request = .load }
        scheduler.advance()
        store.receive(.loadResponse(.failure(notJSON))) {
            $0.message = notJSON.message
            $0.fileStatus = .leftUntouched
            $0.request = nil
        }
    }

    @Test func entriesLeftOutOfTheFileAreReportedAndTheOthersKept() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        let skipped = FavoritesFileSkipped(
            path: "/f.json", entries: [FavoritesFileSkippedEntry(position: 1, entry: "4", problem: .notPrime)], kept: 1,
            advice: "A copy is kept at /f.json.corrupt.")
        file.loadResult = .success(.primes([2], skipped: skipped))
        let store = makeStore(FavoritePrimesState(), file: file, scheduler: scheduler)
        // Reported at launch too: it is a problem with the file.
        store.send(.launched)
        scheduler.advance()
        store.receive(.loadResponse(.success(.primes([2], skipped: skipped)))) {
            $0.favoritePrimes = [2]
            $0.fileStatus = .inSync
            $0.message = "The favorites file /f.json has 1 entry that is not a favorite prime, left out: "
                + "entry 1 (4) is not prime. 1 other favorite was read; the next save writes the file without it. "
                + "A copy is kept at /f.json.corrupt."
        }
        // The file is in sync: a change is autosaved (without the entry left out).
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [] }
        scheduler.advance()
        store.receive(.saveResponse(.success([]))) { $0.message = nil }
    }

    @Test func aWriteFailureIsShownAndTheListIsKept() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.saveError = unwritable
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.saveButtonTapped) { $0.request = .save }
        scheduler.advance()
        store.receive(.saveResponse(.failure(unwritable))) {
            $0.message = "Could not save the favorites to /ro/favorites.json: Read-only file system. They are kept in memory."
            $0.fileStatus = .unsaved
            $0.request = nil
        }
        #expect(store.state.favoritePrimes == [2, 3])
        // An autosave that fails also keeps the list; the message stays until dismissed.
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [3] }
        scheduler.advance()
        store.receive(.saveResponse(.failure(unwritable)))
        store.send(.messageDismissed) { $0.message = nil }
        #expect(file.saved == [[2, 3], [3]])
    }

    @Test func saveCancelsALoadInFlightSoItsAnswerDoesNotUndoTheSave() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        file.loadResult = .success(.primes([2]))
        let store = makeStore(FavoritePrimesState(favoritePrimes: [3, 5]), file: file, scheduler: scheduler)
        store.send(.loadButtonTapped) { $0.request = .load }
        store.send(.saveButtonTapped) { $0.request = .save }
        scheduler.advance()
        store.receive(.saveResponse(.success([3, 5]))) {
            $0.fileStatus = .inSync
            $0.message = "Saved 2 favorites to the favorites file."
            $0.request = nil
        }
    }

    @Test func aNewerSaveReplacesTheAnswerOfAnOlderOne() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3, 5], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [3, 5] }
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [5] }
        scheduler.advance()
        store.receive(.saveResponse(.success([5])))
        #expect(file.saved == [[3, 5], [5]])
    }

    // MARK: Delete

    @Test func deleteAtOffsetsIgnoringOnesPastTheEnd() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3, 5, 7], fileStatus: .inSync), file: file, scheduler: scheduler)
        store.send(.deleteFavoritePrimes(atOffsets: [0, 2, 9])) { $0.favoritePrimes = [3, 7] }
        scheduler.advance()
        store.receive(.saveResponse(.success([3, 7])))
        // Nothing to delete: no change, no save.
        store.send(.deleteFavoritePrimes(atOffsets: [5]))
        store.send(.deleteFavoritePrimes(atOffsets: []))
        #expect(file.saved == [[3, 7]])
    }

    @Test func changesBeforeTheFileWasReadAreNotAutosaved() {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        let store = makeStore(FavoritePrimesState(favoritePrimes: [2, 3]), file: file, scheduler: scheduler)
        store.send(.deleteFavoritePrimes(atOffsets: [0])) { $0.favoritePrimes = [3] }
        scheduler.advance(by: .seconds(1))
        #expect(file.saved == [])
    }

    @Test func messageDismissed() {
        let store = makeStore(FavoritePrimesState(message: "m"), file: FileStub(), scheduler: DispatchQueue.test)
        store.send(.messageDismissed) { $0.message = nil }
        store.send(.messageDismissed)
    }

    // MARK: The file format

    @Test func encodeIsAJSONArray() {
        #expect(String(decoding: FavoritesFile.encode([2, 3, 5]), as: UTF8.self) == "[2,3,5]")
        #expect(String(decoding: FavoritesFile.encode([]), as: UTF8.self) == "[]")
    }

    @Test func decodeAValidFile() {
        #expect(FavoritesFile.decode(Data("[2, 3, 5]".utf8), path: "f") == .success(.primes([2, 3, 5])))
        #expect(FavoritesFile.decode(Data(" [ ]\n".utf8), path: "f") == .success(.primes([])))
        #expect(FavoritesFile.decode(FavoritesFile.encode([7, 2]), path: "f") == .success(.primes([7, 2])))
    }

    @Test(arguments: ["", "[2, 3", "{not json", "[2,,3]", "nul"])
    func decodeSomethingThatIsNotJSON(text: String) throws {
        let error = try #require(failure(FavoritesFile.decode(Data(text.utf8), path: "/f.json")))
        #expect(error.kind == .notJSON)
        #expect(error.path == "/f.json")
        #expect(!error.reason.isEmpty)
        #expect(!error.reason.hasSuffix("."))
        #expect(error.message.hasPrefix("The favorites file /f.json is not valid JSON: "))
        #expect(error.message.hasSuffix(". It was left untouched; saving overwrites it."))
        if text.isEmpty { #expect(error.reason == "the file is empty") }
    }

    @Test(arguments: ["{\"a\": 1}", "5", "\"2,3\"", "null"])
    func decodeJSONThatIsNotAList(text: String) throws {
        let reason = "expected an array of whole numbers, found not an array"
        let error = try #require(failure(FavoritesFile.decode(Data(text.utf8), path: "/f.json")))
        #expect(error == FavoritesFileError(.notPrimes, path: "/f.json", reason: reason))
        #expect(error.message == "The favorites file /f.json is not a list of distinct primes: \(reason). "
            + "It was left untouched; saving overwrites it.")
    }

    /// One bad entry no longer rejects the whole file (it used to: `[4,2]` was "not a list of
    /// distinct primes" and no favorite was read): the others are read, and each one left out is
    /// named, with its position.
    @Test(arguments: [
        ("[4,2]", [2], ["entry 1 (4) is not prime"]),
        ("[2, \"3\"]", [2], ["entry 2 (\"3\") is not a whole number"]),
        ("[2, 3.5, 5]", [2, 5], ["entry 2 (3.5) is not a whole number"]),
        ("[-3, 1, 0]", [], ["entry 1 (-3) is not prime", "entry 2 (1) is not prime", "entry 3 (0) is not prime"]),
        ("[5, 3, 5]", [5, 3], ["entry 3 (5) repeats entry 1"]),
        ("[7, 18446744073709551557, -99999999999999999999]", [7],
         ["entry 2 (18446744073709551557) is too large for PrimeTime (at most 9223372036854775807)",
          "entry 3 (-99999999999999999999) is not prime"]),
        ("[true, null, [2], {\"a\": 2}, 11]", [11],
         ["entry 1 (true) is not a whole number", "entry 2 (null) is not a whole number",
          "entry 3 (a list) is not a whole number", "entry 4 (an object) is not a whole number"]),
        ("[\"\(String(repeating: "x", count: 40))\"]", [], ["entry 1 (\"xxxxxxxxxxxxxxxxxxxxxx…) is not a whole number"]),
    ])
    func decodeLeavesOutEntriesThatAreNotDistinctPrimes(text: String, primes: [Int], entries: [String]) throws {
        let read = try FavoritesFile.decode(Data(text.utf8), path: "/f.json").get()
        #expect(read.favorites == primes)
        let skipped = try #require(read.skipped)
        #expect(skipped.entries.map(\.description) == entries)
        #expect(skipped.path == "/f.json")
        #expect(skipped.kept == primes.count)
        #expect(skipped.advice == nil)
    }

    @Test func theReportOfEntriesLeftOutNamesThreeAndCountsTheRest() {
        let entries = (1...5).map { FavoritesFileSkippedEntry(position: $0, entry: "4", problem: .notPrime) }
        #expect(FavoritesFileSkipped(path: "/f.json", entries: entries, kept: 0).message
            == "The favorites file /f.json has 5 entries that are not favorite primes, left out: entry 1 (4) is not "
            + "prime; entry 2 (4) is not prime; entry 3 (4) is not prime; and 2 more. No other favorite was read; "
            + "the next save writes the file without them.")
        #expect(FavoritesFileSkipped(path: "/f.json", entries: Array(entries.prefix(2)), kept: 3,
                                     advice: "A copy is kept at /f.json.corrupt.").message
            == "The favorites file /f.json has 2 entries that are not favorite primes, left out: entry 1 (4) is not "
            + "prime; entry 2 (4) is not prime. 3 other favorites were read; the next save writes the file without "
            + "them. A copy is kept at /f.json.corrupt.")
    }

    @Test func unreadableMessage() {
        #expect(FavoritesFileError(.unreadable, path: "/d", reason: "Is a directory").message
            == "Could not read the favorites file /d: Is a directory. It was left untouched; saving overwrites it.")
    }
}

func failure<Success>(_ result: Result<Success, FavoritesFileError>) -> FavoritesFileError? {
    if case .failure(let error) = result { error } else { nil }
}
