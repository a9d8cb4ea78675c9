import ComposableArchitecture
import Dispatch
import Foundation

/// The terminal front end's logic, without the terminal: a store running the app, the commands
/// the user gives it, and the lines that show it. Both modes of the `PrimeTime` program use it;
/// tests drive it directly.
@MainActor
public final class TerminalSession {
    /// The store running ``appReducer``.
    public let store: Store<AppState, AppAction>
    /// The problem with the last command (unknown, or not applicable where the user was), shown
    /// under the state until the next command.
    public private(set) var notice: String?
    /// How many commands were unknown or did not apply.
    public private(set) var rejectedCount = 0
    /// How the user gives commands, which decides how messages and the screen tell them what to
    /// do ("Type \"dismiss\"" or "Press \"d\""): line mode unless interactive mode runs it.
    public var mode = TerminalMode.line

    /// A session running the app in `environment`, from `initialState`.
    ///
    /// - Parameters:
    ///   - environment: The app's dependencies.
    ///   - initialState: The state to start from; the default app state by default.
    public init(environment: AppEnvironment, initialState: AppState = AppState()) {
        store = Store(initialState: initialState, reducer: appReducer, environment: environment)
    }

    /// What one input did.
    public enum Step: Equatable, Sendable {
        /// The command ran (or was rejected, see ``TerminalSession/notice``): show the state.
        case ran
        /// The input was empty or a comment.
        case skipped
        /// The user asked for the list of commands.
        case help
        /// The user asked to quit.
        case quit
    }

    /// Starts the app: reads the favorites file. Await the task to have its answer in the state.
    ///
    /// - Returns: The tasks of the effects launching started.
    @discardableResult
    public func launch() -> [StoreTask] {
        [store.send(.favoritePrimes(.launched))]
    }

    /// Runs one input: sends the command's actions, or records why not (``notice``, and
    /// ``rejectedCount``). Returns what happened and the tasks of the effects it started; await
    /// them (`finish()`) to see their answers in the state.
    ///
    /// - Parameter input: The parsed input to run.
    /// - Returns: What happened, and the tasks of the effects it started.
    public func run(_ input: ParsedInput) -> (step: Step, tasks: [StoreTask]) {
        switch input {
        case .nothing:
            return (.skipped, [])
        case let .invalid(message):
            reject(message)
            return (.ran, [])
        case let .command(command):
            notice = nil
            switch command.actions(in: store.state, mode: mode) {
            case let .failure(rejection):
                reject(rejection.message)
                return (.ran, [])
            case let .success(actions):
                if command == .help { return (.help, []) }
                if command == .quit { return (.quit, []) }
                return (.ran, actions.map { store.send($0) })
            }
        }
    }

    /// Waits until no effect is running (an autosave, a file read, an nth-prime question), or
    /// until `limit` has passed; returns whether they all finished. The program calls it before
    /// it exits, so that quitting right after a change does not lose its autosave. The main queue
    /// keeps running meanwhile, so the effects' answers reach the state.
    ///
    /// <!-- example context: session -->
    /// ```swift
    /// await session.finishEffects()
    /// exit(status)
    /// ```
    ///
    /// - Parameter limit: The longest time to wait; two seconds by default.
    /// - Returns: `true` if every effect finished in time.
    @discardableResult
    public func finishEffects(limit: Duration = .seconds(2)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while store.runningEffectCount > 0 {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Clears the notice (interactive mode, when the user starts typing a command).
    public func clearNotice() {
        notice = nil
    }

    private func reject(_ message: String) {
        notice = message
        rejectedCount += 1
    }

    /// The state and the notice, as lines (``TerminalScreen/lines(_:notice:time:mode:)``).
    ///
    /// - Parameter time: A closure that formats an activity-feed time, or `nil` to leave the times
    ///   out.
    /// - Returns: The screen's lines.
    public func lines(time: ((Date) -> String)? = nil) -> [String] {
        TerminalScreen.lines(store.state, notice: notice, time: time, mode: mode)
    }

    /// Line mode: launches the app, prints its state, then for each line prints `> line` and,
    /// once the effects the command started have finished, the state; `help` prints the
    /// commands instead, and `quit` stops. Returns the exit status: 0, or 1 when a command was
    /// unknown or did not apply.
    ///
    /// <!-- example context: session -->
    /// ```swift
    /// let status = await session.runLines(TerminalOptions.scriptLines("inc; nth"), write: { print($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - lines: The input lines.
    ///   - write: A closure that writes a line of output.
    /// - Returns: The exit status: 0, or 1 when a command was unknown or did not apply.
    public func runLines<Lines: AsyncSequence>(_ lines: Lines, write: (String) -> Void) async -> Int32
    where Lines.Element == String {
        for task in launch() { await task.finish() }
        write(self.lines().joined(separator: "\n"))
        do {
            for try await line in lines {
                let input = TerminalCommands.parse(line)
                if input == .nothing { continue }
                write("")
                write("> \(line.trimmingWhitespace())")
                let (step, tasks) = run(input)
                for task in tasks { await task.finish() }
                switch step {
                case .skipped: continue
                case .help: write(TerminalCommands.helpLines.joined(separator: "\n"))
                case .quit: return exitStatus
                case .ran: write(self.lines().joined(separator: "\n"))
                }
            }
        } catch {
            write("! Could not read the commands: \(error)")
            return 1
        }
        return exitStatus
    }

    /// Line mode over an array of lines (a `--script`).
    ///
    /// - Parameters:
    ///   - lines: The input lines.
    ///   - write: A closure that writes a line of output.
    /// - Returns: The exit status: 0, or 1 when a command was unknown or did not apply.
    public func runLines(_ lines: [String], write: (String) -> Void) async -> Int32 {
        await runLines(
            AsyncStream { continuation in
                for line in lines { continuation.yield(line) }
                continuation.finish()
            }, write: write)
    }

    private var exitStatus: Int32 { rejectedCount == 0 ? 0 : 1 }
}

extension AppEnvironment {
    /// The live environment for the terminal front end's `options`: ``live(favoritesFile:logFile:)``,
    /// with the nth prime's latency set by `--latency-ms` when given, and the log written through
    /// `log` (a ``TerminalLog``, which the program flushes before it exits).
    ///
    /// - Parameters:
    ///   - options: The parsed command-line options.
    ///   - log: The log to write reports to.
    /// - Returns: The live environment for the terminal.
    public static func terminal(options: TerminalOptions, log: TerminalLog) -> AppEnvironment {
        var environment = AppEnvironment.live(favoritesFile: options.favoritesFile, logFile: options.logFile)
        if let milliseconds = options.latencyMilliseconds {
            environment.nthPrime = NthPrimeEnvironment.computing(
                on: DispatchQueue.global(qos: .userInitiated).eraseToAnyScheduler(),
                latency: .milliseconds(milliseconds))
        }
        environment.log = { report in log.append(report) }
        return environment
    }
}

/// The log file for the terminal front end: the app's own log writer (appending each report on
/// a background queue), made visible to the program so that it can ``flush()`` before it exits.
public final class TerminalLog: Sendable {
    private let file: LogFile

    /// A log appending to `file` (created when first written to).
    ///
    /// - Parameter file: The URL of the log file.
    public init(file: URL) {
        self.file = LogFile(url: file)
    }

    /// Appends `report` and a line end, later, on the log's queue.
    ///
    /// - Parameter report: The report to append.
    public func append(_ report: String) {
        file.append(report)
    }

    /// Waits until every report appended so far is written.
    public func flush() {
        file.flush()
    }
}
