extension Publisher where Failure == Never {
    /// Subscribes and writes each value into a property of an object. Asks for unlimited values.
    ///
    /// <!-- marble assign: u in recordingCalls(of: u.assertNoFailure()) { $0.assign(to: \.value, on: PropertyLog($1)) } -->
    /// ```text
    /// upstream:      -1-2-|
    /// object.count:  -1-2--    (set with each value)
    /// ```
    ///
    /// ```swift
    /// final class Model { var count = 0 }
    /// let model = Model()
    /// let c = [1, 2, 3].publisher.assign(to: \.count, on: model)
    /// print(model.count)   // Prints: 3
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key path of the property to write each value to.
    ///   - object: The object whose property is written.
    /// - Returns: An ``AnyCancellable``. The subscriber keeps `object` alive until the publisher
    ///   completes or the cancellable is cancelled or released; then it lets go of it ([S7]).
    ///   Assigning to a property of the object that holds the cancellable makes a cycle; break it
    ///   by cancelling.
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(object: subscriber)
    }
}

extension Subscribers {
    /// A subscriber that writes each value into a property of an object, made by
    /// `assign(to:on:)`. Asks for unlimited values.
    ///
    /// It holds the object strongly until completion or cancellation, then releases it and its
    /// subscription ([S7]). A value or completion before its subscription, or after its completion
    /// or cancel, is ignored, and a second subscription is cancelled ([S2]), as Combine's.
    ///
    /// - Threading: `cancel()` may be called from any thread.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S7]: doc:/Contract/StreamContract#S7
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        @unchecked Sendable  // every `var` is guarded by `lock`
    {
        /// Assign cannot fail.
        public typealias Failure = Never

        private let lock = Lock()
        private var _object: Root?
        /// The subscription once `isSubscribed` and until `finished`, else a `NoSubscription`
        /// (Engines/NoSubscription.swift).
        private var upstream: any Subscription = NoSubscription()
        private var isSubscribed = false
        /// Completed or cancelled.
        private var finished = false

        /// The object written to; `nil` after completion or cancellation.
        public var object: Root? { lock.withLock { _object } }
        /// The property written to.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber that writes each value into `object[keyPath: keyPath]`.
        ///
        /// - Parameters:
        ///   - object: The object whose property is written; the subscriber keeps it until the end.
        ///   - keyPath: The key path of the property to write each value to.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self._object = object
            self.keyPath = keyPath
        }

        /// Keeps `subscription` and asks it for unlimited values; a second one is cancelled ([S2]).
        ///
        /// - Parameter subscription: The subscription to the publisher.
        ///
        /// [S2]: doc:/Contract/StreamContract#S2
        public func receive(subscription: Subscription) {
            lock.lock()
            guard !isSubscribed, !finished else {
                lock.unlock()
                subscription.cancel()
                return
            }
            isSubscribed = true
            NoSubscription.hold(subscription, in: &upstream)
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Writes `value` into the property.
        ///
        /// - Parameter value: The value to write.
        /// - Returns: `.none`: the unlimited demand asked for at subscription covers every value.
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            // S2: nothing before the subscription or after the end.
            let object = isSubscribed && !finished ? _object : nil
            lock.unlock()
            if let object { object[keyPath: keyPath] = value }
            return .none
        }

        /// Releases the object and the subscription.
        ///
        /// - Parameter completion: The completion; always `.finished`, as the publisher cannot
        ///   fail.
        public func receive(completion: Subscribers.Completion<Never>) {
            lock.lock()
            // S2: a completion before the subscription or after the end is ignored.
            guard isSubscribed, !finished else {
                lock.unlock()
                return
            }
            finished = true
            let object = _object
            _object = nil
            let upstream = NoSubscription.take(from: &self.upstream)
            lock.unlock()
            keepAlive(object, upstream)  // released here, outside the lock
        }

        /// Cancels the subscription and releases the object.
        public func cancel() {
            lock.lock()
            finished = true
            let upstream = NoSubscription.take(from: &self.upstream)
            let object = _object
            _object = nil
            lock.unlock()
            upstream.cancel()
            keepAlive(object)
        }

        /// "Assign" and the type of the object.
        public var description: String { "Assign \(Root.self)." }
    }
}
