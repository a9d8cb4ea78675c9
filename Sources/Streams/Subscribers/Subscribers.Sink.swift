import Synchronization

extension Publisher {
    /// Subscribes with closures: one called for each value, one for the completion. Asks for
    /// unlimited values.
    ///
    /// <!-- marble sink: u in recordingCalls(of: u) { $0.sink(receiveCompletion: $1.send(completion:), receiveValue: $1.send(_:)) } -->
    /// ```text
    /// upstream: -a-b-|
    /// sink:     -a-b-|   (receiveValue(a), receiveValue(b), receiveCompletion(.finished))
    /// ```
    ///
    /// ```swift
    /// let c = [1, 2].publisher.sink(
    ///     receiveCompletion: { print("done:", $0) },
    ///     receiveValue: { print("value:", $0) })
    /// // Prints: value: 1
    /// //         value: 2
    /// //         done: finished
    /// ```
    ///
    /// - Parameters:
    ///   - receiveCompletion: A closure called with the completion.
    ///   - receiveValue: A closure called with each value.
    /// - Returns: An ``AnyCancellable``. Keep it as long as values should flow: dropping or
    ///   cancelling it cancels the subscription and releases both closures ([S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    @inlinable
    public func sink(
        receiveCompletion: consuming @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: consuming @escaping (Output) -> Void
    ) -> AnyCancellable {
        // `consuming`: the caller's closures move into the sink (no retain and release of their
        // contexts; Docs/Performance.md, "What a subscription pays at its end").
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(object: sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with a closure called for each value; for publishers that cannot fail. Asks for
    /// unlimited values.
    ///
    /// <!-- marble sink-receiveValue: u in recordingCalls(of: u.assertNoFailure()) { $0.sink(receiveValue: $1.send(_:)) } -->
    /// ```text
    /// upstream: -a-b-|
    /// sink:     -a-b--    (receiveValue(a), receiveValue(b))
    /// ```
    ///
    /// ```swift
    /// let c = Just(42).sink { print($0) }
    /// // Prints: 42
    /// ```
    ///
    /// - Parameter receiveValue: A closure called with each value.
    /// - Returns: An ``AnyCancellable``; dropping or cancelling it cancels the subscription.
    @inlinable
    public func sink(receiveValue: consuming @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers {
    /// A subscriber that asks for unlimited values and hands each one, and the completion, to a
    /// closure. Made by `sink(receiveCompletion:receiveValue:)`.
    ///
    /// It cancels its subscription when cancelled; a value or completion before its subscription,
    /// or after its completion or cancel, is ignored, and a second subscription is cancelled ([S2],
    /// [S4]), as Combine's. Both closures are released after the completion ([S7]). When
    /// cancelled directly, the closures go when the sink itself is released (as `sink`'s
    /// `AnyCancellable` releases it at once).
    ///
    /// - Threading: `cancel()` may be called from any thread, at any time.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S7]: doc:/Contract/StreamContract#S7
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        /// The whole state in one word: the address of the retained `SinkCore` (the closures and
        /// the subscription; a heap address, so its two low bits are free) with two flags in those
        /// bits, `subscribed` and `ended`; only `ended` once the completion has been delivered and
        /// the core released. Whoever sets `ended` while `subscribed` is set owns the subscription
        /// (Docs/Performance.md, "The sink in one word").
        @usableFromInline let state: Atomic<UInt>

        /// Set once the subscription has been stored in the core.
        @inlinable static var subscribed: UInt { 1 }
        /// Set by the completion (which also releases the core) or by `cancel()`.
        @inlinable static var ended: UInt { 2 }

        /// The closure called with each value (a closure that does nothing once finished). Read it
        /// from the thread that delivers to the sink.
        public var receiveValue: (Input) -> Void {
            Self.core(state.load(ordering: .acquiring))?.takeUnretainedValue().value ?? { _ in }
        }
        /// The closure called with the completion (a closure that does nothing once finished). Read
        /// it from the thread that delivers to the sink.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            Self.core(state.load(ordering: .acquiring))?.takeUnretainedValue().completion ?? { _ in }
        }

        /// Creates a sink that calls `receiveValue` for each value and `receiveCompletion` once at
        /// the end.
        ///
        /// - Parameters:
        ///   - receiveCompletion: A closure called with the completion.
        ///   - receiveValue: A closure called with each value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            let core = SinkCore<Input, Failure>(value: receiveValue, completion: receiveCompletion)
            state = Atomic(UInt(bitPattern: Unmanaged.passRetained(core).toOpaque()))
        }

        deinit {
            let bits = state.load(ordering: .acquiring)
            guard let core = Self.core(bits)?.takeRetainedValue() else { return }
            if bits & Self.ended == 0 { core.subscription.cancel() }
        }

        /// The core whose address `bits` holds, if any.
        @inlinable
        static func core(_ bits: UInt) -> Unmanaged<SinkCore<Input, Failure>>? {
            guard let address = UnsafeRawPointer(bitPattern: bits & ~(subscribed | ended)) else { return nil }
            return Unmanaged.fromOpaque(address)
        }

        /// Keeps `subscription` and asks it for unlimited values; a second subscription is
        /// cancelled ([S2]), as is one that arrives after cancel.
        ///
        /// - Parameter subscription: The subscription to the publisher.
        ///
        /// [S2]: doc:/Contract/StreamContract#S2
        @inlinable
        @inline(__always)
        public func receive(subscription: Subscription) {
            // `@inline(__always)`: with the core lent rather than borrowed, the optimizer stopped
            // inlining this into `sink`'s caller, and the call cost a retain and a release of the
            // subscription (Docs/Performance.md, "Calling an unmanaged object without a retain").
            let bits = state.load(ordering: .acquiring)
            guard bits & (Self.subscribed | Self.ended) == 0, let core = Self.core(bits) else {
                subscription.cancel()
                return
            }
            // Stored before `subscribed` is published: `cancel()` reads it only after seeing the flag.
            core.withLentReference { $0.hold(subscription) }
            let (stored, _) = state.compareExchange(
                expected: bits, desired: bits | Self.subscribed, ordering: .acquiringAndReleasing)
            if stored {
                subscription.request(.unlimited)
            } else {
                // Cancelled meanwhile.
                core.withLentReference { $0.takeSubscription() }.cancel()
            }
        }

        /// Receives `value` and then `.finished` from a publisher with one value, with no
        /// subscription object (`sendOneValue`, Engines/OneValueSubscription.swift): the same calls,
        /// in the same order, as a subscription that delivers on the sink's request. Nothing if the
        /// sink already has a subscription or was cancelled ([S2]); no completion if
        /// `receiveValue` cancels the sink ([S6]).
        ///
        /// - Parameter value: The one value.
        ///
        /// [S2]: doc:/Contract/StreamContract#S2
        /// [S6]: doc:/Contract/StreamContract#S6
        @inlinable
        func receiveWithoutSubscription(_ value: Input) {
            // As `receive(subscription:)`, with the core's `NoSubscription` left in place: a
            // `cancel()` from here on takes and cancels that, and sets `ended`.
            let bits = state.load(ordering: .acquiring)
            guard bits & (Self.subscribed | Self.ended) == 0 else { return }
            let (stored, _) = state.compareExchange(
                expected: bits, desired: bits | Self.subscribed, ordering: .acquiringAndReleasing)
            guard stored else { return }  // cancelled meanwhile
            _ = receive(value)
            receive(completion: .finished)
        }

        /// Calls `receiveValue`, unless the sink is finished or cancelled.
        ///
        /// - Parameter value: The value to hand to `receiveValue`.
        /// - Returns: `.none`: the unlimited demand asked for at subscription covers every value.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            // S2: only while subscribed: nothing before the subscription or after the end. Only
            // the completion, which cannot overlap this call (S3), or deinit releases the core.
            let bits = state.load(ordering: .relaxed)
            if bits & (Self.subscribed | Self.ended) == Self.subscribed, let core = Self.core(bits) {
                core.withLentReference { $0.value(value) }
            }
            return .none
        }

        /// Calls `receiveCompletion` once, then releases both closures.
        ///
        /// - Parameter completion: The completion to hand to `receiveCompletion`.
        @inlinable
        @inline(__always)
        public func receive(completion: Subscribers.Completion<Failure>) {
            // `@inline(__always)`: as `receive(subscription:)`.
            // S2: a completion before the subscription or after the end is ignored.
            var bits = state.load(ordering: .acquiring)
            while bits & (Self.subscribed | Self.ended) == Self.subscribed {
                let (exchanged, original) = state.compareExchange(
                    expected: bits, desired: Self.ended, ordering: .acquiringAndReleasing)
                if exchanged { break }
                bits = original
            }
            guard bits & (Self.subscribed | Self.ended) == Self.subscribed, let core = Self.core(bits) else { return }
            // The core, with the closures and the subscription, is released after the call (S7):
            // a finished sink keeps nothing alive. (The sink's own reference is taken over for the
            // call, so the closure is not retained for it.)
            withExtendedLifetime(core.takeRetainedValue()) { $0.completion(completion) }
        }

        /// Cancels the subscription; later values and the completion are ignored.
        @inlinable
        public func cancel() {
            // Already ended (completed or cancelled): nothing to do, and no read-modify-write.
            if state.load(ordering: .relaxed) & Self.ended != 0 { return }
            let bits = state.bitwiseOr(Self.ended, ordering: .acquiringAndReleasing).oldValue
            guard bits & (Self.subscribed | Self.ended) == Self.subscribed, let core = Self.core(bits) else { return }
            // The core stays until deinit: a value may be being delivered on another thread.
            core.withLentReference { $0.takeSubscription() }.cancel()
        }

        /// "Sink".
        public var description: String { "Sink" }
    }
}

/// What a live `Subscribers.Sink` holds: its two closures and its subscription. Kept out of the
/// sink so that a finished sink is one word (Docs/Performance.md, "The sink in one word").
@usableFromInline
final class SinkCore<Input, Failure: Error> {
    @usableFromInline let value: (Input) -> Void
    @usableFromInline let completion: (Subscribers.Completion<Failure>) -> Void
    /// Written before the sink publishes `subscribed`, then only by whoever sets `ended`.
    /// `NoSubscription` until then and after cancel.
    @exclusivity(unchecked) @usableFromInline var subscription: any Subscription = NoSubscription()

    @inlinable
    init(value: @escaping (Input) -> Void, completion: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.value = value
        self.completion = completion
    }

    /// Stores `subscription` in place of the `NoSubscription` held until then (see
    /// ``NoSubscription/hold(_:in:)``).
    @inlinable
    func hold(_ subscription: some Subscription) {
        NoSubscription.hold(subscription, in: &self.subscription)
    }

    /// Takes the subscription out (moved, not copied), leaving `NoSubscription`.
    @inlinable
    func takeSubscription() -> any Subscription {
        NoSubscription.take(from: &subscription)
    }
}
