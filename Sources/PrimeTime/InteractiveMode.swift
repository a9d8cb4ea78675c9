#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import PrimeTimeCore
import Streams

/// Interactive mode: the terminal in raw mode, single keys, the screen redrawn from the state
/// after every change, the keys always listed at the bottom. The terminal is restored on quit,
/// Ctrl-C (SIGINT), SIGTERM and Ctrl-D; then ``run()`` returns, and the program does what it does
/// on every exit.
@MainActor
final class InteractiveMode {
    /// What the run loop waits for.
    private enum Event: Sendable {
        /// What one read of the keyboard returned (a key, or an escape sequence).
        case keys([UInt8])
        /// SIGINT or SIGTERM arrived: stop, and exit with this status.
        case signal(exitStatus: Int32)
    }

    private let session: TerminalSession
    private var keys = TerminalKeyInput()
    private var showsHelp = false
    private var observation: AnyCancellable?
    private var signalSources: [any DispatchSourceSignal] = []
    private let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()

    init(session: TerminalSession) {
        self.session = session
    }

    /// Runs until the user quits (0), input ends (0), or SIGINT (130) or SIGTERM (143) arrives;
    /// restores the terminal and returns the exit status. It does not exit: the caller lets the
    /// effects in flight finish and flushes the log, the same way whichever way the run ended.
    func run() async -> Int32 {
        guard RawTerminal.enable() else {
            // Not a terminal after all: fall back to line mode.
            return await session.runLines(StandardInputLines(), write: { print($0) })
        }
        // Keys and signals arrive in one stream, so that a signal ends the run like a quit does.
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        handleSignals { continuation.yield(.signal(exitStatus: $0)) }
        // Redraw on every state change: the publisher sends the current state now, then the
        // state after every send, including the ones effects make.
        observation = session.store.publisher.sink { [weak self] _ in
            MainActor.assumeIsolated { self?.redraw() }
        }
        session.launch()
        RawTerminal.readKeys({ continuation.yield(.keys($0)) }, end: { continuation.finish() })
        for await event in events {
            switch event {
            case let .signal(exitStatus):
                finish()
                return exitStatus
            case let .keys(bytes):
                let wasTyping = keys.prompt != nil
                for input in keys.receive(bytes) {
                    let (step, _) = session.run(input)
                    switch step {
                    case .quit:
                        finish()
                        return 0
                    case .help:
                        showsHelp.toggle()
                    case .ran, .skipped:
                        break
                    }
                }
                // The last command's problem goes away when the user starts typing the next one.
                if !wasTyping, keys.prompt != nil { session.clearNotice() }
                redraw()
            }
        }
        finish()  // End of input (the terminal went away).
        return 0
    }

    /// Stops drawing, restores the terminal, and gives the signals their default action back (a
    /// second Ctrl-C while the program finishes up ends it at once).
    private func finish() {
        observation = nil
        for source in signalSources { source.cancel() }
        signalSources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        RawTerminal.restore()
        print("")
    }

    /// Clears the screen and draws the state, the prompt and the keys.
    private func redraw() {
        var lines = session.lines(time: { [timeFormatter] in timeFormatter.string(from: $0) })
        lines.append("")
        if let prompt = keys.prompt {
            lines.append(":\(prompt)_    (Return runs it, Escape cancels)")
        } else if showsHelp {
            lines.append("Keys and commands (type \":\" first for a command; \"h\" hides this):")
            lines += TerminalCommands.helpLines
        } else {
            lines.append(TerminalScreen.keyLine(session.store.state) + "  (h: all commands)")
        }
        // Raw mode leaves output processing on, so "\n" still starts a new line.
        let screen = "\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n") + "\n"
        FileHandle.standardOutput.write(Data(screen.utf8))
    }

    /// Turns SIGINT and SIGTERM into `received(exitStatus)` on the main queue (130 and 143, the
    /// shell's statuses for them), instead of ending the program with the terminal in raw mode.
    private func handleSignals(_ received: @escaping @Sendable (Int32) -> Void) {
        for (number, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { received(status) }
            source.resume()
            signalSources.append(source)
        }
    }
}

/// The terminal's raw mode (no echo, no line editing; signals kept) and reading its keys.
enum RawTerminal {
    /// The settings before raw mode, to restore; touched on the main actor only.
    @MainActor private static var original: termios?

    /// Switches standard input to raw mode; `false` if it is not a terminal.
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
        FileHandle.standardOutput.write(Data("\u{1B}[?25l".utf8))  // Hide the cursor.
        return true
    }

    /// Puts the terminal back as it was (safe to call twice).
    @MainActor
    static func restore() {
        guard var settings = original else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
        original = nil
        FileHandle.standardOutput.write(Data("\u{1B}[?25h".utf8))  // Show the cursor.
    }

    /// Reads standard input on a thread of its own, so that the main actor never waits for the
    /// keyboard: calls `received` with what each read returns (a key, or an escape sequence),
    /// then `end` when input ends.
    static func readKeys(_ received: @escaping @Sendable ([UInt8]) -> Void, end: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 16)
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
