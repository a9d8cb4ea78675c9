import Foundation
import Streams

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
#endif

// The favorites file on disk: how it is read, merged, written and backed up. The live
// ``FavoritesFileClient`` runs this on its serial queue; PrimeTime's test-only modes
// (``FavoritesTestMode``) call it directly.
//
// The guarantees, and how they are kept:
// - A save is atomic. The new list goes to a temporary file in the same folder
//   (`.NAME.tmp-PID-RANDOM`), which is flushed to disk (`fsync`), then renamed over the file, then
//   the folder is flushed (`fsync`) so the rename itself survives a power cut. Whenever the process
//   dies (even by SIGKILL), the file holds the old list or the new one, never a mix. A temporary
//   file left by a process that died is removed by the next save.
// - Several PrimeTime processes may share the file: a save takes an exclusive `flock` on the
//   folder, reads the file, merges, writes, and only then unlocks. The merge is three-way against
//   the list this process last read or wrote (its "base"): favorites another process added are
//   kept, favorites this process added are added, and a favorite is dropped only if one of the
//   two removed it on purpose (it was in the base). So no process loses a favorite another one
//   saved. The save answers with the merged list, which the app then shows.
// - A file that is not a list of distinct primes is never silently dropped: it is copied to
//   `NAME.corrupt` (or `NAME.corrupt-2`, ...) before anything else happens, and the message names
//   the copy. A list with some bad entries is read without them (the others are kept), and
//   copied the same way, since the next save writes it without them.

/// A step of reading or writing the favorites file, where a test can make the system call fail
/// (``FavoritesFileClient/live(file:faults:)``): for example `.write` with `ENOSPC` plays a full
/// disk, `.createTemporary` with `EACCES` a read-only folder.
public enum FavoritesFileStep: Equatable, Hashable, Sendable, CaseIterable {
    /// Opening the file to read it.
    case read
    /// Taking the lock that keeps two processes from saving at once.
    case lock
    /// Creating the temporary file the new list is written to.
    case createTemporary
    /// Writing the new list to the temporary file.
    case write
    /// Flushing the temporary file to disk.
    case syncFile
    /// Renaming the temporary file over the favorites file.
    case rename
    /// Flushing the folder, so that the rename is on disk.
    case syncDirectory
    /// Writing the copy of a corrupt file.
    case backup
}

/// What the file held when it was read.
enum FavoritesFileContents {
    /// No file.
    case missing
    /// A list: its distinct primes, and, when some entries were left out, the report and the
    /// file's bytes (to copy before a save writes it without them).
    case primes([Int], skipped: (FavoritesFileSkipped, Data)?)
    /// A file that is not a list: its bytes and why.
    case corrupt(Data, FavoritesFileError)
}

/// The favorites file at one path, for one process: reads, merging saves, backups of corrupt
/// files. Its methods block (they do file I/O); call them off the main queue.
final class FavoritesFileStore: @unchecked Sendable {  // `base` is guarded by `lock`
    /// The file.
    let file: URL
    /// The errno each step should fail with instead of running (tests), or `nil` to run it.
    let faults: @Sendable (FavoritesFileStep) -> Int32?
    private let lock = Lock()
    /// What this process last read from, or wrote to, the file (guarded by `lock`); `nil` before
    /// the first read or write, when every favorite on either side is kept.
    private var base: [Int]?

    /// The store of the file at `file`, failing the steps `faults` names.
    init(file: URL, faults: @escaping @Sendable (FavoritesFileStep) -> Int32? = { _ in nil }) {
        self.file = file
        self.faults = faults
    }

    private var path: String { file.path }
    private var folder: String { file.deletingLastPathComponent().path }

    // MARK: Reading

    /// Reads the favorites: ``FavoritesFileRead/missing`` when there is no file. A corrupt file
    /// is copied first (the error's message names the copy) and left as it is; so is a list
    /// with entries left out (the report's advice names the copy).
    func read() -> Result<FavoritesFileRead, FavoritesFileError> {
        switch contents() {
        case let .failure(error):
            return .failure(error)
        case .success(.missing):
            setBase([])
            return .success(.missing)
        case let .success(.primes(primes, skipped)):
            setBase(primes)
            guard let (found, data) = skipped else { return .success(.primes(primes)) }
            var report = found
            report.advice = backUp(data)
            return .success(.primes(primes, skipped: report))
        case let .success(.corrupt(data, error)):
            var error = error
            error.advice = backUp(data)
            return .failure(error)
        }
    }

    /// The file's contents, or why it could not be read at all.
    func contents() -> Result<FavoritesFileContents, FavoritesFileError> {
        let descriptor = step(.read) { open(path, O_RDONLY | O_CLOEXEC) }
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return .success(.missing) }
            return .failure(readError(code))
        }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(
                FavoritesFileError(
                    .unreadable, path: path, reason: "it is a directory",
                    advice: "Move that directory away (or choose another file with --favorites-file), then save again.")
            )
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(readError(errno))
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        switch FavoritesFile.decode(data, path: path) {
        case let .success(read):
            return .success(.primes(read.favorites, skipped: read.skipped.map { ($0, data) }))
        case let .failure(error):
            return .success(.corrupt(data, error))
        }
    }

    private func readError(_ code: Int32) -> FavoritesFileError {
        if code == EISDIR {
            return FavoritesFileError(
                .unreadable, path: path, reason: "it is a directory",
                advice: "Move that directory away (or choose another file with --favorites-file), then save again.")
        }
        return FavoritesFileError(
            .unreadable, path: path, reason: Self.describe(code),
            advice: code == EACCES || code == EPERM ? "Check the file's permissions." : nil)
    }

    // MARK: Saving

    /// Saves `mine`, merged with what the file holds now (see the top of this file); answers with
    /// the list written, or why nothing was written (the file is then as it was).
    func save(_ mine: [Int]) -> Result<[Int], FavoritesFileError> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failure(
                FavoritesFileError(
                    .unwritable, path: path, reason: "the folder \(folder) does not exist",
                    advice: "Create the folder (or choose another file with --favorites-file), then save again."))
        }
        let directory = open(folder, O_RDONLY | O_CLOEXEC)
        guard directory >= 0 else { return .failure(writeError(errno)) }
        defer { close(directory) }
        // The lock is on the folder: the file itself is replaced by every save, so a lock on it
        // would be on an old file.
        while step(.lock, { flock(directory, LOCK_EX) }) != 0 {
            if errno == EINTR { continue }
            return .failure(writeError(errno))
        }
        defer { flock(directory, LOCK_UN) }
        removeStaleTemporaryFiles()

        let theirs: [Int]
        var existingMode: mode_t?
        switch contents() {
        case .success(.missing):
            theirs = []
        case let .success(.primes(primes, skipped)):
            // Entries that are not distinct primes are not written back; keep a copy first.
            if let (_, data) = skipped { _ = backUp(data) }
            theirs = primes
        case let .success(.corrupt(data, _)):
            // Not a list: it cannot be merged, and saving replaces it; keep a copy first.
            _ = backUp(data)
            theirs = []
        case let .failure(error):
            // A directory, or no permission to read it: writing over it would lose what it holds.
            return .failure(FavoritesFileError(.unwritable, path: path, reason: error.reason, advice: error.advice))
        }
        var info = stat()
        if stat(path, &info) == 0 { existingMode = info.st_mode & 0o777 }

        let merged = lock.withLock { Self.merge(base: base ?? [], mine: mine, theirs: theirs) }
        if let error = writeAtomically(FavoritesFile.encode(merged), directory: directory, mode: existingMode) {
            return .failure(error)
        }
        setBase(merged)
        return .success(merged)
    }

    /// The three-way merge: `mine` in its order without what the other side removed, then what
    /// the other side added. A favorite in `base` that one side no longer has was removed on
    /// purpose; one missing from `base` was added.
    static func merge(base: [Int], mine: [Int], theirs: [Int]) -> [Int] {
        let baseSet = Set(base)
        let mineSet = Set(mine)
        let theirSet = Set(theirs)
        var merged: [Int] = []
        var seen = Set<Int>()
        for prime in mine where !(baseSet.contains(prime) && !theirSet.contains(prime)) {
            if seen.insert(prime).inserted { merged.append(prime) }
        }
        for prime in theirs where !(baseSet.contains(prime) && !mineSet.contains(prime)) {
            if seen.insert(prime).inserted { merged.append(prime) }
        }
        return merged
    }

    /// Writes `data` to a new temporary file in the folder, flushes it, renames it over the file
    /// and flushes the folder. Returns why not, having removed the temporary file.
    private func writeAtomically(_ data: Data, directory: Int32, mode: mode_t?) -> FavoritesFileError? {
        let temporary = "\(folder)/\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let descriptor = step(.createTemporary) { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
        guard descriptor >= 0 else { return writeError(errno) }
        var closed = false
        var renamed = false
        defer {
            if !closed { close(descriptor) }
            if !renamed { unlink(temporary) }
        }
        if let mode { fchmod(descriptor, mode) }  // A save keeps the file's permissions.
        let written: Bool = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = stepCount(.write) { write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written else { return writeError(errno) }
        guard step(.syncFile, { fsync(descriptor) }) == 0 else { return writeError(errno) }
        closed = true
        guard close(descriptor) == 0 else { return writeError(errno) }
        guard step(.rename, { rename(temporary, path) }) == 0 else { return writeError(errno) }
        renamed = true
        // Some file systems cannot flush a folder (EINVAL): the rename is done; nothing more to do.
        if step(.syncDirectory, { fsync(directory) }) != 0, errno != EINVAL { return writeError(errno) }
        return nil
    }

    /// The name prefix of this file's temporary files.
    private var temporaryPrefix: String { ".\(file.lastPathComponent).tmp-" }

    /// Removes temporary files a process that died while saving left. Called with the folder
    /// locked, so no other save is writing one.
    private func removeStaleTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) {
            unlink("\(folder)/\(name)")
        }
    }

    /// Copies a corrupt file's `data` next to it (reusing a copy with the same bytes); returns
    /// the sentence naming the copy, or saying why none could be made.
    func backUp(_ data: Data) -> String {
        for index in 1...100 {
            let copy = index == 1 ? "\(path).corrupt" : "\(path).corrupt-\(index)"
            if let existing = FileManager.default.contents(atPath: copy) {
                if existing == data { return "A copy is kept at \(copy)." }
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: copy, isDirectory: &isDirectory) { continue }
            let descriptor = step(.backup) { open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            guard descriptor >= 0 else {
                if errno == EEXIST { continue }
                return
                    "No copy of it could be kept (\(Self.describe(errno))): move it away before saving if you need it."
            }
            let complete: Bool = data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += count
                }
                return fsync(descriptor) == 0
            }
            let code = errno
            close(descriptor)
            if complete { return "A copy is kept at \(copy)." }
            unlink(copy)
            return "No copy of it could be kept (\(Self.describe(code))): move it away before saving if you need it."
        }
        return "No copy of it could be kept (too many copies already): move it away before saving if you need it."
    }

    // MARK: Helpers

    private func setBase(_ primes: [Int]) {
        lock.withLock { base = primes }
    }

    /// Runs `call` (a system call returning -1 and setting errno on failure), unless `step` is
    /// to fail: then sets errno to the fault and returns -1.
    private func step(_ step: FavoritesFileStep, _ call: () -> Int32) -> Int32 {
        if let code = faults(step) {
            errno = code
            return -1
        }
        return call()
    }

    private func stepCount(_ step: FavoritesFileStep, _ call: () -> Int) -> Int {
        if let code = faults(step) {
            errno = code
            return -1
        }
        return call()
    }

    /// The error for a save that failed with `code`, with what the user can do about it.
    private func writeError(_ code: Int32) -> FavoritesFileError {
        let advice =
            switch code {
            case EACCES, EPERM:
                "Make the folder \(folder) writable (or choose another file with --favorites-file), then save again."
            case EROFS:
                "The disk is read-only: choose a file on another disk with --favorites-file, then save again."
            case ENOSPC, EDQUOT:
                "Free some disk space, then save again."
            case EISDIR:
                "Move that directory away (or choose another file with --favorites-file), then save again."
            default:
                "Save again once the problem is fixed."
            }
        return FavoritesFileError(.unwritable, path: path, reason: Self.describe(code), advice: advice)
    }

    /// The system's text for `code` ("No space left on device").
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
