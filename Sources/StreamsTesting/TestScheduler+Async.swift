import Streams
import Testing

extension TestScheduler {
    /// Runs the work due by `now + stride` — including work that tasks and other threads
    /// schedule while it waits — until `condition` holds, waiting at most `timeout` (real time)
    /// for that work to be scheduled.
    ///
    /// A synchronous ``advance(by:)`` runs what is scheduled when it is called; its `async` twin
    /// also gives ready tasks a few turns, which is enough for a task that only sleeps on the
    /// scheduler, but not a promise for one that waits on anything else. Work that a
    /// `Task` hands to the scheduler once it has had a turn — the result of an `async` call
    /// delivered with `receive(on: scheduler)`, an effect made with `.task { }` and debounced
    /// on the scheduler — is scheduled at a moment the test cannot see, so the test says what
    /// it waits for instead, and this method runs the scheduler's work as it comes until then.
    /// It waits for the work to be scheduled (it is woken when it is), and never polls or sleeps.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var output: [String] = []
    /// let (answers, continuation) = AsyncStream<String>.makeStream()
    /// let c = AsyncSequencePublisher(answers)   // a task iterates the stream
    ///     .receive(on: scheduler)
    ///     .sink { output.append($0) }
    /// continuation.yield("hello")
    /// await scheduler.advance(until: { output == ["hello"] })  // output == ["hello"]
    /// ```
    ///
    /// What it guarantees:
    /// - It is ``advance(by:)`` that checks `condition` before each piece of work and stops as
    ///   soon as it holds: the work due by `now + stride` runs one piece at a time, in order of
    ///   time and then of scheduling, and the work not needed to reach the condition stays
    ///   queued. So what runs, and where the clock stands, do not depend on how fast the tasks
    ///   were: only on what they scheduled, in which order.
    /// - The clock moves to each piece of work's time as it runs, and to `now + stride` when
    ///   nothing is due before it; never further, so work scheduled for a later time stays
    ///   queued for the next advance. When `condition` holds from the start, nothing runs.
    /// - When nothing is due and `condition` does not hold, it suspends until some work is
    ///   scheduled (any work: `condition` may be about the scheduler itself, such as
    ///   `pendingCount`), and goes on.
    /// - `condition` and the work run in the caller's isolation (on the main actor, in a
    ///   `@MainActor` test).
    ///
    /// What it cannot do: know what a task in flight will do, or when. A task that reads the
    /// clock (`schedule { }` means "now") while the clock is still moving sees wherever it
    /// happens to be: for a result that does not depend on speed, let the clock stand still
    /// while tasks run — advance by zero, or only up to the time the async work starts (the
    /// end of a debounce, a delay), which is where the clock then stays. It sees nothing but
    /// the scheduler. `condition` is only checked when
    /// work is scheduled or has run, so it must become true through the scheduler's work (or
    /// be about the scheduler); a condition that something else makes true is seen at the next
    /// scheduling, or at the timeout. Work that never comes — a task that is stuck, or that
    /// schedules for a later time — fails the test after `timeout`.
    ///
    /// - Parameters:
    ///   - stride: How far the clock may move (zero by default: run what is due now).
    ///   - condition: What the test waits for.
    ///   - timeout: The longest real time to wait for the condition; thirty seconds by
    ///     default. Only a failing test waits that long: tasks need a thread of Swift's
    ///     cooperative pool, and tests running in parallel that block those threads (real-thread
    ///     stress tests) can keep them from their turn for many seconds.
    ///   - isolation: Where `condition` and the work run: the caller's actor.
    ///   - sourceLocation: Where to report a timeout.
    /// - Returns: Whether `condition` holds: `false` when the time ran out (a test failure is
    ///   then recorded) or the waiting task was cancelled (nothing recorded: the test is ending).
    @discardableResult
    public func advance(
        by stride: SchedulerTimeType.Stride = .zero,
        until condition: () -> Bool,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let current = now
        let target = current.advanced(by: stride)
        if target < current {
            fatalError("TestScheduler.advance(by:until:): \(target) is before the current time \(current)")
        }
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            // Read before looking for work: work scheduled after this point wakes the wait.
            let seen = state.lock.withLock { state.generation }
            if let work = state.takeNext(dueBy: target) {
                work()
                continue
            }
            guard await state.waitForWork(after: seen, until: deadline) else {
                if condition() { return true }
                if Task.isCancelled { return false }
                let later = pendingCount
                TestFailures.record(
                    Comment(
                        rawValue: "TestScheduler.advance(until:): the condition did not hold within \(timeout)"
                            + (later == 0
                                ? "; no work is scheduled."
                                : "; \(later) piece(s) of work are scheduled for later times.")),
                    sourceLocation: sourceLocation)
                return false
            }
        }
        return true
    }

    /// Moves the clock forward by `stride`, running everything due on the way, in order, and
    /// giving the tasks that wait on this scheduler their turn before each piece of work and
    /// after the last: a task that sleeps on the scheduler (`Scheduler.sleep(for:)`)
    /// wakes, runs on, and may sleep again within the same advance.
    ///
    /// The `async` twin of ``advance(by:)``, which Swift picks with `await`. The work runs in the
    /// caller's isolation, and tasks get their turn by a number of yields, as combine-schedulers'
    /// scheduler does. When the test and its tasks share an actor — a `@MainActor` test and the
    /// `Task { }`s it starts, as in that package's tests — each yield lets the actor run what is
    /// queued on it, in order, so the outcome does not depend on the machine's speed. A task on
    /// another executor, or one that waits on something else, is not waited for: use
    /// ``advance(by:until:timeout:isolation:sourceLocation:)`` to wait for a condition.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let task = Task { try await scheduler.sleep(for: .seconds(1)); return "woke" }
    /// await scheduler.advance(by: .seconds(1))
    /// // await task.value == "woke"
    /// ```
    ///
    /// - Parameters:
    ///   - stride: How far to move the clock (zero by default: run what is due now).
    ///   - isolation: Where the work runs: the caller's actor.
    public func advance(
        by stride: SchedulerTimeType.Stride = .zero,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        await advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant` as ``advance(by:)-(SchedulerTimeType.Stride)`` does, giving
    /// waiting tasks their turn before each piece of work and after the last. An `instant`
    /// already passed does nothing but give them their turn.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// await scheduler.advance(to: scheduler.now.advanced(by: .seconds(2)))
    /// ```
    ///
    /// - Parameters:
    ///   - instant: The time to move the clock to.
    ///   - isolation: Where the work runs: the caller's actor.
    public func advance(to instant: SchedulerTimeType, isolation: isolated (any Actor)? = #isolation) async {
        await Self.letTasksRun(isolation: isolation)
        if instant < now { return }
        while let work = state.takeNext(dueBy: instant) {
            work()
            await Self.letTasksRun(isolation: isolation)
        }
    }

    /// Runs everything scheduled, as ``run()`` does, giving waiting tasks their turn before each
    /// piece of work and after the last. Stops the program after a hundred thousand pieces of
    /// work (a repeating timer nobody stops: advance by a duration instead).
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// await scheduler.run()
    /// ```
    ///
    /// - Parameter isolation: Where the work runs: the caller's actor.
    public func run(isolation: isolated (any Actor)? = #isolation) async {
        var count = 0
        await Self.letTasksRun(isolation: isolation)
        while let work = state.takeNext(dueBy: nil) {
            count += 1
            if count > 100_000 {
                fatalError(
                    "TestScheduler.run(): over a hundred thousand pieces of work; is a repeating action scheduled? Advance by a duration instead."
                )
            }
            work()
            await Self.letTasksRun(isolation: isolation)
        }
    }

    /// Lets the tasks that are ready run before the caller goes on: yields, a number of times, in
    /// the caller's isolation. Each yield puts the caller behind what is queued: on an actor (the
    /// main actor of a `@MainActor` test), the jobs of the tasks that share it, in order; on the
    /// global executor, the ready jobs of the pool.
    static func letTasksRun(isolation: isolated (any Actor)?) async {
        for _ in 0..<20 {
            await Task.yield()
        }
    }
}
