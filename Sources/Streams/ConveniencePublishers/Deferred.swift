// Engine: none. The whole operator is in this file.

/// A publisher that makes a new publisher for each subscriber, when it subscribes.
///
/// Use it to delay work until someone subscribes, or to give each subscriber its own run of the
/// work (unlike ``Future``, which runs once, at creation) ([S12]).
///
/// <!-- marble deferred scheduler source row=1: Deferred { Just(seconds(scheduler.now)) } -->
/// <!-- marble deferred-later scheduler source subscribe=2 row=2: Deferred { Just(seconds(scheduler.now)) } -->
/// ```text
///                              Deferred { Just(now) }
/// subscriber 1 (at tick 0):    [0|]
/// subscriber 2 (at tick 2):    --[2|]     (its own Just, made when it subscribes)
/// ```
///
/// ```swift
/// var runs = 0
/// let deferred = Deferred { () -> Just<Int> in runs += 1; return Just(runs) }
/// _ = deferred.sink { print($0) }   // Prints: 1
/// _ = deferred.sink { print($0) }   // Prints: 2
/// ```
///
/// - Demand: whatever the made publisher does; `request(.none)` too is answered by it ([S9]).
/// - Combine compatibility: as Combine.
///
/// [S9]: doc:/Contract/StreamContract#S9
/// [S12]: doc:/Contract/StreamContract#S12
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The deferred publisher's output type.
    public typealias Output = DeferredPublisher.Output
    /// The deferred publisher's failure type.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure that makes a publisher for each subscriber.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a publisher that calls `createPublisher` once per subscriber.
    ///
    /// - Parameter createPublisher: A closure that makes the publisher to subscribe each new
    ///   subscriber to.
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Makes a publisher and subscribes `subscriber` to it.
    ///
    /// - Parameter subscriber: The subscriber that receives the values and the completion of the
    ///   publisher made for it.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
