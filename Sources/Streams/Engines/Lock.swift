import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The project's one mutual-exclusion lock. Rules for every user of it: never call out
// (downstream, upstream, a user closure) while holding it, and release captured closures after
// unlocking. It is not reentrant: locking twice on one thread deadlocks.
//
// Not `Synchronization.Mutex`: on Linux with Swift 6.3, ThreadSanitizer cannot see that lock and
// reports false races on the state it guards (measured: a correct Mutex-guarded counter fails
// `swift test --sanitize=thread`; the same counter under this lock passes).
//
// Two implementations with one interface (`init`, `lock`, `unlock`, `withLock`):
// - On Apple platforms, an `os_unfair_lock` in a block of its own, which the kernel knows about
//   (a waiting thread lends its priority to the holder).
// - Elsewhere, a word lock: one atomic word inside the lock itself, taken with one
//   compare-and-exchange when it is free, and a shared "parking lot" of pthread mutexes and
//   conditions where a thread sleeps when it is not (Docs/Performance.md, "The lock in one word").

#if canImport(Darwin)

    /// The project's one mutual-exclusion lock (on Apple platforms, an `os_unfair_lock`).
    ///
    /// The lock needs an address that does not change while it is in use, which an ordinary
    /// stored property does not promise, so it sits in a block of its own, allocated with
    /// `malloc` when the lock is made and freed when the lock goes.
    @usableFromInline
    package struct Lock: ~Copyable, @unchecked Sendable {  // the state is the OS lock itself
        /// The OS lock, at an address that never changes.
        @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>

        /// An unlocked lock.
        @inlinable
        package init() {
            guard let block = malloc(MemoryLayout<os_unfair_lock>.size) else {
                fatalError("Lock: out of memory")
            }
            primitive = block.initializeMemory(as: os_unfair_lock.self, repeating: os_unfair_lock(), count: 1)
        }

        @inlinable
        deinit { free(primitive) }

        /// Acquires the lock. Not reentrant: locking twice on one thread deadlocks.
        @inlinable
        package func lock() { os_unfair_lock_lock(primitive) }

        /// Releases the lock.
        @inlinable
        package func unlock() { os_unfair_lock_unlock(primitive) }
    }

#else

    /// The project's one mutual-exclusion lock (off Apple platforms, a word lock).
    ///
    /// The whole lock is one atomic word and the number of a room in the ``ParkingLot``. The
    /// word says one of three things:
    ///
    /// | word | meaning |
    /// |---|---|
    /// | 0 | free |
    /// | 1 | held, and no thread sleeps waiting for it |
    /// | 2 | held, and a thread may sleep waiting for it |
    ///
    /// `lock()` turns 0 into 1 with one compare-and-exchange; `unlock()` puts 0 back and, only
    /// if the word was 2, wakes the sleepers. A thread that finds the lock held first tries
    /// again for a short while (the library's critical sections are a few dozen instructions),
    /// then writes 2 and sleeps in its room until an unlock wakes it. This is the classic
    /// three-state mutex built on Linux's futex, with a pthread mutex and condition per room in
    /// place of the futex system call, which Swift cannot call (it is variadic in C).
    ///
    /// An `Atomic` keeps its address for as long as it lives wherever it is stored, so the
    /// lock needs no block of its own; and its operations are compiled into this module, where
    /// ThreadSanitizer sees them, as it sees the rooms' pthread calls.
    @usableFromInline
    package struct Lock: ~Copyable, @unchecked Sendable {  // the state is the atomic word itself
        /// 0 free; 1 held; 2 held and a thread may be asleep in ``room`` waiting for it.
        @usableFromInline let word: Atomic<UInt32>
        /// The room of the ``ParkingLot`` where threads waiting for this lock sleep.
        @usableFromInline let room: Int

        /// An unlocked lock.
        ///
        /// The lock's room is chosen from the thread that makes it, so locks made on different
        /// threads tend to use different rooms. Any room would be correct: a lock's waiters and
        /// its unlocker only need to agree on it, and they read it from the lock.
        @inlinable
        package init() {
            word = Atomic(0)
            room = ParkingLot.room(forThread: pthread_self())
        }

        /// Acquires the lock. Not reentrant: locking twice on one thread deadlocks.
        @inlinable
        package func lock() {
            if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
                lockContended()
            }
        }

        /// Releases the lock, and wakes the threads asleep in its room if one may wait for it.
        @inlinable
        package func unlock() {
            // The room is read before the word is freed: once it is, another thread may take the
            // lock, give it back and free the object that holds it.
            let room = self.room
            if word.exchange(0, ordering: .releasing) == 2 { Self.wakeSleepers(inRoom: room) }
        }

        /// `unlock()` when a thread may sleep waiting for the lock: wake its room.
        ///
        /// Never inlined, like `lockContended()`: the two rare paths stay out of every
        /// `lock()`/`unlock()` the compiler inlines, which keeps those small enough not to change
        /// what the optimizer inlines and specializes around them.
        @inline(never) @usableFromInline
        static func wakeSleepers(inRoom room: Int) { ParkingLot.shared.wakeAll(inRoom: room) }

        /// `lock()` when the lock was held: try again for a short while, then sleep.
        @inline(never) @usableFromInline
        func lockContended() {
            for _ in 0..<Self.triesBeforeSleeping {
                if word.load(ordering: .relaxed) == 0,
                    word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
                {
                    return
                }
            }
            // Announce a waiter (2) with the same exchange that takes the lock if it is free
            // now; while it was held, sleep until an unlock wakes the room, then try again.
            // The lock is then taken as 2, so its unlock wakes the room once more, which is
            // harmless: a woken thread that finds nothing to do goes back to sleep.
            while word.exchange(2, ordering: .acquiring) != 0 {
                ParkingLot.shared.sleep(inRoom: room) { word.load(ordering: .relaxed) == 2 }
            }
        }

        /// How many times `lockContended` looks at the word before it sleeps.
        static var triesBeforeSleeping: Int { 100 }

        /// Whether a thread has announced that it waits for this lock (the word is 2): for tests.
        package var mayHaveSleepers: Bool { word.load(ordering: .relaxed) == 2 }
    }

    /// Where threads sleep while the lock they want is held: a fixed set of rooms, each a pthread
    /// mutex and condition at an address that never changes (allocated once, never freed).
    ///
    /// Many locks share a room, so a room is woken with a broadcast, and each woken thread checks
    /// its own lock's word again. No wakeup is lost: a sleeper checks that its lock still says 2
    /// with the room's mutex held, and `pthread_cond_wait` releases that mutex only once the
    /// thread waits; an unlocker writes 0 before it takes the room's mutex to broadcast. So the
    /// broadcast either comes after the sleeper waits, and wakes it, or the sleeper's check comes
    /// after the 0, and it does not wait.
    @usableFromInline
    final class ParkingLot: @unchecked Sendable {  // the rooms' state is their own mutexes
        /// The one parking lot.
        static let shared = ParkingLot()

        /// How many rooms there are.
        @usableFromInline static var roomCount: Int { 64 }

        let mutexes: UnsafeMutablePointer<pthread_mutex_t>
        let conditions: UnsafeMutablePointer<pthread_cond_t>

        private init() {
            mutexes = .allocate(capacity: Self.roomCount)
            conditions = .allocate(capacity: Self.roomCount)
            for room in 0..<Self.roomCount {
                (mutexes + room).initialize(to: pthread_mutex_t())
                (conditions + room).initialize(to: pthread_cond_t())
                pthread_mutex_init(mutexes + room, nil)
                pthread_cond_init(conditions + room, nil)
            }
        }

        /// A room for the locks a thread makes: a hash of the thread's identity.
        @inlinable
        static func room(forThread thread: pthread_t) -> Int {
            // `pthread_t` is an integer in glibc and a pointer in musl: read its bits either way.
            let bits = UInt64(withUnsafeBytes(of: thread) { $0.loadUnaligned(as: UInt.self) })
            // Fibonacci hashing: the top bits of a multiplication by 2^64 / φ.
            return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 58) & (roomCount - 1)
        }

        /// Sleeps in `room` if `stillWaiting()`, checked with the room's mutex held, is true;
        /// returns when the room is woken (or spuriously, as a condition may).
        func sleep(inRoom room: Int, if stillWaiting: () -> Bool) {
            pthread_mutex_lock(mutexes + room)
            if stillWaiting() { pthread_cond_wait(conditions + room, mutexes + room) }
            pthread_mutex_unlock(mutexes + room)
        }

        /// Wakes every thread asleep in `room`.
        func wakeAll(inRoom room: Int) {
            pthread_mutex_lock(mutexes + room)
            pthread_cond_broadcast(conditions + room)
            pthread_mutex_unlock(mutexes + room)
        }
    }

#endif

extension Lock {
    /// Runs `body` with the lock held. `body` must not call out of the library.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Keeps `value` alive up to this call: how an engine lets go of what it took out under the lock
/// (a finished subscription, a subscriber, closures) after unlocking.
///
/// Swift may end a local's lifetime at its last use, so `let finished = take(); unlock()` may
/// release `finished` before the unlock, under the lock, where a deinit that calls back into the
/// same object deadlocks (seen once in a release build; `aFinishedUpstreamsSubscriptionIsLetGoOfAfterUnlocking`
/// in the combineLatest tests pins it). `_ = finished` after the unlock promises nothing; this
/// does. (`withExtendedLifetime` was not inlined in the engines' hot paths.)
@inlinable @inline(__always)
package func keepAlive<T>(_ value: borrowing T) {
    #if compiler(>=6.2)
        extendLifetime(value)
    #else
        withExtendedLifetime(value) {}
    #endif
}

/// Keeps two values alive up to this call (see ``keepAlive(_:)``). Not `keepAlive((a, b))`: a
/// tuple copies both first, a retain and a release each.
@inlinable @inline(__always)
package func keepAlive<A, B>(_ a: borrowing A, _ b: borrowing B) {
    keepAlive(a)
    keepAlive(b)
}

/// Keeps three values alive up to this call (see ``keepAlive(_:)``).
@inlinable @inline(__always)
package func keepAlive<A, B, C>(_ a: borrowing A, _ b: borrowing B, _ c: borrowing C) {
    keepAlive(a)
    keepAlive(b)
    keepAlive(c)
}
