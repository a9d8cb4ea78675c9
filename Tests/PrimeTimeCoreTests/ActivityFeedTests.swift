import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
import PrimeTimeCore
import Testing

/// A clock for tests: each reading is one second after the previous, from the epoch.
@MainActor
final class TestClock {
    private(set) var readings = 0

    func now() -> Date {
        defer { readings += 1 }
        return Date(timeIntervalSince1970: TimeInterval(readings))
    }
}

@MainActor
@Suite("Activity feed")
struct ActivityFeedTests {
    struct State: Equatable {
        var favorites: [Int] = []
        var feed: [Activity] = []
        var other = 0
    }

    enum Action: Equatable {
        case add(Int), remove(Int), replace([Int]), touchOther
    }

    static func makeReducer(limit: Int = Activity.feedLimit) -> Reducer<State, Action, TestClock> {
        Reducer<State, Action, TestClock> { state, action, _ in
            switch action {
            case let .add(prime): state.favorites.append(prime)
            case let .remove(prime): state.favorites.removeAll { $0 == prime }
            case let .replace(primes): state.favorites = primes
            case .touchOther: state.other += 1
            }
            return .none
        }
        .activityFeed(favoritePrimes: \.favorites, activityFeed: \.feed, limit: limit, now: { $0.now() })
    }

    static func at(_ seconds: TimeInterval, _ kind: Activity.Kind) -> Activity {
        Activity(timestamp: Date(timeIntervalSince1970: seconds), kind: kind)
    }

    @Test func recordsAdditionsAndRemovalsWithTheClock() {
        let clock = TestClock()
        let store = TestStore(initialState: State(), reducer: Self.makeReducer(), environment: clock)
        store.send(.add(2)) {
            $0.favorites = [2]
            $0.feed = [Self.at(0, .addedFavoritePrime(2))]
        }
        store.send(.add(3)) {
            $0.favorites = [2, 3]
            $0.feed.append(Self.at(1, .addedFavoritePrime(3)))
        }
        store.send(.remove(2)) {
            $0.favorites = [3]
            $0.feed.append(Self.at(2, .removedFavoritePrime(2)))
        }
    }

    @Test func aReplacementRecordsRemovalsThenAdditionsAtOneInstant() {
        let clock = TestClock()
        let store = TestStore(initialState: State(favorites: [2, 3, 5]), reducer: Self.makeReducer(), environment: clock)
        store.send(.replace([5, 7, 3, 11])) {
            $0.favorites = [5, 7, 3, 11]
            $0.feed = [
                Self.at(0, .removedFavoritePrime(2)),
                Self.at(0, .addedFavoritePrime(7)),
                Self.at(0, .addedFavoritePrime(11)),
            ]
        }
        #expect(clock.readings == 1)
    }

    @Test func noChangeNoEntryAndTheClockIsNotRead() {
        let clock = TestClock()
        let store = TestStore(initialState: State(favorites: [2, 3]), reducer: Self.makeReducer(), environment: clock)
        store.send(.touchOther) { $0.other = 1 }
        store.send(.remove(5))
        // Reordering changes the list but adds or removes no favorite.
        store.send(.replace([3, 2])) { $0.favorites = [3, 2] }
        #expect(clock.readings == 0)
    }

    @Test func keepsTheMostRecentEntriesUpToTheLimit() {
        let clock = TestClock()
        let store = TestStore(initialState: State(), reducer: Self.makeReducer(limit: 2), environment: clock)
        store.send(.add(2)) {
            $0.favorites = [2]
            $0.feed = [Self.at(0, .addedFavoritePrime(2))]
        }
        store.send(.add(3)) {
            $0.favorites = [2, 3]
            $0.feed = [Self.at(0, .addedFavoritePrime(2)), Self.at(1, .addedFavoritePrime(3))]
        }
        store.send(.add(5)) {
            $0.favorites = [2, 3, 5]
            $0.feed = [Self.at(1, .addedFavoritePrime(3)), Self.at(2, .addedFavoritePrime(5))]
        }
        store.send(.replace([])) {
            $0.favorites = []
            $0.feed = [Self.at(3, .removedFavoritePrime(3)), Self.at(3, .removedFavoritePrime(5))]
        }
    }

    @Test func theDefaultLimitIs100() {
        let clock = TestClock()
        var state = State()
        let reducer = Self.makeReducer()
        for prime in (2...1000).filter(Primes.isPrime).prefix(120) {
            _ = reducer.run(&state, .add(prime), clock)
        }
        #expect(state.feed.count == 100)
        #expect(state.feed.first == Self.at(20, .addedFavoritePrime(Primes.nth(21)!)))
        #expect(state.feed.last == Self.at(119, .addedFavoritePrime(Primes.nth(120)!)))
    }
}
