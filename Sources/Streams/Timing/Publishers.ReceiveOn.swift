#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Engine: Engines/SerialDelivery.swift (the one-at-a-time delivery loop run on the scheduler).

// MARK: - receive(on:options:)

extension Publisher {
    /// Delivers values and the completion on `scheduler`.
    ///
    /// The upstream may send from any thread; `receive(on:)` puts each value and the completion in
    /// a queue and has the scheduler deliver them, one at a time and in the order they came ([S13]).
    /// The usual use is to do UI work on the main queue with what a background publisher produced.
    /// Only the delivery moves: the upstream still runs where it ran, and the downstream's
    /// subscription is handed over at once, on the subscribing thread (as in Combine).
    ///
    /// <!-- marble receiveOn scheduler: $0.receive(on: scheduler) -->
    /// ```text
    /// upstream: -a-b-c-|
    ///           receive(on: scheduler)
    /// output:   -a-b-c-|      (each event delivered by `scheduler`, in the same order)
    /// ```
    ///
    /// ![Marble diagram of receiveOn](marble-receiveOn)
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "work")
    /// let c = [1, 2, 3].publisher
    ///     .receive(on: queue)
    ///     .sink { value in
    ///         dispatchPrecondition(condition: .onQueue(queue))
    ///         print(value)
    ///     }
    /// // Prints, on `queue`, usually after `sink` has returned: 1, 2, 3
    /// ```
    ///
    /// ### On the main queue in a command-line program
    ///
    /// `receive(on: DispatchQueue.main)` and `receive(on: RunLoop.main)` only deliver while
    /// something runs the main queue or the main run loop; an app does, a command-line program
    /// must do it itself (checked on Linux, Swift 6.3; details and complete programs in
    /// `Docs/MainQueue.md`):
    ///
    /// - End `main.swift` with `dispatchMain()`: it never returns and runs the main queue; call
    ///   `exit(_:)` when the work is done. `RunLoop.main` is *not* run this way.
    /// - Run the main run loop in a loop until a condition holds:
    ///   `while !done { _ = RunLoop.main.run(mode: .default, before: Date() + 0.1) }`. It runs
    ///   `RunLoop.main` work and the main queue. Keep the deadline short: work another thread
    ///   hands to `RunLoop.main` does not wake a waiting run loop on Linux, so it waits for the
    ///   next wake-up.
    /// - An `async` main (`@main` with `static func main() async`): its main actor runs on the
    ///   main queue, which the runtime drains while `main` awaits, so
    ///   `receive(on: DispatchQueue.main)` works; `RunLoop.main` is never run.
    ///
    /// The trap: after `dispatchMain()`, and in an `async` main after its first suspension, the
    /// main queue is drained on a thread for which `Thread.isMainThread` is `false`. Ask "am I on
    /// the main queue" instead: `dispatchPrecondition(condition: .onQueue(.main))` or
    /// `MainActor.assumeIsolated { ... }`.
    ///
    /// - Parameters:
    ///   - scheduler: Where to deliver values and the completion.
    ///   - options: Options for each piece of work scheduled (for a dispatch queue: quality of
    ///     service, flags, a group).
    /// - Returns: A publisher that delivers the upstream's values and completion on `scheduler`.
    ///
    /// - Demand: the downstream's requests go straight to the upstream, synchronously, on the
    ///   thread that calls `request` (as in Combine): the first request, made inside
    ///   `receive(subscription:)`, reaches the upstream on the subscribing thread, so a
    ///   synchronous upstream (`Just`, a sequence) produces its values there; they wait in the
    ///   queue for the scheduler. Demand the downstream returns from `receive(_:)` is requested
    ///   from the upstream on the scheduler, just after that value was delivered. Asking for
    ///   `.none` does nothing and is not passed on, as in Combine ([S9]). Values in the queue
    ///   were all asked for, so none is
    ///   delivered without demand ([S1]).
    /// - Completion: queued behind the values, so it arrives after the last of them; anything
    ///   the upstream sends after its completion is ignored ([S4]). What the upstream sends before
    ///   its subscription or after its end is ignored, and a second subscription is cancelled ([S2]).
    /// - Cancellation: `cancel()` cancels the upstream and drops the events still queued; the
    ///   downstream, the upstream subscription and the queued values are let go at once ([S6],
    ///   [S7]). Precisely: once `cancel()` has returned, no event is taken out of the queue any
    ///   more. So a `cancel()` made where no delivery can be under way (inside the downstream's
    ///   `receive(_:)`, or in other work on the same serial scheduler, such as the main queue when
    ///   receiving on the main queue) is followed by nothing at all. Made on another thread while
    ///   the scheduler is delivering, the one event already taken out may still reach the
    ///   downstream after `cancel()` has returned; never more than that one.
    /// - Threading: every value and the completion are delivered by `scheduler`, never two at
    ///   once ([S3]), also on a concurrent scheduler such as `DispatchQueue.global()`, also when
    ///   the upstream sends from several threads at once. At most one delivery pass is
    ///   scheduled at a time; it delivers what is queued, including events that arrive while it
    ///   runs, and after 64 events hands over to a freshly scheduled pass so that a busy upstream
    ///   cannot keep a serial scheduler (the main queue) to itself. The downstream receives its
    ///   subscription on the thread where the upstream hands over its own (usually the
    ///   subscribing thread); no value is delivered while that call is running on another
    ///   thread. `request` and `cancel` run on the calling thread.
    /// - Combine compatibility: as Combine for where each signal runs (the subscription at
    ///   once, requests on the caller's thread, values and completion on the scheduler). Combine
    ///   schedules each event as its own piece of work, so on a concurrent scheduler its
    ///   deliveries may run at the same time and out of order; Streams delivers them in order,
    ///   one at a time, on any scheduler.
    /// - Complexity: O(1) amortized per event, and one scheduled pass per burst of up to 64
    ///   events.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S13]: doc:/Contract/StreamContract#S13
    @inlinable
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/receive(on:options:)``: the upstream's values and completion,
    /// delivered on a scheduler.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are moved to the scheduler.
        public let upstream: Upstream
        /// The scheduler that delivers values and the completion.
        public let scheduler: Context
        /// Options for the work scheduled on `scheduler`.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers `upstream`'s events on `scheduler`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose events are delivered on `scheduler`.
        ///   - scheduler: The scheduler to deliver the values and the completion on.
        ///   - options: Options for the scheduler, or `nil`.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes `subscriber` through a subscription that delivers on the scheduler.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion on
        ///   the scheduler.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: ReceiveOnSubscription(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

// MARK: - Subscription

/// The subscriber to the upstream and the subscription the downstream receives for
/// `receive(on:)`.
///
/// Events from the upstream wait in the queue of a ``SerialDelivery``. Its drain token here
/// means "a delivery pass is scheduled or running": whoever queues an event while the token is
/// free takes it and schedules a pass; everyone else just queues. A pass (``drain()``) is the
/// drain loop, run on the scheduler: it takes events out one at a time under the lock and
/// delivers each outside it, so deliveries never overlap ([S3]) and keep the queue's order ([S13]),
/// whatever the scheduler and however many threads the upstream sends from. After
/// ``batchLimit`` events it schedules its successor and, unless the scheduler ran that at once,
/// leaves the token to it.
///
/// Handing the downstream its subscription is not a pass: it happens on the upstream's thread,
/// as Combine documents. While it runs (`handoverThread`), a pass that runs on that same thread
/// (a synchronous scheduler, such as `ImmediateScheduler`, delivering a value that a synchronous
/// upstream sent inside the first request) delivers as usual, nested like any synchronous
/// publisher's values; a pass on any other thread leaves the events queued and the handover
/// schedules a pass when it is done.
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S13]: doc:/Contract/StreamContract#S13
@usableFromInline
final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, DeliveryPass, SerialDelivery,
    @unchecked Sendable  // every `var` is guarded by `lock`; `scheduler` and `options` are read-only
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// One signal from the upstream, waiting to be delivered.
    @usableFromInline
    enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    /// What a pass hands out.
    @usableFromInline
    enum Delivery {
        case value(Input, Downstream)
        case end(Subscribers.Completion<Failure>, Downstream)
        /// The batch limit is reached: schedule the next pass.
        case handOff
    }

    /// Whether a pass that reached its batch limit has scheduled its successor and is waiting to
    /// learn whether it ran at once (a synchronous scheduler), in which case the first pass
    /// carries on instead of nesting deeper ([S8]).
    ///
    /// [S8]: doc:/Contract/StreamContract#S8
    @usableFromInline
    enum Handoff {
        case none
        case offered
        case declined
    }

    /// How many events a pass delivers before it hands over to a newly scheduled pass.
    @inlinable static var batchLimit: Int { 64 }

    @usableFromInline let lock = Lock()
    // `@exclusivity(unchecked)` on the state below: `lock` already makes every access exclusive
    // (Docs/Performance.md, "`@exclusivity(unchecked)`").
    /// `nil` once cancelled or once the completion has been taken out for delivery.
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    /// The upstream's subscription from `receive(subscription:)` until its completion or
    /// `cancel()`, else a ``NoSubscription`` (NoSubscription.swift).
    @exclusivity(unchecked) @usableFromInline var upstream: any Subscription = NoSubscription()
    /// The queued events; the token is held while a pass is scheduled or running.
    @exclusivity(unchecked) @usableFromInline var serial = SerialQueue<Event>()
    /// Events the running pass has delivered since it started or last handed off.
    @exclusivity(unchecked) @usableFromInline var passCount = 0
    @exclusivity(unchecked) @usableFromInline var handoff = Handoff.none
    /// The thread handing the downstream its subscription, while it does.
    @exclusivity(unchecked) @usableFromInline var handoverThread: pthread_t?
    @exclusivity(unchecked) @usableFromInline var isSubscribed = false
    /// The upstream's completion arrived: later signals are ignored ([S4]).
    ///
    /// [S4]: doc:/Contract/StreamContract#S4
    @exclusivity(unchecked) @usableFromInline var upstreamFinished = false
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    @usableFromInline var description: String { "ReceiveOn" }

    // MARK: Subscriber (the upstream's signals)

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !isSubscribed, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        isSubscribed = true
        NoSubscription.hold(subscription, in: &upstream)
        handoverThread = pthread_self()
        lock.unlock()
        downstream.receive(subscription: self)
        lock.lock()
        handoverThread = nil
        let mustSchedule = !serial.pending.isEmpty && self.downstream != nil && serial.takeToken()
        lock.unlock()
        if mustSchedule { scheduleDrain() }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        enqueue(.value(input))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        enqueue(.completion(completion))
    }

    /// Queues `event` and schedules a pass unless one is already under way.
    @inlinable
    func enqueue(_ event: Event) {
        lock.lock()
        guard isSubscribed, !upstreamFinished, downstream != nil else {
            lock.unlock()
            return
        }
        serial.pending.append(event)
        let mustSchedule = serial.takeToken()
        if case .completion = event {
            upstreamFinished = true
            let finished = NoSubscription.take(from: &upstream)
            lock.unlock()
            keepAlive(finished)  // let go of after unlocking (S7)
        } else {
            lock.unlock()
        }
        if mustSchedule { scheduleDrain() }
    }

    // MARK: Delivering, on the scheduler

    @inlinable
    func scheduleDrain() {
        // The closure captures an existential, not this generic class: no generic type crosses
        // into the `@Sendable` closure.
        let target: any DeliveryPass = self
        scheduler.schedule(options: options) { target.drain() }
    }

    /// One delivery pass: runs on the scheduler and delivers queued events in order until the
    /// queue is empty, the stream is cancelled or completed, or the batch limit is reached.
    @inlinable
    func drain() {
        lock.lock()
        drainLocked()
    }

    @inlinable
    func nextStepLocked(returned: Subscribers.Demand) -> DrainStep<Delivery> {
        if case .offered = handoff {
            // Scheduled by a pass that is still inside `schedule`: a synchronous scheduler ran
            // this at once. Let that pass carry on instead of growing the stack.
            handoff = .declined
            return .leave
        }
        if let thread = handoverThread, pthread_equal(thread, pthread_self()) == 0 {
            // The subscription is being handed over on another thread; it schedules a pass
            // when done.
            passCount = 0
            return .stop(nil)
        }
        guard let downstream, !serial.pending.isEmpty else {
            passCount = 0
            return .stop(nil)
        }
        if passCount == Self.batchLimit {
            passCount = 0
            handoff = .offered
            return .deliver(.handOff)
        }
        passCount += 1
        let event = serial.pending.popFirst()!
        switch event {
        case .value(let value):
            return .deliver(.value(value, downstream))
        case .completion(let completion):
            self.downstream = nil  // nothing may follow the completion
            return .deliver(.end(completion, downstream))
        }
    }

    @inlinable
    func deliver(_ delivery: Delivery) -> DeliveryResult {
        switch delivery {
        case .value(let value, let downstream):
            let more = downstream.receive(value)
            if more != .none {
                lock.lock()
                let upstream = self.upstream  // a `NoSubscription` once cancelled or finished
                lock.unlock()
                upstream.request(more)
            }
            return .returned(.none)
        case .end(let completion, let downstream):
            downstream.receive(completion: completion)
            return .leave  // the token stays taken: nothing will ever be delivered again
        case .handOff:
            scheduleDrain()
            lock.lock()
            let declined = if case .declined = handoff { true } else { false }
            handoff = .none
            lock.unlock()
            return declined ? .returned(.none) : .leave  // not declined: the new pass owns the delivery now
        }
    }

    // MARK: Subscription (the downstream's calls)

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard demand != .none else { return }
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let upstream = NoSubscription.take(from: &self.upstream)
        let downstream = self.downstream.take()
        let dropped = serial.pending.takeAll()
        lock.unlock()
        upstream.cancel()
        // Let go of the downstream and the queued values after unlocking (S7).
        keepAlive(downstream, dropped)
    }
}

/// What the closure that `receive(on:)` schedules calls: one delivery pass.
@usableFromInline
protocol DeliveryPass: AnyObject, Sendable {
    /// Delivers queued events, on the scheduler.
    func drain()
}
