import ComposableArchitecture
import ComposableArchitectureTesting
import Observation
import Synchronization
import Testing

// The README's walk through the architecture, run. Its declarations (`CounterState`,
// `CounterAction`, `CounterEnvironment`, `counterReducer`) are README's first example itself,
// compiled as written into DocExamples.generated.swift (Scripts/extract-examples).

@MainActor
@Suite("README examples")
struct ReadmeExampleTests {
    @Test func oneActionsTrip() {
        let store = Store(initialState: CounterState(), reducer: counterReducer, environment: .live)
        store.send(.increment)
        var seen: [Int] = []
        let c = store.publisher(for: \.count).sink { seen.append($0) }
        store.send(.increment)
        #expect(seen == [1, 2])
        #expect(store.state.fact == "2 is a number")
        _ = c
    }

    /// "Observing a store": one notification for a send whose effect fed one action back.
    @Test func observingAStore() {
        let store = Store(initialState: CounterState(), reducer: counterReducer, environment: .live)
        let told = Atomic<Int>(0)
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            told.add(1, ordering: .relaxed)
        }
        store.send(.increment)
        #expect(told.load(ordering: .relaxed) == 1)
        #expect(store.state == CounterState(count: 1, fact: "1 is a number"))
    }

    @Test func increment() async {
        let store = TestStore(initialState: CounterState(), reducer: counterReducer,
                              environment: CounterEnvironment(fact: { Effect(value: "\($0) is odd") }))
        store.send(.increment) { $0.count = 1 }
        await store.receive(.factResponse("1 is odd")) { $0.fact = "1 is odd" }
    }
}
