import Foundation
import PrimeTimeCore

// The PrimeTime terminal front end (placeholder until the app's reducer lands): options only.
switch TerminalOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    FileHandle.standardError.write(Data((error.description + "\n").utf8))
    exit(2)
case .success(let options):
    if options.showHelp {
        print(TerminalHelp.text, terminator: "")
        exit(0)
    }
}
