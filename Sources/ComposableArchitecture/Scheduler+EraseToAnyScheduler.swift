import Streams

// `eraseToAnyScheduler()` lives here, not in Streams: it is combine-schedulers' name, which the
// Composable Architecture brings to its apps, and Streams keeps Combine's namespaces (here
// `Scheduler`) free of names Combine lacks, so that a library declaring its own compiles
// unchanged against Streams (Scripts/public-names.py).

extension Scheduler
where Self: Sendable, SchedulerTimeType: Sendable, SchedulerTimeType.Stride: Sendable,
      SchedulerOptions: SendableMetatype
{
    /// Wraps this scheduler in an `AnyScheduler`: the same as `AnyScheduler(self)`.
    ///
    /// ```swift
    /// struct Environment {
    ///     var mainQueue: AnySchedulerOf<DispatchQueue>
    /// }
    /// let live = Environment(mainQueue: DispatchQueue.main.eraseToAnyScheduler())
    /// ```
    ///
    /// - Returns: A type-erased scheduler that forwards to this one.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

extension AnyScheduler {
    /// Returns itself: erasing twice adds nothing.
    ///
    /// - Returns: This scheduler.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> { self }
}
