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

/// What reading the favorites file found.
public enum FavoritesFileRead: Equatable, Sendable {
    /// There is no file (yet): no favorites.
    case missing
    /// The file's distinct primes, in its order, and, when some of its entries were not
    /// favorite primes, the report of those left out.
    case primes([Int], skipped: FavoritesFileSkipped? = nil)

    /// The favorites read: none when there is no file.
    public var favorites: [Int] {
        switch self {
        case .missing: []
        case let .primes(primes, _): primes
        }
    }

    /// The report of the entries left out, if any.
    public var skipped: FavoritesFileSkipped? {
        switch self {
        case .missing: nil
        case let .primes(_, skipped): skipped
        }
    }
}

/// An entry of the favorites file's list that is not a favorite prime: reading the file leaves
/// it out and keeps the others.
public struct FavoritesFileSkippedEntry: Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with an entry.
    public enum Problem: Equatable, Sendable {
        /// A whole number that is not prime (0, 1, 4, -3, ...).
        case notPrime
        /// A prime that the entry at `position` (from 1) already holds.
        case repeats(position: Int)
        /// A whole number larger than PrimeTime holds (`Int.max`, 9223372036854775807).
        case outOfRange
        /// Not a whole number: text, a fraction, `true`, `null`, a list or an object.
        case notAWholeNumber
    }

    /// Where the entry is in the list, from 1.
    public var position: Int
    /// The entry as the report shows it: the number or text as written (shortened to 24
    /// characters), or the kind of value ("a list", "an object").
    public var entry: String
    /// What is wrong with it.
    public var problem: Problem

    /// An entry at `position` (from 1), shown as `entry`, left out because of `problem`.
    ///
    /// - Parameters:
    ///   - position: Where the entry is in the list, from 1.
    ///   - entry: The entry as the report shows it.
    ///   - problem: What is wrong with it.
    public init(position: Int, entry: String, problem: Problem) {
        self.position = position
        self.entry = entry
        self.problem = problem
    }

    /// The entry and its problem, for a sentence: `entry 1 (4) is not prime`.
    public var description: String {
        let named = "entry \(position) (\(entry))"
        return switch problem {
        case .notPrime: "\(named) is not prime"
        case let .repeats(first): "\(named) repeats entry \(first)"
        case .outOfRange: "\(named) is too large for PrimeTime (at most \(Int.max))"
        case .notAWholeNumber: "\(named) is not a whole number"
        }
    }
}

/// The entries of the favorites file that reading it left out, and what became of the file:
/// the rest of its favorites were read, and the file is copied aside (``advice``) before a save
/// writes it without them.
public struct FavoritesFileSkipped: Equatable, Sendable {
    /// How many entries ``message`` names; it counts the rest.
    public static let entriesNamed = 3

    /// The file's path, as shown to the user.
    public var path: String
    /// The entries left out, in file order.
    public var entries: [FavoritesFileSkippedEntry]
    /// How many favorites were read from the file.
    public var kept: Int
    /// What became of the file (where its copy is kept), a sentence appended to ``message``.
    public var advice: String?

    /// A report on the file at `path`: `entries` left out, `kept` favorites read.
    ///
    /// - Parameters:
    ///   - path: The file's path, as shown to the user.
    ///   - entries: The entries left out, in file order.
    ///   - kept: How many favorites were read from the file.
    ///   - advice: What became of the file, a sentence appended to the message; none by default.
    public init(path: String, entries: [FavoritesFileSkippedEntry], kept: Int, advice: String? = nil) {
        self.path = path
        self.entries = entries
        self.kept = kept
        self.advice = advice
    }

    /// The sentences shown to the user: which entries were left out and why (the first
    /// ``entriesNamed``), how many favorites were read, and where the copy of the file is.
    ///
    /// "The favorites file f.json has 1 entry that is not a favorite prime, left out: entry 1
    /// (4) is not prime. 1 other favorite was read; the next save writes the file without it. A
    /// copy is kept at f.json.corrupt."
    public var message: String {
        var named = entries.prefix(Self.entriesNamed).map(\.description).joined(separator: "; ")
        if entries.count > Self.entriesNamed { named += "; and \(entries.count - Self.entriesNamed) more" }
        let what =
            entries.count == 1
            ? "1 entry that is not a favorite prime" : "\(entries.count) entries that are not favorite primes"
        let read =
            switch kept {
            case 0: "No other favorite was read"
            case 1: "1 other favorite was read"
            default: "\(kept) other favorites were read"
            }
        let pronoun = entries.count == 1 ? "it" : "them"
        let summary =
            "The favorites file \(path) has \(what), left out: \(named). "
            + "\(read); the next save writes the file without \(pronoun)."
        guard let advice else { return summary }
        return summary + " " + advice
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

    /// What the file at `path` whose bytes are `data` holds: its distinct primes, in order, and
    /// the entries left out (``FavoritesFileRead/primes(_:skipped:)``; never
    /// ``FavoritesFileRead/missing``), or why it is not a list at all
    /// (``FavoritesFileError/Kind/notJSON``, or ``FavoritesFileError/Kind/notPrimes`` for JSON
    /// that is not an array).
    ///
    /// One bad entry does not cost the others: an entry that is not prime, repeats an earlier
    /// one, is too large for PrimeTime, or is not a whole number at all is left out and named in
    /// the ``FavoritesFileSkipped`` report, with its position.
    ///
    /// ```swift
    /// let primes = FavoritesFile.decode(Data("[2,3]".utf8), path: "f.json")    // .success(.primes([2, 3]))
    /// let partly = FavoritesFile.decode(Data("[4,2]".utf8), path: "f.json")    // .success(.primes([2], skipped: …))
    /// let notAList = FavoritesFile.decode(Data("{}".utf8), path: "f.json")     // .failure(… "found not an array")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - path: The file's path, for the error message.
    /// - Returns: The primes read, with the entries left out and why, or the error saying why the
    ///   bytes are not a list of numbers at all.
    public static func decode(_ data: Data, path: String) -> Result<FavoritesFileRead, FavoritesFileError> {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let reason = data.isEmpty ? "the file is empty" : jsonReason(error)
            return .failure(FavoritesFileError(.notJSON, path: path, reason: reason))
        }
        guard json is [Any] else {
            return .failure(
                FavoritesFileError(
                    .notPrimes, path: path, reason: "expected an array of whole numbers, found not an array"))
        }
        // Whole numbers only (the usual file): no need to look at each entry's kind.
        let entries: [FileEntry]
        if let numbers = try? JSONDecoder().decode([Int].self, from: data) {
            entries = numbers.map(FileEntry.wholeNumber)
        } else if let decoded = try? JSONDecoder().decode([FileEntry].self, from: data) {
            entries = decoded
        } else {
            return .failure(
                FavoritesFileError(
                    .notPrimes, path: path,
                    reason: "expected an array of whole numbers, found an array PrimeTime cannot read"))
        }
        var primes: [Int] = []
        var positions: [Int: Int] = [:]  // Prime -> its position (from 1).
        var skipped: [FavoritesFileSkippedEntry] = []
        for (offset, entry) in entries.enumerated() {
            let position = offset + 1
            func skip(_ problem: FavoritesFileSkippedEntry.Problem) {
                skipped.append(FavoritesFileSkippedEntry(position: position, entry: entry.shown, problem: problem))
            }
            switch entry {
            case let .wholeNumber(number):
                if !Primes.isPrime(number) {
                    skip(.notPrime)
                } else if let first = positions[number] {
                    skip(.repeats(position: first))
                } else {
                    positions[number] = position
                    primes.append(number)
                }
            case let .number(_, isWhole, isNegative):
                // A whole number beyond Int: a negative one is not prime; a positive one may be,
                // but PrimeTime cannot hold it.
                skip(isWhole ? (isNegative ? .notPrime : .outOfRange) : .notAWholeNumber)
            case .text, .boolean, .null, .list, .object:
                skip(.notAWholeNumber)
            case .other:
                skip(.outOfRange)  // A number the decoder cannot hold, as 1e400.
            }
        }
        let report = skipped.isEmpty ? nil : FavoritesFileSkipped(path: path, entries: skipped, kept: primes.count)
        return .success(.primes(primes, skipped: report))
    }

    /// One entry of the file's array, as the JSON decoder sees it.
    private enum FileEntry: Decodable {
        case wholeNumber(Int)
        /// A number that is not an `Int`: a fraction, or a whole number beyond `Int`'s range.
        case number(Decimal, isWhole: Bool, isNegative: Bool)
        case text(String)
        case boolean(Bool)
        case null
        case list
        case object
        case other

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) {
                self = .wholeNumber(number)
            } else if value.decodeNil() {
                self = .null
            } else if (try? decoder.unkeyedContainer()) != nil {
                self = .list
            } else if (try? decoder.container(keyedBy: AnyKey.self)) != nil {
                self = .object
            } else if let boolean = try? value.decode(Bool.self) {
                self = .boolean(boolean)
            } else if let text = try? value.decode(String.self) {
                self = .text(text)
            } else if let number = try? value.decode(Decimal.self) {
                var rounded = Decimal()
                var copy = number
                NSDecimalRound(&rounded, &copy, 0, .plain)
                self = .number(number, isWhole: rounded == number, isNegative: number < 0)
            } else {
                self = .other
            }
        }

        /// The entry as the report shows it: a number or text as written (shortened), or what
        /// kind of value it is.
        var shown: String {
            switch self {
            case let .wholeNumber(number): String(number)
            case let .number(number, _, _): Self.shortened("\(number)")
            case let .text(text): Self.shortened(String(reflecting: text))
            case let .boolean(boolean): String(boolean)
            case .null: "null"
            case .list: "a list"
            case .object: "an object"
            case .other: "a huge number"
            }
        }

        private static func shortened(_ text: String) -> String {
            text.count <= 24 ? text : String(text.prefix(23)) + "…"
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
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
    /// The file's path, as reports show it ("Saved 3 favorites to PATH.").
    public var path: String
    /// Reads the favorites: `.success(.missing)` when there is no file yet, `.success(.primes(...))`
    /// for a list (with the report of the entries left out, if some are not distinct primes),
    /// `.failure` for a file that cannot be read or is not a list.
    public var load: () -> Effect<Result<FavoritesFileRead, FavoritesFileError>>
    /// Writes `primes`, replacing the file; sends back the primes it wrote (live, merged with
    /// what other processes saved, see ``live(file:faults:)``), or why it could not.
    public var save: (_ primes: [Int]) -> Effect<Result<[Int], FavoritesFileError>>

    /// A client of the file at `path` that loads with `load` and saves with `save`.
    ///
    /// - Parameters:
    ///   - path: The file's path, for messages.
    ///   - load: A closure that returns an effect reading the favorites.
    ///   - save: A closure that takes the primes and returns an effect writing them.
    public init(
        path: String = "the favorites file",
        load: @escaping () -> Effect<Result<FavoritesFileRead, FavoritesFileError>>,
        save: @escaping (_ primes: [Int]) -> Effect<Result<[Int], FavoritesFileError>>
    ) {
        self.path = path
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
    /// - A file that is not a list is copied to `FILE.corrupt` (or `FILE.corrupt-2`, ...) when
    ///   read or saved over, and the load error's message names the copy. A list with some
    ///   entries that are not distinct primes is read without them (the others are kept, the
    ///   ``FavoritesFileSkipped`` report names each one left out and its position), and copied
    ///   the same way, since the next save writes the file without them.
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
            path: file.path,
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
    /// What to tell the user about the favorites file, until dismissed: a problem with it (it
    /// could not be read or written, some entries were left out), or what a save or load the
    /// user asked for did.
    public var message: String?
    /// What the app knows about the file (whether changes are autosaved).
    public var fileStatus: FavoritesFileStatus
    /// The save or load the user asked for whose answer has not come yet: that answer is
    /// reported in ``message`` ("Saved 3 favorites to PATH."). Autosaves and the launch's read
    /// report only problems.
    public var request: FavoritesFileRequest?

    /// A state with `favoritePrimes`, no message, and the file not read yet by default.
    ///
    /// - Parameters:
    ///   - favoritePrimes: The favorite primes, in the order they were saved; none by default.
    ///   - message: A problem with the file to show, or `nil`.
    ///   - fileStatus: What the app knows about the file; not read yet by default.
    ///   - request: The file request in flight, or `nil`.
    public init(
        favoritePrimes: [Int] = [], message: String? = nil, fileStatus: FavoritesFileStatus = .notLoaded,
        request: FavoritesFileRequest? = nil
    ) {
        self.favoritePrimes = favoritePrimes
        self.message = message
        self.fileStatus = fileStatus
        self.request = request
    }
}

/// A save or load of the favorites file that the user asked for, so that its answer is reported.
public enum FavoritesFileRequest: Equatable, Sendable {
    /// ``FavoritePrimesAction/saveButtonTapped``.
    case save
    /// ``FavoritePrimesAction/loadButtonTapped``.
    case load
}

/// What happens on the favorite primes screen.
public enum FavoritePrimesAction: Equatable, Sendable {
    /// Delete the favorites at these positions (0-based; positions past the end are ignored).
    case deleteFavoritePrimes(atOffsets: IndexSet)
    /// Write the list to the file, even one that was left untouched; the answer is reported
    /// ("Saved 3 favorites to PATH.").
    case saveButtonTapped
    /// Read the list from the file. The file's list replaces the one in memory when the two
    /// were in sync; otherwise favorites only memory holds are kept (after the file's) and saved.
    /// The answer is reported ("Read 3 favorites from PATH.").
    case loadButtonTapped
    /// The app started: read the file, as ``loadButtonTapped`` does, but report only a problem
    /// (a file that cannot be read, entries left out); the favorites read show in the list.
    case launched
    /// The file client read the file: what it holds, or why it could not.
    case loadResponse(Result<FavoritesFileRead, FavoritesFileError>)
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

extension FavoritePrimesEnvironment {
    /// The effect that reads the file and feeds back ``FavoritePrimesAction/loadResponse(_:)`` on
    /// the main queue. A newer load replaces an older one.
    func load() -> Effect<FavoritePrimesAction> {
        file.load()
            .receive(on: mainQueue)
            .map(FavoritePrimesAction.loadResponse)
            .cancellable(id: FavoritesFileID.load, cancelInFlight: true)
    }
}

/// The sentences that report what a save or load the user asked for did.
enum FavoritesFileReports {
    /// "3 favorites", "1 favorite", "no favorites".
    static func favorites(_ count: Int) -> String {
        switch count {
        case 0: "no favorites"
        case 1: "1 favorite"
        default: "\(count) favorites"
        }
    }

    /// "Saved 3 favorites to PATH."; `merged`: the file also had another PrimeTime's changes.
    static func saved(_ count: Int, path: String, merged: Bool) -> String {
        "Saved \(favorites(count)) to \(path)" + (merged ? ", with the changes another PrimeTime made to it." : ".")
    }

    /// "Read 3 favorites from PATH.", or that there is no file yet.
    static func read(_ read: FavoritesFileRead, path: String) -> String {
        switch read {
        case .missing: "There is no favorites file at \(path) yet: the next save creates it."
        case let .primes(primes, _): "Read \(favorites(primes.count)) from \(path)."
        }
    }

    /// Favorites the file lacked were kept, and are being saved to it.
    static func keptOnlyInMemory(_ count: Int) -> String {
        count == 1
            ? "1 favorite that was not in the file is kept, and saved to it."
            : "\(count) favorites that were not in the file are kept, and saved to it."
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
/// - Load (at launch, or when the user asks) reads the file off the main queue; the response
///   replaces the list (a missing file gives an empty list) and marks the file
///   ``FavoritesFileStatus/inSync``. It never loses a favorite that only memory holds — one
///   saved before the launch load returned, or while the file was left untouched, or since a
///   write failed: those stay, after the file's, and the merged list is saved. Entries of the
///   file that are not distinct primes are left out, and the message names them. A file that
///   cannot be read leaves the list as it was, shows why, and marks the file
///   ``FavoritesFileStatus/leftUntouched``.
/// - Save writes the list (and cancels a load in flight, whose answer would undo what the user
///   just saved); success marks the file in sync and clears the message; failure shows why and
///   keeps the list.
/// - A save or load the user asked for (``FavoritePrimesState/request``) is reported in the
///   message when it is answered: "Saved 3 favorites to PATH.", "Read 2 favorites from PATH.". When the save merged in another PrimeTime process's changes to the same
///   file, those are applied to the list: the favorites it added appear (after this one's), the
///   ones it removed go; a change made here since the save started stays (and is autosaved).
@MainActor public let favoritePrimesReducer = Reducer<
    FavoritePrimesState, FavoritePrimesAction, FavoritePrimesEnvironment
> {
    state, action, environment in
    switch action {
    case let .deleteFavoritePrimes(offsets):
        for offset in offsets.reversed() where offset < state.favoritePrimes.count {
            state.favoritePrimes.remove(at: offset)
        }
        return .none

    case .saveButtonTapped:
        state.request = .save
        return .merge(.cancel(id: FavoritesFileID.load), environment.save(state.favoritePrimes))

    case .loadButtonTapped:
        state.request = .load
        return environment.load()

    case .launched:
        return environment.load()

    case let .loadResponse(.success(read)):
        let loaded = read.favorites
        // In sync, memory holds nothing the file lacks; otherwise it may (see FavoritesFileStatus).
        let onlyInMemory = state.fileStatus == .inSync ? [] : state.favoritePrimes.filter { !loaded.contains($0) }
        state.favoritePrimes = loaded + onlyInMemory
        state.fileStatus = .inSync
        var report: [String] = []
        if let skipped = read.skipped { report.append(skipped.message) }
        if state.request == .load {
            state.request = nil
            if read.skipped == nil { report.append(FavoritesFileReports.read(read, path: environment.file.path)) }
            if !onlyInMemory.isEmpty { report.append(FavoritesFileReports.keptOnlyInMemory(onlyInMemory.count)) }
        }
        state.message = report.isEmpty ? nil : report.joined(separator: " ")
        return onlyInMemory.isEmpty ? .none : environment.save(state.favoritePrimes)

    case let .loadResponse(.failure(error)):
        if state.request == .load { state.request = nil }
        state.fileStatus = .leftUntouched
        state.message = error.message
        return .none

    case let .saveResponse(.success(written)):
        state.fileStatus = .inSync
        state.message =
            state.request == .save
            ? FavoritesFileReports.saved(written.count, path: environment.file.path, merged: false) : nil
        if state.request == .save { state.request = nil }
        return .none

    case let .mergedSaveResponse(sent, written):
        // Apply the other process's changes to the list as it is now (it may have changed since
        // the save started; such a change is autosaved next).
        let removed = sent.filter { !written.contains($0) }
        let added = written.filter { !sent.contains($0) }
        state.favoritePrimes.removeAll { removed.contains($0) }
        state.favoritePrimes += added.filter { !state.favoritePrimes.contains($0) }
        state.fileStatus = .inSync
        state.message =
            state.request == .save
            ? FavoritesFileReports.saved(written.count, path: environment.file.path, merged: true) : nil
        if state.request == .save { state.request = nil }
        return .none

    case let .saveResponse(.failure(error)):
        if state.request == .save { state.request = nil }
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
