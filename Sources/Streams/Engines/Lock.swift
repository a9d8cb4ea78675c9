#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The project's one mutual-exclusion lock: a `pthread_mutex_t` (an `os_unfair_lock` on Apple
/// platforms) on its own stable heap address.
///
/// Not `Synchronization.Mutex`: on Linux with Swift 6.3, ThreadSanitizer cannot see that lock and
/// reports false races on the state it guards (measured: a correct Mutex-guarded counter fails
/// `swift test --sanitize=thread`; the same counter over pthread_mutex passes). Rules for every user of this type:
/// never call out (downstream, upstream, a user closure) while holding it, and release captured
/// closures after unlocking.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {  // the state is the OS lock itself
    #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @inlinable
    package init() {
        #if canImport(Darwin)
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: os_unfair_lock())
        #else
        // `malloc`, not `allocate(capacity:)`: on Linux the runtime allocates that with
        // `posix_memalign`, 76 instructions more per lock, and every engine takes one lock per
        // subscription (Docs/Performance.md, "The lock's own allocation").
        primitive = malloc(MemoryLayout<pthread_mutex_t>.size)!.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        primitive.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(primitive, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    @inlinable
    deinit {
        #if canImport(Darwin)
        primitive.deinitialize(count: 1)
        primitive.deallocate()
        #else
        pthread_mutex_destroy(primitive)
        primitive.deinitialize(count: 1)
        free(primitive)
        #endif
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
