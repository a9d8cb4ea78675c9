import ComposableArchitecture
import Streams

/// What a ``TestStore`` adds to the store it drives: it watches the store's send loop (the
/// same engine a ``Store`` runs), records the actions effects send back with the state before
/// and after each, and checks each step of the test against them.
///
/// The test store itself is a thin, documented front; the recorder is what effects and tasks
/// point at (weakly), and what the store's deinit checks at the end of the test.
@MainActor
final class TestStoreRecorder<State: Equatable, Action, Environment> {
    /// An action an effect sent back, already run, waiting to be asserted.
    struct Received {
        let action: Action
        let stateBefore: State
        let stateAfter: State
        /// The step whose effect sent it.
        let location: StepLocation
        /// The effects the action started.
        let startedEffects: [Int]
        /// Whether a failure already said it was not asserted (it is said once).
        var reported = false
    }

    /// What a `receive` expects: an action equal to one, or one of a case.
    struct Expectation {
        /// `AppAction.response(42)`, for messages.
        let description: String
        let matches: (Action) -> Bool
        /// The message when the next received action does not match.
        let mismatch: (Action) -> String
    }

    /// The action the store is running: where its failures go.
    private struct Running {
        let action: Action
        let location: StepLocation
    }

    let reducer: Reducer<State, Action, Environment>
    var environment: Environment
    var exhaustivity: Exhaustivity = .on
    let runtime: TestStoreRuntime
    /// Where the store was made: for failures with no better place.
    let location: StepLocation
    private(set) var received: [Received] = []
    /// The state as of the last step the test asserted (exhaustive mode): after a `send`, the
    /// state the sent action left; after a `receive`, the state the received action left.
    private var assertedState: State

    /// The engine of the store below, which runs every action.
    private let engine: RootStore<State, Action>
    /// The store the test drives.
    let store: Store<State, Action>
    private var current: Running?
    /// The state after the action the test sent, and the effects it started.
    private var sentResult: (state: State, effects: [Int])?

    init(
        initialState: State, reducer: Reducer<State, Action, Environment>, environment: Environment,
        location: StepLocation
    ) {
        self.reducer = reducer
        self.environment = environment
        self.location = location
        assertedState = initialState
        var reduce: (inout State, Action) -> Effect<Action> = { _, _ in .none }
        engine = RootStore(initialState: initialState) { state, action in reduce(&state, action) }
        store = Store(root: engine)
        runtime = TestStoreRuntime(effects: engine.effects)
        // The reducer runs with the environment as it is when each action runs (a test may
        // replace it between steps), and fails the test for runtime issues it reports, and for
        // those its effect reports when the store starts it or later from its task.
        reduce = { [weak self] state, action in
            guard let self else { return .none }
            let environment = self.environment
            let effect = RuntimeIssues.$handler.withValue(self.issueHandler) {
                reducer.run(&state, action, environment)
            }
            return effect.isNone ? effect : effect.reportingRuntimeIssues(to: self.effectIssueHandler())
        }
        engine.instrumentation = RootStore.Instrumentation(
            willRun: { [weak self] action, sender in
                guard let self else { return }
                self.current = Running(action: action, location: self.location(of: sender))
            },
            didRun: { [weak self] action, sender, before, after, effect in
                self?.didRun(action, sender: sender, before: before, after: after, effect: effect)
            })
    }

    /// In exhaustive mode, the state as of the last step the test asserted; in non-exhaustive
    /// mode, the state after every action run so far (received actions included).
    var state: State {
        exhaustivity == .on ? assertedState : engine.state
    }

    // MARK: Steps

    /// Runs `action` and checks the state it leaves against `update`; returns the effects it
    /// started.
    func send(_ action: Action, update: ((inout State) throws -> Void)?, at location: StepLocation) -> [Int] {
        runtime.reporter.flush()
        guard !engine.isSending else {
            fail(
                """
                `send` was called while the test store was running an action (from a reducer, or while an \
                effect was being subscribed to). Send actions from the test only.
                """, at: location)
            return []
        }
        switch exhaustivity {
        case .on:
            // Said once; they stay queued, so a later `receive` still asserts them.
            let unreported = received.indices.filter { !received[$0].reported }
            if !unreported.isEmpty {
                fail(
                    """
                    \(count(unreported.count, "received action")) \(unreported.count == 1 ? "was" : "were") not \
                    asserted before sending \(Diff.inline(action)):
                    \(list(unreported.map { received[$0].action }))
                    Assert each one with `receive`, or make the test non-exhaustive (`store.exhaustivity = .off`).
                    """, at: location)
                for index in unreported { received[index].reported = true }
            }
        case .off:
            received.removeAll()
        }
        let before = engine.state
        sentLocation = location
        store.send(action)
        sentLocation = nil
        runtime.signal()
        guard let (after, effects) = sentResult else { return [] }
        sentResult = nil
        assertedState = after
        assertState(verb: "sending", action: action, before: before, actual: after, update: update, at: location)
        return effects
    }

    /// Checks that the next received action (in non-exhaustive mode: one of the received actions)
    /// matches, and the state it left against `update`.
    func receive(
        _ expectation: Expectation, update: ((inout State) throws -> Void)?, waited: Duration? = nil,
        at location: StepLocation
    ) {
        runtime.reporter.flush()
        guard !received.isEmpty else {
            let waitedNote = waited.map { " (waited \($0))" } ?? ""
            let running = runtime.runningCount
            let runningNote =
                running == 0
                ? ""
                : """
                \n\(count(running, "effect")) \(running == 1 ? "is" : "are") still running; \
                `await store.receive(...)` waits for an action.
                """
            fail(
                "Expected to receive \(expectation.description), but no action was received\(waitedNote).\(runningNote)",
                at: location)
            return
        }
        let entry: Received
        switch exhaustivity {
        case .on:
            entry = received.removeFirst()
            runtime.relocate(entry.startedEffects, to: location)
            guard expectation.matches(entry.action) else {
                fail(expectation.mismatch(entry.action), at: location)
                return
            }
        case .off:
            guard let index = received.firstIndex(where: { expectation.matches($0.action) }) else {
                fail(
                    """
                    Expected to receive \(expectation.description), but it is not among the actions received:
                    \(list(received.map(\.action)))
                    """, at: location)
                return
            }
            entry = received[index]
            received.removeFirst(index + 1)
            runtime.relocate(entry.startedEffects, to: location)
        }
        assertedState = entry.stateAfter
        assertState(
            verb: "receiving", action: entry.action, before: entry.stateBefore, actual: entry.stateAfter,
            update: update, at: location)
    }

    /// Waits, up to `timeout`, for an action that `receive` could assert, then asserts it.
    func receive(
        _ expectation: Expectation, timeout: Duration?, update: ((inout State) throws -> Void)?,
        at location: StepLocation
    ) async {
        runtime.reporter.flush()
        let timeout = timeout ?? runtime.timeout
        let arrived = await runtime.wait(
            until: {
                switch exhaustivity {
                case .on: !received.isEmpty
                case .off: received.contains { expectation.matches($0.action) }
                }
            }, timeout: timeout)
        receive(expectation, update: update, waited: arrived ? nil : timeout, at: location)
    }

    /// Waits, up to `timeout`, for every effect to finish; fails (and cancels them) if some are
    /// still running.
    func finish(timeout: Duration?, at location: StepLocation) async {
        runtime.reporter.flush()
        let timeout = timeout ?? runtime.timeout
        let runtime = self.runtime
        guard await !runtime.wait(until: { runtime.runningCount == 0 }, timeout: timeout) else { return }
        let origins = runtime.origins(of: nil)
        fail(
            """
            Expected every effect to finish within \(timeout), but \(count(origins.count, "effect")) \
            \(origins.count == 1 ? "is" : "are") still running:
            \(runtime.describe(origins))
            """, at: location)
        runtime.cancel(nil)
    }

    /// The end of the test (the store went away): in exhaustive mode, every received action
    /// must have been asserted and every effect must have finished. Cancels what still runs.
    func testEnded() {
        runtime.reporter.flush()
        defer { runtime.cancel(nil) }
        guard exhaustivity == .on else { return }
        // No step comes after this one to record a failure at: record now, even outside the test.
        func fail(_ message: String, at location: StepLocation) {
            runtime.reporter.recordNow(message, at: location)
        }
        let unreported = received.filter { !$0.reported }
        if let first = unreported.first {
            fail(
                """
                The test ended with \(count(unreported.count, "received action")) not asserted:
                \(list(unreported.map(\.action)))
                Assert each one with `receive`, or make the test non-exhaustive (`store.exhaustivity = .off`).
                """, at: first.location)
        }
        for origin in runtime.origins(of: nil) {
            fail(
                """
                An effect started by \(origin.verb) \(origin.describeAction()) is still running at the end of \
                the test. Wait for it (`await store.finish()`), cancel it, or make the test non-exhaustive \
                (`store.exhaustivity = .off`).
                """, at: origin.location)
        }
    }

    // MARK: Watching the store

    /// Where the test's `send` is, while the store runs the action it sent.
    private var sentLocation: StepLocation?

    /// Where the failures of an action sent by effect `sender` go (0: the action the test sent).
    private func location(of sender: Int) -> StepLocation {
        if sender == 0 { return sentLocation ?? location }
        return runtime.origin(of: sender)?.location ?? location
    }

    /// The store ran `action`: keep the result of the action the test sent, and each action an
    /// effect sent back with the state before and after it.
    private func didRun(
        _ action: Action, sender: Int, before: State, after: State,
        effect: (id: Int, isRunning: Bool)?
    ) {
        let location = current?.location ?? self.location
        current = nil
        if let effect {
            runtime.setOrigin(
                of: effect.id,
                to: TestStoreRuntime.Origin(
                    verb: sender == 0 ? "sending" : "receiving", describeAction: { Diff.inline(action) },
                    location: location))
        }
        let started = effect.map { $0.isRunning ? [$0.id] : [] } ?? []
        if sender == 0 {
            sentResult = (after, started)
        } else {
            received.append(
                Received(
                    action: action, stateBefore: before, stateAfter: after,
                    location: location, startedEffects: started))
            runtime.signal()
        }
    }

    /// Fails the test for a runtime issue reported while the reducer runs.
    private var issueHandler: @Sendable (String) -> Void {
        let reporter = runtime.reporter
        let fallback = location
        return { [weak self] message in
            guard MainQueue.isCurrent else {
                reporter.failFromAnyThread("A runtime issue was reported: \(message)", at: fallback)
                return
            }
            MainActor.assumeIsolated {
                let item = self?.current
                let action = item.map { Diff.inline($0.action) } ?? "an action"
                reporter.fail(
                    "A runtime issue was reported while running \(action):\n\(message)",
                    at: item?.location ?? fallback)
            }
        }
    }

    /// Fails the test for a runtime issue reported by an effect the running action returned —
    /// when the store starts it (`Effect.unimplemented`), or later from its task (an error no
    /// `catch` handles) — at the step of that action, whenever the report comes.
    private func effectIssueHandler() -> @Sendable (String) -> Void {
        let reporter = runtime.reporter
        let step = EffectStep(action: current?.action, location: current?.location ?? location)
        return { message in
            onMainQueue {
                let action = step.action.map { Diff.inline($0) } ?? "an action"
                reporter.fail(
                    "An effect returned for \(action) reported a runtime issue:\n\(message)",
                    at: step.location)
            }
        }
    }

    // MARK: Checks

    private func assertState(
        verb: String, action: Action, before: State, actual: State,
        update: ((inout State) throws -> Void)?, at location: StepLocation
    ) {
        var expected: State
        switch exhaustivity {
        case .on:
            expected = before
        case .off:
            // Only what the closure sets is checked: apply it to the actual state.
            guard update != nil else { return }
            expected = actual
        }
        // Rendered only for a message: most steps pass.
        var step: String { "\(verb) \(Diff.inline(action))" }
        if let update {
            do {
                try update(&expected)
            } catch {
                fail("The state assertion for \(step) threw an error: \(error)", at: location)
                return
            }
            if exhaustivity == .on, expected == before, actual == before {
                fail(
                    """
                    Expected the state to change, but it did not; leave out the closure if no change is expected.
                    Step: \(step)
                    """, at: location)
                return
            }
        }
        guard expected != actual else { return }
        let diff =
            Diff.compare(expected, actual) ?? """
                  (The two states render the same: they differ in something the rendering does not show, \
                or in how their `==` is written.)
                """
        let headline =
            if exhaustivity == .on && update == nil {
                "\(capitalized(step)) changed the state, but no change was asserted"
            } else if actual == before {
                "\(capitalized(step)) was expected to change the state, but it did not change"
            } else {
                "The state after \(step) does not match the expectation"
            }
        fail("\(headline) (- expected, + actual):\n\(diff)", at: location)
    }

    func fail(_ message: String, at location: StepLocation) {
        runtime.reporter.fail(message, at: location)
    }
}

/// The step whose action returned an effect, kept for the runtime issues the effect reports.
@MainActor
private final class EffectStep<Action> {
    let action: Action?
    let location: StepLocation

    init(action: Action?, location: StepLocation) {
        self.action = action
        self.location = location
    }
}

// MARK: - Message helpers

/// `1 effect`, `2 effects`.
func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}

/// One action per line, indented two spaces.
func list<Action>(_ actions: [Action]) -> String {
    actions.map { "  " + Diff.inline($0) }.joined(separator: "\n")
}

func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
}
