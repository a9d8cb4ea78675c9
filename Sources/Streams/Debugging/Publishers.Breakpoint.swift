#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Engine: none. The whole operator is in this file.

// MARK: - breakpoint

extension Publisher {
    /// Stops in the debugger when one of the given closures returns `true` for an event;
    /// otherwise passes everything on unchanged.
    ///
    /// Each closure is asked about its event (the subscription, each value, the completion)
    /// just before the event is passed on. When one returns `true`, the operator raises
    /// `SIGTRAP`: under a debugger, execution stops there, with the event in reach; without a
    /// debugger, the signal ends the process. Returning `false` lets the event through.
    ///
    /// <!-- marble breakpoint: $0.breakpoint(receiveOutput: { _ in false }) -->
    /// ```text
    /// upstream: -1-2-3-|
    ///           breakpoint(receiveOutput: { $0 == 3 })
    /// output:   -1-2-3-|      (the debugger stops before 3 goes out)
    /// ```
    ///
    /// ![Marble diagram of breakpoint](marble-breakpoint)
    ///
    /// ```swift
    /// let c = [1, 2].publisher
    ///     .breakpoint(receiveOutput: { $0 > 5 })   // never true here
    ///     .sink { print($0) }
    /// // Prints: 1
    /// //         2
    /// ```
    ///
    /// - Parameters:
    ///   - receiveSubscription: Asked about the upstream's subscription.
    ///   - receiveOutput: Asked about each value.
    ///   - receiveCompletion: Asked about the completion.
    /// - Returns: A publisher that passes everything on, after raising `SIGTRAP` for each event a
    ///   closure returns `true` for.
    /// - Demand: passes through unchanged.
    /// - Completion: passes through unchanged (after `receiveCompletion` is asked).
    /// - Cancellation: goes straight to the upstream subscription.
    /// - Threading: each closure runs on the thread of its event.
    /// - Combine compatibility: as Combine. On Linux the signal is raised with `raise(SIGTRAP)`.
    /// - Complexity: O(1) per value plus the closure.
    @inlinable
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Stops in the debugger when the upstream fails; otherwise passes everything on unchanged.
    ///
    /// It is ``breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)`` with a
    /// `receiveCompletion` that returns `true` for a failure.
    ///
    /// <!-- marble breakpointOnError: $0.breakpoint(receiveCompletion: { _ in false }) -->
    /// ```text
    /// upstream: -1-2-^
    ///           breakpointOnError()
    /// output:   -1-2-^        (the debugger stops before the failure goes out)
    /// ```
    ///
    /// ![Marble diagram of breakpointOnError](marble-breakpointOnError)
    ///
    /// ```swift
    /// let c = [1, 2].publisher
    ///     .breakpointOnError()                     // never fails here
    ///     .sink { print($0) }
    /// // Prints: 1
    /// //         2
    /// ```
    ///
    /// - Returns: A publisher that passes everything on, after raising `SIGTRAP` for a failure.
    /// - Demand, completion, cancellation: pass through unchanged.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { if case .failure = $0 { true } else { false } })
    }
}

extension Publishers {
    /// The publisher of ``Publisher/breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)``
    /// and ``Publisher/breakpointOnError()``: raises `SIGTRAP` when a closure returns `true`.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are watched.
        public let upstream: Upstream
        /// Asked about the subscription; `true` stops in the debugger.
        public let receiveSubscription: ((any Subscription) -> Bool)?
        /// Asked about each value; `true` stops in the debugger.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// Asked about the completion; `true` stops in the debugger.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Creates a publisher that raises `SIGTRAP` when one of the closures returns `true`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose events are checked.
        ///   - receiveSubscription: A closure that takes the subscription and returns `true` to
        ///     stop, or `nil`.
        ///   - receiveOutput: A closure that takes a value and returns `true` to stop, or `nil`.
        ///   - receiveCompletion: A closure that takes the completion and returns `true` to stop,
        ///     or `nil`.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Subscribes `subscriber` through the checks.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: BreakpointSubscriber(
                    downstream: subscriber, receiveSubscription: receiveSubscription,
                    receiveOutput: receiveOutput, receiveCompletion: receiveCompletion))
        }
    }
}

// MARK: - Subscriber

@usableFromInline
struct BreakpointSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline let downstream: Downstream
    @usableFromInline let receiveSubscription: ((any Subscription) -> Bool)?
    @usableFromInline let receiveOutput: ((Input) -> Bool)?
    @usableFromInline let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

    @inlinable
    init(
        downstream: Downstream, receiveSubscription: ((any Subscription) -> Bool)?,
        receiveOutput: ((Input) -> Bool)?, receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
    ) {
        self.downstream = downstream
        self.receiveSubscription = receiveSubscription
        self.receiveOutput = receiveOutput
        self.receiveCompletion = receiveCompletion
    }

    @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    @usableFromInline var description: String { "Breakpoint" }

    @inlinable
    func receive(subscription: any Subscription) {
        if receiveSubscription?(subscription) == true { raiseBreakpoint() }
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if receiveOutput?(input) == true { raiseBreakpoint() }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        if receiveCompletion?(completion) == true { raiseBreakpoint() }
        downstream.receive(completion: completion)
    }
}

/// Raises `SIGTRAP`: a debugger stops here; without one, the process ends.
@usableFromInline
func raiseBreakpoint() {
    raise(SIGTRAP)
}
