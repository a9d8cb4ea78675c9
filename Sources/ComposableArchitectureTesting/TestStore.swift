import ComposableArchitecture
import Streams

/// How much of what happens a ``TestStore`` makes the test assert.
public enum Exhaustivity: Sendable, Hashable {
    /// Everything (the default): every state change, every action an effect sends back, and
    /// every effect still running at the end of the test must be asserted, or the test fails.
    case on
    /// Only what the test asserts: a `send` or `receive` closure is checked against the actual
    /// state (so assign absolute values in it: `$0.count = 2`, not `$0.count += 1`); received
    /// actions the test does not assert are skipped; effects still running at the end of the test
    /// are cancelled without failing it. For integration tests of large features.
    case off
}

/// A store for tests: it runs a reducer like a ``/ComposableArchitecture/Store``, and makes the test assert, step by
/// step, how each action changes the state and which actions the effects send back.
///
/// Send an action with ``send(_:_:fileID:file:line:column:)`` and describe, in the closure, how
/// the state should change (mutate the *expected* state). Assert each action an effect feeds
/// back with ``receive(_:_:fileID:file:line:column:)-(Action,_,_,_,_,_)``, in order, with its state change. Time-based
/// effects run on a `TestScheduler` that the test advances; effects that really run on other
/// threads are awaited with the `async` ``receive(_:timeout:_:fileID:file:line:column:)-(Action,_,_,_,_,_,_)`` and
/// ``finish(timeout:fileID:file:line:column:)``.
///
/// <!-- example context: featureSuite -->
/// ```swift
/// @MainActor @Test func numberFact() {
///     let scheduler = DispatchQueue.test
///     let store = TestStore(
///         initialState: CounterState(), reducer: counterReducer,
///         environment: CounterEnvironment(fact: { n in Just("\(n) is good").eraseToAnyPublisher() },
///                                         mainQueue: scheduler.eraseToAnyScheduler()))
///     store.send(.increment) { $0.count = 1 }
///     store.send(.factButtonTapped) { $0.isLoading = true }
///     scheduler.advance()
///     store.receive(.factResponse("1 is good")) {
///         $0.isLoading = false
///         $0.fact = "1 is good"
///     }
/// }
/// ```
///
/// It is exhaustive by default (``Exhaustivity/on``, rule [A11] of the [store contract](doc:/Contract/StoreContract)). The test fails, at
/// the file and line of the step, with a readable diff (``/ComposableArchitecture/Diff``: `- expected`, `+ actual`), on:
/// - a state change the step did not assert, or asserted wrongly;
/// - an asserted change that did not happen;
/// - an action an effect sent back that was not asserted before the next `send` (once: it stays
///   queued for a later `receive`);
/// - a `send` or `receive` closure that changes nothing (leave it out when no change is expected);
/// - a `receive` of an action that did not arrive, or when a different one did (both are shown);
/// - an effect still running when the test ends: at ``finish(timeout:fileID:file:line:column:)``,
///   or when the store goes away (the failure points at the step that started the effect);
/// - a runtime issue (``/ComposableArchitecture/RuntimeIssues``) reported while the reducer runs, such as an
///   `optional()` reducer receiving an action while its state is `nil`.
///
/// Failures are recorded with `Issue.record` in a Swift Testing test and with `XCTFail` in an
/// XCTest test. A failure found while an action from another thread runs, outside any step of a
/// Swift Testing test, is recorded at the test's next step.
///
/// The test store drives a real ``/ComposableArchitecture/Store``, with its own cancellation identifiers (tests running
/// in parallel never cancel each other's effects): the actions run in the store's own send loop
/// ([A1]–[A4]), and the test store watches it, recording each action with the
/// state before and after it and the effects it started. So an action an effect sends on the
/// main queue runs at once (after the action running now), one sent from another thread runs
/// when the main queue gets to it, exactly as in the app. Actions sent back run as they arrive
/// and are kept, with the state they left, until the test asserts them.
///
/// [A1]: doc:/Contract/StoreContract#A1
/// [A4]: doc:/Contract/StoreContract#A4
/// [A11]: doc:/Contract/StoreContract#A11
@MainActor
public final class TestStore<State: Equatable, Action, Environment> {
    private let core: TestStoreRecorder<State, Action, Environment>

    /// A test store running `reducer` with `environment`, starting from `initialState`.
    ///
    /// `fileID`, `file`, `line` and `column` locate the store; a failure found when the store
    /// goes away that belongs to no step points there.
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - reducer: The reducer under test.
    ///   - environment: The dependencies the reducer gets, usually test doubles.
    ///   - fileID: The file ID of the store, for failures that belong to no step; the caller's by
    ///     default.
    ///   - filePath: The file path of the store; the caller's by default.
    ///   - line: The line of the store; the caller's by default.
    ///   - column: The column of the store; the caller's by default.
    public init(
        initialState: State,
        reducer: Reducer<State, Action, Environment>,
        environment: Environment,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        core = TestStoreRecorder(
            initialState: initialState, reducer: reducer, environment: environment,
            location: StepLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    deinit {
        // The end of the test. The store lives on the main actor, where tests that use it run; a
        // store released elsewhere is checked when the main queue gets to it.
        let core = self.core
        onMainQueue { core.testEnded() }
    }

    /// The dependencies the reducer runs with; a test may replace them between steps.
    public var environment: Environment {
        get { core.environment }
        set { core.environment = newValue }
    }

    /// The state as of the last step the test asserted: after ``send(_:_:fileID:file:line:column:)``,
    /// the state the sent action left (before any action its effects sent back); after each
    /// `receive`, the state the received action left. So a test can look at every step in
    /// between. In non-exhaustive mode (``Exhaustivity/off``), the current state, after every
    /// action run so far.
    ///
    /// <!-- example context: testStore -->
    /// ```swift
    /// store.send(.factButtonTapped) { $0.isLoading = true }
    /// #expect(store.state.isLoading)   // true, though the fact may have arrived already
    /// store.receive(.factResponse("1 is good")) { $0.isLoading = false; $0.fact = "1 is good" }
    /// #expect(!store.state.isLoading)
    /// ```
    public var state: State {
        core.state
    }

    /// How much the test must assert (``Exhaustivity/on`` by default); may change between steps.
    public var exhaustivity: Exhaustivity {
        get { core.exhaustivity }
        set { core.exhaustivity = newValue }
    }

    /// How long the `async` `receive` and `finish` wait when they are given no timeout
    /// (one second by default).
    public var timeout: Duration {
        get { core.runtime.timeout }
        set { core.runtime.timeout = newValue }
    }

    /// The number of effects running now.
    public var runningEffectCount: Int {
        core.runtime.runningCount
    }

    /// Sends `action` to the reducer, runs it and what its effects send back synchronously, and
    /// checks the state it left.
    ///
    /// `update` describes the change: it mutates a copy of the state as it was before the action
    /// (the *expected* state), which must then equal the state the reducer left. Without
    /// `update`, the action must not change the state; a closure that changes nothing, for an
    /// action that changed nothing, fails ("Expected the state to change, but it did not; leave
    /// out the closure if no change is expected."). In non-exhaustive mode the closure is
    /// applied to the actual state instead, and only what it changes is checked.
    ///
    /// <!-- example context: testStore -->
    /// ```swift
    /// store.send(.increment) { $0.count = 1 }
    /// ```
    ///
    /// In exhaustive mode, actions sent back by effects and not yet asserted make this step fail
    /// first, once: they stay queued, and a later `receive` still asserts them in order.
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - update: A closure that changes a copy of the state from before the action to what the
    ///     state should be now; `nil` when the state must not change.
    ///   - fileID: The file ID to report a failure at; the caller's by default.
    ///   - filePath: The file path to report a failure at; the caller's by default.
    ///   - line: The line to report a failure at; the caller's by default.
    ///   - column: The column to report a failure at; the caller's by default.
    /// - Returns: A handle on the effects the action started (``TestStoreTask``).
    @discardableResult
    public func send(
        _ action: Action,
        _ update: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestStoreTask {
        let location = StepLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let effects = core.send(action, update: update, at: location)
        return TestStoreTask(ids: effects, runtime: core.runtime)
    }

    /// Asserts that the next action an effect sent back is `expected`, and checks the state it
    /// left, as ``send(_:_:fileID:file:line:column:)`` does.
    ///
    /// The action must already have arrived: effects driven by a `TestScheduler` deliver when
    /// the test advances it. For effects that run on other threads use the `async` overload (in
    /// an `async` test, Swift picks that one: write `await store.receive(...)`; it returns at
    /// once when the action is there). In non-exhaustive mode, received actions before the first
    /// one equal to `expected` are skipped.
    ///
    /// <!-- example context: testStore -->
    /// ```swift
    /// scheduler.advance(by: .seconds(1))
    /// store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The action the next received action must equal.
    ///   - update: A closure that changes a copy of the state from before the action to what the
    ///     state should be now; `nil` when the state must not change.
    ///   - fileID: The file ID to report a failure at; the caller's by default.
    ///   - filePath: The file path to report a failure at; the caller's by default.
    ///   - line: The line to report a failure at; the caller's by default.
    ///   - column: The column to report a failure at; the caller's by default.
    public func receive(
        _ expected: Action,
        _ update: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where Action: Equatable {
        core.receive(
            equal(to: expected), update: update,
            at: StepLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until an effect has sent an action back (at most `timeout`, the store's
    /// ``timeout`` by default), then asserts it as ``receive(_:_:fileID:file:line:column:)-(Action,_,_,_,_,_)``
    /// does.
    ///
    /// For effects that do their work on other threads or in tasks: the wait lets the main
    /// queue run what they send. It never waits longer than the timeout, and not at all when the
    /// action is already there.
    ///
    /// <!-- example context: testStoreAsync -->
    /// ```swift
    /// store.send(.factButtonTapped) { $0.isLoading = true }
    /// await store.receive(.factResponse("1 is good")) { $0.isLoading = false; $0.fact = "1 is good" }
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The action the next received action must equal.
    ///   - timeout: The longest time to wait, or `nil` for the store's ``timeout``.
    ///   - update: A closure that changes a copy of the state from before the action to what the
    ///     state should be now; `nil` when the state must not change.
    ///   - fileID: The file ID to report a failure at; the caller's by default.
    ///   - filePath: The file path to report a failure at; the caller's by default.
    ///   - line: The line to report a failure at; the caller's by default.
    ///   - column: The column to report a failure at; the caller's by default.
    public func receive(
        _ expected: Action,
        timeout: Duration? = nil,
        _ update: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where Action: Equatable {
        await core.receive(
            equal(to: expected), timeout: timeout, update: update,
            at: StepLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Asserts that the next action an effect sent back is of the case `casePath` points at,
    /// whatever its payload, and checks the state it left. For actions that are not `Equatable`,
    /// or payloads a test does not want to spell out.
    ///
    /// <!-- example context: testStore -->
    /// ```swift
    /// store.receive(/AppAction.searchResponse) { $0.isSearching = false }
    /// ```
    ///
    /// - Parameters:
    ///   - casePath: The case path of the case the next received action must be.
    ///   - update: A closure that changes a copy of the state from before the action to what the
    ///     state should be now; `nil` when the state must not change.
    ///   - fileID: The file ID to report a failure at; the caller's by default.
    ///   - filePath: The file path to report a failure at; the caller's by default.
    ///   - line: The line to report a failure at; the caller's by default.
    ///   - column: The column to report a failure at; the caller's by default.
    public func receive<Value>(
        _ casePath: CasePath<Action, Value>,
        _ update: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        core.receive(
            of(casePath), update: update,
            at: StepLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits (at most `timeout`) for an action of the case `casePath` points at, then asserts
    /// it as ``receive(_:_:fileID:file:line:column:)-(CasePath<Action,Value>,_,_,_,_,_)`` does.
    ///
    /// - Parameters:
    ///   - casePath: The case path of the case the next received action must be.
    ///   - timeout: The longest time to wait, or `nil` for the store's ``timeout``.
    ///   - update: A closure that changes a copy of the state from before the action to what the
    ///     state should be now; `nil` when the state must not change.
    ///   - fileID: The file ID to report a failure at; the caller's by default.
    ///   - filePath: The file path to report a failure at; the caller's by default.
    ///   - line: The line to report a failure at; the caller's by default.
    ///   - column: The column to report a failure at; the caller's by default.
    public func receive<Value>(
        _ casePath: CasePath<Action, Value>,
        timeout: Duration? = nil,
        _ update: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await core.receive(
            of(casePath), timeout: timeout, update: update,
            at: StepLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until every running effect has finished (at most `timeout`, the store's
    /// ``timeout`` by default); fails if some are still running then, and cancels them.
    ///
    /// Actions the effects send meanwhile run and wait to be asserted with `receive`. It fails
    /// in both exhaustivity modes: the test asked for the effects to finish. It does not move a
    /// `TestScheduler`: advance it first.
    ///
    /// - Parameters:
    ///   - timeout: The longest time to wait, or `nil` for the store's ``timeout``.
    ///   - fileID: The file ID to report a failure at; the caller's by default.
    ///   - filePath: The file path to report a failure at; the caller's by default.
    ///   - line: The line to report a failure at; the caller's by default.
    ///   - column: The column to report a failure at; the caller's by default.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await core.finish(
            timeout: timeout,
            at: StepLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    // MARK: Expectations

    private func equal(to expected: Action) -> TestStoreRecorder<State, Action, Environment>.Expectation
    where Action: Equatable {
        .init(
            description: Diff.inline(expected), matches: { $0 == expected },
            mismatch: { received in
                let diff = Diff.compare(expected, received) ?? "- \(Diff.inline(expected))\n+ \(Diff.inline(received))"
                return "Received a different action than expected (- expected, + received):\n\(diff)"
            })
    }

    private func of<Value>(_ casePath: CasePath<Action, Value>)
        -> TestStoreRecorder<State, Action, Environment>.Expectation
    {
        let path = String(describing: type(of: casePath))
        return .init(
            description: "an action matching \(path)", matches: { casePath.extract(from: $0) != nil },
            mismatch: { received in
                "Received an action that does not match \(path):\n  \(Diff.inline(received))"
            })
    }
}

/// A handle on the effects one ``TestStore/send(_:_:fileID:file:line:column:)`` started: cancel
/// them, or wait for them to finish.
///
/// <!-- example context: testStore -->
/// ```swift
/// let task = store.send(.onAppear)
/// scheduler.advance(by: .seconds(3))
/// store.receive(.timerTicked) { $0.ticks = 1 }
/// task.cancel()   // the timer stops: the test can end
/// ```
@MainActor
public struct TestStoreTask: Sendable {
    let ids: [Int]
    weak var runtime: TestStoreRuntime?

    /// Cancels the effects the action started (the ones still running).
    public func cancel() {
        runtime?.cancel(ids)
    }

    /// Waits until every effect the action started has finished (at most `timeout`, the
    /// store's timeout by default); fails at this line if some are still running then, and
    /// cancels them.
    ///
    /// - Parameters:
    ///   - timeout: The longest time to wait, or `nil` for the store's timeout.
    ///   - fileID: The file ID to report a failure at; the caller's by default.
    ///   - filePath: The file path to report a failure at; the caller's by default.
    ///   - line: The line to report a failure at; the caller's by default.
    ///   - column: The column to report a failure at; the caller's by default.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        file filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        guard let runtime else { return }
        runtime.reporter.flush()
        let timeout = timeout ?? runtime.timeout
        let ids = self.ids
        guard await !runtime.wait(until: { ids.allSatisfy { !runtime.isRunning($0) } }, timeout: timeout) else {
            return
        }
        let origins = runtime.origins(of: ids)
        runtime.reporter.fail(
            """
            Expected the effects of this action to finish within \(timeout), but \(count(origins.count, "effect")) \
            \(origins.count == 1 ? "is" : "are") still running:
            \(runtime.describe(origins))
            """, at: StepLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        runtime.cancel(ids)
    }

    /// Whether every effect the action started has finished or been cancelled.
    public var isFinished: Bool {
        guard let runtime else { return true }
        return ids.allSatisfy { !runtime.isRunning($0) }
    }
}
