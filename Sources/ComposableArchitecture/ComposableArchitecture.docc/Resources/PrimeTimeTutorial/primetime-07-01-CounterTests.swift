import ComposableArchitectureTesting
import StreamsTesting
import Testing

@MainActor
@Suite("Counter")
struct CounterTests {
    @Test func incrementAndDecrement() {
        let store = TestStore(
            initialState: CounterState(),
            reducer: counterReducer,
            environment: CounterEnvironment(nthPrime: { _ in .unimplemented("nthPrime") }, mainQueue: .unimplemented)
        )
        store.send(.incrementButtonTapped) { $0.count = 1 }
        store.send(.incrementButtonTapped) { $0.count = 2 }
        store.send(.decrementButtonTapped) { $0.count = 1 }
    }
}
