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
    /// - Returns: An ``AnyCancellable``. Keep it as long as values should flow: dropping or
    ///   cancelling it cancels the subscription and releases both closures (S7).
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
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
    /// - Returns: An ``AnyCancellable``; dropping or cancelling it cancels the subscription.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers {
    /// A subscriber that asks for unlimited values and hands each one, and the completion, to a
    /// closure. Made by `sink(receiveCompletion:receiveValue:)`.
    ///
    /// It cancels its subscription when cancelled; a value or completion before its subscription,
    /// or after its completion or cancel, is ignored, and a second subscription is cancelled (S2,
    /// S4), as Combine's. Both closures are released after the completion (S7). When
    /// cancelled directly, the closures go when the sink itself is released (as `sink`'s
    /// `AnyCancellable` releases it at once).
    ///
    /// - Threading: `cancel()` may be called from any thread, at any time.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        /// The two closures; `nil` once finished. Touched only from the serialized receive methods
        /// (S3), never from `cancel()`.
        @exclusivity(unchecked) @usableFromInline var handlers: Handlers?
        /// 0: waiting for a subscription; 1: finished or cancelled; otherwise the retained
        /// `SubscriptionHolder` of the live subscription. Whoever swaps a holder out owns it.
        @usableFromInline let state = Atomic<UInt>(0)

        @usableFromInline
        struct Handlers {
            @usableFromInline let value: (Input) -> Void
            @usableFromInline let completion: (Subscribers.Completion<Failure>) -> Void
            @inlinable init(value: @escaping (Input) -> Void, completion: @escaping (Subscribers.Completion<Failure>) -> Void) {
                self.value = value
                self.completion = completion
            }
        }

        /// The closure called with each value (a closure that does nothing once finished).
        public var receiveValue: (Input) -> Void { handlers?.value ?? { _ in } }
        /// The closure called with the completion (a closure that does nothing once finished).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void { handlers?.completion ?? { _ in } }

        /// Creates a sink that calls `receiveValue` for each value and `receiveCompletion` once at
        /// the end.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            handlers = Handlers(value: receiveValue, completion: receiveCompletion)
        }

        deinit {
            let old = state.exchange(1, ordering: .acquiringAndReleasing)
            if old > 1 { SubscriptionHolder.take(old).cancel() }
        }

        /// Keeps `subscription` and asks it for unlimited values; a second subscription is
        /// cancelled (S2), as is one that arrives after cancel.
        @inlinable
        public func receive(subscription: Subscription) {
            let holder = SubscriptionHolder.retain(subscription)
            let (stored, _) = state.compareExchange(
                expected: 0, desired: holder, ordering: .acquiringAndReleasing)
            if stored {
                subscription.request(.unlimited)
            } else {
                _ = SubscriptionHolder.take(holder)
                subscription.cancel()
            }
        }

        /// Calls `receiveValue`, unless the sink is finished or cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            // Moved out and back rather than copied: a copy would retain and release the closure's
            // context on every value. Nothing else can reach this sink meanwhile (S3).
            // S2: only while subscribed (a holder's address, above 1): nothing before the
            // subscription or after the end.
            if state.load(ordering: .relaxed) > 1, let handlers = self.handlers.take() {
                handlers.value(value)
                self.handlers = handlers
            }
            return .none
        }

        /// Calls `receiveCompletion` once, then releases both closures.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            // S2: a completion before the subscription or after the end is ignored.
            var old = state.load(ordering: .acquiring)
            while old > 1 {
                let (exchanged, original) = state.compareExchange(
                    expected: old, desired: 1, ordering: .acquiringAndReleasing)
                if exchanged { break }
                old = original
            }
            guard old > 1 else { return }
            _ = SubscriptionHolder.take(old)
            // Released after the call (S7): a finished sink keeps nothing alive.
            self.handlers.take()?.completion(completion)
        }

        /// Cancels the subscription; later values and the completion are ignored.
        @inlinable
        public func cancel() {
            let old = state.exchange(1, ordering: .acquiringAndReleasing)
            if old > 1 { SubscriptionHolder.take(old).cancel() }
        }

        /// "Sink".
        public var description: String { "Sink" }
    }
}

/// A subscription kept behind one word, so that an atomic can own it.
@usableFromInline
final class SubscriptionHolder {
    @usableFromInline let subscription: Subscription

    @inlinable init(_ subscription: Subscription) {
        self.subscription = subscription
    }

    /// A retained holder of `subscription`, as the bits of its address.
    @inlinable
    static func retain(_ subscription: Subscription) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(SubscriptionHolder(subscription)).toOpaque())
    }

    /// Takes back ownership of a holder made by ``retain(_:)`` and returns its subscription.
    @inlinable
    static func take(_ bits: UInt) -> Subscription {
        Unmanaged<SubscriptionHolder>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue().subscription
    }
}
