/// The text `PrimeTime --help` prints, built from the command table and the options' defaults.
public enum TerminalHelp {
    /// The whole help, ending with a line end.
    public static var text: String {
        lines.joined(separator: "\n") + "\n"
    }

    /// The help, one line per element.
    public static var lines: [String] {
        [
            "PrimeTime: count, ask whether the count is prime, save favorite primes, and ask for the nth prime.",
            "",
            "Usage: PrimeTime [--favorites-file PATH] [--log-file PATH] [--latency-ms N] [--script \"COMMANDS\"]",
            "       PrimeTime --help",
            "",
            "Modes:",
            "  Interactive   When standard input is a terminal: press single keys; the screen is redrawn",
            "                after every change and the keys are always listed at the bottom. Press \":\" to",
            "                type a whole command (for del N, save-file, load), then Return (Escape cancels).",
            "                The terminal is restored on quit, Ctrl-C and SIGTERM.",
            "  Line          Otherwise, or with --script: commands are read one per line (from --script,",
            "                separated by \";\" or line ends, else from standard input). Each command is",
            "                echoed as \"> command\", then the state is printed once the work it started has",
            "                finished (so the answer to \"nth\" is in the state printed after it).",
            "                Empty lines and lines starting with \"#\" are skipped.",
            "",
            "Options:",
            "  --favorites-file PATH  The favorite primes file (default: ./\(TerminalOptions.defaultFavoritesPath)).",
            "  --log-file PATH        Where \"log\" writes every action (default: ./\(TerminalOptions.defaultLogPath)).",
            "  --latency-ms N         How long \"nth\" takes to answer, in milliseconds (default: 300 to 500; 0 for tests).",
            "  --script \"COMMANDS\"    Run these commands in line mode and exit, e.g. --script \"inc; inc; prime; save\".",
            "  -h, --help             Print this help and exit.",
            "",
            "Keys and commands (the key or the name; [where it applies]):",
        ] + TerminalCommands.helpLines + [
            "",
            "Bad input: an unknown key or command, or one that does not apply on the current screen, shows a",
            "message and changes nothing. In line mode the remaining commands still run, and the exit status",
            "is then 1.",
            "",
            "The favorites file is JSON: an array of distinct primes, e.g. [2,3,5]. It is read at start (and by",
            "\"load\"): a missing file starts with no favorites; an unreadable or corrupt one is reported and",
            "left untouched (a corrupt one is also copied to FILE.corrupt), and nothing is written to it until",
            "you \"save-file\". Once it has been read (or saved), every change to the favorites is saved to it",
            "at once. If writing fails, the message says why and what to do, and the favorites stay in memory.",
            "Reading never drops a favorite that is only in memory (saved before the file was read, or since a",
            "write failed): it is kept and written back.",
            "Saving is atomic: if PrimeTime is killed, or the machine stops, while saving, the file holds the",
            "old favorites or the new ones, never a mix. Several PrimeTime programs may use the same file at",
            "once: each save merges with what the others saved, so no favorite any of them saved is lost.",
            "",
            "While logging is on (\"log\" turns it on and off), every action and the change it made to the",
            "state are appended to the log file; it is never truncated.",
            "",
            "Exit status: 0 on success; 1 if a command in line mode was unknown or did not apply;",
            "2 for a bad command line.",
        ]
    }
}
