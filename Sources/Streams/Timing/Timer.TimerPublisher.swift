import Foundation

// Engine: Engines/TimerCore.swift.

extension Timer {
    /// A connectable publisher that sends the current date every `interval` seconds, from a
    /// timer on `runLoop` in `mode`.
    ///
    /// Nothing happens until the publisher is connected: call `connect()`, or use
    /// `autoconnect()` to connect on the first subscriber. Connecting adds a repeating
    /// Foundation `Timer` to the run loop; its first tick is one `interval` later. The ticks
    /// only fire while that run loop runs in `mode` (the main run loop of an app does; on
    /// another thread, or in a command-line program, something must run it).
    ///
    /// <!-- marble timer-publisher scheduler source async: scheduler.turningRunLoop(first: 1, every: 2) { runLoop in Timer.publish(every: 0.05, on: runLoop, in: .default).autoconnect() }.namedInOrder() -->
    /// ```text
    /// Timer.publish(every: 1, ...).autoconnect(), with the run loop running:
    /// output: -a-b-c-    (a, b, c: the dates of the ticks, one second apart)
    /// ```
    ///
    /// ```swift
    /// let c = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { print($0) }
    /// // Prints a date every second, while the main run loop runs.
    /// ```
    ///
    /// For code that must be tested on virtual time, prefer a scheduler's
    /// ``SchedulerTimer/publish(every:tolerance:on:options:)``.
    ///
    /// - Parameters:
    ///   - interval: Seconds between two ticks.
    ///   - tolerance: How late a tick may be; `nil` (the default) allows none beyond the
    ///     run loop's own.
    ///   - runLoop: The run loop whose thread the ticks fire on.
    ///   - mode: The run loop mode the timer fires in.
    ///   - options: Kept for Combine compatibility; a run loop takes no options.
    /// - Returns: A connectable publisher of the date at each tick.
    /// - Demand: a tick goes to each subscriber that has demand at that moment; one without
    ///   demand misses it. Asking for `.none` does nothing, as in Combine ([S9]).
    /// - Completion: never completes.
    /// - Cancellation: cancelling a subscriber detaches it; cancelling the connection
    ///   invalidates the timer.
    /// - Threading: ticks are delivered on the run loop's thread.
    /// - Combine compatibility: as Foundation's `Timer.publish` with Combine, except that
    ///   `tolerance` is applied to the timer (Combine ignores it) and that connecting a connected
    ///   publisher returns the running connection instead of starting a second timer.
    /// - Complexity: O(subscribers) per tick.
    ///
    /// [S9]: doc:/Contract/StreamContract#S9
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// The connectable publisher of ``Foundation/Timer/publish(every:tolerance:on:in:options:)``:
    /// the current date, every interval, from a run loop timer.
    public final class TimerPublisher: ConnectablePublisher {
        /// The date of the tick.
        public typealias Output = Date
        /// A timer cannot fail.
        public typealias Failure = Never

        /// Seconds between two ticks.
        public let interval: TimeInterval
        /// How late a tick may be.
        public let tolerance: TimeInterval?
        /// The run loop the timer is added to.
        public let runLoop: RunLoop
        /// The run loop mode the timer fires in.
        public let mode: RunLoop.Mode
        /// Options (a run loop takes none).
        public let options: RunLoop.SchedulerOptions?
        @usableFromInline let core = TimerCore<Date> { Date() }

        /// Creates a publisher that, once connected, sends the date every `interval` seconds from
        /// a timer on `runLoop` in `mode`.
        ///
        /// - Parameters:
        ///   - interval: The time between ticks, in seconds.
        ///   - tolerance: How late a tick may fire, in seconds; `nil` allows none beyond the
        ///     timer's own.
        ///   - runLoop: The run loop to add the timer to.
        ///   - mode: The run loop mode in which the timer fires.
        ///   - options: Kept for Combine compatibility; a run loop takes no options.
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches `subscriber`; it receives the ticks that find it with demand.
        ///
        /// - Parameter subscriber: The subscriber that receives the date at each tick.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            core.attach(subscriber)
        }

        /// Adds the timer to the run loop (or returns the running connection); cancel the result
        /// to invalidate it.
        ///
        /// - Returns: A cancellable that invalidates the timer.
        public func connect() -> Cancellable {
            core.connect { tick in
                let timer = Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) { _ in
                    tick()
                }
                if let tolerance { timer.tolerance = tolerance }
                runLoop.add(timer, forMode: mode)
                return AnyCancellable { timer.invalidate() }
            }
        }
    }
}
