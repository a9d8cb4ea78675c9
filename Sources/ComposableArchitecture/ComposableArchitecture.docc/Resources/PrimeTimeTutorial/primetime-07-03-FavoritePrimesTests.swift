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

    @Test func saveAndLoad() {
        var file: [Int]? = [11, 13]
        let store = TestStore(
            initialState: [2, 3],
            reducer: favoritePrimesReducer,
            environment: FavoritesFile(load: { file }, save: { file = $0 })
        )
        store.send(.saveButtonTapped)
        #expect(file == [2, 3])

        file = [17]
        store.send(.loadButtonTapped)
        store.receive(.favoritePrimesLoaded([17])) { $0 = [17] }
    }
}
