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
    /// be compared.
    ///
    /// ```console
    /// == Counter ==
    /// Count: 3
    /// The 3rd prime is 5.  (dismiss)
    /// Favorites: 2 | Log: off
    /// ```
    public static func lines(_ state: AppState, notice: String? = nil, time: ((Date) -> String)? = nil) -> [String] {
        var lines: [String] = []
        switch state.screen {
        case .counter:
            if state.isPrimeModalShown {
                lines.append("== Counter > Is this prime? ==")
                lines.append("Count: \(state.count)")
                lines.append(primeModalLine(state))
            } else {
                lines.append("== Counter ==")
                lines.append("Count: \(state.count)")
            }
            if let n = state.nthPrimeRequestedN {
                lines.append("Computing \(NthPrimeAlert.name(n))…")
            }
            if let alert = state.nthPrimeAlert {
                lines.append("\(alert.message)  (dismiss)")
            }
        case .favoritePrimes:
            lines.append("== Favorite primes ==")
            if state.favoritePrimes.isEmpty {
                lines.append("(none yet: on the counter, \"prime\" then \"save\")")
            }
            let width = String(state.favoritePrimes.count).count
            for (offset, prime) in state.favoritePrimes.enumerated() {
                let number = String(offset + 1)
                lines.append("\(String(repeating: " ", count: width - number.count))\(number). \(prime)")
            }
            lines.append(contentsOf: activityLines(state.activityFeed, time: time))
        }
        if let message = state.message {
            lines.append("Message: \(message)  (dismiss)")
        }
        if let notice {
            lines.append("! \(notice)")
        }
        lines.append("Favorites: \(state.favoritePrimes.count) | Log: \(state.isLogging ? "on" : "off")")
        return lines
    }

    /// What "is this prime?" says about the count, and what can be done about it.
    static func primeModalLine(_ state: AppState) -> String {
        guard state.isPrime else { return "\(state.count) is not prime." }
        if state.isFavorite { return "\(state.count) is prime, and a favorite.  (remove)" }
        return "\(state.count) is prime.  (save)"
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
    public static func keyLine(_ state: AppState) -> String {
        let applicable = TerminalCommands.table.filter { spec in
            guard spec.key != nil, spec.argument == nil else { return false }
            if case .success = spec.make(0).actions(in: state) { return true }
            return false
        }
        let keys = applicable.compactMap { spec in spec.key.map { "\($0) \(spec.name)" } }
        return "Keys: " + (keys + [": command"]).joined(separator: "  ")
    }
}
