import ComposableArchitectureTesting
import PrimeTimeCore
import Testing

@MainActor
@Suite("Prime modal")
struct PrimeModalTests {
    @Test func saveAndRemoveAFavoritePrime() {
        let store = TestStore(
            initialState: PrimeModalState(count: 7, favoritePrimes: [2, 3]), reducer: primeModalReducer, environment: ())
        #expect(store.state.isPrime)
        #expect(!store.state.isFavorite)
        store.send(.saveFavoritePrimeTapped) { $0.favoritePrimes = [2, 3, 7] }
        #expect(store.state.isFavorite)
        store.send(.removeFavoritePrimeTapped) { $0.favoritePrimes = [2, 3] }
        #expect(!store.state.isFavorite)
    }

    @Test func savingADuplicateChangesNothing() {
        let store = TestStore(
            initialState: PrimeModalState(count: 3, favoritePrimes: [2, 3, 5]), reducer: primeModalReducer, environment: ())
        store.send(.saveFavoritePrimeTapped)
    }

    @Test func savingANonPrimeChangesNothing() {
        for count in [-7, 0, 1, 4, 9, 25] {
            let store = TestStore(
                initialState: PrimeModalState(count: count, favoritePrimes: [2]), reducer: primeModalReducer, environment: ())
            #expect(!store.state.isPrime)
            store.send(.saveFavoritePrimeTapped)
        }
    }

    @Test func removingANonFavoriteChangesNothing() {
        let store = TestStore(
            initialState: PrimeModalState(count: 11, favoritePrimes: [2, 3]), reducer: primeModalReducer, environment: ())
        store.send(.removeFavoritePrimeTapped)
    }

    @Test func removeKeepsTheOrderOfTheOthers() {
        let store = TestStore(
            initialState: PrimeModalState(count: 3, favoritePrimes: [5, 3, 2, 7]), reducer: primeModalReducer, environment: ())
        store.send(.removeFavoritePrimeTapped) { $0.favoritePrimes = [5, 2, 7] }
    }
}
