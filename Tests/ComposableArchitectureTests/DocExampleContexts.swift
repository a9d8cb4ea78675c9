import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
import StreamsTesting
import Testing

// The contexts of the ```swift examples of ComposableArchitecture and ComposableArchitectureTesting
// that need names they do not declare. An example annotated `<!-- example context: NAME -->` is
// compiled in a copy of the declaration after the line `// <!-- example context: NAME -->`, in
// place of its line `// example` (see Scripts/extract-examples). Each copy is compiled, never
// called or run.

// MARK: - The app of the store examples

// The app the examples of `Store`, `ViewStore`, `Reducer` and `IdentifiedArray` assume, at the
// top level so that an example at file scope can extend it (`extension AppAction`): the
// README's counter (`CounterState`, `CounterAction`, `CounterEnvironment`, `counterReducer`, in
// ReadmeExampleTests.swift), a user, todos, an optional search and favorite primes.

struct User: Equatable { var name: String }

struct Todo: Identifiable, Equatable {
    var id: Int
    var title = ""
    var isDone = false
}

enum TodoAction: Equatable { case toggle }

struct SearchState: Equatable { var query = "" }

enum SearchAction: Equatable { case queryChanged(String), clearTapped, searchResponse([String]) }

struct SearchEnvironment {
    var search: (String) -> Effect<[String]>
}

enum FavoritesAction: Equatable { case add(Int) }

struct FavoritesEnvironment {}

struct AppState: Equatable {
    var counter = CounterState()
    var count = 0
    var isLoading = false
    var user = User(name: "Blob")
    var todos: IdentifiedArrayOf<Todo> = []
    var search: SearchState?
    var favorites: [Int] = []
}

enum AppAction: Equatable {
    case counter(CounterAction)
    case increment
    case refresh
    case todo(id: Todo.ID, action: TodoAction)
    case search(SearchAction)
    case favorites(FavoritesAction)
}

struct AppEnvironment {
    var counter = CounterEnvironment.live
    var favorites = FavoritesEnvironment()
    var search = SearchEnvironment(search: { _ in .none })
    var log: @Sendable (String) -> Void = { print($0) }

    static var live: AppEnvironment { AppEnvironment() }
}

@MainActor let todoReducer = Reducer<Todo, TodoAction, AppEnvironment> { todo, action, _ in
    switch action {
    case .toggle:
        todo.isDone.toggle()
        return .none
    }
}

@MainActor let searchReducer = Reducer<SearchState, SearchAction, SearchEnvironment> { state, action, environment in
    switch action {
    case let .queryChanged(query):
        state.query = query
        return environment.search(query).map(SearchAction.searchResponse)
    case .clearTapped:
        state.query = ""
        return .none
    case .searchResponse:
        return .none
    }
}

@MainActor let favoritesReducer = Reducer<[Int], FavoritesAction, FavoritesEnvironment> { favorites, action, _ in
    switch action {
    case let .add(prime):
        favorites.append(prime)
        return .none
    }
}

@MainActor let appReducer = Reducer<AppState, AppAction, AppEnvironment>.combine(
    counterReducer.pullback(state: \.counter, action: /AppAction.counter, environment: { $0.counter }),
    todoReducer.forEach(state: \.todos, action: /AppAction.todo(id:action:), environment: { $0 }),
    searchReducer.optional().pullback(state: \.search, action: /AppAction.search, environment: { $0.search }),
    favoritesReducer.pullback(state: \.favorites, action: /AppAction.favorites, environment: { $0.favorites }))

/// A row of a list of todos, made from the store of one todo.
@MainActor final class TodoRow {
    let store: Store<Todo, TodoAction>
    init(store: Store<Todo, TodoAction>) { self.store = store }
}

/// A screen that presents another (the search) and dismisses it.
@MainActor class ViewController {
    func present(_ viewController: ViewController) {}
    func dismiss() {}
}

@MainActor final class SearchViewController: ViewController {
    let store: Store<SearchState, SearchAction>
    init(store: Store<SearchState, SearchAction>) { self.store = store }
}

@MainActor final class AppViewController: ViewController {
    let appStore = Store(initialState: AppState(), reducer: appReducer, environment: .live)
}

// <!-- example context: store -->
/// A part of the app's screens: `store` and `appStore`, the app's stores; `viewStore`, a view
/// store of it; `rows`, the rows of a list being made.
@MainActor func storeContext(
    store: Store<AppState, AppAction>,
    appStore: Store<AppState, AppAction>,
    viewStore: ViewStore<AppState, AppAction>,
    rows: inout [TodoRow]
) async {
    // example
}

// <!-- example context: viewController -->
/// A method of the app's screen, a view controller that presents the search (`self.present`,
/// `self.dismiss()`), with `appStore`.
extension AppViewController {
    func showSearch() {
        // example
    }
}

// <!-- example context: todos -->
/// `todos`, a list of todos, after `IdentifiedArray`'s first example.
@MainActor func todosContext(todos: inout IdentifiedArrayOf<Todo>) {
    // example
}

// <!-- example context: diff -->
/// The `AppState` of `Diff.render`'s example, for the examples after it.
@MainActor func diffContext() {
    struct AppState { var count = 1; var favorites: [Int] = [2, 3]; var name: String? = "Blob" }
    _ = AppState()  // template only
    // example
}

// MARK: - A counter

// <!-- example context: counter -->
/// The types of a counter feature, for an example that declares its reducer: `CounterState`
/// and `CounterAction` (`increment`, `decrement`).
@MainActor struct CounterTypes {
    struct CounterState: Equatable { var count = 0 }
    enum CounterAction: Equatable { case increment, decrement }

    // example
}

// <!-- example context: counterSuite -->
/// An example that is a `@Test` function of a counter's tests: inside a suite, which is disabled
/// (the example is compiled, not run), with the counter feature such a suite tests:
/// `CounterState`, `CounterAction` and `counterReducer` (whose environment is `Void`).
@MainActor @Suite(.disabled("a doc example: compiled, not run"))
struct CounterSuite {
    struct CounterState: Equatable { var count = 0 }
    enum CounterAction: Equatable { case increment, decrement, noop }
    let counterReducer = Reducer<CounterState, CounterAction, Void> { state, action, _ in
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .decrement:
            state.count -= 1
            return .none
        case .noop:
            return .none
        }
    }

    // example
}

// <!-- example context: counterFeature -->
/// Code that uses the counter of `CounterSuite`: `CounterState`, `CounterAction`, `counterReducer`.
extension CounterSuite {
    func counterFeature() {
        // example
    }
}

// MARK: - The test store examples

// <!-- example context: featureSuite -->
/// An example that is a `@Test` function of a feature's tests (disabled: compiled, not run), with
/// the feature: a counter that fetches a fact about its count (`CounterState`, `CounterAction`,
/// `CounterEnvironment` with `fact` and `mainQueue`, `counterReducer`), a timer and a search.
@MainActor @Suite(.disabled("a doc example: compiled, not run"))
struct FeatureSuite {
    struct CounterState: Equatable {
        var count = 0
        var isLoading = false
        var fact: String?
        var secondsElapsed = 0
        var ticks = 0
        var isSearching = false
    }

    enum CounterAction: Equatable {
        case increment, factButtonTapped, factResponse(String)
        case onAppear, timerTicked
        case searchResponse([String])
    }

    /// The store's action, by the name the examples of a whole app give it.
    typealias AppAction = CounterAction

    struct CounterEnvironment {
        var fact: (Int) -> AnyPublisher<String, Never>
        var mainQueue: AnySchedulerOf<DispatchQueue>
    }

    enum TimerID {}

    let counterReducer = Reducer<CounterState, CounterAction, CounterEnvironment> { state, action, environment in
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .factButtonTapped:
            state.isLoading = true
            return environment.fact(state.count).receive(on: environment.mainQueue).eraseToEffect()
                .map(CounterAction.factResponse)
        case let .factResponse(fact):
            state.isLoading = false
            state.fact = fact
            return .none
        case .onAppear:
            return Effect.timer(id: TimerID.self, every: .seconds(1), on: environment.mainQueue)
                .map { _ in .timerTicked }
        case .timerTicked:
            state.secondsElapsed += 1
            state.ticks += 1
            return .none
        case .searchResponse:
            state.isSearching = false
            return .none
        }
    }

    // example
}

// <!-- example context: testStore -->
/// The steps of a test of `FeatureSuite`'s feature: `store`, its test store, and `scheduler`, the
/// test scheduler its environment's `mainQueue` runs on.
extension FeatureSuite {
    func testStoreSteps(
        store: TestStore<CounterState, CounterAction, CounterEnvironment>,
        scheduler: TestSchedulerOf<DispatchQueue>
    ) {
        // example
    }
}

// <!-- example context: testStoreAsync -->
/// The steps of an `async` test of `FeatureSuite`'s feature (which awaits the actions of effects
/// that run elsewhere): `store` and `scheduler`, as in `testStore`.
extension FeatureSuite {
    func asyncTestStoreSteps(
        store: TestStore<CounterState, CounterAction, CounterEnvironment>,
        scheduler: TestSchedulerOf<DispatchQueue>
    ) async {
        // example
    }
}

// MARK: - The effect examples

/// The feature the examples of `Effect`'s constructors, operators and timing assume: favorite
/// primes saved to a file, the nth prime, a location, motion and temperature readings, a search,
/// a toast, a timer; `environment` holds the clients that do the work.
enum PrimeFeature {
    struct AppState: Equatable {
        var count = 0
        var favorites: Set<Int> = []
        var toast: String?
        var query = ""
    }

    struct Location: Equatable, Sendable { var latitude = 0.0, longitude = 0.0 }

    struct Reading: Equatable, Sendable { var x = 0.0, y = 0.0, z = 0.0 }

    enum AppAction: Sendable {
        case favoriteTapped(Int), saveTapped, loadFavorites, favoritesLoaded(Set<Int>), savedFeedbackShown
        case nthPrimeButtonTapped, nthPrimeResponse(Result<Int, any Error>)
        case locateTapped, located(Location)
        case startMonitoring, motion(Reading)
        case onAppear, temperature(Double), temperaturesFailed
        case counter(CounterAction)
        case showToast(String), hideToast
        case queryChanged(String), searchResponse([String])
        case scrolled(Double), saveScrollPosition(Double)
        case startTimer, stopTimer, timerTicked
    }

    struct Analytics: Sendable { func track(_ event: String, _ value: Int) {} }

    struct FileClient: Sendable {
        func loadFavorites() -> Set<Int> { [] }
        func save(_ favorites: Set<Int>) async throws {}
    }

    struct LocationManager: Sendable {
        func requestLocation(_ callback: @escaping @Sendable (Location) -> Void) {}
    }

    struct Motion: Sendable {
        func startUpdates(_ handler: @escaping @Sendable (Reading) -> Void) -> Int { 0 }
        func stopUpdates(_ token: Int) {}
    }

    struct AppEnvironment: Sendable {
        var analytics = Analytics()
        var fileClient = FileClient()
        var locationManager = LocationManager()
        var motion = Motion()
        var mainQueue: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
        var nthPrime: @Sendable (Int) async throws -> Int = { $0 }
        var temperatures: @Sendable () -> AsyncStream<Double> = { AsyncStream { $0.finish() } }
        var save: @Sendable (Set<Int>) -> AnyPublisher<Void, any Error> = { _ in
            Empty().eraseToAnyPublisher()
        }
        var counter: @Sendable (Int) -> Effect<CounterAction> = { _ in .none }
        var search: @Sendable (String) -> Effect<[String]> = { _ in .none }
    }

    enum MotionID {}
    enum NthPrimeID {}
    enum TemperatureID {}
    enum SearchID {}
    enum ScrollID {}
    enum TimerID {}
}

// <!-- example context: primeFeatureCases -->
/// `case`s of the `switch action` of `PrimeFeature`'s reducer: `state`, `action`, `environment`.
extension PrimeFeature {
    @MainActor static func reducerCases(
        state: inout AppState, action: AppAction, environment: AppEnvironment
    ) -> Effect<AppAction> {
        switch action {
        // example
        default:
            return .none
        }
    }
}

// <!-- example context: primeFeatureCode -->
/// Code that makes effects of `PrimeFeature`: `state` and `environment`, as in `primeFeature`.
extension PrimeFeature {
    @MainActor static func code(state: AppState, environment: AppEnvironment) {
        // example
    }
}

// <!-- example context: primeFeature -->
/// The body of a `PrimeFeature` reducer: `state`, `action`, `environment`, and `startTimer`, the
/// effect of a timer the reducer made before.
extension PrimeFeature {
    @MainActor static func reducerBody(
        state: inout AppState, action: AppAction, environment: AppEnvironment, startTimer: Effect<AppAction>
    ) -> Effect<AppAction> {
        // example
        return .none  // template only
    }
}

/// The feature the examples of `Effect` itself and of cancellation assume: a number fact, a
/// timer, locations, favorites saved, a search.
enum FactFeature {
    struct FactError: Error, Equatable {}

    struct Location: Equatable, Sendable { var latitude = 0.0, longitude = 0.0 }

    struct AppState: Equatable {
        var count = 0
        var isLoading = false
    }

    enum AppAction: Equatable {
        case numberFactButtonTapped, numberFactResponse(Result<String, FactError>)
        case factResponse(Result<String, FactError>)
        case tick, locationUpdated(Location), favoritesSaved
        case queryChanged(String), searchResponse([String]), onDisappear
    }

    struct AppEnvironment {
        var mainQueue: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
        var numberFact: (Int) -> AnyPublisher<String, FactError> = { _ in Empty().eraseToAnyPublisher() }
        var fetchFact: (Int) -> AnyPublisher<String, FactError> = { _ in Empty().eraseToAnyPublisher() }
        var locations: () -> AnyPublisher<Location, Never> = { Empty().eraseToAnyPublisher() }
        var saveFavorites: ([Int]) -> AnyPublisher<AppAction, any Error> = { _ in Empty().eraseToAnyPublisher() }
        var nthPrime: (Int) -> Effect<AppAction> = { _ in .none }
        var search: (String) -> Effect<AppAction> = { _ in .none }
    }

    enum SearchID {}
    enum TimerID {}
}

// <!-- example context: factFeatureCases -->
/// `case`s of the `switch action` of `FactFeature`'s reducer: `state`, `action`, `environment`.
extension FactFeature {
    @MainActor static func reducerCases(
        state: inout AppState, action: AppAction, environment: AppEnvironment
    ) -> Effect<AppAction> {
        switch action {
        // example
        default:
            return .none
        }
    }
}

// <!-- example context: factFeatureCode -->
/// Code that makes effects of `FactFeature`: `state`, `environment`, `n` and `primes`, as in
/// `factFeature`.
extension FactFeature {
    @MainActor static func code(state: AppState, environment: AppEnvironment, n: Int, primes: [Int]) {
        // example
    }
}

// <!-- example context: factFeature -->
/// The body of a `FactFeature` reducer: `state`, `action`, `environment`; `n`, the number asked
/// about, and `primes`, the favorites to save.
extension FactFeature {
    @MainActor static func reducerBody(
        state: inout AppState, action: AppAction, environment: AppEnvironment, n: Int, primes: [Int]
    ) -> Effect<AppAction> {
        // example
        return .none  // template only
    }
}

/// The feature the examples of the effects made from actions and async work assume (`Effect(_:)`,
/// `Effect { }`, `Effect(id:)`, `cancel(_:)`): a search through an API, suggestions, locations.
enum RedUxFeature {
    struct Location: Equatable, Sendable { var latitude = 0.0, longitude = 0.0 }

    struct AppState: Equatable { var results: [String] = [] }

    enum AppAction: Equatable, Sendable {
        case searchTapped, fetchResults, queryChanged(String), didFetchResults([String]), cancelSearchTapped
        case suggestion(String)
        case startTracking, didReceiveLocation(Location)
    }

    struct API: Sendable { func search(_ query: String) async throws -> [String] { [] } }

    struct AppEnvironment: Sendable {
        var api = API()
        var locations: @Sendable () -> AsyncStream<Location> = { AsyncStream { $0.finish() } }
        var suggestions: @Sendable (String) -> AsyncStream<AppAction> = { _ in AsyncStream { $0.finish() } }
    }
}

// <!-- example context: redUxFeatureCases -->
/// `case`s of the `switch action` of `RedUxFeature`'s reducer: `state`, `action`, `environment`.
extension RedUxFeature {
    @MainActor static func reducerCases(
        state: inout AppState, action: AppAction, environment: AppEnvironment
    ) -> Effect<AppAction> {
        switch action {
        // example
        default:
            return .none
        }
    }
}

// <!-- example context: runtimeIssues -->
/// A test of a plain store (`store`) whose reducer returns an unimplemented effect for the action
/// `"refresh"`.
@MainActor func runtimeIssuesContext(store: Store<Int, String>) {
    // example
}

// MARK: - Middleware

/// The app of the middleware example: animals, a reducer and a service middleware.
enum AnimalsApp {
    struct AppState: Equatable { var animals: [String] = [] }
    enum AppAction: Equatable { case add(String), loaded([String]) }
    struct AppEnvironment: Sendable { var log: @Sendable (String) -> Void = { print($0) } }

    @MainActor static let animalsReducer = Reducer<AppState, AppAction, AppEnvironment> { state, action, _ in
        switch action {
        case let .add(animal):
            state.animals.append(animal)
            return .none
        case let .loaded(animals):
            state.animals = animals
            return .none
        }
    }

    @MainActor static let animalServiceMiddleware: Middleware<AppState, AppAction, AppEnvironment> = { _, _, _ in .none }
}

// <!-- example context: animals -->
/// Code of `AnimalsApp`: `AppState`, `AppAction`, `AppEnvironment`, `animalsReducer` and
/// `animalServiceMiddleware`.
extension AnimalsApp {
    @MainActor static func animals() {
        // example
    }
}

// MARK: - README

// <!-- example context: readmeStore -->
/// README's counter running: `store`, a store of `CounterState` (README's first example).
@MainActor func readmeStoreContext(store: Store<CounterState, CounterAction>) {
    // example
}

// <!-- example context: readmeTests -->
/// A `@Test` function of README's counter's tests, in a suite that is disabled (compiled here;
/// ReadmeExampleTests runs the same test).
@MainActor @Suite(.disabled("a doc example: compiled, not run"))
struct ReadmeCounterSuite {
    // example
}

// <!-- example context: readmeAsync -->
/// README's async/await example: `prices`, a publisher of prices, and `show`, which shows one;
/// `loadUser()`, a `Future` that may fail; `stream`, an `AsyncStream`.
func readmeAsyncContext(
    prices: PassthroughSubject<Double, Never>,
    show: (Double) -> Void,
    loadUser: () -> Future<String, any Error>,
    stream: AsyncStream<Int>
) async throws {
    // example
}
