import Foundation
import PrimeTimeCore

// The PrimeTime terminal front end: options, then line mode or interactive mode. The logic is in
// PrimeTimeCore's Terminal folder (TerminalSession, TerminalCommand, TerminalScreen); this file,
// InteractiveMode.swift and StandardInputLines.swift only connect it to the process. `main` is async: while it awaits, the
// main queue runs, which is where effects deliver (Docs/MainQueue.md, approach 3).

let options: TerminalOptions
switch TerminalOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    FileHandle.standardError.write(Data((error.description + "\n").utf8))
    exit(2)
case .success(let parsed):
    options = parsed
}
if options.showHelp {
    print(TerminalHelp.text, terminator: "")
    exit(0)
}

if let testMode = options.testMode {
    // Test-only (FavoritesTestMode): no screen, unbuffered output.
    exit(
        testMode.run(
            file: options.favoritesFile,
            output: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            errors: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }))
}

let log = TerminalLog(file: options.logFile)
let session = TerminalSession(environment: .terminal(options: options, log: log))
let status: Int32
if let script = options.script {
    status = await session.runLines(TerminalOptions.scriptLines(script), write: { print($0) })
} else if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
    status = await InteractiveMode(session: session).run()
} else {
    status = await session.runLines(StandardInputLines(), write: { print($0) })
}
// However the run ended (a quit, the end of input, Ctrl-C or SIGTERM in interactive mode): let
// the effects in flight finish, so that a change made just before is autosaved, then write the
// log's last reports.
await session.finishEffects()
log.flush()
exit(status)
