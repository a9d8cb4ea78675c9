import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
import Testing

// The contexts of the ```swift examples of ComposableArchitecture and ComposableArchitectureTesting
// that need names they do not declare. An example annotated `<!-- example context: NAME -->` is
// compiled in a copy of the declaration after the line `// <!-- example context: NAME -->`, in
// place of its line `// example` (see Scripts/extract-examples). Each copy is compiled, never
// called or run.

// <!-- example context: app -->
/// An app with one feature, a counter, as the landing page's example assumes: `AppState`,
/// `AppAction`, `AppEnvironment` (with `.live`) and `appReducer`.
@MainActor func appContext() {
    struct CounterState: Equatable { var count = 0 }
    enum CounterAction: Equatable { case increment, decrement }
    struct AppState: Equatable { var counter = CounterState() }
    enum AppAction: Equatable { case counter(CounterAction) }
    struct AppEnvironment { static var live: AppEnvironment { AppEnvironment() } }
    let appReducer = Reducer<AppState, AppAction, AppEnvironment> { state, action, _ in
        switch action {
        case .counter(.increment):
            state.counter.count += 1
            return .none
        case .counter(.decrement):
            state.counter.count -= 1
            return .none
        }
    }
    _ = appReducer  // read here too: the template itself has no example
    // example
}

// <!-- example context: counterSuite -->
/// An example that is a `@Test` function of a counter's tests: inside a suite, which is disabled
/// (the example is compiled, not run), with the counter feature such a suite tests:
/// `CounterState`, `CounterAction` and `counterReducer` (whose environment is `Void`).
@MainActor @Suite(.disabled("a doc example: compiled, not run"))
struct CounterSuite {
    struct CounterState: Equatable { var count = 0 }
    enum CounterAction: Equatable { case increment, decrement }
    let counterReducer = Reducer<CounterState, CounterAction, Void> { state, action, _ in
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .decrement:
            state.count -= 1
            return .none
        }
    }

    // example
}
