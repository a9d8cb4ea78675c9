import Synchronization

/// Something that can be stopped: a subscription, a subscriber, a scheduled piece of work.
///
/// `cancel()` must be safe to call from any thread and more than once ([S6]); calls after the
/// first do nothing.
///
/// [S6]: doc:/Contract/StreamContract#S6
public protocol Cancellable {
    /// Stops the activity and frees what it holds.
    func cancel()
}

extension Cancellable {
    /// Wraps this cancellable in an ``AnyCancellable`` and appends it to `collection`, which then
    /// keeps the activity alive until the collection lets go of it.
    ///
    /// - Parameter collection: The collection, such as an array of ``AnyCancellable``, to append
    ///   to.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Wraps this cancellable in an ``AnyCancellable`` and inserts it into `set`, which then keeps
    /// the activity alive until the set lets go of it.
    ///
    /// - Parameter set: The set of ``AnyCancellable`` to insert into.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}

/// A cancellable that cancels when it is deallocated: the usual way to hold a subscription.
///
/// `sink` and `assign` return one. Keep it (in a property, or with ``store(in:)-(Set<AnyCancellable>)``)
/// for as long as values should flow; dropping it cancels the subscription.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// var cancellables = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &cancellables)
/// cancellables.removeAll()   // cancels the sink
/// ```
///
/// `cancel()` is thread-safe and idempotent; the wrapped action runs at most once and is released
/// right after it runs. Two instances are equal only if they are the same instance.
public final class AnyCancellable: Cancellable, Hashable {
    @usableFromInline
    enum Action {
        case object(any AnyObject & Cancellable)
        case closure(() -> Void)

        @inlinable func run() {
            switch self {
            case .object(let object): object.cancel()
            case .closure(let closure): closure()
            }
        }
    }

    // Only the caller that flips `done` from false to true reads or clears `action` (after init).
    // Spelled `Optional<Action>`, not `Action?`: a `T?` stored property starts as `nil` before the
    // initializer runs, and the initializer's assignment then destroys that `nil` through an
    // outlined call (Docs/Performance.md, "What a subscription pays at its end").
    @exclusivity(unchecked) @usableFromInline var action: Optional<Action>
    @usableFromInline let done = Atomic<Bool>(false)

    /// Creates a cancellable that runs `cancel` once, when cancelled or deallocated.
    ///
    /// - Parameter cancel: The closure to run on cancellation.
    public init(_ cancel: @escaping () -> Void) {
        action = .closure(cancel)
    }

    /// Creates a cancellable that cancels `canceller` once, when cancelled or deallocated.
    ///
    /// - Parameter canceller: The cancellable to cancel on cancellation.
    public init<C: Cancellable>(_ canceller: C) {
        if let any = canceller as? AnyCancellable {
            action = .object(any)
        } else if C.self is AnyObject.Type {
            action = .object(canceller as! (any AnyObject & Cancellable))
        } else {
            action = .closure(canceller.cancel)
        }
    }

    /// Wraps an object without a dynamic cast (the `sink` and `assign` path).
    @inlinable
    init(object: some AnyObject & Cancellable) {
        action = .object(object)
    }

    deinit {
        // Nobody else holds this object any more, so no cancel can race: a plain load instead of
        // `cancel()`'s exchange (one atomic read-modify-write fewer per cancellable).
        if !done.load(ordering: .relaxed) { action.take()?.run() }
    }

    /// Runs the cancel action, unless it already ran, and releases it.
    @inlinable
    public func cancel() {
        if done.exchange(true, ordering: .acquiringAndReleasing) { return }
        action.take()?.run()
    }

    /// Identity: equal only to itself.
    ///
    /// - Parameters:
    ///   - lhs: A cancellable.
    ///   - rhs: Another cancellable.
    /// - Returns: `true` if both are the same instance.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the object's identity.
    ///
    /// - Parameter hasher: The hasher to feed the identity to.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// Appends this cancellable to `collection`, which then keeps the subscription alive.
    ///
    /// - Parameter collection: The collection, such as an array of ``AnyCancellable``, to append
    ///   to.
    @inlinable
    public consuming func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        // `consuming`: the caller's reference moves into the collection (no retain and release).
        collection.append(consume self)
    }

    /// Inserts this cancellable into `set`, which then keeps the subscription alive.
    ///
    /// - Parameter set: The set of ``AnyCancellable`` to insert into.
    @inlinable
    public consuming func store(in set: inout Set<AnyCancellable>) {
        set.insert(consume self)
    }
}
