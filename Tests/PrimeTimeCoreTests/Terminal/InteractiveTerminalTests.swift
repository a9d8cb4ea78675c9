import ComposableArchitecture
import Foundation
import PrimeTimeCore
import StreamsTesting
import Testing

/// Interactive mode without a terminal: bytes in, screens out, counted.
@MainActor
@Suite("Interactive terminal: when the screen is written")
struct InteractiveTerminalTests {
    /// An interactive terminal on a session whose nth prime answers after 400 ms of the test
    /// scheduler's time, with the screens it writes and the redraws it schedules collected.
    @MainActor
    final class Harness {
        let scheduler = DispatchQueue.test
        let file = FileStub()
        var screens: [String] = []
        var scheduled: [@MainActor @Sendable () -> Void] = []
        lazy var terminal: InteractiveTerminal = {
            let queue = scheduler.eraseToAnyScheduler()
            let environment = AppEnvironment(
                nthPrime: NthPrimeEnvironment.computing(on: queue, latency: .milliseconds(400)),
                mainQueue: queue, favoritesFile: file.client, now: { Date(timeIntervalSince1970: 0) }, log: { _ in })
            return InteractiveTerminal(
                session: TerminalSession(environment: environment), size: .standard,
                write: { [unowned self] in self.screens.append($0) },
                schedule: { [unowned self] in self.scheduled.append($0) })
        }()

        /// Runs the redraws scheduled so far (as the main queue would, after the work in hand).
        func runScheduled() {
            let work = scheduled
            scheduled = []
            for item in work { item() }
        }

        /// The lines of the last screen written.
        var lastScreen: [String] {
            screens.last.map { String($0.dropFirst(TerminalFrames.clear.count)).components(separatedBy: "\r\n") } ?? []
        }
    }

    /// Issue 24: the screen was written three times at start and twice per key.
    @Test func oneScreenAtStartAndOnePerRead() {
        let harness = Harness()
        harness.terminal.start()
        harness.scheduler.advance()  // The launch's read answers.
        harness.runScheduled()
        #expect(harness.screens.count == 1)
        #expect(harness.terminal.session.mode == .interactive)

        #expect(harness.terminal.receive(Array("+".utf8)) == .running)
        harness.runScheduled()
        #expect(harness.screens.count == 2)
        #expect(harness.lastScreen.contains("Count: 1"))
        // Several keys in one read: one screen.
        #expect(harness.terminal.receive(Array("+++".utf8)) == .running)
        harness.runScheduled()
        #expect(harness.screens.count == 3)
        #expect(harness.lastScreen.contains("Count: 4"))
        // A key that changes nothing shown (Return outside a command): no screen.
        #expect(harness.terminal.receive(Array("\r".utf8)) == .running)
        harness.runScheduled()
        #expect(harness.screens.count == 3)
        #expect(harness.terminal.receive(Array("q".utf8)) == .quit)
    }

    @Test func anEffectsAnswerIsOneRedraw() {
        let harness = Harness()
        harness.terminal.start()
        harness.scheduler.advance()
        harness.runScheduled()
        _ = harness.terminal.receive(Array("n".utf8))
        harness.runScheduled()
        #expect(harness.screens.count == 2)
        #expect(harness.lastScreen.contains("Computing the 0th prime…"))
        harness.scheduler.advance(by: .milliseconds(400))
        #expect(harness.scheduled.count == 1)
        harness.runScheduled()
        #expect(harness.screens.count == 3)
        #expect(harness.lastScreen.contains("There is no 0th prime: primes are counted from 1.  (press d to dismiss)"))
    }

    @Test func aResizeRedrawsForTheNewSize() {
        let harness = Harness()
        harness.terminal.start()
        harness.terminal.resize(to: TerminalSize(width: 30, height: 10))
        #expect(harness.screens.count == 2)
        #expect(harness.lastScreen.allSatisfy { $0.count <= 30 })
        #expect(harness.lastScreen == TerminalScreen.interactiveLines(
            harness.terminal.session.store.state, notice: nil, prompt: nil, showsHelp: false,
            size: TerminalSize(width: 30, height: 10)))
        // The same size again: the terminal may have been spoiled, so it is written anyway.
        harness.terminal.resize(to: TerminalSize(width: 30, height: 10))
        #expect(harness.screens.count == 3)
    }

    @Test func stoppedItWritesNothing() {
        let harness = Harness()
        harness.terminal.start()
        _ = harness.terminal.receive(Array("+".utf8))
        harness.terminal.stop()
        _ = harness.terminal.receive(Array("+".utf8))
        harness.runScheduled()
        #expect(harness.screens.count == 2)
    }

    @Test func typingACommandClearsTheLastProblemAndEscapeCancelsOnceNothingFollows() {
        let harness = Harness()
        harness.terminal.start()
        _ = harness.terminal.receive(Array("x".utf8))
        #expect(harness.lastScreen.contains("! Unknown key \"x\". Press \"h\" for help."))
        _ = harness.terminal.receive(Array(":".utf8))
        #expect(!harness.lastScreen.contains { $0.hasPrefix("! ") })
        #expect(harness.lastScreen.last == ":_    (Return runs it, Escape cancels)")
        _ = harness.terminal.receive([0x1B])
        #expect(harness.terminal.inputFlushDelay == TerminalInputParser.escapeTimeout)
        #expect(harness.lastScreen.last == ":_    (Return runs it, Escape cancels)")
        #expect(harness.terminal.flushInput() == .running)
        #expect(harness.lastScreen.last?.hasPrefix("      : command") == true)
        #expect(harness.terminal.keys.prompt == nil)
    }

    @Test func helpTogglesTheListOfKeysAndCommands() {
        let harness = Harness()
        harness.terminal.start()
        _ = harness.terminal.receive(Array("h".utf8))
        #expect(harness.terminal.showsHelp)
        #expect(harness.lastScreen.first == "Keys and commands (type \":\" first for a command; \"h\" hides this):")
        #expect(harness.lastScreen.count <= TerminalSize.standard.height)
        _ = harness.terminal.receive(Array("h".utf8))
        #expect(!harness.terminal.showsHelp)
        #expect(harness.lastScreen.first == "== Counter ==")
    }
}
