import ComposableArchitecture
import Foundation
import PrimeTimeCore
import Testing

/// The live file client against a real temporary directory.
@Suite("Favorites file client (live)")
struct FavoritesFileClientTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PrimeTimeCoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The one value `effect` sends (the live client's work runs on its own queue).
    func value<T: Sendable>(_ effect: Effect<T>) async -> T? {
        for await value in effect.values { return value }
        return nil
    }

    @Test func roundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("favorites.json")
        let client = FavoritesFileClient.live(file: url)
        #expect(await value(client.save([2, 3, 5])) == .success([2, 3, 5]))
        #expect(try String(contentsOf: url, encoding: .utf8) == "[2,3,5]")
        #expect(await value(client.load()) == .success(.primes([2, 3, 5])))
        // A save replaces the file.
        #expect(await value(client.save([7])) == .success([7]))
        #expect(await value(client.load()) == .success(.primes([7])))
    }

    @Test func aMissingFileLoadsAsMissing() async {
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = FavoritesFileClient.live(file: directory.appendingPathComponent("missing.json"))
        #expect(await value(client.load()) == .success(.missing))
        #expect(client.path == directory.appendingPathComponent("missing.json").path)
    }

    @Test func aCorruptFileIsReportedAndLeftAsItWas() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("favorites.json")
        try Data("[2, 3,".utf8).write(to: url)
        let result = await value(FavoritesFileClient.live(file: url).load())
        let error = try #require(result.flatMap { failure($0) })
        #expect(error.kind == .notJSON)
        #expect(error.path == url.path)
        #expect(try String(contentsOf: url, encoding: .utf8) == "[2, 3,")
    }

    @Test func aDirectoryIsUnreadable() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = await value(FavoritesFileClient.live(file: directory).load())
        let error = try #require(result.flatMap { failure($0) })
        #expect(error.kind == .unreadable)
        #expect(error.path == directory.path)
        #expect(error.reason == "it is a directory")
    }

    @Test func anUnwritablePathFailsToSave() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("no-such-directory/favorites.json")
        let result = await value(FavoritesFileClient.live(file: url).save([2]))
        let error = try #require(result.flatMap { failure($0) })
        #expect(error.kind == .unwritable)
        #expect(error.path == url.path)
        #expect(error.reason == "the folder \(directory.path)/no-such-directory does not exist")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func savingOverADirectoryFailsAndLeavesIt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("favorites.json", isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        let result = await value(FavoritesFileClient.live(file: target).save([2]))
        let error = try #require(result.flatMap { failure($0) })
        #expect(error.kind == .unwritable)
        #expect(!error.reason.isEmpty)
        #expect(!error.reason.hasPrefix("The operation could not be completed"))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}
