#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The project's one mutual-exclusion lock: a `pthread_mutex_t` (an `os_unfair_lock` on Apple
/// platforms) kept inside whatever stores the lock.
///
/// Not `Synchronization.Mutex`: on Linux with Swift 6.3, ThreadSanitizer cannot see that lock and
/// reports false races on the state it guards (measured: a correct Mutex-guarded counter fails
/// `swift test --sanitize=thread`; the same counter over pthread_mutex passes). Rules for every user of this type:
/// never call out (downstream, upstream, a user closure) while holding it, and release captured
/// closures after unlocking.
///
/// Where the mutex lives: pthread needs an address that does not change while the mutex is in
/// use, which an ordinary stored property does not promise. `_Cell` (from the Synchronization
/// module, the storage `Mutex` and `Atomic` are built on) does: its value is addressed in place
/// and never moved by the compiler. So the mutex sits inside the engine object that stores the
/// lock (always a `let` in a final class), with no allocation of its own (Docs/Performance.md,
/// "The lock inside its object").
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {  // the state is the OS lock itself
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    /// The OS lock, at a stable address.
    @usableFromInline let storage: _Cell<Primitive>

    /// The OS lock's address.
    @inlinable var primitive: UnsafeMutablePointer<Primitive> { storage._address }

    /// An unlocked lock.
    ///
    /// On Linux (glibc and musl) the mutex is not passed to `pthread_mutex_init`: its all-zero
    /// value is `PTHREAD_MUTEX_INITIALIZER` there, a default mutex ready to use, and destroying
    /// one frees nothing, so the deinit does not call `pthread_mutex_destroy`. The initializer's
    /// value cannot change: every program that initializes a mutex statically has it compiled
    /// in. (Elsewhere, where a mutex may own memory, both calls are made.)
    @inlinable
    package init() {
        storage = _Cell(Primitive())
        #if !canImport(Darwin) && !os(Linux)
        let result = pthread_mutex_init(primitive, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    #if !canImport(Darwin) && !os(Linux)
    @inlinable
    deinit {
        pthread_mutex_destroy(primitive)
    }
    #endif

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
