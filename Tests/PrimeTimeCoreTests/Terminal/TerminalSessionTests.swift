import ComposableArchitecture
import Dispatch
import Foundation
import PrimeTimeCore
import Testing

@MainActor
@Suite("Terminal session (line mode)")
struct TerminalSessionTests {
    /// An environment with the favorites "file" answering `file` (nil: none), saves recorded in
    /// `saved` (the feature tests' ``FileStub``), and the nth prime computed at once; answers
    /// delivered on the main queue.
    @MainActor
    final class World {
        let stub = FileStub()
        var logged: [String] = []
        init(file: Result<FavoritesFileRead, FavoritesFileError>) { stub.loadResult = file }

        var saved: [[Int]] { stub.saved }

        var environment: AppEnvironment {
            AppEnvironment(
                nthPrime: { Effect(value: Primes.nth($0)) },
                mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
                favoritesFile: stub.client,
                now: { Date(timeIntervalSince1970: 0) },
                log: { self.logged.append($0) })
        }
    }

    func run(_ script: String, world: World) async -> (status: Int32, output: [String]) {
        let session = TerminalSession(environment: world.environment)
        var output: [String] = []
        let status = await session.runLines(TerminalOptions.scriptLines(script), write: { output.append($0) })
        return (status, output.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) })
    }

    @Test func aScriptPrintsTheStateAfterEachCommandWithEffectsFinished() async {
        let world = World(file: .success(.missing))
        let (status, output) = await run("inc; inc; prime; save; dismiss; nth", world: world)
        #expect(status == 0)
        #expect(output == [
            "== Counter ==", "Count: 0", "Favorites: 0 | Log: off",
            "", "> inc", "== Counter ==", "Count: 1", "Favorites: 0 | Log: off",
            "", "> inc", "== Counter ==", "Count: 2", "Favorites: 0 | Log: off",
            "", "> prime", "== Counter > Is this prime? ==", "Count: 2", "2 is prime.  (save)", "Favorites: 0 | Log: off",
            "", "> save", "== Counter > Is this prime? ==", "Count: 2", "2 is prime, and a favorite.  (remove)",
            "Favorites: 1 | Log: off",
            "", "> dismiss", "== Counter ==", "Count: 2", "Favorites: 1 | Log: off",
            "", "> nth", "== Counter ==", "Count: 2", "The 2nd prime is 3.  (dismiss)", "Favorites: 1 | Log: off",
        ])
        // The file was read (missing: empty), so the saved favorite was autosaved.
        #expect(world.saved == [[2]])
    }

    @Test func badCommandsChangeNothingTheRestRunsAndTheStatusIsOne() async {
        let world = World(file: .success(.primes([2, 3])))
        let (status, output) = await run("xyz\ninc 3\nsave\nfavorites\ndel 5\ndel 1", world: world)
        #expect(status == 1)
        #expect(output.contains("! Unknown command \"xyz\". Type \"help\" for the list."))
        #expect(output.contains("! \"inc\" takes no argument. Type \"help\" for the list."))
        #expect(output.contains("! \"save\" works on \"is this prime?\". Type \"prime\" to open it."))
        #expect(output.contains("! There is no favorite number 5: the list has 2 favorites."))
        // Loading is not activity; "del 1" removed 2 and autosaved.
        #expect(output.suffix(6) == [
            "> del 1", "== Favorite primes ==", "1. 3", "Activity:", "  - 2 removed", "Favorites: 1 | Log: off",
        ])
        #expect(world.saved == [[3]])
    }

    @Test func aCorruptFileIsReportedAndNotAutosaved() async {
        let error = FavoritesFileError(.notJSON, path: "f.json", reason: "bad")
        let world = World(file: .failure(error))
        let (status, output) = await run("prime; dismiss; inc; inc; prime; save; dismiss; dismiss", world: world)
        #expect(status == 0)
        #expect(output.prefix(4) == ["== Counter ==", "Count: 0", "Message: \(error.message)  (dismiss)", "Favorites: 0 | Log: off"])
        // The first "dismiss" closed the modal, the message stays...
        #expect(output.contains("Message: \(error.message)  (dismiss)"))
        #expect(output.dropLast(5).suffix(3) == ["Count: 2", "Message: \(error.message)  (dismiss)", "Favorites: 1 | Log: off"])
        // ... until the last one; no command made it autosave the favorite saved in memory.
        #expect(output.suffix(3) == ["== Counter ==", "Count: 2", "Favorites: 1 | Log: off"])
        #expect(world.saved == [])
    }

    @Test func helpListsTheCommandsAndQuitStops() async {
        let world = World(file: .success(.missing))
        let (status, output) = await run("help; quit; inc", world: world)
        #expect(status == 0)
        #expect(output.contains(TerminalCommands.helpLines[0]))
        #expect(output.last == "> quit")
        #expect(!output.contains("> inc"))
    }

    @Test func commentsAndBlankLinesAreSkipped() async {
        let world = World(file: .success(.missing))
        let (_, output) = await run("# counting\n\ninc", world: world)
        #expect(output.filter { $0.hasPrefix(">") } == ["> inc"])
    }

    @Test func loggingWritesActionsWhileOn() async {
        let world = World(file: .success(.missing))
        let (_, output) = await run("log; inc; log; inc", world: world)
        #expect(output.contains("Favorites: 0 | Log: on"))
        // The toggle on, the increment, the toggle off: three reports; the last inc is not logged.
        #expect(world.logged.count == 3)
        #expect(world.logged[1].contains("incrementButtonTapped"))
    }

    /// A session whose nth-prime answers come from `nthPrime`, the rest from a `World` with no file.
    func session(nthPrime: @escaping (Int) -> Effect<Int?>) -> TerminalSession {
        var environment = World(file: .success(.missing)).environment
        environment.nthPrime = nthPrime
        return TerminalSession(environment: environment)
    }

    @Test func finishEffectsWaitsForTheEffectsInFlight() async {
        let session = session(nthPrime: { n in
            .future { answer in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { answer(Primes.nth(n)) }
            }
        })
        for task in session.launch() { await task.finish() }
        // As interactive mode does: the commands' tasks are not awaited.
        _ = session.run(.command(.increment))
        _ = session.run(.command(.increment))
        _ = session.run(.command(.nthPrime))
        #expect(session.lines().contains("Computing the 2nd prime…"))
        #expect(session.store.runningEffectCount == 1)
        #expect(await session.finishEffects())
        #expect(session.store.runningEffectCount == 0)
        #expect(session.lines().contains("The 2nd prime is 3.  (dismiss)"))
    }

    @Test func finishEffectsGivesUpAtTheLimit() async {
        let session = session(nthPrime: { _ in .future { _ in } })  // Never answers.
        for task in session.launch() { await task.finish() }
        _ = session.run(.command(.nthPrime))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(await session.finishEffects(limit: .milliseconds(50)) == false)
        #expect(clock.now - start >= .milliseconds(50))
        #expect(session.store.runningEffectCount == 1)
    }

    /// Issue 24: press n at 5, then +: the screen said "Computing the 6th prime…", then answered
    /// "The 5th prime is 11".
    @Test func theNthPrimeBeingComputedIsTheOneAsked() async {
        let scheduler = DispatchQueue.test
        var environment = World(file: .success(.missing)).environment
        environment.mainQueue = scheduler.eraseToAnyScheduler()
        environment.nthPrime = NthPrimeEnvironment.computing(on: scheduler.eraseToAnyScheduler(), latency: .milliseconds(400))
        let session = TerminalSession(environment: environment, initialState: AppState(count: 5))
        session.launch()
        await scheduler.advance()
        _ = session.run(.command(.nthPrime))
        _ = session.run(.command(.increment))
        #expect(session.lines() == ["== Counter ==", "Count: 6", "Computing the 5th prime…", "Favorites: 0 | Log: off"])
        await scheduler.advance(by: .milliseconds(400))
        #expect(session.lines()[2] == "The 5th prime is 11.  (dismiss)")
    }

    /// Issue 24: `save-file` and `load` said nothing when they worked.
    @Test func saveFileAndLoadSayWhatTheyDid() async {
        let world = World(file: .success(.primes([2, 3])))
        let (status, output) = await run("favorites; save-file; dismiss; load", world: world)
        #expect(status == 0)
        #expect(output.contains("Message: Saved 2 favorites to the favorites file.  (dismiss)"))
        #expect(output.suffix(6) == [
            "> load", "== Favorite primes ==", "1. 2", "2. 3",
            "Message: Read 2 favorites from the favorites file.  (dismiss)", "Favorites: 2 | Log: off",
        ])
        // At launch, a good read says nothing.
        #expect(output.prefix(3) == ["== Counter ==", "Count: 0", "Favorites: 2 | Log: off"])
    }
}
