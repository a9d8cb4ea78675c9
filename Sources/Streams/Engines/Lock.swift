#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The project's one mutual-exclusion lock: a `pthread_mutex_t` (an `os_unfair_lock` on Apple
/// platforms) owned by whatever stores the lock.
///
/// Not `Synchronization.Mutex`: on Linux with Swift 6.3, ThreadSanitizer cannot see that lock and
/// reports false races on the state it guards (measured: a correct Mutex-guarded counter fails
/// `swift test --sanitize=thread`; the same counter over pthread_mutex passes). Rules for every user of this type:
/// never call out (downstream, upstream, a user closure) while holding it, and release captured
/// closures after unlocking.
///
/// Where the mutex lives: pthread needs an address that does not change while the mutex is in
/// use, which an ordinary stored property does not promise (the compiler may copy a struct's
/// value to wherever it likes). So the mutex sits in a block of its own, allocated with `malloc`
/// when the lock is made and freed when the lock goes; the lock stores only the block's address
/// (Docs/Performance.md, "The lock's mutex in a block of its own").
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {  // the state is the OS lock itself
    #if canImport(Darwin)
        @usableFromInline typealias Primitive = os_unfair_lock
    #else
        @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    /// The OS lock, at an address that never changes.
    @usableFromInline let primitive: UnsafeMutablePointer<Primitive>

    /// An unlocked lock.
    ///
    /// On Linux (glibc and musl) the mutex is not passed to `pthread_mutex_init`: its all-zero
    /// value is `PTHREAD_MUTEX_INITIALIZER` there, a default mutex ready to use, and destroying
    /// one frees nothing, so the deinit does not call `pthread_mutex_destroy`. The initializer's
    /// value cannot change: every program that initializes a mutex statically has it compiled
    /// in. (Elsewhere, where a mutex may own memory, both calls are made.)
    @inlinable
    package init() {
        // `malloc`, not `UnsafeMutablePointer.allocate`: the Swift runtime serves the latter
        // through `posix_memalign` on Linux, which costs more for the same block.
        guard let block = malloc(MemoryLayout<Primitive>.size) else { fatalError("Lock: out of memory") }
        primitive = block.initializeMemory(as: Primitive.self, repeating: Primitive(), count: 1)
        #if !canImport(Darwin) && !os(Linux)
            let result = pthread_mutex_init(primitive, nil)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    @inlinable
    deinit {
        #if !canImport(Darwin) && !os(Linux)
            pthread_mutex_destroy(primitive)
        #endif
        free(primitive)
    }

    /// Acquires the lock. Not reentrant: locking twice on one thread deadlocks.
    @inlinable
    package func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            pthread_mutex_lock(primitive)
        #endif
    }

    /// Releases the lock.
    @inlinable
    package func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            pthread_mutex_unlock(primitive)
        #endif
    }

    /// Runs `body` with the lock held. `body` must not call out of the library.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
