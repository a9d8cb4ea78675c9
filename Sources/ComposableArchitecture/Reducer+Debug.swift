/// How ``Reducer/debug(_:actionFormat:printer:)`` writes the actions it receives.
public enum DebugActionFormat: Sendable, Hashable {
    /// The whole action, payloads included, as ``Diff/render(_:maxDepth:)`` writes it:
    /// `AppAction.move(from: 1, to: 2)`.
    case prettyPrint
    /// Only the names of the cases, nested enums included; other payloads are written `…`:
    /// `AppAction.counter(CounterAction.increment)`, `AppAction.search(…)`. An action that is not
    /// an enum is written as its type's name. For actions whose payloads are large or private.
    case labelsOnly
}

/// Where ``Reducer/debug(_:actionFormat:environment:)`` prints, taken from a feature's
/// environment so that each environment (live, preview, test) can choose.
public struct DebugEnvironment {
    /// Called with each report, one multi-line string per action.
    public var printer: (String) -> Void

    /// A debug environment that prints with `printer` (to standard output by default).
    ///
    /// - Parameter printer: A closure that prints one report.
    public init(printer: @escaping (String) -> Void = { print($0) }) {
        self.printer = printer
    }
}

extension Reducer {
    /// A reducer that runs this one and prints each action it receives and how the action
    /// changed the state.
    ///
    /// For every action — sent by the view or fed back by an effect — it prints one report: a
    /// headline, the action, and a diff of the state before and after (``Diff/compare(_:_:context:maxDepth:)``:
    /// `- ` before a line of the old state, `+ ` before a line of the new one, long unchanged
    /// runs collapsed), or `(No state changes)`. The action and the state are indented two
    /// spaces, so they line up with the diff's markers.
    ///
    /// <!-- example context: counterFeature -->
    /// ```swift
    /// let store = Store(initialState: CounterState(), reducer: counterReducer.debug("Counter"), environment: ())
    /// store.send(.increment)
    /// // Counter: received action:
    /// //   CounterAction.increment
    /// //   CounterState(
    /// // -   count: 0,
    /// // +   count: 1,
    /// //   )
    /// store.send(.noop)
    /// // Counter: received action:
    /// //   CounterAction.noop
    /// //   (No state changes)
    /// ```
    ///
    /// Printing is synchronous, inside the reducer, and happens in every build configuration:
    /// rendering the state costs time proportional to its size on every action, so keep `debug()`
    /// out of release builds (`#if DEBUG`). To print somewhere else, pass a `printer`: a test
    /// collects the reports in an array, an app may hand them to its logger, and a
    /// `TextOutputStream` is one closure away (`printer: { print($0, to: &stream) }`).
    ///
    /// - Parameters:
    ///   - prefix: Put before the headline, followed by a colon, when not empty.
    ///   - actionFormat: How to write the action (``DebugActionFormat``).
    ///   - printer: Called with each report (one string per action, lines separated by `\n`).
    ///     Prints to standard output by default.
    /// - Returns: A reducer that runs this one and prints a report for each action.
    /// - Complexity: O(n) in the size of the state per action for rendering, plus the diff of
    ///   the lines that changed.
    public func debug(
        _ prefix: String = "",
        actionFormat: DebugActionFormat = .prettyPrint,
        printer: @escaping (String) -> Void = { print($0) }
    ) -> Reducer {
        debug(prefix, actionFormat: actionFormat, environment: { _ in DebugEnvironment(printer: printer) })
    }

    /// A reducer that runs this one and prints each action and its state changes, as
    /// ``debug(_:actionFormat:printer:)`` does, with a printer taken from the environment.
    ///
    /// ```swift
    /// let debugReducer = appReducer.debug(environment: { DebugEnvironment(printer: $0.log) })
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: Put before the headline, followed by a colon, when not empty.
    ///   - actionFormat: How to write the action (``DebugActionFormat``).
    ///   - toDebugEnvironment: A closure that takes the environment and returns the
    ///     ``DebugEnvironment`` whose printer to use.
    /// - Returns: A reducer that runs this one and prints a report for each action.
    public func debug(
        _ prefix: String = "",
        actionFormat: DebugActionFormat = .prettyPrint,
        environment toDebugEnvironment: @escaping (Environment) -> DebugEnvironment
    ) -> Reducer {
        Reducer { state, action, environment in
            let before = state
            let effect = self.run(&state, action, environment)
            let actionLines: [String] =
                switch actionFormat {
                case .prettyPrint: Diff.lines(of: action)
                case .labelsOnly: [caseLabels(of: action)]
                }
            var report = [prefix.isEmpty ? "received action:" : "\(prefix): received action:"]
            report += actionLines.map { "  " + $0 }
            report.append(Diff.compare(before, state) ?? "  (No state changes)")
            toDebugEnvironment(environment).printer(report.joined(separator: "\n"))
            return effect
        }
    }
}

/// `value`'s case names, nested, with other payloads written `…` (``DebugActionFormat/labelsOnly``).
func caseLabels(of value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    let typeName = String(describing: type(of: value))
    guard mirror.displayStyle == .enum else { return typeName }
    guard let child = mirror.children.first else { return "\(typeName).\(String(describing: value))" }
    let caseName = "\(typeName).\(child.label ?? "")"
    func label(_ payload: Any) -> String {
        Mirror(reflecting: payload).displayStyle == .enum ? caseLabels(of: payload) : "…"
    }
    let payload = Mirror(reflecting: child.value)
    guard payload.displayStyle == .tuple else { return "\(caseName)(\(label(child.value)))" }
    let parts = payload.children.map { part in
        guard let name = part.label, !name.hasPrefix(".") else { return label(part.value) }
        return "\(name): \(label(part.value))"
    }
    return "\(caseName)(\(parts.joined(separator: ", ")))"
}
