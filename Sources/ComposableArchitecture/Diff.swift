import Foundation

/// Renders any value as indented text, and compares two values line by line: what `TestStore`
/// shows when a state does not match, and what ``Reducer/debug(_:actionFormat:printer:)`` prints.
///
/// ``render(_:maxDepth:)`` walks a value with `Mirror` and writes one line per stored property,
/// element or entry, indented two spaces per level:
///
/// ```swift
/// struct AppState { var count = 1; var favorites: [Int] = [2, 3]; var name: String? = "Blob" }
/// print(Diff.render(AppState()))
/// // AppState(
/// //   count: 1,
/// //   favorites: [
/// //     2,
/// //     3,
/// //   ],
/// //   name: "Blob",
/// // )
/// ```
///
/// ``compare(_:_:context:maxDepth:)`` renders two values and lists the lines that differ, with
/// `- ` before a line only the first (old, expected) value has, `+ ` before a line only the
/// second (new, actual) value has, and two spaces before an unchanged line kept for context.
/// Long runs of unchanged lines are collapsed into one `… (n unchanged lines)` line.
///
/// <!-- example context: diff -->
/// ```swift
/// var new = AppState()
/// new.count = 2
/// print(Diff.compare(AppState(), new)!)
/// //   AppState(
/// // -   count: 1,
/// // +   count: 2,
/// //     favorites: [
/// //       2,
/// //       3,
/// //     … (3 unchanged lines)
/// ```
///
/// How values are written:
/// - Structs and classes: `Type(` then `label: value,` per stored property, then `)`; `Type()`
///   when there are none. A class's inherited properties come first.
/// - Enums: `Type.case`; with a payload, `Type.case(payload)` on one line when every part of
///   the payload fits on one line (`AppAction.move(from: 1, to: 2)`), else one part per line.
/// - Arrays and other collections: `[` then one element per line, then `]`; `[]` when empty.
/// - Dictionaries: `key: value,` per entry, sorted by the key's rendering; `[:]` when empty.
/// - Sets: `Set([` then the elements sorted by their rendering, then `])`.
/// - Tuples: `(` then one element per line (with its label, if any), then `)`.
/// - Optionals: `nil`, or the wrapped value as it is (no `Optional(...)`).
/// - Strings, substrings and characters: quoted and escaped (`"a\"b\n"`).
/// - `Date`, `URL` and `UUID`: `Date(1970-01-01 00:00:00 +0000)`, `URL(https://example.com)`,
///   `UUID(…)`; `Decimal`: its description; `Data`: `Data(n bytes)`; `AnyHashable`: the value
///   it holds.
/// - Anything else without children (numbers, `Bool`, closures, metatypes): its description.
///
/// Every element of a multi-line group ends with a comma (as Swift allows), so appending one
/// changes one line. A class instance met again inside itself is written `Type(<cycle>)`, and
/// nesting deeper than `maxDepth` groups is cut off as `Type(…)` or `[…]`.
public enum Diff {
    /// Renders `value` as indented lines, joined by newlines (see ``Diff``).
    ///
    /// - Parameters:
    ///   - value: Any value.
    ///   - maxDepth: How many groups deep to go; deeper groups are written `Type(…)`.
    /// - Returns: The rendering, one line per property or element.
    /// - Complexity: O(n log n) in the size of the value (sets and dictionaries are sorted).
    public static func render<Value>(_ value: Value, maxDepth: Int = 24) -> String {
        lines(of: value, maxDepth: maxDepth).joined(separator: "\n")
    }

    /// The lines that differ between the renderings of `old` and `new`, with context; `nil`
    /// when they render the same.
    ///
    /// ```swift
    /// print(Diff.compare([1, 2, 3], [1, 3, 4])!)
    /// //   [
    /// //     1,
    /// // -   2,
    /// //     3,
    /// // +   4,
    /// //   ]
    /// ```
    ///
    /// - Parameters:
    ///   - old: The expected (or earlier) value; its lines are marked `- `.
    ///   - new: The actual (or later) value; its lines are marked `+ `.
    ///   - context: How many unchanged lines to keep on each side of a change.
    ///   - maxDepth: As in ``render(_:maxDepth:)``.
    /// - Returns: The differing lines, marked `- ` (old) and `+ ` (new), with unchanged lines
    ///   around them; `nil` if the renderings are the same.
    /// - Complexity: O(n × m) in the numbers of lines that differ after the common first and
    ///   last lines are set aside (a longest common subsequence).
    public static func compare<Value>(_ old: Value, _ new: Value, context: Int = 3, maxDepth: Int = 24) -> String? {
        compareLines(lines(of: old, maxDepth: maxDepth), lines(of: new, maxDepth: maxDepth), context: context)
    }

    /// A line diff of two lists of lines, as ``compare(_:_:context:maxDepth:)`` prints it; `nil`
    /// when they are equal.
    ///
    /// The diff keeps the longest common subsequence of lines unchanged; between two unchanged
    /// lines, removed lines come before added ones. A run of more than `2 × context + 1`
    /// unchanged lines between changes (more than `context + 1` before the first change or after
    /// the last one) is shortened to `context` lines next to each change and one
    /// `… (n unchanged lines)` line, indented like the first line it stands for.
    ///
    /// ```swift
    /// print(Diff.compareLines(["a", "b"], ["a", "c"])!)
    /// //   a
    /// // - b
    /// // + c
    /// ```
    ///
    /// - Parameters:
    ///   - old: The lines before.
    ///   - new: The lines after.
    ///   - context: How many unchanged lines to keep next to each change; 3 by default.
    /// - Returns: The diff, one line each, `- ` before a removed line and `+ ` before an added one;
    ///   `nil` if the lists are equal.
    /// - Complexity: O(n × m) time and space in the lines left after the common first and last
    ///   lines are set aside; past four million pairs it stops looking for common lines and
    ///   shows the middle as removed, then added.
    public static func compareLines(_ old: [String], _ new: [String], context: Int = 3) -> String? {
        guard old != new else { return nil }
        let edits = editScript(old, new)
        return compact(edits, context: max(0, context)).joined(separator: "\n")
    }

    // MARK: - Package helpers

    /// `value` rendered on a single line, every group written inline:
    /// `AppAction.load(User(id: 1, name: "Blob"))`. For headlines of messages.
    package static func inline<Value>(_ value: Value, maxDepth: Int = 24) -> String {
        var renderer = Renderer(maxDepth: maxDepth)
        return layout(renderer.node(for: value, depth: 0), inline: true)[0]
    }

    /// The rendering of `value`, as lines.
    package static func lines<Value>(of value: Value, maxDepth: Int = 24) -> [String] {
        var renderer = Renderer(maxDepth: maxDepth)
        return layout(renderer.node(for: value, depth: 0), inline: false)
    }
}

// MARK: - Rendering

extension Diff {
    /// A value, ready to be laid out as lines.
    indirect enum Node {
        /// Text written as it is.
        case leaf(String)
        /// A group: `open`, the children, `close`; `empty` when there are no children. An
        /// `enumPayload` group goes on one line when each of its children fits on one line.
        case group(
            open: String, close: String, empty: String, children: [(label: String?, node: Node)],
            enumPayload: Bool)
    }

    /// Turns values into nodes, tracking the class instances on the current path.
    struct Renderer {
        let maxDepth: Int
        var visiting: Set<ObjectIdentifier> = []

        init(maxDepth: Int) {
            self.maxDepth = max(0, maxDepth)
        }

        mutating func node(for value: Any, depth: Int) -> Node {
            if let leaf = Self.leaf(for: value) { return .leaf(leaf) }
            if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
                return node(for: hashable.base, depth: depth)
            }

            let mirror = Mirror(reflecting: value)
            let typeName = String(describing: type(of: value))
            switch mirror.displayStyle {
            case .optional:
                guard let wrapped = mirror.children.first?.value else { return .leaf("nil") }
                return node(for: wrapped, depth: depth)

            case .enum:
                let caseName = mirror.children.first?.label ?? String(describing: value)
                guard let payload = mirror.children.first?.value else { return .leaf("\(typeName).\(caseName)") }
                let payloadMirror = Mirror(reflecting: payload)
                let parts: [(label: String?, value: Any)] =
                    payloadMirror.displayStyle == .tuple
                    ? payloadMirror.children.map { (Self.tupleLabel($0.label), $0.value) }
                    : [(nil, payload)]
                return group(
                    open: "\(typeName).\(caseName)(", close: ")", empty: "\(typeName).\(caseName)()",
                    parts, depth: depth, enumPayload: true)

            case .collection:
                return group(
                    open: "[", close: "]", empty: "[]",
                    mirror.children.map { (nil, $0.value) }, depth: depth)

            case .dictionary:
                guard depth < maxDepth else { return .leaf(mirror.children.isEmpty ? "[:]" : "[…]") }
                var entries: [(key: String, node: Node)] = []
                for child in mirror.children {
                    let pair = Array(Mirror(reflecting: child.value).children)
                    guard pair.count == 2 else { continue }
                    let key = Diff.layout(node(for: pair[0].value, depth: depth + 1), inline: true)[0]
                    entries.append((key, node(for: pair[1].value, depth: depth + 1)))
                }
                entries.sort { $0.key < $1.key }
                return .group(
                    open: "[", close: "]", empty: "[:]",
                    children: entries.map { (label: $0.key, node: $0.node) }, enumPayload: false)

            case .set:
                guard depth < maxDepth else { return .leaf(mirror.children.isEmpty ? "Set([])" : "Set([…])") }
                let elements = mirror.children.map { node(for: $0.value, depth: depth + 1) }
                    .map { (text: Diff.layout($0, inline: false).joined(separator: "\n"), node: $0) }
                    .sorted { $0.text < $1.text }
                return .group(
                    open: "Set([", close: "])", empty: "Set([])",
                    children: elements.map { (label: nil, node: $0.node) }, enumPayload: false)

            case .tuple:
                return group(
                    open: "(", close: ")", empty: "()",
                    mirror.children.map { (Self.tupleLabel($0.label), $0.value) }, depth: depth)

            case .class:
                let object = ObjectIdentifier(value as AnyObject)
                guard !visiting.contains(object) else { return .leaf("\(typeName)(<cycle>)") }
                visiting.insert(object)
                defer { visiting.remove(object) }
                return group(
                    open: "\(typeName)(", close: ")", empty: "\(typeName)()",
                    Self.classChildren(mirror), depth: depth)

            default:
                // Structs, and types with a custom mirror that has children.
                if mirror.displayStyle == nil && mirror.children.isEmpty {
                    return .leaf(String(describing: value))
                }
                return group(
                    open: "\(typeName)(", close: ")", empty: "\(typeName)()",
                    mirror.children.map { ($0.label, $0.value) }, depth: depth)
            }
        }

        private mutating func group(
            open: String, close: String, empty: String, _ children: [(label: String?, value: Any)],
            depth: Int, enumPayload: Bool = false
        ) -> Node {
            guard !children.isEmpty else { return .leaf(empty) }
            guard depth < maxDepth else { return .leaf("\(open)…\(close)") }
            return .group(
                open: open, close: close, empty: empty,
                children: children.map { (label: $0.label, node: node(for: $0.value, depth: depth + 1)) },
                enumPayload: enumPayload)
        }

        /// Values written as one piece of text.
        private static func leaf(for value: Any) -> String? {
            switch value {
            case let string as String: string.debugDescription
            case let substring as Substring: substring.debugDescription
            case let character as Character: character.debugDescription
            case let date as Date: "Date(\(date.description))"
            case let url as URL: "URL(\(url.absoluteString))"
            case let uuid as UUID: "UUID(\(uuid.uuidString))"
            case let decimal as Decimal: decimal.description
            case let data as Data: "Data(\(data.count) bytes)"
            default: nil
            }
        }

        /// A tuple element's label, `nil` for the unnamed `.0`, `.1`, ...
        private static func tupleLabel(_ label: String?) -> String? {
            guard let label, !label.hasPrefix(".") else { return nil }
            return label
        }

        /// A class's stored properties, inherited ones first.
        private static func classChildren(_ mirror: Mirror) -> [(label: String?, value: Any)] {
            var chain: [Mirror] = [mirror]
            while let superclass = chain.last?.superclassMirror { chain.append(superclass) }
            return chain.reversed().flatMap { $0.children.map { (label: $0.label, value: $0.value) } }
        }
    }

    /// Lays `node` out as lines; with `inline`, as one line.
    static func layout(_ node: Node, inline: Bool) -> [String] {
        switch node {
        case .leaf(let text):
            return inline ? [text.replacingOccurrences(of: "\n", with: "\\n")] : text.components(separatedBy: "\n")
        case let .group(open, close, empty, children, enumPayload):
            guard !children.isEmpty else { return [empty] }
            let laidOut = children.map { (label: $0.label, lines: layout($0.node, inline: inline)) }
            if inline || (enumPayload && laidOut.allSatisfy { $0.lines.count == 1 }) {
                let parts = laidOut.map { child in child.label.map { "\($0): " + child.lines[0] } ?? child.lines[0] }
                return [open + parts.joined(separator: ", ") + close]
            }
            var lines = [open]
            for child in laidOut {
                var childLines = child.lines
                if let label = child.label { childLines[0] = "\(label): " + childLines[0] }
                childLines[childLines.count - 1] += ","
                lines += childLines.map { "  " + $0 }
            }
            lines.append(close)
            return lines
        }
    }
}

// MARK: - Line diff

extension Diff {
    enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The edits that turn `old` into `new`, keeping a longest common subsequence.
    static func editScript(_ old: [String], _ new: [String]) -> [Edit] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        { suffix += 1 }
        let a = Array(old[prefix..<old.count - suffix])
        let b = Array(new[prefix..<new.count - suffix])

        var middle: [Edit] = []
        if a.count * b.count > 4_000_000 {
            middle = a.map(Edit.removed) + b.map(Edit.added)
        } else {
            // lengths[i][j]: the length of a longest common subsequence of a[i...] and b[j...].
            let width = b.count + 1
            var lengths = [Int32](repeating: 0, count: (a.count + 1) * width)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    lengths[i * width + j] =
                        a[i] == b[j]
                        ? lengths[(i + 1) * width + j + 1] + 1
                        : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
                }
            }
            var i = 0
            var j = 0
            var removed: [Edit] = []
            var added: [Edit] = []
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, a[i] == b[j] {
                    middle += removed + added
                    removed = []
                    added = []
                    middle.append(.same(a[i]))
                    i += 1
                    j += 1
                } else if j == b.count || (i < a.count && lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
                    removed.append(.removed(a[i]))
                    i += 1
                } else {
                    added.append(.added(b[j]))
                    j += 1
                }
            }
            middle += removed + added
        }
        return old[..<prefix].map(Edit.same) + middle + old[(old.count - suffix)...].map(Edit.same)
    }

    /// Writes `edits` with their markers, collapsing long runs of unchanged lines.
    static func compact(_ edits: [Edit], context: Int) -> [String] {
        var output: [String] = []
        var index = 0
        while index < edits.count {
            guard case .same = edits[index] else {
                switch edits[index] {
                case .removed(let line): output.append("- " + line)
                case .added(let line): output.append("+ " + line)
                case .same: break
                }
                index += 1
                continue
            }
            var end = index
            var run: [String] = []
            while end < edits.count, case .same(let line) = edits[end] {
                run.append(line)
                end += 1
            }
            let keepBefore = index == 0 ? 0 : context  // lines kept after the previous change
            let keepAfter = end == edits.count ? 0 : context  // lines kept before the next change
            if run.count > keepBefore + keepAfter + 1 {
                let skipped = run.count - keepBefore - keepAfter
                let firstSkipped = run[keepBefore]
                let indentation = firstSkipped.prefix { $0 == " " }
                output += run[..<keepBefore].map { "  " + $0 }
                output.append("  \(indentation)… (\(skipped) unchanged lines)")
                output += run[(run.count - keepAfter)...].map { "  " + $0 }
            } else {
                output += run.map { "  " + $0 }
            }
            index = end
        }
        return output
    }
}
