/// The text `PrimeTime --help` prints, built from the command table and the options' defaults,
/// laid out for 80 columns.
public enum TerminalHelp {
    /// The whole help, ending with a line end.
    public static var text: String {
        lines.joined(separator: "\n") + "\n"
    }

    /// The help, one line per element, none longer than 80 characters.
    public static var lines: [String] {
        let width = TerminalSize.standard.width
        /// A paragraph wrapped to the width.
        func paragraph(_ text: String) -> [String] { TerminalLayout.wrap(text, width: width) }
        /// A term and its description, the description wrapped in a column of its own.
        func entry(_ term: String, _ description: String, column: Int) -> [String] {
            let start = "  " + term.padding(toLength: column - 2, withPad: " ", startingAt: 0)
            return TerminalLayout.wrap(start + description, width: width, indent: column)
        }
        let modeColumn = 16
        let optionColumn = 25
        return paragraph(
            "PrimeTime: count, ask whether the count is prime, save favorite primes, and ask for the nth prime.")
            + [
                "",
                "Usage: PrimeTime [--favorites-file PATH] [--log-file PATH] [--latency-ms N]",
                "                 [--script \"COMMANDS\"]",
                "       PrimeTime --help",
                "",
                "Modes:",
            ]
            + entry(
                "Interactive",
                "When standard input and output are a terminal: press single keys. The "
                    + "screen is drawn on the terminal's alternate screen (what was there before comes back on "
                    + "exit), redrawn once after every key, every answer and every resize, laid out to the "
                    + "terminal's width, with the keys that apply always listed at the bottom. Press \":\" to type "
                    + "a whole command (for del N, save-file, load), then Return (Escape cancels). Pasted text is "
                    + "text, never keys: it goes into the command being typed (or starts one). The terminal is "
                    + "restored however the program ends: quit, Ctrl-D, Ctrl-C, Ctrl-\\, SIGTERM or SIGHUP.",
                column: modeColumn)
            + entry(
                "Line",
                "Otherwise, or with --script: commands are read one per line (from --script, "
                    + "separated by \";\" or line ends, else from standard input). Each command is echoed as "
                    + "\"> command\", then the state is printed once the work it started has finished (so the "
                    + "answer to \"nth\" is in the state printed after it). Empty lines and lines starting with "
                    + "\"#\" are skipped.", column: modeColumn)
            + ["", "Options:"]
            + entry(
                "--favorites-file PATH",
                "The favorite primes file (default: ./\(TerminalOptions.defaultFavoritesPath)).",
                column: optionColumn)
            + entry(
                "--log-file PATH", "Where \"log\" writes every action (default: ./\(TerminalOptions.defaultLogPath)).",
                column: optionColumn)
            + entry(
                "--latency-ms N",
                "How long \"nth\" takes to answer, in milliseconds, up to "
                    + "\(TerminalOptions.maximumLatencyMilliseconds) (default: 300 to 500; 0 for tests).",
                column: optionColumn)
            + entry(
                "--script \"COMMANDS\"",
                "Run these commands in line mode and exit, e.g. "
                    + "--script \"inc; inc; prime; save\".", column: optionColumn)
            + entry("-h, --help", "Print this help and exit.", column: optionColumn)
            + ["", "Keys and commands (the key or the name; [where it applies]):"]
            + TerminalCommands.helpLines(width: width)
            + [""]
            + paragraph(
                "Bad input: an unknown key or command, or one that does not apply on the current screen, "
                    + "shows a message and changes nothing. In line mode the remaining commands still run, and the "
                    + "exit status is then 1.")
            + [""]
            + paragraph(
                "The favorites file is JSON: an array of distinct primes, e.g. [2,3,5]. It is read at start "
                    + "(and by \"load\", which says what it read; \"save-file\" says what it wrote): a missing file "
                    + "starts with no favorites; an unreadable or corrupt one is reported and left untouched (a "
                    + "corrupt one is also copied to FILE.corrupt), and nothing is written to it until you "
                    + "\"save-file\". Entries of the array that are not distinct primes (4, a repeated prime, a "
                    + "number too large, text) are left out, and the message names each one and its position; the "
                    + "other favorites are read, and the file is copied to FILE.corrupt before a save writes it "
                    + "without them. Once the file has been read (or saved), every change to the favorites is saved "
                    + "to it at once. If writing fails, the message says why and what to do, and the favorites stay "
                    + "in memory. Reading never drops a favorite that is only in memory (saved before the file was "
                    + "read, or since a write failed): it is kept and written back.")
            + paragraph(
                "Saving is atomic: if PrimeTime is killed, or the machine stops, while saving, the file "
                    + "holds the old favorites or the new ones, never a mix. Several PrimeTime programs may use the "
                    + "same file at once: each save merges with what the others saved, so no favorite any of them "
                    + "saved is lost.")
            + [""]
            + paragraph(
                "While logging is on (\"log\" turns it on and off), every action and the change it made to "
                    + "the state are appended to the log file; it is never truncated.")
            + [""]
            + paragraph(
                "Exit status: 0 on success; 1 if a command in line mode was unknown or did not apply; 2 for "
                    + "a bad command line.")
    }
}
