import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
import PrimeTimeCore
import StreamsTesting

// The contexts of the ```swift examples of PrimeTimeCore that need names they do not declare.
// An example annotated `<!-- example context: NAME -->` is compiled in a copy of the function
// after the line `// <!-- example context: NAME -->`, in place of its line `// example` (see
// Scripts/extract-examples). Each copy is compiled, never called or run.

// <!-- example context: session -->
/// The program's end, as `main.swift` writes it: `session`, the terminal session it runs, and
/// `status`, the exit status its lines left.
@MainActor func terminalSession(session: TerminalSession, status: Int32) async {
    // example
}

// <!-- example context: appStore -->
/// README's trip through PrimeTime: `store`, the app's store, as the terminal front end holds it.
@MainActor func appStoreContext(store: Store<AppState, AppAction>) {
    // example
}

// <!-- example context: nthPrimeCases -->
/// `case`s of the nth-prime reducer's `switch action` (README's trip through PrimeTime), with
/// `state`, `action` and `environment` as `nthPrimeReducer` has them.
@MainActor func nthPrimeCases(
    state: inout NthPrimeState, action: NthPrimeAction, environment: NthPrimeEnvironment
) -> Effect<NthPrimeAction> {
    switch action {
    // example
    default: return .none
    }
}

// <!-- example context: nthPrimeTest -->
/// The steps of an nth-prime test (README): `store`, a test store of the feature at count 6, and
/// `scheduler`, the test scheduler its environment delivers on.
@MainActor func nthPrimeTest(
    store: TestStore<NthPrimeState, NthPrimeAction, NthPrimeEnvironment>,
    scheduler: TestSchedulerOf<DispatchQueue>
) {
    // example
}
