#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PrimeTimeCore
import StreamsTesting
import Testing

/// Real PrimeTime processes on one favorites file: killed with SIGKILL in the middle of saving,
/// and two saving at once. They run the built executable's test-only modes (``FavoritesTestMode``).
///
/// These tests wait for real processes, so they take real time (bounded: a few seconds each);
/// the random kill moments come from a seeded generator whose seed is in every failure message.
@Suite("PrimeTime processes sharing a favorites file", .timeLimit(.minutes(1)))
struct PrimeTimeCrashTests {
    func start(_ arguments: [String]) throws -> (Process, stdout: Pipe, stderr: Pipe) {
        let executable = try #require(PrimeTimeExecutable.url, "PrimeTime not found next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return (process, stdout, stderr)
    }

    /// What the file can hold after a kill: what it held before, or one of the lists saved.
    static let wholeLists: [[Int]] = [[2]] + FavoritesTestMode.saveLoopLists

    @Test func aProcessKilledWhileSavingLeavesTheOldListOrTheNewOneNeverATornFile() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("favorites.json")
        try Data("[2]".utf8).write(to: file)
        let seed = UInt64.random(in: 0 ... .max)
        var random = SplitMix64(seed: seed)
        let clock = ContinuousClock()
        let began = clock.now
        var kills = 0, seen: Set<Int> = []
        // At most 60 kills, and at most about 4 seconds.
        while kills < 60, clock.now - began < .seconds(4) {
            let (process, stdout, _) = try start(["--favorites-file", file.path, "--test-save-loop"])
            // Wait until it is saving (its first save is done), then let it save for a random
            // 0–20 ms (dozens of saves), and kill it wherever it is.
            let ready = stdout.fileHandleForReading.availableData
            #expect(String(decoding: ready, as: UTF8.self) == "saving\n", "seed \(seed)")
            usleep(UInt32(random.next() % 20_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "seed \(seed)")
            kills += 1
            let data = try Data(contentsOf: file)
            let decoded = FavoritesFile.decode(data, path: file.path)
            guard case let .success(.primes(primes, skipped: nil)) = decoded else {
                Issue.record("torn file after kill \(kills) (seed \(seed)): \(data.count) bytes, \(decoded)")
                return
            }
            #expect(Self.wholeLists.contains(primes), "seed \(seed): a list that was never saved")
            seen.insert(primes.count)
        }
        // Process start-up is slow on a loaded machine: at least a handful of kills.
        #expect(kills >= 5, "seed \(seed): only \(kills) kills")
        // Killed processes may leave a temporary file; the next save removes it.
        let (process, _, stderr) = try start(["--favorites-file", file.path, "--test-add-favorites", "104729"])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["favorites.json"])
        print("PrimeTimeCrashTests: \(kills) kills (seed \(seed)); list sizes seen: \(seen.sorted())")
    }

    @Test func twoProcessesSavingAtOnceKeepEveryFavoriteEitherSaved() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("favorites.json")
        try Data("[2]".utf8).write(to: file)
        // Each adds its own 40 primes, one at a time, saving after each.
        let primes = FavoritesTestMode.saveLoopLists[0].dropFirst().prefix(80)
        let first = primes.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let second = primes.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let processes = try [first, second].map { list in
            try start(["--favorites-file", file.path, "--test-add-favorites", list.map(String.init).joined(separator: ",")])
        }
        for (process, _, stderr) in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0,
                    "\(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        }
        let saved = try #require(try? FavoritesFile.decode(Data(contentsOf: file), path: file.path).get().favorites)
        #expect(Set(saved) == Set([2] + first + second))
        #expect(saved.count == 81)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["favorites.json"])
    }
}

