import ComposableArchitecture
import Foundation

/// What the user can do on the list of favorite primes, and what the file sends back.
enum FavoritePrimesAction: Equatable {
    case deleteFavoritePrimes(IndexSet)
    case saveButtonTapped
    case loadButtonTapped
    case favoritePrimesLoaded([Int])
}

/// The favorites file, as the feature sees it: one way to read the list, one way to write it.
/// The app passes the real file; a test passes closures of its own.
struct FavoritesFile {
    /// Reads the list: `nil` when there is no file (or it is not a list of numbers).
    var load: () -> [Int]?
    /// Writes the list, replacing the file.
    var save: ([Int]) -> Void

    /// The list as JSON in the file at `url`, such as `[2,3,5]`.
    static func live(url: URL) -> FavoritesFile {
        FavoritesFile(
            load: {
                guard let data = try? Data(contentsOf: url) else { return nil }
                return try? JSONDecoder().decode([Int].self, from: data)
            },
            save: { primes in
                guard let data = try? JSONEncoder().encode(primes) else { return }
                try? data.write(to: url, options: .atomic)
            }
        )
    }
}

/// The favorites list's logic. Its whole state is the list; its environment is the file.
@MainActor let favoritePrimesReducer = Reducer<[Int], FavoritePrimesAction, FavoritesFile> { favoritePrimes, action, file in
    switch action {
    case let .deleteFavoritePrimes(indexSet):
        for index in indexSet.reversed() where index < favoritePrimes.count {
            favoritePrimes.remove(at: index)
        }
        return .none

    case .saveButtonTapped:
        let primes = favoritePrimes
        return .fireAndForget { file.save(primes) }

    case .loadButtonTapped:
        return .sync { .favoritePrimesLoaded(file.load() ?? []) }

    case let .favoritePrimesLoaded(primes):
        favoritePrimes = primes
        return .none
    }
}
