import Streams
import StreamsTesting

/// Writing a result: aligned rows in the docs' grammar, values longer than one character
/// replaced by a letter of a legend, and a key to the demand rows.
enum LabRender {
    /// A request as an event of a demand row: `1` for `.max(1)`, `∞` for `.unlimited`.
    static func demandEvent(_ demand: Subscribers.Demand) -> Marbles.Event {
        .value(demand == .unlimited ? "∞" : String(demand.max ?? 0))
    }

    /// The legend: a key for each value of the input and output rows that does not fit one
    /// character, letters no row uses as a value themselves.
    static func legend(_ result: LabResult) -> [(key: String, value: String)] {
        // Row names are not keys either: `b` in a row named b would read as that row.
        var used = Set(result.rows.filter { $0.kind == .input }.map { $0.name ?? $0.label })
        var long: [String] = []
        for row in result.rows where row.kind == .input || row.kind == .output || row.kind == .dropped {
            for tick in row.ticks {
                for case .value(let text) in tick {
                    if fits(text) { used.insert(text) } else if !long.contains(text) { long.append(text) }
                }
            }
        }
        let pool = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init).filter { !used.contains($0) }
        return zip(pool, long).map { (key: $0, value: $1) }
    }

    static func fits(_ text: String) -> Bool {
        text.count == 1 && (text.first!.isLetter || text.first!.isNumber)
    }

    /// The rows as text: labels, aligned ticks, the operator line under the inputs, the legend.
    ///
    /// With `forPicture`, ticks are not padded (a group stays one token) and demand values are
    /// written so that ``MarbleBlock`` reads them (`'∞'`).
    static func text(_ result: LabResult, forPicture: Bool = false) -> String {
        let legend = legend(result)
        let keys = Dictionary(legend.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        func token(_ event: Marbles.Event, in row: LabResultRow) -> String {
            guard case .value(let text) = event else { return event.description }
            switch row.kind {
            case .subscriberDemand, .rowDemand, .rowSubscriptions:
                return forPicture && !fits(text) ? "'\(text)'" : text
            default:
                return keys[text] ?? (fits(text) ? text : "'\(text)'")
            }
        }
        func tickText(_ events: [Marbles.Event], in row: LabResultRow) -> String {
            switch events.count {
            case 0: "-"
            case 1: token(events[0], in: row)
            default: "[" + events.map { token($0, in: row) }.joined() + "]"
            }
        }
        let length = result.rows.map(\.ticks.count).max() ?? 0
        // A late subscriber's row is blank before it subscribes (in a picture, where a row has no
        // blanks, `-`).
        var cells: [[String]] = result.rows.map { row in
            (0..<length).map {
                if $0 < row.start && row.ticks.indices.contains($0) && row.ticks[$0].isEmpty {
                    return forPicture ? "-" : " "
                }
                return $0 < row.ticks.count ? tickText(row.ticks[$0], in: row) : (row.kind == .input ? " " : "-")
            }
        }
        // An input row shorter than the run is blank after its end. For the terminal every
        // column is as wide as its widest cell (a group `[ab]` widens its tick in every row).
        if !forPicture {
            for column in 0..<length {
                let width = cells.map { $0[column].count }.max() ?? 1
                for index in cells.indices {
                    cells[index][column] = cells[index][column].padding(width)
                }
            }
        }
        let labelWidth = (result.rows.map(\.label.count).max() ?? 0) + 2
        var lines: [String] = []
        var comments: [Int: String] = [:]
        if !legend.isEmpty, let output = result.rows.firstIndex(where: { $0.kind == .output }) {
            comments[output] = "(" + legend.map { "\($0.key) = \($0.value)" }.joined(separator: ", ") + ")"
        }
        for (index, row) in result.rows.enumerated() where !forPicture {
            guard let comment = row.comment else { continue }
            comments[index] = (comments[index].map { $0 + " " } ?? "") + "(\(comment))"
        }
        for (index, row) in result.rows.enumerated() {
            if row.kind == .output, !result.rows[..<index].contains(where: { $0.kind == .output }) {
                lines.append(String(repeating: " ", count: labelWidth) + result.operatorLine)
            }
            var line = (row.label + ":").padding(labelWidth) + cells[index].joined()
            if forPicture { line = (row.label + ":").padding(labelWidth) + cells[index].joined().replacingSpaces() }
            if let comment = comments[index] { line += "   " + comment }
            lines.append(line.trimmingTrailingSpaces())
        }
        return lines.joined(separator: "\n")
    }

    /// The key under the rows: what the demand rows mean, the notes of the run.
    static func footer(_ result: LabResult) -> String {
        var lines: [String] = []
        if result.showsDemand {
            lines.append(
                """
                demand: "you asked" is what the subscriber at the end asked for; "asked of ROW" is what
                the operator asked that row for. 1 = .max(1), ∞ = .unlimited, ; = cancel.
                """)
        }
        if result.rows.contains(where: { $0.kind == .rowSubscriptions }) {
            lines.append(
                """
                subscribed: "subscribed to ROW" counts the subscriptions to that row (2 = the second); a
                cold row plays its diagram again for each, from the tick of that subscription.
                """)
        }
        if result.rows.filter({ $0.kind == .output }).count > 1 {
            lines.append(
                """
                subscribers: each subscribes at its tick, before that tick's events; its row is blank
                before. "missed": what the others got before it subscribed, and it never did.
                """)
        }
        if result.rows.contains(where: { $0.kind == .dropped }) {
            lines.append("dropped: values a row sent when no one had asked for one (rows are hot, like a subject).")
        }
        lines += result.notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func trimmingTrailingSpaces() -> String {
        String(reversed().drop(while: { $0 == " " }).reversed())
    }

    /// A row for ``MarbleBlock``: no spaces inside the diagram (an input that ended early is
    /// simply shorter).
    func replacingSpaces() -> String {
        filter { $0 != " " }
    }
}
