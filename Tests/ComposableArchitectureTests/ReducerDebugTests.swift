import ComposableArchitecture
import Testing

@MainActor
@Suite("Reducer.debug")
struct ReducerDebugTests {
    struct CounterState: Equatable { var count = 0 }
    enum CounterAction: Equatable { case increment, noop }

    let counterReducer = Reducer<CounterState, CounterAction, Void> { state, action, _ in
        switch action {
        case .increment: state.count += 1
        case .noop: break
        }
        return .none
    }

    final class Log { var reports: [String] = [] }

    // MARK: Output

    @Test func docExample() {
        let log = Log()
        let store = Store(initialState: CounterState(),
                          reducer: counterReducer.debug("Counter", printer: { log.reports.append($0) }),
                          environment: ())
        store.send(.increment)
        store.send(.noop)
        #expect(log.reports == [
            """
            Counter: received action:
              CounterAction.increment
              CounterState(
            -   count: 0,
            +   count: 1,
              )
            """,
            """
            Counter: received action:
              CounterAction.noop
              (No state changes)
            """,
        ])
    }

    @Test func withoutPrefixTheHeadlineHasNoColonBeforeIt() {
        let log = Log()
        var state = CounterState()
        _ = counterReducer.debug(printer: { log.reports.append($0) }).run(&state, .increment, ())
        #expect(log.reports == [
            """
            received action:
              CounterAction.increment
              CounterState(
            -   count: 0,
            +   count: 1,
              )
            """,
        ])
        #expect(state.count == 1)
    }

    struct User: Equatable { var id = 1; var name = "Blob" }
    enum AppAction: Equatable {
        case counter(CounterAction)
        case search(String)
        case move(from: Int, to: Int)
        case load(User)
        case reset
    }
    struct AppState: Equatable { var counter = CounterState(); var query = ""; var user: User? }

    let appReducer = Reducer<AppState, AppAction, Void> { state, action, _ in
        switch action {
        case .counter(.increment): state.counter.count += 1
        case .counter(.noop): break
        case .search(let query): state.query = query
        case .move: break
        case .load(let user): state.user = user
        case .reset: state = AppState()
        }
        return .none
    }

    @Test func prettyPrintWritesTheWholeActionIndented() {
        let log = Log()
        var state = AppState()
        let reducer = appReducer.debug(printer: { log.reports.append($0) })
        _ = reducer.run(&state, .load(User()), ())
        #expect(log.reports == [
            """
            received action:
              AppAction.load(
                User(
                  id: 1,
                  name: "Blob",
                ),
              )
              … (2 unchanged lines)
                  count: 0,
                ),
                query: "",
            -   user: nil,
            +   user: User(
            +     id: 1,
            +     name: "Blob",
            +   ),
              )
            """,
        ])
    }

    @Test func labelsOnlyWritesCaseNamesAndHidesOtherPayloads() {
        let log = Log()
        var state = AppState()
        let reducer = appReducer.debug(actionFormat: .labelsOnly, printer: { log.reports.append($0) })
        for action: AppAction in [.counter(.noop), .search(""), .move(from: 1, to: 2), .reset] {
            _ = reducer.run(&state, action, ())
        }
        #expect(log.reports.map { $0.split(separator: "\n")[1] } == [
            "  AppAction.counter(CounterAction.noop)",
            "  AppAction.search(…)",
            "  AppAction.move(from: …, to: …)",
            "  AppAction.reset",
        ])
    }

    @Test func labelsOnlyWritesTheTypeOfAnActionThatIsNotAnEnum() {
        let log = Log()
        var state = 0
        let reducer = Reducer<Int, String, Void> { _, _, _ in .none }.debug(actionFormat: .labelsOnly, printer: { log.reports.append($0) })
        _ = reducer.run(&state, "secret", ())
        #expect(log.reports == ["received action:\n  String\n  (No state changes)"])
    }

    @Test func largeStatesShowOnlyTheLinesAroundTheChange() {
        struct Big: Equatable { var items = Array(0..<10); var flag = false }
        let log = Log()
        var state = Big()
        let reducer = Reducer<Big, Void, Void> { state, _, _ in state.flag = true; return .none }
            .debug(printer: { log.reports.append($0) })
        _ = reducer.run(&state, (), ())
        #expect(log.reports == [
            """
            received action:
              ()
              … (10 unchanged lines)
                  8,
                  9,
                ],
            -   flag: false,
            +   flag: true,
              )
            """,
        ])
    }

    // MARK: Printer from the environment

    @Test func printerFromTheEnvironment() {
        struct Environment { var log: (String) -> Void }
        let log = Log()
        var state = CounterState()
        let reducer = Reducer<CounterState, CounterAction, Environment> { state, _, _ in
            state.count += 1
            return .none
        }.debug("env", environment: { DebugEnvironment(printer: $0.log) })
        _ = reducer.run(&state, .increment, Environment(log: { log.reports.append("via environment: \($0)") }))
        #expect(log.reports.count == 1)
        #expect(log.reports[0].hasPrefix("via environment: env: received action:\n  CounterAction.increment\n"))
    }

    // MARK: Effects

    @Test func effectsPassThroughAndTheirActionsArePrintedInOrder() {
        let log = Log()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "tap" ? Effect(value: "response") : .none
        }.debug(actionFormat: .labelsOnly, printer: { log.reports.append($0) })
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("tap")
        #expect(store.state == ["tap", "response"])
        #expect(log.reports == [
            """
            received action:
              String
            - []
            + [
            +   "tap",
            + ]
            """,
            """
            received action:
              String
              [
                "tap",
            +   "response",
              ]
            """,
        ])
    }
}
