import ComposableArchitecture
import ComposableArchitectureTesting
import Testing

// Example: the "PrimeTime" app. Three features — a counter, a prime modal that saves and removes
// the current count as a favorite prime, and a list of favorite primes — each with its own
// reducer on its own slice of state, pulled back along state key paths and action paths into one
// app reducer. An activity feed, a higher-order reducer, records what happened to favorites.

/// The PrimeTime app's types.
enum PrimeTimeExample {
    // MARK: Counter

    enum CounterAction: Equatable { case decrTapped, incrTapped }

    @MainActor static let counterReducer = Reducer<Int, CounterAction, Void> { count, action, _ in
        switch action {
        case .decrTapped: count -= 1
        case .incrTapped: count += 1
        }
        return .none
    }

    // MARK: Prime modal

    struct PrimeModalState: Equatable {
        var count: Int
        var favoritePrimes: [Int]
    }

    enum PrimeModalAction: Equatable { case saveFavoritePrimeTapped, removeFavoritePrimeTapped }

    @MainActor static let primeModalReducer = Reducer<PrimeModalState, PrimeModalAction, Void> { state, action, _ in
        switch action {
        case .saveFavoritePrimeTapped:
            state.favoritePrimes.append(state.count)
        case .removeFavoritePrimeTapped:
            state.favoritePrimes.removeAll { $0 == state.count }
        }
        return .none
    }

    // MARK: Favorite primes

    enum FavoritePrimesAction: Equatable {
        case deleteFavoritePrimes(atOffsets: [Int])
        case loadButtonTapped
        case loadedFavoritePrimes([Int])
    }

    struct FavoritePrimesEnvironment {
        var load: () -> [Int]
    }

    @MainActor static let favoritePrimesReducer = Reducer<[Int], FavoritePrimesAction, FavoritePrimesEnvironment> {
        favoritePrimes, action, environment in
        switch action {
        case .deleteFavoritePrimes(let offsets):
            for index in offsets.sorted(by: >) { favoritePrimes.remove(at: index) }
            return .none
        case .loadButtonTapped:
            // An effect, so the pullbacks have a child action to map back into an app action.
            return .sync { .loadedFavoritePrimes(environment.load()) }
        case .loadedFavoritePrimes(let primes):
            favoritePrimes = primes
            return .none
        }
    }

    // MARK: The app

    enum Activity: Equatable {
        case addedFavoritePrime(Int)
        case removedFavoritePrime(Int)
    }

    struct AppState: Equatable {
        var count = 0
        var favoritePrimes: [Int] = []
        var activityFeed: [Activity] = []

        /// The prime modal's slice, made of two of the app's fields.
        var primeModal: PrimeModalState {
            get { PrimeModalState(count: count, favoritePrimes: favoritePrimes) }
            set {
                count = newValue.count
                favoritePrimes = newValue.favoritePrimes
            }
        }
    }

    enum AppAction: Equatable {
        case counter(CounterAction)
        case primeModal(PrimeModalAction)
        case favoritePrimes(FavoritePrimesAction)

        // The "enum property" action paths.

        var counter: CounterAction? {
            get { if case .counter(let action) = self { action } else { nil } }
            set { if let newValue { self = .counter(newValue) } }
        }

        var primeModal: PrimeModalAction? {
            get { if case .primeModal(let action) = self { action } else { nil } }
            set { if let newValue { self = .primeModal(newValue) } }
        }

        var favoritePrimes: FavoritePrimesAction? {
            get { if case .favoritePrimes(let action) = self { action } else { nil } }
            set { if let newValue { self = .favoritePrimes(newValue) } }
        }
    }

    struct AppEnvironment {
        var loadFavoritePrimes: () -> [Int] = { [] }
    }

    /// The two ways to pull a child reducer back along an action.
    enum PullbackForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `action: \AppAction.counter` (an optional property of the action enum).
        case enumProperties
        /// `action: /AppAction.counter` (a case path).
        case casePaths

        var testDescription: String { rawValue }
    }

    /// Records which feature reducers ran, in order.
    final class CallLog {
        var calls: [String] = []
    }

    /// A reducer that notes `name` in `log` each time it runs, then runs `reducer`.
    @MainActor
    static func recording<State, Action, Environment>(
        _ name: String, in log: CallLog?, _ reducer: Reducer<State, Action, Environment>
    ) -> Reducer<State, Action, Environment> {
        guard let log else { return reducer }
        return Reducer { state, action, environment in
            log.calls.append(name)
            return reducer(&state, action, environment)
        }
    }

    /// The app reducer, with its features pulled back in `form`; `log` records which ran.
    @MainActor
    static func appReducer(_ form: PullbackForm, log: CallLog? = nil) -> Reducer<AppState, AppAction, AppEnvironment> {
        let counter = recording("counter", in: log, counterReducer)
        let primeModal = recording("primeModal", in: log, primeModalReducer)
        let favoritePrimes = recording("favoritePrimes", in: log, favoritePrimesReducer)
        let toFavoritesEnvironment = { (app: AppEnvironment) in FavoritePrimesEnvironment(load: app.loadFavoritePrimes) }
        let features: Reducer<AppState, AppAction, AppEnvironment> = switch form {
        case .enumProperties:
            .combine(
                counter.pullback(state: \.count, action: \.counter, environment: { _ in () }),
                primeModal.pullback(state: \.primeModal, action: \.primeModal, environment: { _ in () }),
                favoritePrimes.pullback(state: \.favoritePrimes, action: \.favoritePrimes,
                                        environment: toFavoritesEnvironment))
        case .casePaths:
            .combine(
                counter.pullback(state: \.count, action: /AppAction.counter, environment: { _ in () }),
                primeModal.pullback(state: \.primeModal, action: /AppAction.primeModal, environment: { _ in () }),
                favoritePrimes.pullback(state: \.favoritePrimes, action: /AppAction.favoritePrimes,
                                        environment: toFavoritesEnvironment))
        }
        return activityFeed(features)
    }

    /// A higher-order reducer: notes favorites added and removed, before `reducer` changes them.
    @MainActor
    static func activityFeed(
        _ reducer: Reducer<AppState, AppAction, AppEnvironment>
    ) -> Reducer<AppState, AppAction, AppEnvironment> {
        Reducer { state, action, environment in
            switch action {
            case .primeModal(.saveFavoritePrimeTapped):
                state.activityFeed.append(.addedFavoritePrime(state.count))
            case .primeModal(.removeFavoritePrimeTapped):
                state.activityFeed.append(.removedFavoritePrime(state.count))
            case .favoritePrimes(.deleteFavoritePrimes(let offsets)):
                for index in offsets { state.activityFeed.append(.removedFavoritePrime(state.favoritePrimes[index])) }
            case .counter, .favoritePrimes(.loadButtonTapped), .favoritePrimes(.loadedFavoritePrimes):
                break
            }
            return reducer(&state, action, environment)
        }
    }

    @MainActor
    static func testStore(
        _ form: PullbackForm, initialState: AppState = AppState(), environment: AppEnvironment = AppEnvironment(),
        log: CallLog? = nil
    ) -> TestStore<AppState, AppAction, AppEnvironment> {
        TestStore(initialState: initialState, reducer: appReducer(form, log: log), environment: environment)
    }
}

@MainActor
@Suite("Example: PrimeTime — counter, prime modal and favorite primes pulled back into one app reducer")
struct PrimeTimeExampleTests {
    typealias AppState = PrimeTimeExample.AppState
    typealias AppAction = PrimeTimeExample.AppAction

    // MARK: Each feature through the app reducer

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func counterChangesOnlyTheCount(_ form: PrimeTimeExample.PullbackForm) {
        let store = PrimeTimeExample.testStore(form, initialState: AppState(count: 2, favoritePrimes: [2], activityFeed: [.addedFavoritePrime(2)]))
        store.send(.counter(.incrTapped)) { $0.count = 3 }
        store.send(.counter(.incrTapped)) { $0.count = 4 }
        store.send(.counter(.decrTapped)) { $0.count = 3 }
    }

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func primeModalSavesAndRemovesTheCountAsAFavorite(_ form: PrimeTimeExample.PullbackForm) {
        let store = PrimeTimeExample.testStore(form, initialState: AppState(count: 7, favoritePrimes: [2, 3]))
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [2, 3, 7]
            $0.activityFeed = [.addedFavoritePrime(7)]
        }
        store.send(.primeModal(.removeFavoritePrimeTapped)) {
            $0.favoritePrimes = [2, 3]
            $0.activityFeed = [.addedFavoritePrime(7), .removedFavoritePrime(7)]
        }
    }

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func favoritePrimesDeletesAtOffsets(_ form: PrimeTimeExample.PullbackForm) {
        let store = PrimeTimeExample.testStore(form, initialState: AppState(count: 1, favoritePrimes: [2, 3, 5, 7]))
        store.send(.favoritePrimes(.deleteFavoritePrimes(atOffsets: [1, 3]))) {
            $0.favoritePrimes = [2, 5]
            $0.activityFeed = [.removedFavoritePrime(3), .removedFavoritePrime(7)]
        }
    }

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func aChildEffectIsMappedBackIntoAnAppAction(_ form: PrimeTimeExample.PullbackForm) {
        var loads = 0
        let store = PrimeTimeExample.testStore(form, environment: PrimeTimeExample.AppEnvironment(loadFavoritePrimes: {
            loads += 1
            return [2, 3, 5]
        }))
        store.send(.favoritePrimes(.loadButtonTapped))
        store.receive(.favoritePrimes(.loadedFavoritePrimes([2, 3, 5]))) { $0.favoritePrimes = [2, 3, 5] }
        #expect(loads == 1)
        #expect(store.runningEffectCount == 0)
    }

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func aWholeSession(_ form: PrimeTimeExample.PullbackForm) {
        let store = PrimeTimeExample.testStore(form)
        store.send(.counter(.incrTapped)) { $0.count = 1 }
        store.send(.counter(.incrTapped)) { $0.count = 2 }
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [2]
            $0.activityFeed = [.addedFavoritePrime(2)]
        }
        store.send(.counter(.incrTapped)) { $0.count = 3 }
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [2, 3]
            $0.activityFeed = [.addedFavoritePrime(2), .addedFavoritePrime(3)]
        }
        store.send(.favoritePrimes(.deleteFavoritePrimes(atOffsets: [0]))) {
            $0.favoritePrimes = [3]
            $0.activityFeed = [.addedFavoritePrime(2), .addedFavoritePrime(3), .removedFavoritePrime(2)]
        }
        store.send(.primeModal(.removeFavoritePrimeTapped)) {
            $0.favoritePrimes = []
            $0.activityFeed = [
                .addedFavoritePrime(2), .addedFavoritePrime(3), .removedFavoritePrime(2), .removedFavoritePrime(3),
            ]
        }
    }

    // MARK: Isolation: an action for one feature runs only that feature's reducer

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func anActionRunsOnlyItsOwnFeaturesReducer(_ form: PrimeTimeExample.PullbackForm) {
        let log = PrimeTimeExample.CallLog()
        let store = PrimeTimeExample.testStore(form, environment: PrimeTimeExample.AppEnvironment(loadFavoritePrimes: { [11] }), log: log)
        store.send(.counter(.incrTapped)) { $0.count = 1 }
        #expect(log.calls == ["counter"])
        store.send(.primeModal(.saveFavoritePrimeTapped)) {
            $0.favoritePrimes = [1]
            $0.activityFeed = [.addedFavoritePrime(1)]
        }
        #expect(log.calls == ["counter", "primeModal"])
        store.send(.favoritePrimes(.loadButtonTapped))
        store.receive(.favoritePrimes(.loadedFavoritePrimes([11]))) { $0.favoritePrimes = [11] }
        #expect(log.calls == ["counter", "primeModal", "favoritePrimes", "favoritePrimes"])
    }

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func aPulledBackReducerIgnoresOtherFeaturesActions(_ form: PrimeTimeExample.PullbackForm) {
        let favorites: Reducer<AppState, AppAction, PrimeTimeExample.AppEnvironment> = switch form {
        case .enumProperties:
            PrimeTimeExample.favoritePrimesReducer.pullback(
                state: \.favoritePrimes, action: \.favoritePrimes, environment: { _ in .init(load: { [] }) })
        case .casePaths:
            PrimeTimeExample.favoritePrimesReducer.pullback(
                state: \.favoritePrimes, action: /AppAction.favoritePrimes, environment: { _ in .init(load: { [] }) })
        }
        let before = AppState(count: 5, favoritePrimes: [5], activityFeed: [])
        var state = before
        for action: AppAction in [.counter(.incrTapped), .primeModal(.saveFavoritePrimeTapped), .primeModal(.removeFavoritePrimeTapped)] {
            let effect = favorites.run(&state, action, PrimeTimeExample.AppEnvironment())
            #expect(effect.isNone)
            #expect(state == before)
        }
    }

    @Test func bothPullbackFormsAgreeOnEveryAction() {
        let actions: [AppAction] = [
            .counter(.incrTapped), .counter(.incrTapped), .primeModal(.saveFavoritePrimeTapped),
            .counter(.incrTapped), .primeModal(.saveFavoritePrimeTapped), .counter(.decrTapped),
            .primeModal(.removeFavoritePrimeTapped), .favoritePrimes(.deleteFavoritePrimes(atOffsets: [0])),
            .counter(.decrTapped),
        ]
        let viaProperties = Store(initialState: AppState(), reducer: PrimeTimeExample.appReducer(.enumProperties),
                                  environment: PrimeTimeExample.AppEnvironment())
        let viaCasePaths = Store(initialState: AppState(), reducer: PrimeTimeExample.appReducer(.casePaths),
                                 environment: PrimeTimeExample.AppEnvironment())
        for action in actions {
            viaProperties.send(action)
            viaCasePaths.send(action)
            #expect(viaProperties.state == viaCasePaths.state)
        }
        #expect(viaCasePaths.state == AppState(
            count: 1, favoritePrimes: [],
            activityFeed: [.addedFavoritePrime(2), .addedFavoritePrime(3), .removedFavoritePrime(2), .removedFavoritePrime(3)]))
    }

    // MARK: Scoped stores: each feature's view sees only its slice

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func aScopedStoreSeesOnlyItsSlice(_ form: PrimeTimeExample.PullbackForm) {
        let store = Store(initialState: AppState(count: 3), reducer: PrimeTimeExample.appReducer(form),
                          environment: PrimeTimeExample.AppEnvironment())
        let counter: Store<Int, PrimeTimeExample.CounterAction> = store.scope(state: \.count, action: AppAction.counter)
        let primeModal: Store<PrimeTimeExample.PrimeModalState, PrimeTimeExample.PrimeModalAction> =
            store.scope(state: \.primeModal, action: AppAction.primeModal)
        let favorites: Store<[Int], PrimeTimeExample.FavoritePrimesAction> =
            store.scope(state: \.favoritePrimes, action: AppAction.favoritePrimes)

        var favoritesSeen: [[Int]] = []
        let observation = favorites.publisher(for: \.self).sink { favoritesSeen.append($0) }
        defer { observation.cancel() }

        primeModal.send(.saveFavoritePrimeTapped)
        #expect(primeModal.state == PrimeTimeExample.PrimeModalState(count: 3, favoritePrimes: [3]))
        #expect(favorites.state == [3])
        #expect(store.state.activityFeed == [.addedFavoritePrime(3)])

        // The counter's sends reach the root and show in the slices that hold the count.
        counter.send(.incrTapped)
        counter.send(.incrTapped)
        #expect(counter.state == 5)
        #expect(primeModal.state == PrimeTimeExample.PrimeModalState(count: 5, favoritePrimes: [3]))
        #expect(store.state.count == 5)

        primeModal.send(.saveFavoritePrimeTapped)
        favorites.send(.deleteFavoritePrimes(atOffsets: [0]))
        #expect(favorites.state == [5])
        #expect(store.state == AppState(
            count: 5, favoritePrimes: [5], activityFeed: [.addedFavoritePrime(3), .addedFavoritePrime(5), .removedFavoritePrime(3)]))

        // The favorites' view saw its slice change three times, and not the count's changes.
        #expect(favoritesSeen == [[], [3], [3, 5], [5]])
        #expect(store.runningEffectCount == 0)
    }

    @Test(arguments: PrimeTimeExample.PullbackForm.allCases)
    func aScopedStoresEffectsAreMappedBackAndRunByTheRoot(_ form: PrimeTimeExample.PullbackForm) {
        let store = Store(initialState: AppState(), reducer: PrimeTimeExample.appReducer(form),
                          environment: PrimeTimeExample.AppEnvironment(loadFavoritePrimes: { [2, 3] }))
        let favorites = store.scope(state: \.favoritePrimes, action: AppAction.favoritePrimes)
        favorites.send(.loadButtonTapped)
        #expect(favorites.state == [2, 3])
        #expect(store.state == AppState(count: 0, favoritePrimes: [2, 3]))
        #expect(store.runningEffectCount == 0)
    }
}
