/// A terminal's size, in columns and rows.
public struct TerminalSize: Equatable, Sendable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A size of `width` columns and `height` rows (each at least 1).
    ///
    /// - Parameters:
    ///   - width: Columns; less than 1 counts as 1.
    ///   - height: Rows; less than 1 counts as 1.
    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
    }

    /// 80 × 24: the size assumed when the terminal does not say, and the width `--help` and line
    /// mode's `help` are laid out for.
    public static let standard = TerminalSize(width: 80, height: 24)
}

/// Laying text out at a width: wrapping at spaces (never inside a word that fits on a line),
/// flowing items such as the keys, and fitting a screen into a height.
///
/// Widths are counted in characters, which is what a terminal shows for the text PrimeTime
/// writes (its own text is ASCII; the favorites file's path and typed text may not be, and a
/// wide character then takes two columns).
public enum TerminalLayout {
    /// `text` in lines of at most `width` characters, broken at spaces. The lines after the
    /// first start with `indent` spaces (a hanging indent). A word longer than a whole line is
    /// cut, as it must be. Runs of spaces inside a line are kept; the spaces where a line
    /// breaks are dropped.
    ///
    /// ```swift
    /// let lines = TerminalLayout.wrap("Keys: + inc  - dec  p prime", width: 12, indent: 2)
    /// // ["Keys: + inc", "  - dec  p", "  prime"]
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text to wrap.
    ///   - width: The longest a line may be, in characters.
    ///   - indent: How many spaces start the lines after the first; none by default.
    /// - Returns: The lines, at least one.
    public static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        let width = max(width, 1)
        let indent = min(max(indent, 0), width - 1)
        let padding = String(repeating: " ", count: indent)
        var lines: [String] = []
        var rest = Substring(text)
        var prefix = ""
        while true {
            let room = width - prefix.count
            if rest.count <= room {
                lines.append(prefix + rest)
                return lines
            }
            // The last space within the room (a line may end just before it).
            let limit = rest.index(rest.startIndex, offsetBy: room)
            var cut = rest[...limit].lastIndex(of: " ")
            if let space = cut, rest[..<space].allSatisfy({ $0 == " " }) { cut = nil }  // Only leading spaces.
            let line: Substring
            if let space = cut {
                line = rest[..<space]
                rest = rest[space...].drop(while: { $0 == " " })
            } else {
                line = rest[..<limit]  // A word longer than the line: cut it.
                rest = rest[limit...]
            }
            lines.append(prefix + String(line).trailingSpacesRemoved())
            prefix = padding
            if rest.isEmpty { return lines }
        }
    }

    /// `items` (such as `+ inc`) on lines of at most `width` characters, `separator` between
    /// two on a line; an item is never split across lines unless it alone is wider than a
    /// line. The lines after the first start with `indent` spaces.
    ///
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - width: The longest a line may be, in characters.
    ///   - separator: What goes between two items on a line; two spaces by default.
    ///   - indent: How many spaces start the lines after the first; none by default.
    /// - Returns: The lines; none when there are no items.
    public static func flow(_ items: [String], width: Int, separator: String = "  ", indent: Int = 0) -> [String] {
        let padding = String(repeating: " ", count: min(max(indent, 0), max(width - 1, 0)))
        var lines: [String] = []
        var line = ""
        for item in items {
            if line.isEmpty || line.allSatisfy({ $0 == " " }) {
                line += item
            } else if line.count + separator.count + item.count <= width {
                line += separator + item
            } else {
                lines.append(line)
                line = padding + item
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.flatMap { $0.count <= width ? [$0] : wrap($0, width: width, indent: indent) }
    }

    /// Each of `lines` wrapped to `width`, continuing under itself: a line's wrapped part is
    /// indented by its own leading spaces and two more, so that it reads as one entry.
    ///
    /// - Parameters:
    ///   - lines: The lines to wrap.
    ///   - width: The longest a line may be, in characters.
    /// - Returns: The wrapped lines, in order.
    public static func wrapEach(_ lines: [String], width: Int) -> [String] {
        lines.flatMap { line in
            let leading = line.prefix(while: { $0 == " " }).count
            return wrap(line, width: width, indent: leading + 2)
        }
    }

    /// A screen of at most `size.height` lines: `body`, an empty line, then `bottom` (what must
    /// stay in sight: the prompt or the keys). When they do not fit, the end of the body gives
    /// way to a line saying how many lines are not shown (`… 7 more lines`); when even the
    /// bottom does not fit, its end does.
    ///
    /// - Parameters:
    ///   - body: The lines at the top, which give way first.
    ///   - bottom: The lines that stay in sight.
    ///   - size: The terminal's size.
    /// - Returns: The screen's lines.
    public static func fit(body: [String], bottom: [String], size: TerminalSize) -> [String] {
        let height = size.height
        let all = body + [""] + bottom
        if all.count <= height { return all }
        if bottom.count + 2 <= height {
            let kept = height - bottom.count - 2
            let hidden = body.count - kept
            return Array(body.prefix(kept)) + [moreLine(hidden, width: size.width)] + [""] + bottom
        }
        // Not even the bottom fits: show what of it does.
        if height == 1 { return [moreLine(all.count, width: size.width)] }
        let hidden = all.count - (height - 1)
        return Array(bottom.prefix(height - 1)) + [moreLine(hidden, width: size.width)]
    }

    /// The line standing for `count` lines that did not fit, cut to `width`.
    static func moreLine(_ count: Int, width: Int) -> String {
        String("… \(count) more \(count == 1 ? "line" : "lines")".prefix(width))
    }
}

extension String {
    /// The string without spaces at its end.
    func trailingSpacesRemoved() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
