import Foundation

/// Draws the app's state as lines of text: the same lines in line mode and, with the keys
/// under them, in interactive mode.
public enum TerminalScreen {
    /// How many of the most recent activity-feed entries are shown.
    public static let activityShown = 5

    /// The state as lines: the screen's title, what is on it, then the file message, the
    /// front end's `notice` (the last command's problem), and a status line: how many
    /// favorites, and whether logging is on.
    ///
    /// Deterministic: the same state gives the same lines. Activity-feed times are shown only
    /// when `time` formats them (interactive mode); line mode leaves them out, so its output can
    /// be compared. What can be done about what is shown is said for the `mode`: `(dismiss)` in
    /// line mode, `(press d to dismiss)` in interactive mode.
    ///
    /// While an nth-prime question is computed, the line names the n that was asked, which is
    /// the count at that moment (the count may have changed since).
    ///
    /// ```console
    /// == Counter ==
    /// Count: 3
    /// The 3rd prime is 5.  (dismiss)
    /// Favorites: 2 | Log: off
    /// ```
    ///
    /// - Parameters:
    ///   - state: The app's state.
    ///   - notice: The front end's notice to show, or `nil`.
    ///   - time: A closure that formats an activity-feed time, or `nil` to leave the times out.
    ///   - mode: The front end the screen is for, for the wording of its hints.
    /// - Returns: The screen's lines.
    public static func lines(
        _ state: AppState, notice: String? = nil, time: ((Date) -> String)? = nil, mode: TerminalMode = .line
    ) -> [String] {
        var lines: [String] = []
        switch state.screen {
        case .counter:
            if state.isPrimeModalShown {
                lines.append("== Counter > Is this prime? ==")
                lines.append("Count: \(state.count)")
                lines.append(primeModalLine(state, mode: mode))
            } else {
                lines.append("== Counter ==")
                lines.append("Count: \(state.count)")
            }
            if let n = state.nthPrimeRequestedN {
                lines.append("Computing \(NthPrimeAlert.name(n))…")
            }
            if let alert = state.nthPrimeAlert {
                lines.append("\(alert.message)  \(mode.hint("dismiss"))")
            }
        case .favoritePrimes:
            lines.append("== Favorite primes ==")
            if state.favoritePrimes.isEmpty {
                lines.append(
                    mode == .line
                        ? "(none yet: on the counter, \"prime\" then \"save\")"
                        : "(none yet: on the counter, press \"p\" then \"s\")")
            }
            let width = String(state.favoritePrimes.count).count
            for (offset, prime) in state.favoritePrimes.enumerated() {
                let number = String(offset + 1)
                lines.append("\(String(repeating: " ", count: width - number.count))\(number). \(prime)")
            }
            lines.append(contentsOf: activityLines(state.activityFeed, time: time))
        }
        if let message = state.message {
            lines.append("Message: \(message)  \(mode.hint("dismiss"))")
        }
        if let notice {
            lines.append("! \(notice)")
        }
        lines.append("Favorites: \(state.favoritePrimes.count) | Log: \(state.isLogging ? "on" : "off")")
        return lines
    }

    /// What "is this prime?" says about the count, and what can be done about it.
    static func primeModalLine(_ state: AppState, mode: TerminalMode) -> String {
        guard state.isPrime else { return "\(state.count) is not prime." }
        if state.isFavorite { return "\(state.count) is prime, and a favorite.  \(mode.hint("remove"))" }
        return "\(state.count) is prime.  \(mode.hint("save"))"
    }

    /// The most recent entries of the activity feed, oldest first.
    static func activityLines(_ feed: [Activity], time: ((Date) -> String)?) -> [String] {
        guard !feed.isEmpty else { return [] }
        let shown = feed.suffix(activityShown)
        var lines = ["Activity:"]
        if feed.count > shown.count { lines.append("  (\(feed.count - shown.count) earlier)") }
        for activity in shown {
            let stamp = time.map { "\($0(activity.timestamp))  " } ?? ""
            switch activity.kind {
            case let .addedFavoritePrime(prime): lines.append("  \(stamp)+ \(prime) added")
            case let .removedFavoritePrime(prime): lines.append("  \(stamp)- \(prime) removed")
            }
        }
        return lines
    }

    /// The keys that do something where the user is, one line, for the bottom of the
    /// interactive screen (the full list is ``TerminalCommands/helpLines``).
    ///
    /// - Parameter state: The app's state.
    /// - Returns: The line of keys.
    public static func keyLine(_ state: AppState) -> String {
        "Keys: " + keyItems(state).joined(separator: "  ")
    }

    /// The keys that do something where the user is, then `: command` and `(h: all commands)`,
    /// on as many lines of at most `width` characters as they need; a key and its name are never
    /// split.
    ///
    /// - Parameters:
    ///   - state: The app's state.
    ///   - width: The longest a line may be, in characters.
    /// - Returns: The lines of keys.
    public static func keyLines(_ state: AppState, width: Int) -> [String] {
        var items = keyItems(state) + ["(h: all commands)"]
        items[0] = "Keys: " + items[0]
        return TerminalLayout.flow(items, width: width, indent: 6)
    }

    /// `+ inc`, `- dec`, ... for the keys that apply in `state`, then `: command`.
    static func keyItems(_ state: AppState) -> [String] {
        let applicable = TerminalCommands.table.filter { spec in
            guard spec.key != nil, spec.argument == nil else { return false }
            if case .success = spec.make(0).actions(in: state) { return true }
            return false
        }
        return applicable.compactMap { spec in spec.key.map { "\($0) \(spec.name)" } } + [": command"]
    }

    /// The whole interactive screen for a terminal of `size`: the state (``lines(_:notice:time:mode:)``,
    /// each line wrapped to the width), an empty line, then what is at the bottom: the command
    /// being typed after `:` (`prompt`), the list of keys and commands (`showsHelp`, instead of
    /// the state), or the keys that apply. It fits the size: lines are wrapped at spaces, and
    /// when they are too many for the height, the end of the state gives way to a line saying
    /// so (the bottom always shows).
    ///
    /// - Parameters:
    ///   - state: The app's state.
    ///   - notice: The front end's notice to show, or `nil`.
    ///   - prompt: The command being typed after `:`, or `nil` when none is.
    ///   - showsHelp: Whether the list of keys and commands is shown.
    ///   - size: The terminal's size.
    ///   - time: A closure that formats an activity-feed time, or `nil` to leave the times out.
    /// - Returns: The screen's lines.
    public static func interactiveLines(
        _ state: AppState, notice: String?, prompt: String?, showsHelp: Bool, size: TerminalSize,
        time: ((Date) -> String)? = nil
    ) -> [String] {
        let width = size.width
        var body: [String]
        let bottom: [String]
        if let prompt {
            body = lines(state, notice: notice, time: time, mode: .interactive)
            bottom = TerminalLayout.wrap(":\(prompt)_    (Return runs it, Escape cancels)", width: width, indent: 1)
        } else if showsHelp {
            body =
                TerminalLayout.wrap(
                    "Keys and commands (type \":\" first for a command; \"h\" hides this):",
                    width: width, indent: 2)
                + TerminalCommands.helpLines(width: width)
            bottom = keyLines(state, width: width)
            return TerminalLayout.fit(body: body, bottom: bottom, size: size)
        } else {
            body = lines(state, notice: notice, time: time, mode: .interactive)
            bottom = keyLines(state, width: width)
        }
        body = TerminalLayout.wrapEach(body, width: width)
        return TerminalLayout.fit(body: body, bottom: bottom, size: size)
    }
}
