#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ComposableArchitecture
import Dispatch
import Foundation
@testable import PrimeTimeCore
import Synchronization
import Testing

/// A fault a test switches on and off: while on, `step` fails with `code` instead of running.
final class SwitchableFault: Sendable {
    let step: FavoritesFileStep
    private let active = Atomic<Int32>(0)

    init(_ step: FavoritesFileStep) {
        self.step = step
    }

    /// Makes `step` fail with `code` (0: run it again).
    func fail(with code: Int32) {
        active.store(code, ordering: .sequentiallyConsistent)
    }

    /// The client's or store's `faults` closure.
    var faults: @Sendable (FavoritesFileStep) -> Int32? {
        { [self] step in
            let code = active.load(ordering: .sequentiallyConsistent)
            return step == self.step && code != 0 ? code : nil
        }
    }
}

/// The favorites file on disk (FavoritesFileStore.swift): atomic saves, merging, backups of
/// corrupt files, and a clear message for each way a save fails, after which a later save works.
@Suite("Favorites file store")
struct FavoritesFileStoreTests {
    let directory: URL
    let file: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PrimeTimeStore-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("favorites.json")
    }

    func cleanUp() {
        chmod(directory.path, 0o755)
        try? FileManager.default.removeItem(at: directory)
    }

    func text(_ url: URL) -> String? {
        try? String(contentsOf: url, encoding: .utf8)
    }

    /// The folder's files (hidden ones too), sorted.
    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    // MARK: Merging

    @Test func mergeKeepsWhatEitherSideAddedAndDropsOnlyWhatOneRemoved() {
        // Mine: removed 2, added 5. Theirs: added 7. Both kept 3.
        #expect(FavoritesFileStore.merge(base: [2, 3], mine: [3, 5], theirs: [2, 3, 7]) == [3, 5, 7])
        // Theirs removed 3 on purpose: it goes, although mine still has it.
        #expect(FavoritesFileStore.merge(base: [2, 3], mine: [2, 3, 5], theirs: [2]) == [2, 5])
        // Nothing read yet: everything on either side is kept.
        #expect(FavoritesFileStore.merge(base: [], mine: [5, 2], theirs: [2, 3]) == [5, 2, 3])
    }

    @Test func twoStoresOnOneFileNeverLoseEachOthersFavorites() throws {
        defer { cleanUp() }
        try Data("[2]".utf8).write(to: file)
        let first = FavoritesFileStore(file: file), second = FavoritesFileStore(file: file)
        #expect(first.read() == .success(.primes([2])))
        #expect(second.read() == .success(.primes([2])))
        #expect(first.save([2, 3]) == .success([2, 3]))
        // The second never saw 3: its save keeps it, and answers with it.
        #expect(second.save([2, 5]) == .success([2, 5, 3]))
        // The first removes 2 on purpose: it goes; 5 (the second's) stays.
        #expect(first.save([3]) == .success([3, 5]))
        #expect(text(file) == "[3,5]")
    }

    // MARK: Atomic saves

    @Test func aSaveLeavesNoTemporaryFileAndKeepsTheFilesPermissions() throws {
        defer { cleanUp() }
        try Data("[2]".utf8).write(to: file)
        chmod(file.path, 0o640)
        let store = FavoritesFileStore(file: file)
        _ = store.read()
        #expect(store.save([2, 3]) == .success([2, 3]))
        #expect(names() == ["favorites.json"])
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o640)
    }

    @Test func aTemporaryFileADeadProcessLeftIsRemovedByTheNextSave() throws {
        defer { cleanUp() }
        let stale = directory.appendingPathComponent(".favorites.json.tmp-99999-1")
        try Data("[2, 3".utf8).write(to: stale)
        #expect(FavoritesFileStore(file: file).save([2]) == .success([2]))
        #expect(names() == ["favorites.json"])
    }

    /// Every step of a save that can fail, failing: the file is as it was, no temporary file is
    /// left, the message says what failed and where; once the fault is gone, the save works.
    @Test(arguments: [FavoritesFileStep.lock, .createTemporary, .write, .syncFile, .rename])
    func aSaveThatFailsAtAnyStepLeavesTheOldFile(step: FavoritesFileStep) throws {
        defer { cleanUp() }
        try Data("[2]".utf8).write(to: file)
        let fault = SwitchableFault(step)
        fault.fail(with: EIO)
        let store = FavoritesFileStore(file: file, faults: fault.faults)
        _ = store.read()
        let error = try #require(failure(store.save([2, 3])))
        #expect(error.kind == .unwritable)
        #expect(error.path == file.path)
        #expect(error.reason == String(cString: strerror(EIO)))
        #expect(error.message.contains("Save again once the problem is fixed."))
        #expect(text(file) == "[2]")
        #expect(names() == ["favorites.json"])
        fault.fail(with: 0)
        #expect(store.save([2, 3]) == .success([2, 3]))
        #expect(text(file) == "[2,3]")
    }

    // MARK: Each way a save fails: a clear message, nothing lost, a later save works

    @Test func aReadOnlyFolder() throws {
        defer { cleanUp() }
        try Data("[2]".utf8).write(to: file)
        chmod(directory.path, 0o555)
        // Root writes into a read-only folder anyway: then the refusal is simulated where the
        // system would refuse (creating the temporary file), with the errno it would give.
        let fault = SwitchableFault(.createTemporary)
        let simulated = geteuid() == 0
        if simulated { fault.fail(with: EACCES) }
        let store = FavoritesFileStore(file: file, faults: fault.faults)
        _ = store.read()
        let error = try #require(failure(store.save([2, 3])), "simulated: \(simulated)")
        #expect(error.kind == .unwritable)
        #expect(error.message == "Could not save the favorites to \(file.path): Permission denied. They are kept in memory. "
            + "Make the folder \(directory.path) writable (or choose another file with --favorites-file), then save again.")
        #expect(text(file) == "[2]")
        #expect(names() == ["favorites.json"])
        chmod(directory.path, 0o755)
        fault.fail(with: 0)
        #expect(store.save([2, 3]) == .success([2, 3]))
        #expect(text(file) == "[2,3]")
    }

    @Test func aMissingFolder() throws {
        defer { cleanUp() }
        let folder = directory.appendingPathComponent("missing")
        let file = folder.appendingPathComponent("favorites.json")
        let store = FavoritesFileStore(file: file)
        let error = try #require(failure(store.save([2])))
        #expect(error.message == "Could not save the favorites to \(file.path): the folder \(folder.path) does not exist. "
            + "They are kept in memory. Create the folder (or choose another file with --favorites-file), then save again.")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(store.save([2]) == .success([2]))
        #expect(text(file) == "[2]")
    }

    @Test func aFileThatIsADirectory() throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: file.appendingPathComponent("inside"))
        let store = FavoritesFileStore(file: file)
        let error = try #require(failure(store.save([2])))
        #expect(error.message == "Could not save the favorites to \(file.path): it is a directory. They are kept in memory. "
            + "Move that directory away (or choose another file with --favorites-file), then save again.")
        #expect(text(file.appendingPathComponent("inside")) == "keep")
        let loadError = try #require(failure(store.read()))
        #expect(loadError.kind == .unreadable)
        #expect(loadError.message.hasPrefix("Could not read the favorites file \(file.path): it is a directory."))
        try FileManager.default.removeItem(at: file)
        #expect(store.save([2]) == .success([2]))
        #expect(text(file) == "[2]")
    }

    @Test func aFullDisk() throws {
        defer { cleanUp() }
        try Data("[2]".utf8).write(to: file)
        // Simulated: writing the temporary file fails with ENOSPC, as on a full disk.
        let fault = SwitchableFault(.write)
        fault.fail(with: ENOSPC)
        let store = FavoritesFileStore(file: file, faults: fault.faults)
        _ = store.read()
        let error = try #require(failure(store.save([2, 3])))
        #expect(error.message == "Could not save the favorites to \(file.path): No space left on device. "
            + "They are kept in memory. Free some disk space, then save again.")
        #expect(text(file) == "[2]")
        #expect(names() == ["favorites.json"])
        fault.fail(with: 0)
        #expect(store.save([2, 3]) == .success([2, 3]))
        #expect(text(file) == "[2,3]")
    }

    /// The app, on a full disk: the favorite stays on screen with the message; once there is room
    /// the user saves and the file has it.
    @MainActor
    @Test func theAppKeepsItsFavoritesThroughAFullDiskAndSavesThemLater() async throws {
        defer { cleanUp() }
        let fault = SwitchableFault(.write)
        var environment = AppEnvironment.live(favoritesFile: file, logFile: directory.appendingPathComponent("log"))
        environment.favoritesFile = .live(file: file, faults: fault.faults)
        environment.nthPrime = { Effect(value: Primes.nth($0)) }
        let session = TerminalSession(environment: environment)
        for task in session.launch() { await task.finish() }
        fault.fail(with: ENOSPC)
        for line in ["inc", "inc", "prime", "save", "dismiss", "favorites"] {
            for task in session.run(TerminalCommands.parse(line)).tasks { await task.finish() }
        }
        #expect(session.store.state.favoritePrimes == [2])
        #expect(session.store.state.favoritesFileStatus == .unsaved)
        #expect(session.store.state.message?.contains("No space left on device") == true)
        #expect(session.store.state.message?.contains("Free some disk space, then save again.") == true)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        fault.fail(with: 0)
        for task in session.run(TerminalCommands.parse("save-file")).tasks { await task.finish() }
        #expect(session.store.state.message == "Saved 1 favorite to \(file.path).")
        #expect(session.store.state.favoritesFileStatus == .inSync)
        #expect(text(file) == "[2]")
    }

    // MARK: Corrupt files are kept

    @Test func aCorruptFileIsCopiedAndTheMessageNamesTheCopy() throws {
        defer { cleanUp() }
        let corrupt = Data("[2, 3, oops".utf8)
        try corrupt.write(to: file)
        let store = FavoritesFileStore(file: file)
        let error = try #require(failure(store.read()))
        #expect(error.kind == .notJSON)
        #expect(error.message.hasSuffix("It was left untouched; saving overwrites it. A copy is kept at \(file.path).corrupt."))
        #expect(try Data(contentsOf: file) == corrupt)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path + ".corrupt")) == corrupt)
        // Reading it again reuses the copy; another corrupt content gets a copy of its own.
        _ = store.read()
        #expect(names() == ["favorites.json", "favorites.json.corrupt"])
        try Data("{}".utf8).write(to: file)
        #expect(failure(store.read())?.message.hasSuffix("A copy is kept at \(file.path).corrupt-2.") == true)
        #expect(text(URL(fileURLWithPath: file.path + ".corrupt-2")) == "{}")
    }

    // MARK: One bad entry does not cost the others

    @Test func aListWithABadEntryKeepsTheOthersReportsItAndIsCopiedBeforeASaveDropsIt() throws {
        defer { cleanUp() }
        try Data("[4,2]".utf8).write(to: file)
        let store = FavoritesFileStore(file: file)
        let skipped = FavoritesFileSkipped(
            path: file.path, entries: [FavoritesFileSkippedEntry(position: 1, entry: "4", problem: .notPrime)], kept: 1,
            advice: "A copy is kept at \(file.path).corrupt.")
        #expect(store.read() == .success(.primes([2], skipped: skipped)))
        #expect(skipped.message == "The favorites file \(file.path) has 1 entry that is not a favorite prime, left out: "
            + "entry 1 (4) is not prime. 1 other favorite was read; the next save writes the file without it. "
            + "A copy is kept at \(file.path).corrupt.")
        // The file is as it was until a save; the copy has its bytes.
        #expect(text(file) == "[4,2]")
        #expect(text(URL(fileURLWithPath: file.path + ".corrupt")) == "[4,2]")
        // A save merges with the good entries only, and reuses the copy.
        #expect(store.save([2, 3]) == .success([2, 3]))
        #expect(text(file) == "[2,3]")
        #expect(names() == ["favorites.json", "favorites.json.corrupt"])
    }

    @Test func savingOverAListWithBadEntriesNeverReadKeepsACopyFirst() throws {
        defer { cleanUp() }
        try Data("[5,5,7]".utf8).write(to: file)
        // Another process wrote it since this one read: the save merges the good entries in.
        #expect(FavoritesFileStore(file: file).save([2]) == .success([2, 5, 7]))
        #expect(text(file) == "[2,5,7]")
        #expect(text(URL(fileURLWithPath: file.path + ".corrupt")) == "[5,5,7]")
    }

    @Test func savingOverACorruptFileKeepsACopyFirst() throws {
        defer { cleanUp() }
        try Data("{\"not\": \"a list\"}".utf8).write(to: file)
        #expect(FavoritesFileStore(file: file).save([7]) == .success([7]))
        #expect(text(file) == "[7]")
        #expect(text(URL(fileURLWithPath: file.path + ".corrupt")) == "{\"not\": \"a list\"}")
    }

    @Test func aCopyThatCannotBeMadeIsSaidSo() throws {
        defer { cleanUp() }
        try Data("[1".utf8).write(to: file)
        let store = FavoritesFileStore(file: file, faults: { $0 == .backup ? ENOSPC : nil })
        let error = try #require(failure(store.read()))
        #expect(error.message.hasSuffix(
            "No copy of it could be kept (No space left on device): move it away before saving if you need it."))
        #expect(text(file) == "[1")
    }
}
