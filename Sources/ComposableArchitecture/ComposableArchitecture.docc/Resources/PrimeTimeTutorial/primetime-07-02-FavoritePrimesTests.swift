import ComposableArchitectureTesting
import Testing

@MainActor
@Suite("Favorite primes")
struct FavoritePrimesTests {
    @Test func deleteFavorites() {
        let store = TestStore(
            initialState: [2, 3, 5, 7],
            reducer: favoritePrimesReducer,
            environment: FavoritesFile(load: { nil }, save: { _ in Issue.record("saved") })
        )
        store.send(.deleteFavoritePrimes([1, 3])) { $0 = [2, 5] }
    }
}
