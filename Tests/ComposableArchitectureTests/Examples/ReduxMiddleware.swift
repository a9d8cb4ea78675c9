import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// Example: a Redux-style store. A reducer changes the state; middlewares see each action after it
// (with the new state) and return publishers of more actions. An animal service answers with a
// `Future` some time after it is asked; the animal middleware turns `.fetchAnimal` into a call to
// it, mapped to `.animalLoaded` or `.animalFailed`; the reducer shows "Loading…" meanwhile; a
// logging middleware records every action with the state it left.

/// The Redux animal app's types.
enum ReduxMiddlewareExample {
    struct AnimalError: Error, Equatable {
        let message: String
    }

    struct State: Equatable {
        var currentAnimal = ""
        var failure: AnimalError?
    }

    enum Action: Equatable {
        case fetchAnimal
        case animalLoaded(String)
        case animalFailed(AnimalError)
    }

    /// What the environment's log records, in order.
    enum LogEntry: Equatable {
        /// The logging middleware saw `action`, which left `state`.
        case action(Action, State)
        /// The animal service was asked for an animal.
        case serviceCalled
    }

    final class Log {
        var entries: [LogEntry] = []
    }

    struct AnimalService {
        var fetch: () -> Future<String, AnimalError>

        /// Answers with `answers`, one per call, each `delay` after the call, on `scheduler`.
        static func delayed(
            _ answers: [Result<String, AnimalError>], after delay: DispatchQueue.SchedulerTimeType.Stride,
            on scheduler: AnySchedulerOf<DispatchQueue>, log: Log
        ) -> AnimalService {
            var remaining = answers[...]
            return AnimalService(fetch: {
                log.entries.append(.serviceCalled)
                let answer = remaining.popFirst() ?? .failure(AnimalError(message: "no more animals"))
                return Future { promise in
                    scheduler.schedule(after: scheduler.now.advanced(by: delay)) { promise(answer) }
                }
            })
        }
    }

    struct Environment {
        var animalService: AnimalService
        var log: Log
    }

    @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, _ in
        switch action {
        case .fetchAnimal:
            state.currentAnimal = "Loading…"
            state.failure = nil
        case .animalLoaded(let animal):
            state.currentAnimal = animal
        case .animalFailed(let error):
            state.currentAnimal = ""
            state.failure = error
        }
        return .none
    }

    enum FetchID: Hashable, Sendable { case animal }

    /// Calls the animal service for `.fetchAnimal` (when the store starts the effect) and feeds
    /// its answer back; a newer fetch replaces the one in flight.
    @MainActor static let animalMiddleware: Middleware<State, Action, Environment> = { _, action, environment in
        guard action == .fetchAnimal else { return .none }
        return Deferred { environment.animalService.fetch() }
            .map(Action.animalLoaded)
            .catch { Just(Action.animalFailed($0)) }
            .eraseToEffect()
            .cancellable(id: FetchID.animal, cancelInFlight: true)
    }

    /// Records every action with the state the reducer left.
    @MainActor static let loggingMiddleware: Middleware<State, Action, Environment> = { state, action, environment in
        .fireAndForget { environment.log.entries.append(.action(action, state)) }
    }

    enum Order: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case loggingFirst, animalFirst
        var testDescription: String { rawValue }
    }

    @MainActor
    static func appReducer(_ order: Order = .loggingFirst) -> Reducer<State, Action, Environment> {
        switch order {
        case .loggingFirst: reducer.middleware(loggingMiddleware, animalMiddleware)
        case .animalFirst: reducer.middleware(animalMiddleware, loggingMiddleware)
        }
    }
}

@MainActor
@Suite("Example: a Redux-style store — middlewares return publishers, an animal service on a Future")
struct ReduxMiddlewareExampleTests {
    typealias State = ReduxMiddlewareExample.State
    typealias Action = ReduxMiddlewareExample.Action
    typealias AnimalError = ReduxMiddlewareExample.AnimalError

    let scheduler = DispatchQueue.test
    let log = ReduxMiddlewareExample.Log()

    func makeStore(
        _ answers: [Result<String, AnimalError>], order: ReduxMiddlewareExample.Order = .loggingFirst
    ) -> TestStore<State, Action, ReduxMiddlewareExample.Environment> {
        TestStore(
            initialState: State(), reducer: ReduxMiddlewareExample.appReducer(order),
            environment: ReduxMiddlewareExample.Environment(
                animalService: .delayed(answers, after: .seconds(2), on: scheduler.eraseToAnyScheduler(), log: log),
                log: log))
    }

    @Test func fetchShowsLoadingThenTheAnimal() {
        let store = makeStore([.success("Cat")])
        store.send(.fetchAnimal) { $0.currentAnimal = "Loading…" }
        #expect(log.entries == [.action(.fetchAnimal, State(currentAnimal: "Loading…")), .serviceCalled])
        #expect(store.runningEffectCount == 1)

        scheduler.advance(by: .milliseconds(1_999))
        #expect(store.state.currentAnimal == "Loading…")
        scheduler.advance(by: .milliseconds(1))
        store.receive(.animalLoaded("Cat")) { $0.currentAnimal = "Cat" }
        #expect(store.runningEffectCount == 0)
        #expect(log.entries == [
            .action(.fetchAnimal, State(currentAnimal: "Loading…")),
            .serviceCalled,
            .action(.animalLoaded("Cat"), State(currentAnimal: "Cat")),
        ])
    }

    @Test func aFailureIsFedBackAsAnAction() {
        let store = makeStore([.failure(AnimalError(message: "the zoo is closed")), .success("Dog")])
        store.send(.fetchAnimal) { $0.currentAnimal = "Loading…" }
        scheduler.advance(by: .seconds(2))
        store.receive(.animalFailed(AnimalError(message: "the zoo is closed"))) {
            $0.currentAnimal = ""
            $0.failure = AnimalError(message: "the zoo is closed")
        }
        store.send(.fetchAnimal) {
            $0.currentAnimal = "Loading…"
            $0.failure = nil
        }
        scheduler.advance(by: .seconds(2))
        store.receive(.animalLoaded("Dog")) { $0.currentAnimal = "Dog" }
        #expect(log.entries == [
            .action(.fetchAnimal, State(currentAnimal: "Loading…")),
            .serviceCalled,
            .action(.animalFailed(AnimalError(message: "the zoo is closed")),
                    State(currentAnimal: "", failure: AnimalError(message: "the zoo is closed"))),
            .action(.fetchAnimal, State(currentAnimal: "Loading…")),
            .serviceCalled,
            .action(.animalLoaded("Dog"), State(currentAnimal: "Dog")),
        ])
    }

    @Test func aNewerFetchReplacesTheOneInFlight() {
        let store = makeStore([.success("Cat"), .success("Dog")])
        store.send(.fetchAnimal) { $0.currentAnimal = "Loading…" }
        scheduler.advance(by: .seconds(1))
        store.send(.fetchAnimal)
        #expect(store.runningEffectCount == 1)
        // The first answer comes, but its fetch was cancelled: nothing arrives.
        scheduler.advance(by: .seconds(1))
        #expect(store.state.currentAnimal == "Loading…")
        scheduler.advance(by: .seconds(1))
        store.receive(.animalLoaded("Dog")) { $0.currentAnimal = "Dog" }
        #expect(store.runningEffectCount == 0)
        #expect(log.entries == [
            .action(.fetchAnimal, State(currentAnimal: "Loading…")),
            .serviceCalled,
            .action(.fetchAnimal, State(currentAnimal: "Loading…")),
            .serviceCalled,
            .action(.animalLoaded("Dog"), State(currentAnimal: "Dog")),
        ])
    }

    @Test(arguments: ReduxMiddlewareExample.Order.allCases)
    func middlewaresRunInTheOrderGiven(_ order: ReduxMiddlewareExample.Order) {
        let store = makeStore([.success("Cat")], order: order)
        store.send(.fetchAnimal) { $0.currentAnimal = "Loading…" }
        let logged = ReduxMiddlewareExample.LogEntry.action(.fetchAnimal, State(currentAnimal: "Loading…"))
        switch order {
        case .loggingFirst: #expect(log.entries == [logged, .serviceCalled])
        case .animalFirst: #expect(log.entries == [.serviceCalled, logged])
        }
        scheduler.advance(by: .seconds(2))
        store.receive(.animalLoaded("Cat")) { $0.currentAnimal = "Cat" }
        #expect(log.entries.last == .action(.animalLoaded("Cat"), State(currentAnimal: "Cat")))
        #expect(log.entries.count == 3)
    }

    @Test func middlewaresSeeTheStateTheReducerLeftAndCannotChangeIt() {
        var seen: [(State, Action)] = []
        let watcher: Middleware<State, Action, ReduxMiddlewareExample.Environment> = { state, action, _ in
            seen.append((state, action))
            return .none
        }
        let store = TestStore(
            initialState: State(currentAnimal: "Fish"),
            reducer: ReduxMiddlewareExample.reducer.middleware(watcher, ReduxMiddlewareExample.animalMiddleware),
            environment: ReduxMiddlewareExample.Environment(
                animalService: .delayed([.success("Cat")], after: .seconds(2), on: scheduler.eraseToAnyScheduler(),
                                        log: log),
                log: log))
        store.send(.fetchAnimal) { $0.currentAnimal = "Loading…" }
        scheduler.advance(by: .seconds(2))
        store.receive(.animalLoaded("Cat")) { $0.currentAnimal = "Cat" }
        #expect(seen.map(\.0) == [State(currentAnimal: "Loading…"), State(currentAnimal: "Cat")])
        #expect(seen.map(\.1) == [.fetchAnimal, .animalLoaded("Cat")])
        #expect(log.entries == [.serviceCalled])
    }

    @Test func aViewObservingARealStoreSeesLoadingThenTheAnimal() {
        let environment = ReduxMiddlewareExample.Environment(
            animalService: .delayed([.success("Cat")], after: .seconds(2), on: scheduler.eraseToAnyScheduler(), log: log),
            log: log)
        let store = Store(initialState: State(), reducer: ReduxMiddlewareExample.appReducer(), environment: environment)
        var shown: [String] = []
        let observation = store.publisher.currentAnimal.sink { shown.append($0) }
        defer { observation.cancel() }

        store.send(.fetchAnimal)
        #expect(shown == ["", "Loading…"])
        scheduler.advance(by: .seconds(2))
        #expect(shown == ["", "Loading…", "Cat"])
        #expect(store.runningEffectCount == 0)
        #expect(log.entries == [
            .action(.fetchAnimal, State(currentAnimal: "Loading…")),
            .serviceCalled,
            .action(.animalLoaded("Cat"), State(currentAnimal: "Cat")),
        ])
    }
}
