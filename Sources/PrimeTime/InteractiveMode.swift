import Dispatch
import Foundation
import PrimeTimeCore

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Interactive mode's connection to the process: the terminal in raw mode on its alternate
/// screen with bracketed paste, its keys read on a thread of their own, its size, and the
/// signals. What the keys do and what is drawn is ``InteractiveTerminal``'s (PrimeTimeCore).
///
/// The terminal is restored however the run ends: on quit, Ctrl-D, the end of input, Ctrl-C
/// (SIGINT), Ctrl-\ (SIGQUIT), SIGTERM and SIGHUP; then ``run()`` returns, and the program does
/// what it does on every exit.
@MainActor
final class InteractiveMode {
    /// What the run loop waits for.
    private enum Event: Sendable {
        /// What one read of the keyboard returned.
        case keys([UInt8])
        /// No input came for a while after the read numbered `read`: what waits (an Escape at
        /// the end of a read) is run.
        case inputQuiet(read: Int)
        /// The terminal was resized (SIGWINCH).
        case resized
        /// Input ended (the terminal went away).
        case inputEnded
        /// SIGINT, SIGQUIT, SIGTERM or SIGHUP arrived: stop, and exit with this status.
        case signal(exitStatus: Int32)
    }

    private let session: TerminalSession
    private var signalSources: [any DispatchSourceSignal] = []
    /// How many reads of the keyboard were run.
    private var reads = 0
    private let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()

    init(session: TerminalSession) {
        self.session = session
    }

    /// Runs until the user quits (0), input ends (0), or a signal that ends a program arrives
    /// (SIGINT 130, SIGQUIT 131, SIGTERM 143, SIGHUP 129: the shell's statuses for them);
    /// restores the terminal and returns the exit status. It does not exit: the caller lets the
    /// effects in flight finish and flushes the log, the same way whichever way the run ended.
    func run() async -> Int32 {
        guard RawTerminal.enable() else {
            // Not a terminal after all: fall back to line mode.
            return await session.runLines(StandardInputLines(), write: { print($0) })
        }
        // Keys, resizes and signals arrive in one stream, so that a signal ends the run like a quit does.
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        handleSignals(
            ending: { continuation.yield(.signal(exitStatus: $0)) },
            resized: { continuation.yield(.resized) })
        let terminal = InteractiveTerminal(
            session: session, size: RawTerminal.size(), time: { [timeFormatter] in timeFormatter.string(from: $0) },
            write: RawTerminal.write)
        terminal.start()
        RawTerminal.readKeys({ continuation.yield(.keys($0)) }, end: { continuation.yield(.inputEnded) })
        for await event in events {
            let outcome: InteractiveTerminal.Outcome
            switch event {
            case let .signal(exitStatus):
                finish(terminal)
                return exitStatus
            case .inputEnded:
                finish(terminal)
                return 0
            case .resized:
                terminal.resize(to: RawTerminal.size())
                continue
            case let .keys(bytes):
                reads += 1
                outcome = terminal.receive(bytes)
            case let .inputQuiet(read):
                guard read == reads else { continue }  // More input came meanwhile.
                outcome = terminal.flushInput()
            }
            if outcome == .quit {
                finish(terminal)
                return 0
            }
            if let delay = terminal.inputFlushDelay {
                let read = reads
                Task {
                    try? await Task.sleep(for: delay)
                    continuation.yield(.inputQuiet(read: read))
                }
            }
        }
        finish(terminal)
        return 0
    }

    /// Stops drawing, restores the terminal, and gives the signals their default action back (a
    /// second Ctrl-C while the program finishes up ends it at once).
    private func finish(_ terminal: InteractiveTerminal) {
        terminal.stop()
        for source in signalSources { source.cancel() }
        signalSources = []
        for number in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGWINCH] { signal(number, SIG_DFL) }
        RawTerminal.restore()
    }

    /// Turns SIGINT, SIGQUIT, SIGTERM and SIGHUP into `ending(exitStatus)` on the main queue
    /// (128 and the signal's number, as the shell reports them), instead of ending the program
    /// with the terminal in raw mode on its alternate screen; and SIGWINCH into `resized()`.
    private func handleSignals(ending: @escaping @Sendable (Int32) -> Void, resized: @escaping @Sendable () -> Void) {
        var handlers: [(Int32, @Sendable () -> Void)] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP].map { number in
            (number, { ending(128 + number) })
        }
        handlers.append((SIGWINCH, resized))
        for (number, handler) in handlers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler(handler: handler)
            source.resume()
            signalSources.append(source)
        }
    }
}

/// The terminal's raw mode (no echo, no line editing; signals kept), its alternate screen and
/// bracketed paste, its size, and reading its keys.
enum RawTerminal {
    /// The settings before raw mode, to restore; touched on the main actor only.
    @MainActor private static var original: termios?

    /// Switches the alternate screen on (what the terminal showed comes back on exit, and the
    /// screens drawn do not fill its scrollback), bracketed paste on (pasted text arrives between
    /// `ESC[200~` and `ESC[201~`), and hides the cursor.
    private static let setUp = "\u{1B}[?1049h\u{1B}[?2004h\u{1B}[?25l"
    /// The reverse, in reverse order.
    private static let tearDown = "\u{1B}[?25h\u{1B}[?2004l\u{1B}[?1049l"

    /// Switches standard input to raw mode and sets the terminal up; `false` if it is not a terminal.
    @MainActor
    static func enable() -> Bool {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        original = settings
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else { return false }
        write(setUp)
        return true
    }

    /// Puts the terminal back as it was (safe to call twice).
    @MainActor
    static func restore() {
        guard var settings = original else { return }
        write(tearDown)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
        original = nil
    }

    /// Writes `text` to standard output at once. A terminal that went away (SIGHUP) is not an
    /// error worth stopping for: what cannot be written is dropped.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            bytes = bytes.dropFirst(count)
        }
    }

    /// The terminal's size, or ``TerminalSize/standard`` when it does not say.
    static func size() -> TerminalSize {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return .standard
        }
        return TerminalSize(width: Int(size.ws_col), height: Int(size.ws_row))
    }

    /// Reads standard input on a thread of its own, so that the main actor never waits for the
    /// keyboard: calls `received` with what each read returns, then `end` when input ends.
    static func readKeys(_ received: @escaping @Sendable ([UInt8]) -> Void, end: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                received(Array(buffer[..<count]))
            }
            end()
        }
        thread.start()
    }
}
