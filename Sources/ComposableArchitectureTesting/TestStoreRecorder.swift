import ComposableArchitecture
import Streams

/// The working part of a ``TestStore``: runs the reducer, starts the effects, records the
/// actions they send back, and checks each step of the test against them.
///
/// The test store itself is a thin, documented front; this core is what effects and tasks point
/// at (weakly), and what the store's deinit checks at the end of the test.
@MainActor
final class TestStoreCore<State: Equatable, Action, Environment> {
    /// An action an effect sent back, already run, waiting to be asserted.
    struct Received {
        let action: Action
        let stateBefore: State
        let stateAfter: State
        /// The step whose effect sent it.
        let location: StepLocation
        /// The effects the action started.
        let startedEffects: [Int]
    }

    /// What a `receive` expects: an action equal to one, or one of a case.
    struct Expectation {
        /// `AppAction.response(42)`, for messages.
        let description: String
        let matches: (Action) -> Bool
        /// The message when the next received action does not match.
        let mismatch: (Action) -> String
    }

    private struct Queued {
        let action: Action
        /// Sent by the test (rather than by an effect).
        let isSent: Bool
        /// Where its failures go: the step that sent it, or the step whose effect sent it.
        let location: StepLocation
    }

    let reducer: Reducer<State, Action, Environment>
    var environment: Environment
    private(set) var state: State
    var exhaustivity: Exhaustivity = .on
    let runtime = TestStoreRuntime()
    /// Where the store was made: for failures with no better place.
    let location: StepLocation
    private(set) var received: [Received] = []

    private let context = EffectContext()
    private var queue: [Queued] = []
    private var head = 0
    private var isRunning = false
    private var current: Queued?
    private var sentResult: (state: State, effects: [Int])?
    /// The store's inbox, carrying each action with the id of the effect that sent it.
    private lazy var inbox = ActionInbox<(action: Action, effect: Int)> { [weak self] sent in
        self?.effectSent(sent.action, from: sent.effect)
    }

    init(initialState: State, reducer: Reducer<State, Action, Environment>, environment: Environment,
         location: StepLocation) {
        state = initialState
        self.reducer = reducer
        self.environment = environment
        self.location = location
    }

    // MARK: Steps

    /// Runs `action` and checks the state it leaves against `update`; returns the effects it
    /// started.
    func send(_ action: Action, update: ((inout State) throws -> Void)?, at location: StepLocation) -> [Int] {
        runtime.reporter.flush()
        guard !isRunning else {
            fail("""
                `send` was called while the test store was running an action (from a reducer, or while an \
                effect was being subscribed to). Send actions from the test only.
                """, at: location)
            return []
        }
        if !received.isEmpty {
            if exhaustivity == .on {
                fail("""
                    \(count(received.count, "received action")) \(received.count == 1 ? "was" : "were") not \
                    asserted before sending \(Diff.inline(action)):
                    \(list(received.map(\.action)))
                    Assert each one with `receive`, or make the test non-exhaustive (`store.exhaustivity = .off`).
                    """, at: location)
            }
            received.removeAll()
        }
        let before = state
        queue.append(Queued(action: action, isSent: true, location: location))
        run()
        guard let (after, effects) = sentResult else { return [] }
        sentResult = nil
        assertState(verb: "sending", action: action, before: before, actual: after, update: update, at: location)
        return effects
    }

    /// Checks that the next received action (in non-exhaustive mode: one of the received actions)
    /// matches, and the state it left against `update`.
    func receive(_ expectation: Expectation, update: ((inout State) throws -> Void)?, waited: Duration? = nil,
                 at location: StepLocation) {
        runtime.reporter.flush()
        guard !received.isEmpty else {
            let waitedNote = waited.map { " (waited \($0))" } ?? ""
            let running = runtime.runningCount
            let runningNote = running == 0 ? "" : """
                \n\(count(running, "effect")) \(running == 1 ? "is" : "are") still running; \
                `await store.receive(...)` waits for an action.
                """
            fail("Expected to receive \(expectation.description), but no action was received\(waitedNote).\(runningNote)",
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
                fail("""
                    Expected to receive \(expectation.description), but it is not among the actions received:
                    \(list(received.map(\.action)))
                    """, at: location)
                return
            }
            entry = received[index]
            received.removeFirst(index + 1)
            runtime.relocate(entry.startedEffects, to: location)
        }
        assertState(verb: "receiving", action: entry.action, before: entry.stateBefore, actual: entry.stateAfter,
                    update: update, at: location)
    }

    /// Waits, up to `timeout`, for an action that `receive` could assert, then asserts it.
    func receive(_ expectation: Expectation, timeout: Duration?, update: ((inout State) throws -> Void)?,
                 at location: StepLocation) async {
        runtime.reporter.flush()
        let timeout = timeout ?? runtime.timeout
        let arrived = await runtime.wait(until: {
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
        fail("""
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
        if let first = received.first {
            fail("""
                The test ended with \(count(received.count, "received action")) not asserted:
                \(list(received.map(\.action)))
                Assert each one with `receive`, or make the test non-exhaustive (`store.exhaustivity = .off`).
                """, at: first.location)
        }
        for origin in runtime.origins(of: nil) {
            fail("""
                An effect started by \(origin.verb) \(origin.describeAction()) is still running at the end of \
                the test. Wait for it (`await store.finish()`), cancel it, or make the test non-exhaustive \
                (`store.exhaustivity = .off`).
                """, at: origin.location)
        }
    }

    // MARK: Running actions

    /// Runs the queued actions, first in first out, including the ones their effects send
    /// synchronously (as a `Store` does).
    private func run() {
        guard !isRunning else { return }
        isRunning = true
        while head < queue.count {
            let item = queue[head]
            head += 1
            let before = state
            current = item
            let effect = RuntimeIssues.$handler.withValue(issueHandler) {
                reducer.run(&state, item.action, environment)
            }
            current = nil
            let after = state
            let origin = TestStoreRuntime.Origin(
                verb: item.isSent ? "sending" : "receiving", describeAction: { Diff.inline(item.action) },
                location: item.location)
            let started = start(effect, origin)
            if item.isSent {
                sentResult = (after, started)
            } else {
                received.append(Received(action: item.action, stateBefore: before, stateAfter: after,
                                         location: item.location, startedEffects: started))
            }
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
        isRunning = false
        runtime.signal()
    }

    /// Subscribes to `effect`, as a `Store` does; returns its id while it runs.
    private func start(_ effect: Effect<Action>, _ origin: TestStoreRuntime.Origin) -> [Int] {
        guard let publisher = effect.publisher(in: context) else { return [] }
        let id = runtime.begin(origin)
        let inbox = self.inbox
        let runtime = self.runtime
        // `@Sendable`: an effect may finish or send from any thread; both hop to the main queue.
        let cancellable = publisher.sink(
            receiveCompletion: { @Sendable [weak runtime] _ in
                onMainQueue { runtime?.finished(id) }
            },
            receiveValue: { @Sendable action in
                inbox.deliver((action, id))
            })
        runtime.attach(cancellable, to: id)
        return runtime.isRunning(id) ? [id] : []
    }

    /// An effect sent `action`: run it (now, or after the action running now).
    private func effectSent(_ action: Action, from effect: Int) {
        let location = runtime.origin(of: effect)?.location ?? self.location
        queue.append(Queued(action: action, isSent: false, location: location))
        run()
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
                reporter.fail("A runtime issue was reported while running \(action):\n\(message)",
                              at: item?.location ?? fallback)
            }
        }
    }

    // MARK: Checks

    private func assertState(verb: String, action: Action, before: State, actual: State,
                             update: ((inout State) throws -> Void)?, at location: StepLocation) {
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
        }
        guard expected != actual else { return }
        let diff = Diff.compare(expected, actual) ?? """
              (The two states render the same: they differ in something the rendering does not show, \
            or in how their `==` is written.)
            """
        let headline = if exhaustivity == .on && update == nil {
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
