import Foundation
import MarblesLab

// The Marbles lab (`swift run Marbles`): everything is in MarblesLab, which the tests drive;
// this file only connects it to the process.
let status = MarblesCommand.run(
    Array(CommandLine.arguments.dropFirst()),
    readLine: { Swift.readLine(strippingNewline: true) },
    write: { text in
        FileHandle.standardOutput.write(Data(text.utf8))
    },
    writeError: { text in
        FileHandle.standardError.write(Data(text.utf8))
    },
    prompts: isatty(STDIN_FILENO) == 1)
exit(status)
