import ComposableArchitecture
import Dispatch
import Foundation

// The favorite primes: a list the user deletes from, saved to and loaded from a JSON file.
//
// The file is only ever written by a save: an explicit one (the user asks), or an autosave after
// the list changed (``Reducer/autosavingFavoritePrimes(state:action:environment:)``). Autosave
// waits until the file has been read, so a change made before the launch load returns never
// overwrites favorites the app has not seen yet; and a file that could not be read (not JSON,
// not a list of primes, no permission) is left untouched until the user saves explicitly (a
// corrupt one is copied aside first). On disk (FavoritesFileStore.swift) a save is atomic and
// fsync'd, and merges, under a lock, with what other PrimeTime processes saved to the same file.

// MARK: - The file

/// Why the favorites file could not be read or written. Its ``message`` is what the user sees.
public struct FavoritesFileError: Error, Equatable, Sendable {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// The file exists but could not be read (permissions, a directory, ...).
        case unreadable
        /// The file is not valid JSON.
        case notJSON
        /// The file is JSON, but not a list of distinct primes.
        case notPrimes
        /// The file could not be written.
        case unwritable
    }

    /// What went wrong.
    public var kind: Kind
    /// The file's path, as shown to the user.
    public var path: String
    /// Why, in a few words (from the system or the decoder).
    public var reason: String

    /// What the user can do about it, or what became of the file (a sentence or two, appended
    /// to the ``message``); `nil` when there is nothing more to say.
    public var advice: String?

    /// An error of `kind` about the file at `path`, because of `reason`, with `advice` for the user.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - path: The file's path, as shown to the user.
    ///   - reason: Why, in a few words.
    ///   - advice: What the user can do about it, or `nil`.
    public init(_ kind: Kind, path: String, reason: String, advice: String? = nil) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.advice = advice
    }

    /// The sentences shown to the user: what happened, which file, what became of the file and
    /// the list, and (``advice``) what to do.
    public var message: String {
        guard let advice else { return summary }
        return summary + " " + advice
    }

    /// What happened, and what became of the file and the list.
    private var summary: String {
        switch kind {
        case .unreadable:
            "Could not read the favorites file \(path): \(reason). It was left untouched; saving overwrites it."
        case .notJSON:
            "The favorites file \(path) is not valid JSON: \(reason). It was left untouched; saving overwrites it."
        case .notPrimes:
            "The favorites file \(path) is not a list of distinct primes: \(reason). It was left untouched; saving overwrites it."
        case .unwritable:
            "Could not save the favorites to \(path): \(reason). They are kept in memory."
        }
    }
}

/// The favorites file's format: a JSON array of distinct primes, such as `[2,3,5]`.
public enum FavoritesFile {
    /// `primes` as the file's bytes: a JSON array.
    ///
    /// - Parameter primes: The favorite primes, in order.
    /// - Returns: The JSON array of `primes`.
    public static func encode(_ primes: [Int]) -> Data {
        // Encoding an array of Int cannot fail.
        (try? JSONEncoder().encode(primes)) ?? Data("[]".utf8)
    }

    /// The primes in the file at `path` whose bytes are `data`, or why they are not a list of
    /// distinct primes (``FavoritesFileError/Kind/notJSON`` or ``FavoritesFileError/Kind/notPrimes``).
    ///
    /// ```swift
    /// let primes = FavoritesFile.decode(Data("[2,3]".utf8), path: "f.json")    // .success([2, 3])
    /// let notPrimes = FavoritesFile.decode(Data("[4]".utf8), path: "f.json")   // .failure(… "4 is not prime")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - path: The file's path, for the error message.
    /// - Returns: The primes, or the error saying why the bytes are not a list of distinct primes.
    public static func decode(_ data: Data, path: String) -> Result<[Int], FavoritesFileError> {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let reason = data.isEmpty ? "the file is empty" : jsonReason(error)
            return .failure(FavoritesFileError(.notJSON, path: path, reason: reason))
        }
        let primes: [Int]
        do {
            primes = try JSONDecoder().decode([Int].self, from: data)
        } catch {
            let found = json is [Any] ? "an array with something other than whole numbers" : "not an array"
            return .failure(FavoritesFileError(.notPrimes, path: path, reason: "expected an array of whole numbers, found \(found)"))
        }
        var seen = Set<Int>()
        for prime in primes {
            guard Primes.isPrime(prime) else {
                return .failure(FavoritesFileError(.notPrimes, path: path, reason: "\(prime) is not prime"))
            }
            guard seen.insert(prime).inserted else {
                return .failure(FavoritesFileError(.notPrimes, path: path, reason: "\(prime) appears twice"))
            }
        }
        return .success(primes)
    }

    /// A short reason from a JSON parser error.
    private static func jsonReason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty {
            return tidy(detail)
        }
        return tidy(nsError.localizedDescription)
    }
}

/// Reads and writes the favorites file, as effects.
///
/// Both effects send one `Result` and finish. Live (``live(file:faults:)``) the work runs on a serial
/// background queue, so reads and writes happen in the order they were started and never on the
/// main queue; the reducer delivers the results on its main queue. Tests pass closures returning
/// `Effect(value: ...)`.
public struct FavoritesFileClient {
    /// Reads the favorites: `.success(nil)` when there is no file yet, `.success(primes)` for a
    /// valid file, `.failure` for one that cannot be read or is not a list of distinct primes.
    public var load: () -> Effect<Result<[Int]?, FavoritesFileError>>
    /// Writes `primes`, replacing the file; sends back the primes it wrote (live, merged with
    /// what other processes saved, see ``live(file:faults:)``), or why it could not.
    public var save: (_ primes: [Int]) -> Effect<Result<[Int], FavoritesFileError>>

    /// A client that loads with `load` and saves with `save`.
    ///
    /// - Parameters:
    ///   - load: A closure that returns an effect reading the favorites.
    ///   - save: A closure that takes the primes and returns an effect writing them.
    public init(
        load: @escaping () -> Effect<Result<[Int]?, FavoritesFileError>>,
        save: @escaping (_ primes: [Int]) -> Effect<Result<[Int], FavoritesFileError>>
    ) {
        self.load = load
        self.save = save
    }

    /// The client of the JSON file at `file`, on a serial background queue of its own.
    ///
    /// - Saving is atomic: the list is written to a temporary file in the same folder, flushed to
    ///   disk (`fsync`, then the folder's `fsync`), and renamed over the file. Whenever the
    ///   process dies, even by SIGKILL, the file holds the old list or the new one.
    /// - Saving merges, under a lock: several PrimeTime processes may share the file. A save
    ///   takes an exclusive `flock` on the file's folder, reads the file, and writes a three-way
    ///   merge of it with this process's list (against what this process last read or wrote):
    ///   favorites another process saved are kept, and only a favorite removed on purpose goes.
    ///   The save answers with the merged list.
    /// - A file that is not a list of distinct primes is copied to `FILE.corrupt` (or
    ///   `FILE.corrupt-2`, ...) when read or saved over, and the load error's message names the copy.
    /// - Every failure says what failed, on which path, and what to do
    ///   (``FavoritesFileError/advice``); a failed save leaves the file as it was.
    ///
    /// `faults` makes steps fail with an `errno` instead of running, for tests (a full disk is
    /// `{ $0 == .write ? ENOSPC : nil }`); the app passes none.
    ///
    /// - Parameters:
    ///   - file: The URL of the JSON file.
    ///   - faults: A closure that takes a step and returns the `errno` to fail it with, or `nil` to
    ///     run it; none fail by default.
    /// - Returns: The client of the file.
    public static func live(
        file: URL, faults: @escaping @Sendable (FavoritesFileStep) -> Int32? = { _ in nil }
    ) -> FavoritesFileClient {
        let queue = DispatchQueue(label: "PrimeTime.favoritesFile", qos: .userInitiated)
        let store = FavoritesFileStore(file: file, faults: faults)
        return FavoritesFileClient(
            load: {
                .future { callback in
                    queue.async { callback(store.read()) }
                }
            },
            save: { primes in
                .future { callback in
                    queue.async { callback(store.save(primes)) }
                }
            }
        )
    }
}

/// A system message as a reason inside a sentence: without Foundation's "The operation could
/// not be completed." preamble, nor a final period.
private func tidy(_ description: String) -> String {
    var text = Substring(description)
    let preamble = "The operation could not be completed."
    if text.hasPrefix(preamble) { text = text.dropFirst(preamble.count) }
    text = text.drop(while: { $0 == " " })
    while text.last == "." || text.last == " " { text = text.dropLast() }
    return text.isEmpty ? description : String(text)
}

// MARK: - The feature

/// What the app knows about the favorites file, which decides whether changes are autosaved.
public enum FavoritesFileStatus: Equatable, Sendable {
    /// Not read yet: changes are not autosaved (the file may hold favorites not seen yet).
    case notLoaded
    /// Read, or written, successfully: changes are autosaved.
    case inSync
    /// It could not be read (see the message): left untouched, nothing is autosaved; an
    /// explicit save overwrites it.
    case leftUntouched
    /// Read, but the last write failed (see the message): the list in memory holds changes the
    /// file lacks. Changes are still autosaved, and a load keeps what only memory holds.
    case unsaved
}

/// The favorite primes screen's state.
public struct FavoritePrimesState: Equatable, Sendable {
    /// The favorite primes, in the order they were saved.
    public var favoritePrimes: [Int]
    /// A problem with the favorites file to show the user, until dismissed.
    public var message: String?
    /// What the app knows about the file (whether changes are autosaved).
    public var fileStatus: FavoritesFileStatus

    /// A state with `favoritePrimes`, no message, and the file not read yet by default.
    ///
    /// - Parameters:
    ///   - favoritePrimes: The favorite primes, in the order they were saved; none by default.
    ///   - message: A problem with the file to show, or `nil`.
    ///   - fileStatus: What the app knows about the file; not read yet by default.
    public init(favoritePrimes: [Int] = [], message: String? = nil, fileStatus: FavoritesFileStatus = .notLoaded) {
        self.favoritePrimes = favoritePrimes
        self.message = message
        self.fileStatus = fileStatus
    }
}

/// What happens on the favorite primes screen.
public enum FavoritePrimesAction: Equatable, Sendable {
    /// Delete the favorites at these positions (0-based; positions past the end are ignored).
    case deleteFavoritePrimes(atOffsets: IndexSet)
    /// Write the list to the file, even one that was left untouched.
    case saveButtonTapped
    /// Read the list from the file. The app sends it at launch. The file's list replaces the
    /// one in memory when the two were in sync; otherwise favorites only memory holds are kept
    /// (after the file's) and saved.
    case loadButtonTapped
    /// The file client read the file: the primes (`nil`: no file), or why not.
    case loadResponse(Result<[Int]?, FavoritesFileError>)
    /// The file client wrote the file: the primes written, or why not.
    case saveResponse(Result<[Int], FavoritesFileError>)
    /// The file client wrote the file, merged with changes another PrimeTime process had saved to
    /// it: `sent` is the list this app asked to save, `written` what the file now holds (the
    /// favorites the other process added, without the ones it removed).
    case mergedSaveResponse(sent: [Int], written: [Int])
    /// The user dismissed the message.
    case messageDismissed
}

/// What the favorite primes feature needs from the outside world.
public struct FavoritePrimesEnvironment {
    /// Reads and writes the favorites file.
    public var file: FavoritesFileClient
    /// Where file results are delivered: the main queue live, a `TestScheduler` in tests.
    public var mainQueue: AnySchedulerOf<DispatchQueue>

    /// An environment using `file`, delivering on `mainQueue`.
    ///
    /// - Parameters:
    ///   - file: The client that reads and writes the favorites file.
    ///   - mainQueue: Where the file's answers are delivered.
    public init(file: FavoritesFileClient, mainQueue: AnySchedulerOf<DispatchQueue>) {
        self.file = file
        self.mainQueue = mainQueue
    }

    /// The effect that writes `primes` and feeds back ``FavoritePrimesAction/saveResponse(_:)``
    /// (or ``FavoritePrimesAction/mergedSaveResponse(sent:written:)`` when the file client merged
    /// in another process's changes), on the main queue. A newer save replaces an older one's
    /// response (writes happen in order).
    func save(_ primes: [Int]) -> Effect<FavoritePrimesAction> {
        file.save(primes)
            .receive(on: mainQueue)
            .map { result in
                if case let .success(written) = result, written != primes {
                    return FavoritePrimesAction.mergedSaveResponse(sent: primes, written: written)
                }
                return FavoritePrimesAction.saveResponse(result)
            }
            .cancellable(id: FavoritesFileID.save, cancelInFlight: true)
    }
}

/// Identifiers of the file work in flight.
enum FavoritesFileID: Hashable, Sendable {
    case load, save
}

/// The favorite primes logic.
///
/// - Delete removes the favorites at the offsets (autosaving is
///   ``Reducer/autosavingFavoritePrimes(state:action:environment:)``'s job).
/// - Load reads the file off the main queue; the response replaces the list (a missing file
///   gives an empty list) and marks the file ``FavoritesFileStatus/inSync``. It never loses a
///   favorite that only memory holds — one saved before the launch load returned, or while the
///   file was left untouched, or since a write failed: those stay, after the file's, and the
///   merged list is saved. A file that cannot be read leaves the list as it was, shows why, and
///   marks the file ``FavoritesFileStatus/leftUntouched``.
/// - Save writes the list (and cancels a load in flight, whose answer would undo what the user
///   just saved); success marks the file in sync and clears the message; failure shows why and
///   keeps the list. When the save merged in another PrimeTime process's changes to the same
///   file, those are applied to the list: the favorites it added appear (after this one's), the
///   ones it removed go; a change made here since the save started stays (and is autosaved).
@MainActor public let favoritePrimesReducer = Reducer<FavoritePrimesState, FavoritePrimesAction, FavoritePrimesEnvironment> {
    state, action, environment in
    switch action {
    case let .deleteFavoritePrimes(offsets):
        for offset in offsets.reversed() where offset < state.favoritePrimes.count {
            state.favoritePrimes.remove(at: offset)
        }
        return .none

    case .saveButtonTapped:
        return .merge(.cancel(id: FavoritesFileID.load), environment.save(state.favoritePrimes))

    case .loadButtonTapped:
        return environment.file.load()
            .receive(on: environment.mainQueue)
            .map(FavoritePrimesAction.loadResponse)
            .cancellable(id: FavoritesFileID.load, cancelInFlight: true)

    case let .loadResponse(.success(primes)):
        let loaded = primes ?? []
        // In sync, memory holds nothing the file lacks; otherwise it may (see FavoritesFileStatus).
        let onlyInMemory = state.fileStatus == .inSync ? [] : state.favoritePrimes.filter { !loaded.contains($0) }
        state.favoritePrimes = loaded + onlyInMemory
        state.fileStatus = .inSync
        state.message = nil
        return onlyInMemory.isEmpty ? .none : environment.save(state.favoritePrimes)

    case let .loadResponse(.failure(error)):
        state.fileStatus = .leftUntouched
        state.message = error.message
        return .none

    case .saveResponse(.success):
        state.fileStatus = .inSync
        state.message = nil
        return .none

    case let .mergedSaveResponse(sent, written):
        // Apply the other process's changes to the list as it is now (it may have changed since
        // the save started; such a change is autosaved next).
        let removed = sent.filter { !written.contains($0) }
        let added = written.filter { !sent.contains($0) }
        state.favoritePrimes.removeAll { removed.contains($0) }
        state.favoritePrimes += added.filter { !state.favoritePrimes.contains($0) }
        state.fileStatus = .inSync
        state.message = nil
        return .none

    case let .saveResponse(.failure(error)):
        if state.fileStatus == .inSync { state.fileStatus = .unsaved }
        state.message = error.message
        return .none

    case .messageDismissed:
        state.message = nil
        return .none
    }
}

extension Reducer {
    /// A reducer that runs this one, then saves the favorites when an action changed them and the
    /// file is ``FavoritesFileStatus/inSync`` (or ``FavoritesFileStatus/unsaved``: it tries again).
    ///
    /// It watches every action, so a change made by any feature (saving a prime on the "is this
    /// prime?" screen, deleting on the list) is saved. It does not save what a load just read,
    /// or what a save just wrote (the file already holds it), nor while the file has not been read yet or was left
    /// untouched: then only an explicit ``FavoritePrimesAction/saveButtonTapped`` writes.
    ///
    /// ```swift
    /// let appReducer = featuresReducer.autosavingFavoritePrimes(
    ///     state: \.favoritePrimesState, action: /AppAction.favoritePrimes,
    ///     environment: { FavoritePrimesEnvironment(file: $0.favoritesFile, mainQueue: $0.mainQueue) })
    /// ```
    ///
    /// - Parameters:
    ///   - toFavoritesState: The key path of the favorites' state in this reducer's state.
    ///   - toFavoritesAction: The case path of the favorites' actions in this reducer's actions.
    ///   - toFavoritesEnvironment: A closure that takes the environment and returns the favorites'
    ///     environment.
    /// - Returns: A reducer that runs this one and saves changed favorites.
    public func autosavingFavoritePrimes(
        state toFavoritesState: KeyPath<State, FavoritePrimesState>,
        action toFavoritesAction: CasePath<Action, FavoritePrimesAction>,
        environment toFavoritesEnvironment: @escaping (Environment) -> FavoritePrimesEnvironment
    ) -> Reducer {
        Reducer { state, action, environment in
            let before = state[keyPath: toFavoritesState].favoritePrimes
            let effect = self.run(&state, action, environment)
            let favorites = state[keyPath: toFavoritesState]
            guard favorites.favoritePrimes != before,
                  favorites.fileStatus == .inSync || favorites.fileStatus == .unsaved
            else { return effect }
            switch toFavoritesAction.extract(from: action) {
            case .loadResponse:
                return effect
            case let .mergedSaveResponse(_, written) where written == favorites.favoritePrimes:
                return effect  // The file holds exactly this list already.
            default:
                break
            }
            let save = toFavoritesEnvironment(environment).save(favorites.favoritePrimes).map(toFavoritesAction.embed)
            return .merge(effect, save)
        }
    }
}
