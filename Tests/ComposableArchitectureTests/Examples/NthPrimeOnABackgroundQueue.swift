import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// Example: the counter's "What is the nth prime?" button. Tapping it asks a slow service (the
// original app's Wolfram Alpha call) for the nth prime, where n is the count; the answer is computed on a
// background queue and delivered on the main queue; the button is disabled while the request is
// in flight; the answer shows in an alert, which an action dismisses.

/// The nth-prime feature's types.
enum NthPrimeExample {
    struct PrimeAlert: Equatable, Identifiable {
        let n: Int
        let prime: Int
        var id: Int { prime }
        var title: String { "Prime #\(n) is \(prime)" }
    }

    struct State: Equatable {
        var count = 0
        var isNthPrimeButtonDisabled = false
        var alertNthPrime: PrimeAlert?
    }

    enum Action: Equatable {
        case decrTapped
        case incrTapped
        case nthPrimeButtonTapped
        case nthPrimeResponse(n: Int, prime: Int?)
        case alertDismissButtonTapped
    }

    struct Environment {
        /// The nth prime, or `nil` when there is none (n < 1, or the service failed).
        var nthPrime: (Int) -> Effect<Int?>
        var mainQueue: AnySchedulerOf<DispatchQueue>
    }

    @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
        switch action {
        case .decrTapped:
            state.count -= 1
            return .none
        case .incrTapped:
            state.count += 1
            return .none
        case .nthPrimeButtonTapped:
            // A disabled button cannot be tapped; a stray tap changes nothing.
            guard !state.isNthPrimeButtonDisabled else { return .none }
            state.isNthPrimeButtonDisabled = true
            let n = state.count
            return environment.nthPrime(n)
                .map { Action.nthPrimeResponse(n: n, prime: $0) }
                .receive(on: environment.mainQueue)
        case let .nthPrimeResponse(n, prime):
            state.alertNthPrime = prime.map { PrimeAlert(n: n, prime: $0) }
            state.isNthPrimeButtonDisabled = false
            return .none
        case .alertDismissButtonTapped:
            state.alertNthPrime = nil
            return .none
        }
    }

    /// The nth prime (1 → 2, 2 → 3, 3 → 5, ...), `nil` for n < 1.
    static func nthPrime(_ n: Int) -> Int? {
        guard n >= 1 else { return nil }
        var found = 0
        var candidate = 1
        while found < n {
            candidate += 1
            if (2..<candidate).allSatisfy({ candidate % $0 != 0 }) { found += 1 }
        }
        return candidate
    }

    /// How the service hands its answer over.
    enum ServiceStyle: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `Effect.future { callback in ... }`: the work starts when the store starts the effect.
        case effectFuture
        /// A Streams `Future` in a `Deferred`, completed by a promise.
        case deferredFuture

        var testDescription: String { rawValue }
    }

    /// The service: answers `delay` after it is asked, on `background`.
    static func nthPrime<Background: Scheduler & Sendable>(
        _ style: ServiceStyle, on background: Background, after delay: Background.SchedulerTimeType.Stride
    ) -> (Int) -> Effect<Int?> {
        { n in
            switch style {
            case .effectFuture:
                return .future { callback in
                    background.schedule(after: background.now.advanced(by: delay)) { callback(nthPrime(n)) }
                }
            case .deferredFuture:
                return Deferred {
                    Future<Int?, Never> { promise in
                        background.schedule(after: background.now.advanced(by: delay)) { promise(.success(nthPrime(n))) }
                    }
                }
                .eraseToEffect()
            }
        }
    }
}

@MainActor
@Suite("Example: the nth prime, computed in the background and delivered on the main queue")
struct NthPrimeExampleTests {
    typealias State = NthPrimeExample.State

    /// A test store whose service answers one second after it is asked, on `background`.
    func makeStore(
        _ style: NthPrimeExample.ServiceStyle, background: TestSchedulerOf<DispatchQueue>,
        mainQueue: TestSchedulerOf<DispatchQueue>, state: State = State()
    ) -> TestStore<State, NthPrimeExample.Action, NthPrimeExample.Environment> {
        TestStore(
            initialState: state, reducer: NthPrimeExample.reducer,
            environment: NthPrimeExample.Environment(
                nthPrime: NthPrimeExample.nthPrime(style, on: background, after: .seconds(1)),
                mainQueue: mainQueue.eraseToAnyScheduler()))
    }

    @Test func theServiceComputesPrimes() {
        #expect((-1...6).map(NthPrimeExample.nthPrime) == [nil, nil, 2, 3, 5, 7, 11, 13])
        #expect(NthPrimeExample.nthPrime(100) == 541)
    }

    @Test(arguments: NthPrimeExample.ServiceStyle.allCases)
    func theAnswerShowsInAnAlertThatAnActionDismisses(_ style: NthPrimeExample.ServiceStyle) {
        let background = DispatchQueue.test
        let mainQueue = DispatchQueue.test
        let store = makeStore(style, background: background, mainQueue: mainQueue)
        store.send(.incrTapped) { $0.count = 1 }
        store.send(.incrTapped) { $0.count = 2 }
        store.send(.incrTapped) { $0.count = 3 }
        store.send(.nthPrimeButtonTapped) { $0.isNthPrimeButtonDisabled = true }
        #expect(store.runningEffectCount == 1)

        // The service answers after one second, on the background queue...
        background.advance(by: .milliseconds(999))
        #expect(mainQueue.pendingCount == 0)
        background.advance(by: .milliseconds(1))
        // ...and the answer waits for the main queue.
        #expect(mainQueue.pendingCount > 0)
        #expect(store.state.isNthPrimeButtonDisabled)
        mainQueue.advance()
        store.receive(.nthPrimeResponse(n: 3, prime: 5)) {
            $0.alertNthPrime = NthPrimeExample.PrimeAlert(n: 3, prime: 5)
            $0.isNthPrimeButtonDisabled = false
        }
        #expect(store.state.alertNthPrime?.title == "Prime #3 is 5")
        #expect(store.runningEffectCount == 0)

        store.send(.alertDismissButtonTapped) { $0.alertNthPrime = nil }
    }

    @Test(arguments: NthPrimeExample.ServiceStyle.allCases)
    func aTapWhileTheRequestIsInFlightIsIgnored(_ style: NthPrimeExample.ServiceStyle) {
        let background = DispatchQueue.test
        let mainQueue = DispatchQueue.test
        let store = makeStore(style, background: background, mainQueue: mainQueue, state: State(count: 5))
        store.send(.nthPrimeButtonTapped) { $0.isNthPrimeButtonDisabled = true }
        background.advance(by: .milliseconds(500))
        // Disabled: no state change and no second request.
        store.send(.nthPrimeButtonTapped)
        #expect(store.runningEffectCount == 1)
        // Answered on the background queue, not yet delivered: still disabled, still ignored.
        background.advance(by: .milliseconds(500))
        store.send(.nthPrimeButtonTapped)
        #expect(store.runningEffectCount == 1)
        mainQueue.advance()
        store.receive(.nthPrimeResponse(n: 5, prime: 11)) {
            $0.alertNthPrime = NthPrimeExample.PrimeAlert(n: 5, prime: 11)
            $0.isNthPrimeButtonDisabled = false
        }
        // Enabled again: a new tap asks again.
        store.send(.alertDismissButtonTapped) { $0.alertNthPrime = nil }
        store.send(.nthPrimeButtonTapped) { $0.isNthPrimeButtonDisabled = true }
        background.advance(by: .seconds(1))
        mainQueue.advance()
        store.receive(.nthPrimeResponse(n: 5, prime: 11)) {
            $0.alertNthPrime = NthPrimeExample.PrimeAlert(n: 5, prime: 11)
            $0.isNthPrimeButtonDisabled = false
        }
        // Nothing else was asked for or is still waiting.
        #expect(background.pendingCount == 0)
        #expect(mainQueue.pendingCount == 0)
        #expect(store.runningEffectCount == 0)
    }

    @Test(arguments: NthPrimeExample.ServiceStyle.allCases)
    func theAnswerIsForTheCountWhenAskedNotTheCountWhenAnswered(_ style: NthPrimeExample.ServiceStyle) {
        let background = DispatchQueue.test
        let mainQueue = DispatchQueue.test
        let store = makeStore(style, background: background, mainQueue: mainQueue, state: State(count: 4))
        store.send(.nthPrimeButtonTapped) { $0.isNthPrimeButtonDisabled = true }
        store.send(.incrTapped) { $0.count = 5 }
        store.send(.incrTapped) { $0.count = 6 }
        background.advance(by: .seconds(1))
        mainQueue.advance()
        store.receive(.nthPrimeResponse(n: 4, prime: 7)) {
            $0.alertNthPrime = NthPrimeExample.PrimeAlert(n: 4, prime: 7)
            $0.isNthPrimeButtonDisabled = false
        }
        store.send(.alertDismissButtonTapped) { $0.alertNthPrime = nil }
    }

    @Test(arguments: NthPrimeExample.ServiceStyle.allCases)
    func noAnswerShowsNoAlertAndEnablesTheButton(_ style: NthPrimeExample.ServiceStyle) {
        let background = DispatchQueue.test
        let mainQueue = DispatchQueue.test
        let store = makeStore(style, background: background, mainQueue: mainQueue)
        store.send(.decrTapped) { $0.count = -1 }
        store.send(.nthPrimeButtonTapped) { $0.isNthPrimeButtonDisabled = true }
        background.advance(by: .seconds(1))
        mainQueue.advance()
        store.receive(.nthPrimeResponse(n: -1, prime: nil)) { $0.isNthPrimeButtonDisabled = false }
        #expect(store.runningEffectCount == 0)
    }

    @Test func aDismissWithoutAnAlertChangesNothing() {
        let store = makeStore(.effectFuture, background: DispatchQueue.test, mainQueue: DispatchQueue.test)
        store.send(.alertDismissButtonTapped)
    }

    // MARK: A real Store, a real background queue, the real main queue

    /// Where each step ran: the service's answer and the main-queue deliveries.
    final class Probe: @unchecked Sendable {  // `steps` guarded by `lock`
        private let lock = Lock()
        private var recorded: [String] = []

        func record(_ step: String) {
            lock.withLock { recorded.append(step) }
        }

        var steps: [String] { lock.withLock { recorded } }
    }

    @Test(arguments: NthPrimeExample.ServiceStyle.allCases)
    func aRealStoreGetsTheAnswerOnTheMainQueue(_ style: NthPrimeExample.ServiceStyle) async {
        let probe = Probe()
        let background = DispatchQueue(label: "NthPrimeExample.nthPrime")
        // The main queue, noting whether what it runs does run on the main queue.
        let main = DispatchQueue.main
        let mainQueue = AnySchedulerOf<DispatchQueue>(
            minimumTolerance: { main.minimumTolerance },
            now: { main.now },
            scheduleImmediately: { options, action in
                main.schedule(options: options) {
                    probe.record(MainQueue.isCurrent ? "delivered on main" : "delivered elsewhere")
                    action()
                }
            },
            delayed: { main.schedule(after: $0, tolerance: $1, options: $2, $3) },
            interval: { main.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) })
        let service = NthPrimeExample.nthPrime(style, on: background, after: .milliseconds(20))
        let store = Store(
            initialState: State(count: 6), reducer: NthPrimeExample.reducer,
            environment: NthPrimeExample.Environment(
                nthPrime: { n in
                    service(n).map { prime in
                        probe.record(MainQueue.isCurrent ? "answered on main" : "answered in the background")
                        return prime
                    }
                },
                mainQueue: mainQueue))

        let task = store.send(.nthPrimeButtonTapped)
        #expect(store.state.isNthPrimeButtonDisabled)
        #expect(!task.isFinished)
        await task.finish()
        #expect(task.isFinished)
        #expect(store.state == State(count: 6, isNthPrimeButtonDisabled: false,
                                     alertNthPrime: NthPrimeExample.PrimeAlert(n: 6, prime: 13)))
        // The answer came from the background queue; the main queue delivered it (the value and
        // the completion, in one delivery pass or two, depending on when the pass starts).
        let steps = probe.steps
        #expect(steps.first == "answered in the background")
        #expect((2...3).contains(steps.count))
        #expect(steps.dropFirst().allSatisfy { $0 == "delivered on main" })
        #expect(store.runningEffectCount == 0)

        store.send(.alertDismissButtonTapped)
        #expect(store.state.alertNthPrime == nil)
    }
}
