import ComposableArchitectureTesting
import Dispatch
import PrimeTimeCore
import StreamsTesting
import Testing

@MainActor
@Suite("Nth prime")
struct NthPrimeTests {
    /// A store whose calculator is the live one (`computing`), on the test scheduler, with 400 ms
    /// of latency, delivering on the same scheduler.
    func makeStore(count: Int, scheduler: TestSchedulerOf<DispatchQueue>)
        -> TestStore<NthPrimeState, NthPrimeAction, NthPrimeEnvironment>
    {
        let queue = scheduler.eraseToAnyScheduler()
        return TestStore(
            initialState: NthPrimeState(count: count), reducer: nthPrimeReducer,
            environment: NthPrimeEnvironment(
                nthPrime: NthPrimeEnvironment.computing(on: queue, latency: .milliseconds(400)), mainQueue: queue))
    }

    @Test func askAnswerAndDismiss() {
        let scheduler = DispatchQueue.test
        let store = makeStore(count: 6, scheduler: scheduler)
        #expect(store.state.isButtonEnabled)
        store.send(.nthPrimeButtonTapped) { $0.requestedN = 6 }
        #expect(!store.state.isButtonEnabled)
        // The button is disabled while in flight: a second tap is ignored (no second effect).
        store.send(.nthPrimeButtonTapped)
        #expect(store.runningEffectCount == 1)
        scheduler.advance(by: .milliseconds(399))
        #expect(store.runningEffectCount == 1)
        scheduler.advance(by: .milliseconds(1))
        store.receive(.nthPrimeResponse(n: 6, prime: 13)) {
            $0.requestedN = nil
            $0.alert = NthPrimeAlert(n: 6, prime: 13)
        }
        #expect(store.state.alert?.message == "The 6th prime is 13.")
        // Still disabled while the answer is on screen.
        #expect(!store.state.isButtonEnabled)
        store.send(.nthPrimeButtonTapped)
        store.send(.alertDismissButtonTapped) { $0.alert = nil }
        #expect(store.state.isButtonEnabled)
    }

    @Test(arguments: [0, -1, -12])
    func thereIsNoNthPrimeBelowOne(n: Int) {
        let scheduler = DispatchQueue.test
        let store = makeStore(count: n, scheduler: scheduler)
        store.send(.nthPrimeButtonTapped) { $0.requestedN = n }
        scheduler.advance(by: .milliseconds(400))
        store.receive(.nthPrimeResponse(n: n, prime: nil)) {
            $0.requestedN = nil
            $0.alert = NthPrimeAlert(n: n, prime: nil)
        }
        let named = n == 0 ? "0th prime" : "prime number \(n)"  // Never "-1st prime".
        #expect(store.state.alert?.message == "There is no \(named): primes are counted from 1.")
        store.send(.alertDismissButtonTapped) { $0.alert = nil }
    }

    @Test func leavingTheScreenCancelsTheQuestionAndNothingArrivesAfterwards() {
        let scheduler = DispatchQueue.test
        let store = makeStore(count: 10, scheduler: scheduler)
        store.send(.nthPrimeButtonTapped) { $0.requestedN = 10 }
        scheduler.advance(by: .milliseconds(200))
        store.send(.screenLeft) { $0.requestedN = nil }
        #expect(store.runningEffectCount == 0)
        scheduler.advance(by: .seconds(10))
        // Exhaustive: an answer arriving now would fail the next step and the end of the test.
        store.send(.screenLeft)
        #expect(store.state.alert == nil)
        // The button works again.
        store.send(.nthPrimeButtonTapped) { $0.requestedN = 10 }
        scheduler.advance(by: .milliseconds(400))
        store.receive(.nthPrimeResponse(n: 10, prime: 29)) {
            $0.requestedN = nil
            $0.alert = NthPrimeAlert(n: 10, prime: 29)
        }
    }

    @Test func leavingTheScreenWithNothingInFlightDoesNothing() {
        let store = makeStore(count: 1, scheduler: DispatchQueue.test)
        store.send(.screenLeft)
    }

    @Test func alertMessages() {
        #expect(NthPrimeAlert(n: 1, prime: 2).message == "The 1st prime is 2.")
        #expect(NthPrimeAlert(n: 22, prime: 79).message == "The 22nd prime is 79.")
        #expect(NthPrimeAlert(n: 0, prime: nil).message == "There is no 0th prime: primes are counted from 1.")
    }
}
