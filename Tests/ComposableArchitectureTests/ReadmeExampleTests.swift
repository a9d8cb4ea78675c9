import ComposableArchitecture
import ComposableArchitectureTesting
import Testing

// The README's walk through the architecture, compiled and run as written.

struct CounterState: Equatable { var count = 0; var fact: String? }
enum CounterAction: Equatable { case increment, factResponse(String) }
struct CounterEnvironment { var fact: (Int) -> Effect<String> }

extension CounterEnvironment {
    static var live: CounterEnvironment { CounterEnvironment(fact: { n in Effect(value: "\(n) is a number") }) }
}

@MainActor let counterReducer = Reducer<CounterState, CounterAction, CounterEnvironment> { state, action, environment in
    switch action {
    case .increment:
        state.count += 1
        return environment.fact(state.count)
            .map(CounterAction.factResponse)
    case let .factResponse(fact):
        state.fact = fact
        return .none
    }
}

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

    @Test func increment() async {
        let store = TestStore(initialState: CounterState(), reducer: counterReducer,
                              environment: CounterEnvironment(fact: { Effect(value: "\($0) is odd") }))
        store.send(.increment) { $0.count = 1 }
        await store.receive(.factResponse("1 is odd")) { $0.fact = "1 is odd" }
    }
}
