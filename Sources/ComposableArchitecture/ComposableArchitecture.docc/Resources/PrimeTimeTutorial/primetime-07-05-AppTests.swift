import ComposableArchitectureTesting
import StreamsTesting
import Testing

@MainActor
@Suite("The app")
struct AppTests {
    @Test func theFeaturesShareTheCountAndTheFavorites() {
        var file: [Int]?
        let store = Store(
            initialState: AppState(),
            reducer: appReducer,
            environment: AppEnvironment(
                nthPrime: { _ in .unimplemented("nthPrime") },
                mainQueue: .unimplemented,
                favoritesFile: FavoritesFile(load: { file }, save: { file = $0 }),
                log: { _ in }
            )
        )
        store.send(.counter(.incrementButtonTapped))
        store.send(.counter(.incrementButtonTapped))
        store.send(.primeModal(.saveFavoritePrimeTapped))
        #expect(store.state.count == 2)
        #expect(store.state.favoritePrimes == [2])
        #expect(file == [2])
    }

    @Test func theMiddlewaresSeeEveryAction() {
        var saved: [[Int]] = []
        var log: [String] = []
        let store = TestStore(
            initialState: AppState(count: 3, favoritePrimes: [2]),
            reducer: appReducer,
            environment: AppEnvironment(
                nthPrime: { _ in .unimplemented("nthPrime") },
                mainQueue: .unimplemented,
                favoritesFile: FavoritesFile(load: { nil }, save: { saved.append($0) }),
                log: { log.append($0) }
            )
        )
        store.send(.primeModal(.saveFavoritePrimeTapped)) { $0.favoritePrimes = [2, 3] }
        store.send(.counter(.incrementButtonTapped)) { $0.count = 4 }
        store.send(.favoritePrimes(.deleteFavoritePrimes([0]))) { $0.favoritePrimes = [3] }

        #expect(log == [
            "\(AppAction.primeModal(.saveFavoritePrimeTapped)): count 3, favorites [2, 3]",
            "\(AppAction.counter(.incrementButtonTapped)): count 4, favorites [2, 3]",
            "\(AppAction.favoritePrimes(.deleteFavoritePrimes([0]))): count 4, favorites [3]",
        ])
        #expect(saved == [[2, 3], [3]])
    }
}
