// Engine: Engines/OneValueSubscription.swift.

extension Optional {
    /// A publisher that sends the wrapped value, if any, then finishes.
    ///
    /// <!-- marble optional source row=1: Optional("a").publisher -->
    /// <!-- marble optional-nil source row=2: Optional<String>.none.publisher -->
    /// ```text
    /// Optional(a).publisher:  [a|]
    /// nil.publisher:          |
    /// ```
    ///
    /// ![Marble diagram of optional](marble-optional)
    ///
    /// ```swift
    /// let c = Optional(3).publisher.sink { print($0) }
    /// // Prints: 3
    /// ```
    public var publisher: Publisher {
        Publisher(self)
    }

    /// A publisher of at most one value: the wrapped value then `.finished`, or just `.finished`.
    ///
    /// - Demand: the value waits for demand; `nil` finishes at once ([S5]). Asking for `.none` is
    ///   an API violation ([S9]).
    /// - Cancellation: thread-safe and idempotent, also against a concurrent `request` ([S6]).
    /// - Combine compatibility: as Combine, with the cancellation guarantee above. The operators
    ///   Combine declares on `Optional.Publisher` itself (`map`, `filter`, `count`, `reduce`,
    ///   `replaceEmpty`, ...) are declared here too, return the same publishers and, as in
    ///   Combine, run their closures when they are called.
    ///
    /// [S5]: doc:/Contract/StreamContract#S5
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S9]: doc:/Contract/StreamContract#S9
    public struct Publisher: Streams.Publisher {
        /// The wrapped type.
        public typealias Output = Wrapped
        /// It cannot fail.
        public typealias Failure = Never

        /// The value to send, if any.
        public let output: Wrapped?

        /// Creates a publisher of `output`.
        ///
        /// - Parameter output: The value to send, or `nil` to send none and just finish.
        @inlinable
        public init(_ output: Wrapped?) {
            self.output = output
        }

        /// Sends the value (if any) and `.finished` to `subscriber`.
        ///
        /// - Parameter subscriber: The subscriber that receives the value, if any, and `.finished`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                sendOneValue(output, to: subscriber, name: "Optional.Publisher")
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
