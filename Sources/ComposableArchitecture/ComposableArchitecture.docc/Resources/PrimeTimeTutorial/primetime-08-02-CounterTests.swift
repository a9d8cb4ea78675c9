import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

@MainActor
@Suite("Counter")
struct CounterTests {
    /// The background queue the nth prime is computed on, in virtual time.
    let computation = DispatchQueue.test
    /// The main queue answers are delivered on, in virtual time.
    let mainQueue = DispatchQueue.test

    /// A counter at `count` whose nth prime takes one second on `computation`, and whose answers
    /// arrive on `mainQueue`, as in the app; here the test moves the time on.
    func makeStore(count: Int) -> TestStore<CounterState, CounterAction, CounterEnvironment> {
        let computation = self.computation
        return TestStore(
            initialState: CounterState(count: count),
            reducer: counterReducer,
            environment: CounterEnvironment(
                nthPrime: { n in
                    Just(n).delay(for: .seconds(1), scheduler: computation).map(Primes.nth).eraseToEffect()
                },
                mainQueue: mainQueue.eraseToAnyScheduler()
            )
        )
    }

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

    @Test func askForTheNthPrime() {
        let store = makeStore(count: 6)
        store.send(.nthPrimeButtonTapped) { $0.isNthPrimeRequestInFlight = true }
        computation.advance(by: .seconds(1))
        mainQueue.advance()
        store.receive(.nthPrimeResponse(n: 6, prime: 13)) {
            $0.isNthPrimeRequestInFlight = false
            $0.nthPrimeAlert = NthPrimeAlert(n: 6, prime: 13)
        }
        #expect(store.state.nthPrimeAlert?.message == "Prime number 6 is 13.")
        store.send(.alertDismissButtonTapped) { $0.nthPrimeAlert = nil }
    }

    @Test func theAnswerComesAfterTheComputationAndOnTheMainQueue() {
        let store = makeStore(count: 10)
        store.send(.nthPrimeButtonTapped) { $0.isNthPrimeRequestInFlight = true }
        computation.advance(by: .milliseconds(999))
        mainQueue.advance()
        #expect(store.runningEffectCount == 1)    // still computing
        computation.advance(by: .milliseconds(1))
        #expect(mainQueue.pendingCount == 1)       // computed, waiting for the main queue
        mainQueue.advance()
        store.receive(.nthPrimeResponse(n: 10, prime: 29)) {
            $0.isNthPrimeRequestInFlight = false
            $0.nthPrimeAlert = NthPrimeAlert(n: 10, prime: 29)
        }
    }
}
