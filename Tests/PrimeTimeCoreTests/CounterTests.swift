import ComposableArchitectureTesting
import PrimeTimeCore
import Testing

@MainActor
@Suite("Counter")
struct CounterTests {
    @Test func incrementAndDecrement() {
        let store = TestStore(initialState: CounterState(), reducer: counterReducer, environment: ())
        store.send(.incrementButtonTapped) { $0.count = 1 }
        store.send(.incrementButtonTapped) { $0.count = 2 }
        store.send(.decrementButtonTapped) { $0.count = 1 }
        store.send(.decrementButtonTapped) { $0.count = 0 }
        store.send(.decrementButtonTapped) { $0.count = -1 }
    }

    @Test func stopsAtIntsLimitsInsteadOfOverflowing() {
        let top = TestStore(initialState: CounterState(count: .max), reducer: counterReducer, environment: ())
        top.send(.incrementButtonTapped)
        top.send(.decrementButtonTapped) { $0.count = .max - 1 }

        let bottom = TestStore(initialState: CounterState(count: .min), reducer: counterReducer, environment: ())
        bottom.send(.decrementButtonTapped)
        bottom.send(.incrementButtonTapped) { $0.count = .min + 1 }
    }
}
