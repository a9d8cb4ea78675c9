import Dispatch
import Foundation
import Streams
import Testing
import XCTest

// Two more stand-ins for combine-schedulers' schedulers: one that runs everything at once, with
// the time types of the scheduler it replaces, and one that fails the test when it is used.

/// A scheduler that runs every action at once, on the calling thread, with the time and options
/// types of the scheduler it stands in for: `ImmediateSchedulerOf<DispatchQueue>`, made by
/// `DispatchQueue.immediate`.
///
/// For tests and previews where time does not matter: a debounced search, an animation delay, a
/// `receive(on: mainQueue)` all happen at once. Its clock never moves. A repeating action runs
/// once. (Streams' own `ImmediateScheduler` is Combine's, with time types of its own; this one
/// drops in where code expects an `AnySchedulerOf<DispatchQueue>`.)
///
/// ```swift
/// let scheduler = DispatchQueue.immediate
/// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) { print("ran") }
/// // Prints: ran (before `schedule` returns)
/// ```
///
/// - Combine compatibility: combine-schedulers' `ImmediateScheduler`, under another name (Combine
///   has a non-generic `ImmediateScheduler`).
public struct TypedImmediateScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }
    /// The time it was made with; it never moves.
    public let now: SchedulerTimeType

    /// A scheduler whose clock stands at `now`.
    ///
    /// - Parameter now: The time the scheduler shows.
    public init(now: SchedulerTimeType) {
        self.now = now
    }

    /// Runs `action` now.
    ///
    /// - Parameters:
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        action()
    }

    /// Runs `action` now, whatever `date` is.
    ///
    /// - Parameters:
    ///   - date: The time to run at; ignored.
    ///   - tolerance: How late the action may run; ignored.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
        action()
    }

    /// Runs `action` once, now.
    ///
    /// - Parameters:
    ///   - date: The time of the first run; ignored.
    ///   - interval: The time between runs; ignored.
    ///   - tolerance: How late each run may be; ignored.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work to run, once.
    /// - Returns: A cancellable that does nothing: the action has already run.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        action()
        return AnyCancellable {}
    }
}

extension TypedImmediateScheduler: Sendable where SchedulerTimeType: Sendable {}

/// An immediate scheduler with the time types of `S`: `ImmediateSchedulerOf<DispatchQueue>`.
public typealias ImmediateSchedulerOf<S: Scheduler> = TypedImmediateScheduler<S.SchedulerTimeType, S.SchedulerOptions>

/// A scheduler for a dependency a test does not expect to be used: everything it is asked
/// (its time, or to schedule an action) fails the current test — with `Issue.record` in a Swift
/// Testing test, `XCTFail` in an XCTest one — naming `prefix`, and the action never runs.
///
/// Give it to the parts of an environment the feature under test must not touch, so the test
/// says so:
///
/// ```swift
/// let scheduler = DispatchQueue.unimplemented("mainQueue")
/// let environment = AnySchedulerOf<DispatchQueue>(scheduler)   // fails the test if used
/// ```
///
/// - Combine compatibility: combine-schedulers' `UnimplementedScheduler`.
public struct UnimplementedScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible, SchedulerTimeType: Sendable {
    /// What the failures call it.
    public let prefix: String
    private let time: SchedulerTimeType

    /// A scheduler that fails the test when used, naming `prefix`, and shows `now` when asked.
    ///
    /// - Parameters:
    ///   - prefix: A name for the scheduler in the failures (`"mainQueue"`).
    ///   - now: The time it answers with (after failing) when asked.
    public init(_ prefix: String = "", now: SchedulerTimeType) {
        self.prefix = prefix
        time = now
    }

    /// Fails the test, then answers the time it was made with.
    public var now: SchedulerTimeType {
        fail("was asked the current time")
        return time
    }

    /// Fails the test, then answers zero.
    public var minimumTolerance: SchedulerTimeType.Stride {
        fail("was asked its minimum tolerance")
        return .zero
    }

    /// Fails the test; `action` never runs.
    ///
    /// - Parameters:
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work that was scheduled; never run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void) {
        fail("scheduled an action to run at once")
    }

    /// Fails the test; `action` never runs.
    ///
    /// - Parameters:
    ///   - date: The time the action was scheduled for.
    ///   - tolerance: The tolerance it was scheduled with.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work that was scheduled; never run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping @Sendable () -> Void
    ) {
        fail("scheduled an action to run later")
    }

    /// Fails the test; `action` never runs.
    ///
    /// - Parameters:
    ///   - date: The time of the first run it was scheduled for.
    ///   - interval: The time between runs it was scheduled with.
    ///   - tolerance: The tolerance it was scheduled with.
    ///   - options: Options for the scheduler; unused.
    ///   - action: The work that was scheduled; never run.
    /// - Returns: A cancellable that does nothing.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping @Sendable () -> Void
    ) -> Cancellable {
        fail("scheduled an action to run on a timer")
        return AnyCancellable {}
    }

    private func fail(_ what: String) {
        let name = prefix.isEmpty ? "An unimplemented scheduler" : "The unimplemented scheduler \"\(prefix)\""
        let message = "\(name) \(what): the code under test was not expected to use it."
        if Test.current != nil || TestFailures.capture != nil {
            TestFailures.record(Comment(rawValue: message))
        } else {
            XCTFail(message)
        }
    }
}

/// An unimplemented scheduler with the time types of `S`.
public typealias UnimplementedSchedulerOf<S: Scheduler> = UnimplementedScheduler<
    S.SchedulerTimeType, S.SchedulerOptions
>

extension DispatchQueue {
    /// An immediate scheduler with `DispatchQueue`'s time types, its clock at an uptime of one
    /// nanosecond (as `DispatchQueue.test` starts).
    public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
        TypedImmediateScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }

    /// A scheduler with `DispatchQueue`'s time types that fails the test when it is used.
    ///
    /// - Parameter prefix: A name for it in the failures.
    /// - Returns: An unimplemented scheduler.
    public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<DispatchQueue> {
        UnimplementedScheduler(prefix, now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }

    /// A scheduler with `DispatchQueue`'s time types that fails the test when it is used.
    public static var unimplemented: UnimplementedSchedulerOf<DispatchQueue> {
        UnimplementedScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension OperationQueue {
    /// An immediate scheduler with `OperationQueue`'s time types, its clock at the Unix epoch.
    public static var immediate: ImmediateSchedulerOf<OperationQueue> {
        TypedImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension RunLoop {
    /// An immediate scheduler with `RunLoop`'s time types, its clock at the Unix epoch.
    public static var immediate: ImmediateSchedulerOf<RunLoop> {
        TypedImmediateScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// `DispatchQueue.immediate`, erased.
    public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }

    /// A scheduler that fails the test when it is used, erased: for test environments.
    ///
    /// ```swift
    /// let mainQueue: AnySchedulerOf<DispatchQueue> = .unimplemented
    /// ```
    public static var unimplemented: Self { DispatchQueue.unimplemented.eraseToAnyScheduler() }

    /// A scheduler named `prefix` that fails the test when it is used, erased.
    ///
    /// - Parameter prefix: A name for it in the failures.
    /// - Returns: An unimplemented scheduler, erased.
    public static func unimplemented(_ prefix: String) -> Self {
        DispatchQueue.unimplemented(prefix).eraseToAnyScheduler()
    }
}
