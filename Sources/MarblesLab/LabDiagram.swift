import StreamsTesting

/// Reading a diagram the learner typed: the docs' grammar (``Marbles``), with errors that point
/// at the column, and `#` accepted for a failure (as RxJS writes it) next to the docs' `^`.
enum LabDiagram {
    /// The diagram's ticks, each a list of events.
    static func parse(_ diagram: String) throws(LabError) -> [[Marbles.Event]] {
        let characters = Array(diagram)
        var ticks: [[Marbles.Event]] = []
        var group: [Marbles.Event]?
        var groupColumn = 0
        var ended: Int?  // the column of `|` or `^`: nothing may follow but `-`
        var index = 0
        func fail(_ message: String, at column: Int) -> LabError {
            LabError(message, in: diagram, at: column)
        }
        func add(_ event: Marbles.Event, at column: Int) throws(LabError) {
            if let ended {
                throw fail(
                    "'\(event)' after the end of the stream (column \(ended)): after '|' or '^' only '-' may follow",
                    at: column)
            }
            if case .finished = event { ended = column }
            if case .failure = event { ended = column }
            if group != nil { group!.append(event) } else { ticks.append([event]) }
        }
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            index += 1
            switch character {
            case " ": continue
            case "-":
                if group != nil { throw fail("'-' inside [...]: a group holds the events of one tick", at: column) }
                ticks.append([])
            case "|": try add(.finished, at: column)
            case "^", "#": try add(.failure, at: column)
            case ";": try add(.cancelled, at: column)
            case "[":
                if group != nil { throw fail("'[' inside [...]: groups do not nest", at: column) }
                group = []
                groupColumn = column
            case "]":
                guard let events = group else { throw fail("']' without '['", at: column) }
                if events.isEmpty {
                    throw fail("an empty group '[]': write '-' for a tick with no event", at: groupColumn)
                }
                ticks.append(events)
                group = nil
            case "'":
                guard let end = characters[index...].firstIndex(of: "'") else {
                    throw fail("unterminated 'text': a longer value ends with '", at: column)
                }
                guard end > index else { throw fail("an empty value ''", at: column) }
                try add(.value(String(characters[index..<end])), at: column)
                index = end + 1
            default:
                guard character.isLetter || character.isNumber else {
                    throw fail(
                        "unexpected '\(character)' in the diagram (a value is a letter or a digit; 'text' is a longer one)",
                        at: column)
                }
                try add(.value(String(character)), at: column)
            }
        }
        if group != nil { throw fail("unterminated '[': close the group with ']'", at: groupColumn) }
        return ticks
    }
}
