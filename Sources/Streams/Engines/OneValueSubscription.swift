import Synchronization

// The subscription of every publisher with at most one value: `Just`, `Optional.Publisher`,
// `Result.Publisher` (and `sendOneValue`, which spares a `Subscribers.Sink` the subscription).
// One object per subscriber, no lock: an atomic byte of flags decides who takes the downstream
// and the value (the first valid request delivers them, a cancel drops them), and the pair is
// kept in raw words inside the object so that its deinit has nothing to destroy once the value
// has gone (Docs/Performance.md, "A one-value subscription that holds its pair in raw words").

/// The subscription of publishers with at most one value (`Just`, `Result.Publisher`,
/// `Optional.Publisher`): the value and `.finished` go out on the first request.
///
/// State machine: one atomic byte, `state`. Whoever sets `done` first (the first valid request, or
/// `cancel()`) moves the downstream and the value out of the object and so releases them ([S7]):
/// the request after delivering, `cancel()` at once. `cancelled`, set by `cancel()`, tells a
/// delivery in progress not to send the completion ([S6]). No lock.
///
/// Storage: the downstream and its value (the `Pending` pair) sit in `words`, raw memory inside
/// the object, initialized exactly while `done` is not set (in a block of their own when they do
/// not fit). The object has no stored property of a generic type, so its deinit, compiled once
/// for every type and never specialized, destroys nothing through the runtime once the pair has
/// gone: it reads `done` and frees the object. The class is generic over the pair's type (always
/// a `OneValuePending<Downstream>`) rather than over the downstream, so that a deinit that does
/// find the pair (a subscription dropped unused) gets its type from the object's own class
/// metadata instead of looking it up (Docs/Performance.md, "A one-value subscription that holds
/// its pair in raw words").
///
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
@usableFromInline
final class OneValueSubscription<Pending: OneValuePendingDelivery>: Subscription, CustomStringConvertible,
    @unchecked Sendable  // `words` is owned by whoever sets `done` first
{
    /// Room for the pair: six words, enough for a downstream of up to five words and a one-word
    /// value (the operators' inner subscribers are three to four words).
    @usableFromInline typealias Words = (UInt, UInt, UInt, UInt, UInt, UInt)

    /// The flags `done` and `cancelled`, in one atomic byte.
    @usableFromInline let state = Atomic<UInt8>(0)
    /// Set by the first valid request or by `cancel()`: whoever sets it takes the pair.
    @inlinable static var done: UInt8 { 1 }
    /// Set by `cancel()`, also while the value is being delivered: then no completion follows.
    @inlinable static var cancelled: UInt8 { 2 }

    @usableFromInline let name: StaticString
    /// The pair while `done` is not set, or (when it does not fit) the address of its block.
    @exclusivity(unchecked) @usableFromInline var words: Words = (0, 0, 0, 0, 0, 0)

    /// Whether the pair fits in `words`; a constant wherever `Pending` is known.
    @inlinable static var isInline: Bool {
        MemoryLayout<Pending>.size <= MemoryLayout<Words>.size
            && MemoryLayout<Pending>.alignment <= MemoryLayout<Words>.alignment
    }

    /// The address of `words`. A stored property of a final class, without observers, is
    /// addressed in place and an object never moves, so the address is the same on every call;
    /// it is used only by whoever owns the pair (the initializer, the one that set `done`, or the
    /// deinit), never kept.
    @inlinable var wordsAddress: UnsafeMutableRawPointer {
        withUnsafeMutablePointer(to: &words) { UnsafeMutableRawPointer($0) }
    }

    @inlinable
    init(pending: consuming Pending, name: StaticString) {
        self.name = name
        if Self.isInline {
            wordsAddress.initializeMemory(as: Pending.self, to: pending)
        } else {
            let block = UnsafeMutablePointer<Pending>.allocate(capacity: 1)
            block.initialize(to: pending)
            wordsAddress.storeBytes(of: block, as: UnsafeMutablePointer<Pending>.self)
        }
    }

    deinit {
        // Dropped before any request or cancel: the pair is still here. (The last release
        // orders every earlier write before this read.)
        if state.load(ordering: .relaxed) & Self.done == 0 { releaseUntaken() }
    }

    /// Releases the pair of a subscription dropped unused. Out of line, so that the deinit's
    /// usual path (the pair already gone) sets up no room for it.
    @inline(never) @usableFromInline
    func releaseUntaken() {
        _ = take()
    }

    /// Moves the pair out; only for whoever set `done` (or the deinit, if nobody did).
    @inlinable
    func take() -> Pending {
        if Self.isInline { return wordsAddress.assumingMemoryBound(to: Pending.self).move() }
        let block = wordsAddress.load(as: UnsafeMutablePointer<Pending>.self)
        defer { block.deallocate() }
        return block.move()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "\(name)") else { return }
        if state.bitwiseOr(Self.done, ordering: .acquiringAndReleasing).oldValue & Self.done != 0 { return }
        take().deliver { self.state.load(ordering: .acquiring) & Self.cancelled != 0 }
    }

    @inlinable
    func cancel() {
        let old = state.bitwiseOr(Self.done | Self.cancelled, ordering: .acquiringAndReleasing).oldValue
        if old & Self.done != 0 { return }
        _ = take()
    }

    @usableFromInline var description: String { "\(name)" }
}

extension OneValueSubscription {
    /// A subscription that will send `value` to `downstream`.
    @inlinable
    convenience init<Downstream: Subscriber>(_ value: Downstream.Input, to downstream: Downstream, name: StaticString)
    where Pending == OneValuePending<Downstream> {
        self.init(pending: OneValuePending(downstream: downstream, value: value), name: name)
    }
}

/// Subscribes `downstream` to `value` followed by `.finished`: what `Just`, `Optional.Publisher`
/// and `Result.Publisher` do with a value.
///
/// Any subscriber gets a `OneValueSubscription` that delivers on its first request. A
/// `Subscribers.Sink` gets the two at once, without a subscription object: a sink asks for
/// unlimited values inside `receive(subscription:)`, so the subscription would have delivered both
/// before that call returned anyway, and nothing can observe the difference. That is one heap
/// object fewer for `Just(x).sink { … }` (Docs/Performance.md, "A sink needs no subscription from a
/// one-value publisher").
@inlinable
func sendOneValue<Downstream: Subscriber>(_ value: Downstream.Input, to downstream: Downstream, name: StaticString) {
    // A constant wherever `Downstream` is known; otherwise a comparison of two metadata pointers.
    if Downstream.self == Subscribers.Sink<Downstream.Input, Downstream.Failure>.self {
        (downstream as! Subscribers.Sink<Downstream.Input, Downstream.Failure>).receiveWithoutSubscription(value)
    } else {
        downstream.receive(subscription: OneValueSubscription(value, to: downstream, name: name))
    }
}

/// What a `OneValueSubscription` holds until it delivers or is cancelled.
@usableFromInline
protocol OneValuePendingDelivery {
    /// Sends the value, then `.finished` unless `isCancelled()` says the subscription was cancelled
    /// during the value.
    consuming func deliver(unlessCancelled isCancelled: () -> Bool)
}

/// A downstream and the one value it is to get.
@usableFromInline
struct OneValuePending<Downstream: Subscriber>: OneValuePendingDelivery {
    @usableFromInline let downstream: Downstream
    @usableFromInline let value: Downstream.Input

    @inlinable
    init(downstream: Downstream, value: Downstream.Input) {
        self.downstream = downstream
        self.value = value
    }

    @inlinable
    consuming func deliver(unlessCancelled isCancelled: () -> Bool) {
        _ = downstream.receive(value)
        if !isCancelled() {
            downstream.receive(completion: .finished)
        }
    }
}
