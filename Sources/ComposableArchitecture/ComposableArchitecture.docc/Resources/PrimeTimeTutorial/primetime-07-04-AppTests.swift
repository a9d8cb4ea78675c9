import ComposableArchitecture
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
}
