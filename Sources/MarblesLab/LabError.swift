/// Something the lab cannot read or run, with the text it was reading and the column at fault.
///
/// Its description points at the column:
///
/// ```console
/// error: unexpected '?' in the diagram (a value is a letter or a digit; 'text' is a longer one)
///   -1-?-|
///      ^ column 4
/// ```
struct LabError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    let message: String
    /// The text being read (a diagram, an operator), or `nil` when no one place is at fault.
    let source: String?
    /// The 1-based column of `source` at fault.
    let column: Int?

    init(_ message: String, in source: String? = nil, at column: Int? = nil) {
        self.message = message
        self.source = source
        self.column = column
    }

    var description: String {
        guard let source, let column else { return "error: \(message)" }
        let marker = String(repeating: " ", count: max(column - 1, 0)) + "^ column \(column)"
        return "error: \(message)\n  \(source)\n  \(marker)"
    }
}
