import ComposableArchitecture
import Dispatch
import Foundation

/// Decides when interactive mode's screen is written: a frame is written when what it shows
/// differs from what the terminal shows, and not otherwise; after a resize (or anything else
/// that may have spoiled the terminal) the next frame is written whatever it shows.
///
/// ```swift
/// var frames = TerminalFrames()
/// let first = frames.frame(["Count: 0"])    // the bytes that clear the screen and draw it
/// let again = frames.frame(["Count: 0"])    // nil: the screen shows it already
/// ```
public struct TerminalFrames: Sendable {
    /// The lines the terminal shows, or `nil` when that is unknown (nothing drawn yet, a resize).
    public private(set) var shown: [String]?

    /// Nothing drawn yet.
    public init() {}

    /// The bytes that draw `lines` (home, clear the screen, the lines), or `nil` when the terminal
    /// shows them already. Lines are separated by `\r\n`, with none after the last, so that a
    /// screen exactly as tall as the terminal does not scroll it.
    ///
    /// - Parameter lines: The screen's lines.
    /// - Returns: The bytes to write, or `nil` when there is nothing to write.
    public mutating func frame(_ lines: [String]) -> String? {
        guard lines != shown else { return nil }
        shown = lines
        return Self.clear + lines.joined(separator: "\r\n")
    }

    /// Forgets what the terminal shows: the next frame is written.
    public mutating func invalidate() {
        shown = nil
    }

    /// Moves the cursor home and clears the screen.
    public static let clear = "\u{1B}[H\u{1B}[2J"
}

/// Interactive mode, without the terminal: the bytes the keyboard sends go in, the screens to
/// write come out, through `write`. The program (`Sources/PrimeTime/InteractiveMode.swift`)
/// puts the terminal in raw mode, reads it, and passes on resizes and signals.
///
/// The screen is written once per change that shows: after each read of the keyboard (however
/// many keys and actions it held), after an effect's answer changes the state (several answers
/// in one turn of the main queue are one redraw), and after a resize; never when the screen would
/// be the same (``TerminalFrames``).
///
/// <!-- example context: session -->
/// ```swift
/// let terminal = InteractiveTerminal(session: session, size: .standard,
///                                    write: { FileHandle.standardOutput.write(Data($0.utf8)) })
/// terminal.start()
/// let outcome = terminal.receive(Array("+".utf8))   // writes the screen with "Count: 1"
/// ```
@MainActor
public final class InteractiveTerminal {
    /// What the input did.
    public enum Outcome: Equatable, Sendable {
        /// Go on reading.
        case running
        /// The user quit (`q`, Ctrl-D).
        case quit
    }

    /// The session the keys drive.
    public let session: TerminalSession
    /// The terminal's size, which the screen is laid out for.
    public private(set) var size: TerminalSize
    /// Whether the list of keys and commands is shown (`h`).
    public private(set) var showsHelp = false
    /// The keyboard's state: the command being typed after `:`.
    public private(set) var keys = TerminalKeyInput()

    private let time: ((Date) -> String)?
    private let write: (String) -> Void
    private let schedule: (@escaping @MainActor @Sendable () -> Void) -> Void
    private var frames = TerminalFrames()
    private var observation: AnyCancellable?
    private var isRunning = false
    private var redrawIsScheduled = false

    /// Interactive mode on `session`, for a terminal of `size`; activity times are shown with
    /// `time`, screens are written with `write`. A redraw for an effect's answer is run by
    /// `schedule` (by default on the main queue, after the work in hand).
    ///
    /// - Parameters:
    ///   - session: The session the keys drive; it is put in interactive mode.
    ///   - size: The terminal's size.
    ///   - time: A closure that formats an activity-feed time, or `nil` to leave the times out.
    ///   - write: A closure that writes a screen's bytes to the terminal.
    ///   - schedule: A closure that runs a redraw later; on the main queue by default.
    public init(
        session: TerminalSession, size: TerminalSize, time: ((Date) -> String)? = nil,
        write: @escaping (String) -> Void,
        schedule: @escaping (@escaping @MainActor @Sendable () -> Void) -> Void = { work in
            DispatchQueue.main.async { MainActor.assumeIsolated { work() } }
        }
    ) {
        self.session = session
        self.size = size
        self.time = time
        self.write = write
        self.schedule = schedule
        session.mode = .interactive
    }

    /// Starts the app (reads the favorites file), writes the first screen, and from then on
    /// redraws when the state changes. Returns the launch's tasks.
    ///
    /// - Returns: The tasks of the effects launching started.
    @discardableResult
    public func start() -> [StoreTask] {
        isRunning = true
        // The publisher sends the current state now, then after every send: each marks the screen
        // as maybe changed, and one redraw follows.
        observation = session.store.publisher.sink { [weak self] _ in
            MainActor.assumeIsolated { self?.stateChanged() }
        }
        let tasks = session.launch()
        redraw()
        return tasks
    }

    /// Stops redrawing.
    public func stop() {
        isRunning = false
        observation = nil
    }

    /// Runs the inputs in one read of the keyboard, then redraws once.
    ///
    /// - Parameter bytes: The bytes one read from the terminal returned.
    /// - Returns: ``Outcome/quit`` if the user quit, else ``Outcome/running``.
    public func receive(_ bytes: [UInt8]) -> Outcome {
        let wasTyping = keys.prompt != nil
        return run(keys.receive(bytes), wasTyping: wasTyping)
    }

    /// How long to wait for more input before calling ``flushInput()``, or `nil`
    /// (``TerminalKeyInput/flushDelay``).
    public var inputFlushDelay: Duration? { keys.flushDelay }

    /// No more input came in time: runs what was waiting (an Escape on its own cancels the command
    /// being typed), then redraws if that changed anything.
    ///
    /// - Returns: ``Outcome/quit`` if the user quit, else ``Outcome/running``.
    public func flushInput() -> Outcome {
        let wasTyping = keys.prompt != nil
        return run(keys.flush(), wasTyping: wasTyping)
    }

    /// The terminal is now `size`: lays the screen out again and writes it.
    ///
    /// - Parameter size: The terminal's new size.
    public func resize(to size: TerminalSize) {
        self.size = size
        frames.invalidate()
        redraw()
    }

    /// The lines of the screen as it is now.
    public var lines: [String] {
        TerminalScreen.interactiveLines(
            session.store.state, notice: session.notice, prompt: keys.prompt,
            showsHelp: showsHelp, size: size, time: time)
    }

    private func run(_ inputs: [ParsedInput], wasTyping: Bool) -> Outcome {
        for input in inputs {
            let (step, _) = session.run(input)
            switch step {
            case .quit:
                return .quit
            case .help:
                showsHelp.toggle()
            case .ran, .skipped:
                break
            }
        }
        // The last command's problem goes away when the user starts typing the next one.
        if !wasTyping, keys.prompt != nil { session.clearNotice() }
        redraw()
        return .running
    }

    private func stateChanged() {
        // Within a key's handling, the redraw after it shows the change; an effect's answer needs
        // a redraw of its own, once for all the answers of this turn.
        guard !redrawIsScheduled else { return }
        redrawIsScheduled = true
        schedule { [weak self] in
            guard let self, self.redrawIsScheduled else { return }
            self.redraw()
        }
    }

    private func redraw() {
        redrawIsScheduled = false
        guard isRunning else { return }
        if let frame = frames.frame(lines) { write(frame) }
    }
}
