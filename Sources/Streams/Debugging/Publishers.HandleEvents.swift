// Engine: Engines/ObservingSubscription.swift.

// MARK: - handleEvents

extension Publisher {
    /// Runs closures at the events of a stream (subscription, values, completion, cancel,
    /// requests) without changing it.
    ///
    /// Each closure you give is called just before its event is passed on: `receiveOutput`
    /// before the downstream receives the value, `receiveCompletion` before the completion,
    /// `receiveRequest` and `receiveCancel` before the downstream's request or cancel reaches the
    /// upstream. It is the tool for side effects that must not alter the stream: logging,
    /// counting, starting and stopping an activity indicator. All closures are optional.
    ///
    /// <!-- marble handleEvents: $0.handleEvents(receiveOutput: { _ in }) -->
    /// ```text
    /// upstream: -1-2-|
    ///           handleEvents(receiveOutput: { log($0) })
    /// output:   -1-2-|        (log(1) runs before 1 goes out, log(2) before 2)
    /// ```
    ///
    /// ![Marble diagram of handleEvents](marble-handleEvents)
    ///
    /// ```swift
    /// let c = [1, 2].publisher
    ///     .handleEvents(
    ///         receiveSubscription: { _ in print("subscribed") },
    ///         receiveOutput: { print("output", $0) },
    ///         receiveCompletion: { print("completion", $0) },
    ///         receiveRequest: { print("request", $0) })
    ///     .sink { print("value", $0) }
    /// // Prints: subscribed
    /// //         request unlimited
    /// //         output 1
    /// //         value 1
    /// //         output 2
    /// //         value 2
    /// //         completion finished
    /// ```
    ///
    /// - Parameters:
    ///   - receiveSubscription: Called with the upstream's subscription, before the downstream
    ///     receives its own.
    ///   - receiveOutput: Called with each value, before the downstream receives it.
    ///   - receiveCompletion: Called with the completion, before the downstream receives it.
    ///   - receiveCancel: Called when the downstream cancels, before the upstream is cancelled.
    ///   - receiveRequest: Called with each demand the downstream asks for, by `request(_:)`
    ///     before it reaches the upstream, and by returning more than `.none` from
    ///     `receive(_:)` just after it returned.
    /// - Returns: A publisher that passes everything on unchanged, calling the closures at the
    ///   events.
    ///
    /// - Demand: passes through unchanged. The downstream gets a subscription of this operator,
    ///   so that `receiveRequest` sees its requests, but each request goes on to the upstream
    ///   as it is: asking for `.none` does what the upstream does with it (`Publishers.Sequence`
    ///   ignores it, `Just` reports it, [S9]).
    /// - Completion: passes through, after `receiveCompletion`. The closures are released
    ///   after the completion ([S7]), and nothing the upstream sends later is passed on ([S4]). A
    ///   value or completion that arrives before the upstream's subscription is ignored too,
    ///   without running a closure, and a second subscription is cancelled ([S2]).
    /// - Cancellation: `receiveCancel` runs once, then the upstream is cancelled and the
    ///   closures are released ([S6], [S7]); later requests and cancels do nothing and run no
    ///   closure.
    /// - Threading: each closure runs on the thread of its event: `receiveOutput` and
    ///   `receiveCompletion` where the upstream delivers, `receiveRequest` and `receiveCancel`
    ///   where the downstream calls. A request may run alongside a value, and a value already on
    ///   its way when another thread cancels may still run `receiveOutput`; no closure runs while
    ///   the operator holds its lock.
    /// - Combine compatibility: as Combine, except that Combine passes on values and completions
    ///   that arrive before the subscription or after a completion or cancel, and keeps the
    ///   downstream after cancel.
    /// - Complexity: O(1) per event, besides the closures.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/handleEvents(receiveSubscription:receiveOutput:receiveCompletion:receiveCancel:receiveRequest:)``:
    /// the upstream unchanged, with closures run at its events.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream
        /// Called with the upstream's subscription.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Called with each value from the upstream.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// Called with the upstream's completion.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// Called when the downstream cancels.
        public var receiveCancel: (() -> Void)?
        /// Called with each demand the downstream asks for.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that runs the given closures at `upstream`'s events.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose events are observed.
        ///   - receiveSubscription: A closure called with the upstream's subscription, or `nil`.
        ///   - receiveOutput: A closure called with each value, or `nil`.
        ///   - receiveCompletion: A closure called with the completion, or `nil`.
        ///   - receiveCancel: A closure called when the downstream cancels, or `nil`.
        ///   - receiveRequest: A closure called with each demand the downstream asks for, or `nil`.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Subscribes `subscriber` through a subscription that runs the closures.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let hooks = EventHooks(
                subscription: receiveSubscription, output: receiveOutput, returnedDemand: receiveRequest,
                completion: receiveCompletion, cancel: receiveCancel, request: receiveRequest)
            upstream.receive(
                subscriber: ObservingSubscription(downstream: subscriber, hooks: hooks, name: "HandleEvents"))
        }
    }
}

// The subscription is `ObservingSubscription` (Engines/ObservingSubscription.swift), shared with
// `print`.
