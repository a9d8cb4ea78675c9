import Foundation

/// PrimeTime's test-only modes: hidden options (not in `--help`) that the crash and concurrency
/// tests run the real executable with. Each one works on the `--favorites-file` through the same
/// code as the app's saves (atomic, locked, merging), without a screen.
///
/// - `--test-save-loop`: reads the file, then saves ``saveLoopLists`` in turn, until it is
///   killed (or, so that a forgotten one does not run forever, for at most a minute, then exits 0).
///   It prints `saving` once the first save has succeeded; the tests then kill it with SIGKILL at
///   a random moment and check the file is one whole list. It exits 1 (with the message on
///   standard error) if a save fails.
/// - `--test-add-favorites 2,3,5`: reads the file, then adds the primes one at a time, saving
///   after each, as a user adding favorites with autosave does; exits 0, or 1 (with the message
///   on standard error) if a read or a save fails. Two of them run at once on the same file must
///   together leave every favorite either one added.
public enum FavoritesTestMode: Equatable, Sendable {
    /// `--test-save-loop`.
    case saveLoop
    /// `--test-add-favorites PRIMES` (comma-separated).
    case addFavorites([Int])

    /// The lists `--test-save-loop` saves in turn: the first 2,000 primes, then the first 1,000
    /// in reverse order (so the file's length and bytes differ from one save to the next).
    public static let saveLoopLists: [[Int]] = {
        var primes: [Int] = []
        var candidate = 2
        while primes.count < 2_000 {
            if Primes.isPrime(candidate) { primes.append(candidate) }
            candidate += 1
        }
        return [primes, Array(primes.prefix(1_000).reversed())]
    }()

    /// Runs the mode on `file` and returns the exit status; `output` and `errors` get its lines.
    ///
    /// - Parameters:
    ///   - file: The URL of the favorites file to work on.
    ///   - output: A closure that writes a line of output.
    ///   - errors: A closure that writes a line of error output.
    /// - Returns: The exit status.
    public func run(file: URL, output: (String) -> Void, errors: (String) -> Void) -> Int32 {
        let store = FavoritesFileStore(file: file)
        var favorites: [Int]
        switch store.read() {
        case let .success(read):
            favorites = read.favorites
        case let .failure(error):
            errors(error.message)
            return 1
        }
        switch self {
        case .saveLoop:
            var round = 0
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(60))
            while clock.now < deadline {
                switch store.save(Self.saveLoopLists[round % 2]) {
                case .success:
                    if round == 0 { output("saving") }
                case let .failure(error):
                    errors(error.message)
                    return 1
                }
                round += 1
            }
            return 0
        case let .addFavorites(primes):
            for prime in primes where !favorites.contains(prime) {
                switch store.save(favorites + [prime]) {
                case let .success(written):
                    favorites = written
                case let .failure(error):
                    errors(error.message)
                    return 1
                }
            }
            output(favorites.map(String.init).joined(separator: ","))
            return 0
        }
    }
}
