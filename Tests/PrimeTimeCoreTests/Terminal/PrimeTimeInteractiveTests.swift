#if canImport(Glibc)
import Glibc
import Foundation
import PrimeTimeCore
import Testing

/// Runs the built `PrimeTime` (``PrimeTimeExecutable``) on a pseudo-terminal, so that it starts
/// in interactive mode, and checks its screens, its exit status, the terminal after it exits and
/// its files. Serialized: each test runs a program that redraws after every key, and the machine
/// may be small.
@Suite("PrimeTime interactive, on a pseudo-terminal", .serialized, .timeLimit(.minutes(1)))
struct PrimeTimeInteractiveTests {
    /// The first screen: the initial state, an empty line, and the keys, for 80 columns (a new
    /// pseudo-terminal has no size, and the program then lays out for 80 × 24).
    static let firstScreen = TerminalScreen.interactiveLines(
        AppState(), notice: nil, prompt: nil, showsHelp: false, size: .standard)

    @Test func keysDriveTheAppAndQuitRestoresTheTerminalAfterTheLastAutosave() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        let run = try TerminalRun(["--favorites-file", favorites.path, "--latency-ms", "0",
                                   "--log-file", directory.appendingPathComponent("primetime.log").path])
        #expect(run.wasCookedWithEchoAtStart, "a new pseudo-terminal echoes and edits lines")

        let first = try run.waitForScreen(containing: "Keys: ")
        #expect(first.lines == Self.firstScreen)
        #expect(!run.isCookedWithEcho, "raw mode while the program runs")
        run.send("+")
        try run.waitForScreen(containing: "Count: 1")
        run.send("+")
        try run.waitForScreen(containing: "Count: 2")
        run.send("p")
        try run.waitForScreen(containing: "== Counter > Is this prime? ==", "2 is prime.  (press s to save)")
        run.send("s")
        try run.waitForScreen(containing: "2 is prime, and a favorite.  (press r to remove)", "Favorites: 1 | Log: off")
        try run.waitForFile(favorites, toHold: "[2]")
        run.send("d")
        try run.waitForScreen(containing: "== Counter ==", "Count: 2", excluding: "Is this prime?")
        run.send("n")
        try run.waitForScreen(containing: "The 2nd prime is 3.  (press d to dismiss)")
        run.send("d")
        try run.waitForScreen(containing: "Count: 2", "Keys: ", excluding: "The 2nd prime")
        run.send("f")
        let list = try run.waitForScreen(containing: "== Favorite primes ==", "Keys: ")
        #expect(Array(list.lines.prefix(3)) == ["== Favorite primes ==", "1. 2", "Activity:"])
        #expect(list.lines.dropFirst(3).first?.hasSuffix("  + 2 added") == true)  // After the time.
        run.send(":")
        try run.waitForScreen(containing: ":_    (Return runs it, Escape cancels)")
        run.send("del 1")
        try run.waitForScreen(containing: ":del 1_    (Return runs it, Escape cancels)")
        // Return and "q" in one read, as when typed fast: the delete's autosave is still in
        // flight when the program quits, and must not be lost.
        run.send("\rq")
        let exit = try run.waitForExit()
        #expect(exit.reason == .exit)
        #expect(exit.status == 0)
        // (The quit came in the same read as the delete: the program left without drawing the
        // screen after it, which the terminal's main screen would have hidden anyway.)
        #expect(try String(contentsOf: favorites, encoding: .utf8) == "[]")
        #expect(run.isCookedWithEcho, "the terminal is restored")
        #expect(run.textAfterLastScreen.contains("\u{1B}[?25h"), "the cursor is shown again")
    }

    @Test func sigintRestoresTheTerminalFlushesTheLogAndExits130() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        let log = directory.appendingPathComponent("primetime.log")
        let run = try TerminalRun(["--favorites-file", favorites.path, "--latency-ms", "0", "--log-file", log.path])
        try run.waitForScreen(containing: "Keys: ")
        run.send("l")
        try run.waitForScreen(containing: "Favorites: 0 | Log: on")
        run.send("++")
        try run.waitForScreen(containing: "Count: 2")
        run.send("ps")
        try run.waitForScreen(containing: "2 is prime, and a favorite.  (press r to remove)")
        // The pseudo-terminal is not the program's controlling terminal, so Ctrl-C (0x03) would
        // not raise SIGINT: send it as a shell would.
        #expect(kill(run.process.processIdentifier, SIGINT) == 0)
        let exit = try run.waitForExit()
        #expect(exit.reason == .exit)
        #expect(exit.status == 130)
        #expect(run.isCookedWithEcho, "the terminal is restored")
        #expect(run.textAfterLastScreen.contains("\u{1B}[?25h"), "the cursor is shown again")
        // Everything logged before the signal is in the file, down to the last action.
        let logText = try String(contentsOf: log, encoding: .utf8)
        #expect(logText.contains("AppAction.loggingToggled"))
        #expect(logText.components(separatedBy: "incrementButtonTapped").count - 1 == 2)
        // The autosave's answer came after the screen showing the favorite: the program waited for it.
        #expect(logText.contains("FavoritePrimesAction.saveResponse"))
        #expect(try String(contentsOf: favorites, encoding: .utf8) == "[2]")
    }

    /// The signals that end a program, other than SIGINT, and the exit statuses they give.
    static let endingSignals: [(signal: Int32, status: Int32)] = [(SIGTERM, 143), (SIGQUIT, 131), (SIGHUP, 129)]

    /// Every signal that ends a program the terminal may send restores the terminal first.
    @Test(arguments: endingSignals)
    func endingSignalsRestoreTheTerminal(signal: Int32, status: Int32) throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try TerminalRun(["--favorites-file", directory.appendingPathComponent("favorites.json").path,
                                   "--latency-ms", "0", "--log-file", directory.appendingPathComponent("primetime.log").path])
        try run.waitForScreen(containing: "Keys: ")
        #expect(kill(run.process.processIdentifier, signal) == 0)
        let exit = try run.waitForExit()
        #expect(exit.reason == .exit)
        #expect(exit.status == status)
        #expect(run.isCookedWithEcho, "the terminal is restored")
        #expect(run.textAfterLastScreen.contains("\u{1B}[?1049l"), "the main screen is back")
    }

    @Test func unknownKeysShowAMessageAndChangeNothing() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        let run = try TerminalRun(["--favorites-file", favorites.path, "--latency-ms", "0",
                                   "--log-file", directory.appendingPathComponent("primetime.log").path])
        try run.waitForScreen(containing: "Keys: ")

        // The message goes under the state, which is the same as before.
        run.send("x")
        let unknown = try run.waitForScreen(containing: "! Unknown key \"x\". Press \"h\" for help.")
        #expect(unknown.lines == Self.firstScreen.prefix(2) + ["! Unknown key \"x\". Press \"h\" for help."]
                + Self.firstScreen.dropFirst(2))
        run.send("\u{1B}[A")  // Up arrow.
        let arrow = try run.waitForScreen(containing: "! Unknown key (an arrow or function key). Press \"h\" for help.")
        #expect(arrow.lines == Self.firstScreen.prefix(2)
                + ["! Unknown key (an arrow or function key). Press \"h\" for help."] + Self.firstScreen.dropFirst(2))

        // Typing a command clears the message; an arrow while typing does nothing; Escape cancels.
        run.send(":")
        try run.waitForScreen(containing: ":_    (Return runs it, Escape cancels)", excluding: "Unknown key")
        run.send("\u{1B}[A")
        run.settle()
        #expect(run.screensSinceSend == 0, "nothing changed, so nothing was redrawn")
        run.send("\u{1B}")
        let cancelled = try run.waitForScreen(containing: "Keys: ")
        #expect(cancelled.lines == Self.firstScreen)

        run.send("\u{4}")  // Ctrl-D quits.
        let exit = try run.waitForExit()
        #expect(exit.reason == .exit)
        #expect(exit.status == 0)
        #expect(run.isCookedWithEcho, "the terminal is restored")
        #expect(!FileManager.default.fileExists(atPath: favorites.path), "nothing was saved")
    }

    /// Issue 24: the screen was drawn three times at start and twice per key, on the terminal's
    /// main screen (its scrollback filled with screens); a paste was keys (a "q" in it quit); a
    /// read starting with Escape was thrown away whole.
    @Test func oneRedrawPerKeyOnTheAlternateScreenAndPastedTextIsText() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try TerminalRun(["--favorites-file", directory.appendingPathComponent("favorites.json").path,
                                   "--latency-ms", "0", "--log-file", directory.appendingPathComponent("primetime.log").path])
        try run.waitForScreen(containing: "Keys: ")
        run.settle()
        #expect(run.screensSinceSend == 1, "one screen at start: the launch's answer changes nothing shown")
        #expect(run.textBeforeFirstScreen.contains("\u{1B}[?1049h"), "the alternate screen")
        #expect(run.textBeforeFirstScreen.contains("\u{1B}[?2004h"), "bracketed paste")

        run.send("+")
        try run.waitForScreen(containing: "Count: 1")
        run.settle()
        #expect(run.screensSinceSend == 1, "one redraw for one key")
        run.send("++")
        try run.waitForScreen(containing: "Count: 3")
        run.settle()
        #expect(run.screensSinceSend == 1, "one redraw for one read, however many keys it holds")

        // Pasted text is text: the "q" and the Return in it neither quit nor run anything.
        run.send("\u{1B}[200~q\r+\u{1B}[201~")
        try run.waitForScreen(containing: ":q +_", "Count: 3")
        #expect(run.process.isRunning)
        // Escape on its own cancels (once no sequence follows it).
        run.send("\u{1B}")
        try run.waitForScreen(containing: "Keys: ", excluding: ":q +_")
        // Escape and a key in one read: the Escape cancels, the key is not lost.
        run.send(":")
        try run.waitForScreen(containing: ":_")
        run.send("\u{1B}+")
        try run.waitForScreen(containing: "Count: 4", "Keys: ", excluding: ":_")

        run.send("q")
        let exit = try run.waitForExit()
        #expect(exit.status == 0)
        #expect(run.isCookedWithEcho, "the terminal is restored")
        let end = run.textAfterLastScreen
        #expect(end.contains("\u{1B}[?2004l") && end.contains("\u{1B}[?1049l"), "bracketed paste off, main screen back")
    }

    /// Issue 24: nothing was redrawn on a resize, and the keys and help were laid out for no width
    /// (the terminal wrapped them mid-word).
    @Test func aResizeRedrawsTheScreenLaidOutForTheNewSize() throws {
        let directory = try PrimeTimeExecutable.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try TerminalRun(["--favorites-file", directory.appendingPathComponent("favorites.json").path,
                                   "--latency-ms", "0", "--log-file", directory.appendingPathComponent("primetime.log").path])
        try run.waitForScreen(containing: "Keys: ")
        let size = TerminalSize(width: 40, height: 12)
        run.resize(to: size)
        let resized = try run.waitForScreen(containing: "Keys: ")
        #expect(resized.lines == TerminalScreen.interactiveLines(
            AppState(favoritesFileStatus: .inSync), notice: nil, prompt: nil, showsHelp: false, size: size))
        #expect(resized.lines.allSatisfy { $0.count <= 40 })
        run.send("h")
        let help = try run.waitForScreen(containing: "Keys and commands")
        #expect(help.lines.allSatisfy { $0.count <= 40 }, "\(help.lines)")
        #expect(help.lines.count <= 12, "\(help.lines)")
        run.send("q")
        #expect(try run.waitForExit().status == 0)
    }
}

/// One run of `PrimeTime` on a new pseudo-terminal: the terminal's device is the program's
/// standard input, output and error; the test types on the other side and reads what it draws.
///
/// Every wait is bounded by one deadline for the whole run; a wait that fails records an issue
/// with the output so far and throws. The program is killed if it is still running at the end.
final class TerminalRun {
    let process = Process()
    /// The side the test uses: what is written to it is typed, what is read from it was drawn.
    private let controller: Int32
    /// The terminal device, which the test keeps open to read its settings after the program exits.
    private let device: Int32
    private let deadline: ContinuousClock.Instant
    /// Whether the terminal edited lines and echoed before the program started.
    private(set) var wasCookedWithEchoAtStart = false
    /// Everything the program wrote, as bytes (a read may end inside a character).
    private var output: [UInt8] = []
    /// Where in `output` the screens for the last keys sent start.
    private var mark = 0

    /// Starts `PrimeTime` with `arguments` on a new pseudo-terminal; every wait must be over
    /// within `timeLimit`.
    init(_ arguments: [String], timeLimit: Duration = .seconds(30)) throws {
        let executable = try #require(PrimeTimeExecutable.url, "PrimeTime not found next to the tests")
        var controller: Int32 = -1, device: Int32 = -1
        try #require(openpty(&controller, &device, nil, nil, nil) == 0, "openpty failed: errno \(errno)")
        // Not inherited by other programs the tests start (the program gets the device as 0, 1, 2).
        _ = fcntl(controller, F_SETFD, FD_CLOEXEC)
        _ = fcntl(device, F_SETFD, FD_CLOEXEC)
        self.controller = controller
        self.device = device
        deadline = ContinuousClock.now.advanced(by: timeLimit)
        process.executableURL = executable
        process.arguments = arguments
        let terminal = FileHandle(fileDescriptor: device, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        wasCookedWithEchoAtStart = isCookedWithEcho
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        close(controller)
        close(device)
    }

    /// Types `keys` (one write, so usually one read for the program); the screens they cause
    /// are the ones ``waitForScreen(containing:excluding:sourceLocation:)`` looks at next.
    func send(_ keys: String) {
        mark = output.count
        let bytes = Array(keys.utf8)
        let written = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
        #expect(written == bytes.count, "could not type \(keys.debugDescription)")
    }

    /// A screen the program drew: the text between one "clear the screen" and the next, without
    /// escape sequences and carriage returns.
    struct Screen {
        let text: String
        /// The screen's lines (without the empty one after the last line end).
        var lines: [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// Waits for a screen drawn since the last ``send(_:)`` that contains every one of `texts`
    /// and none of `excluded`, and returns the last such screen.
    @discardableResult
    func waitForScreen(containing texts: String..., excluding excluded: String...,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> Screen {
        let description = "a screen with \(texts)" + (excluded.isEmpty ? "" : " and without \(excluded)")
        while true {
            let screens = String(decoding: output[mark...], as: UTF8.self)
                .components(separatedBy: "\u{1B}[2J").dropFirst().map { Screen(text: Self.plain($0)) }
            if let index = screens.lastIndex(where: { screen in
                texts.allSatisfy(screen.text.contains) && !excluded.contains(where: screen.text.contains)
            }) {
                // The last screen read may be cut where a read ended (a slow machine, a sanitizer):
                // it is whole once the program has gone quiet.
                if index < screens.count - 1 || !readWaiting(upTo: 150) { return screens[index] }
                continue
            }
            guard readMore() else { throw failure(waitingFor: description, sourceLocation) }
        }
    }

    /// Waits until the program has exited (reading what it draws meanwhile, so it never blocks
    /// on a full terminal), then reads what is left.
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) throws
    -> (reason: Process.TerminationReason, status: Int32) {
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw failure(waitingFor: "the program to exit", sourceLocation) }
            _ = readMore()
        }
        while readMore(waitingUpTo: 0) {}
        return (process.terminationReason, process.terminationStatus)
    }

    /// Waits until `file` holds `text` (a save happens off the main queue, a moment later).
    func waitForFile(_ file: URL, toHold text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        while (try? String(contentsOf: file, encoding: .utf8)) != text {
            guard ContinuousClock.now < deadline else {
                let held = (try? String(contentsOf: file, encoding: .utf8)) ?? "nothing"
                throw failure(waitingFor: "\(file.lastPathComponent) to hold \(text) (it holds \(held))", sourceLocation)
            }
            _ = readMore(waitingUpTo: 10)
        }
    }

    /// Whether the terminal edits lines and echoes, as before raw mode.
    var isCookedWithEcho: Bool {
        var settings = termios()
        guard tcgetattr(device, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// How many screens the program drew since the last ``send(_:)`` (or ``resize(to:)``).
    var screensSinceSend: Int {
        String(decoding: output[mark...], as: UTF8.self).components(separatedBy: "\u{1B}[2J").count - 1
    }

    /// What the program wrote before its first screen: how it set the terminal up.
    var textBeforeFirstScreen: String {
        String(decoding: output, as: UTF8.self).components(separatedBy: "\u{1B}[2J").first ?? ""
    }

    /// Reads what the program draws for `duration` more, so that a redraw it was going to make
    /// has been made (one that comes within the same turn takes a few milliseconds at most).
    func settle(for duration: Duration = .milliseconds(300)) {
        let end = ContinuousClock.now.advanced(by: duration)
        while ContinuousClock.now < end {
            _ = readMore(waitingUpTo: 20)
        }
    }

    /// Sets the terminal's size and tells the program, as a terminal emulator does (the
    /// pseudo-terminal is not the program's controlling terminal, so the kernel does not send the
    /// SIGWINCH itself). The screens it causes are the ones waited for next.
    func resize(to size: TerminalSize) {
        mark = output.count
        var window = winsize(ws_row: UInt16(size.height), ws_col: UInt16(size.width), ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(controller, UInt(TIOCSWINSZ), &window) == 0, "could not resize the terminal")
        #expect(kill(process.processIdentifier, SIGWINCH) == 0)
    }

    /// What the program wrote after it last cleared the screen, escape sequences included.
    var textAfterLastScreen: String {
        let text = String(decoding: output, as: UTF8.self)
        return text.components(separatedBy: "\u{1B}[2J").last ?? text
    }

    /// Reads what the program drew, waiting up to `milliseconds` (and never past the deadline)
    /// for it; `false` when nothing came and there is no time left, or the program has exited
    /// and drawn everything.
    /// Reads what the program writes within `milliseconds`: whether anything came.
    private func readWaiting(upTo milliseconds: Int32) -> Bool {
        var request = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, milliseconds) > 0, request.revents & Int16(POLLIN) != 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        output += buffer[..<count]
        return true
    }

    private func readMore(waitingUpTo milliseconds: Int32 = 50) -> Bool {
        let remaining = deadline - ContinuousClock.now
        let left = Int32(max(0, min(Double(milliseconds), remaining / .milliseconds(1))))
        var request = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        if poll(&request, 1, left) > 0, request.revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            if count > 0 {
                output += buffer[..<count]
                return true
            }
        }
        // Nothing came: more may come if there is time left and the program still runs.
        return ContinuousClock.now < deadline && process.isRunning
    }

    /// Records that the wait for `what` failed, with the output so far, and returns the error to throw.
    private func failure(waitingFor what: String, _ sourceLocation: SourceLocation) -> any Error {
        let shown = Self.plain(String(decoding: output, as: UTF8.self)).replacingOccurrences(of: "\u{1B}", with: "⎋")
        Issue.record("Timed out waiting for \(what). The program drew:\n\(shown)", sourceLocation: sourceLocation)
        return TimedOut()
    }

    /// A wait that ran out of time (recorded as an issue already).
    struct TimedOut: Error {}

    /// `text` without ANSI escape sequences (`ESC [` parameters, then a letter) and carriage returns.
    static func plain(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\u{1B}":
                guard let next = scalars.next(), next == "[" else { continue }
                while let parameter = scalars.next(), !("@"..."~").contains(parameter) {}
            case "\r":
                continue
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }
}
#endif
