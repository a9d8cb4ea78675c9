import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing
import XCTest

/// A feature with every kind of effect a TestStore has to deal with.
enum Feature {
    struct State: Equatable {
        var count = 0
        var fact: String?
        var isLoading = false
        var query = ""
        var searched: [String] = []
        var ticks = 0
        var child: Int?
    }

    enum ChildAction: Equatable { case bump }

    enum Action: Equatable {
        case increment, noop, failingNoop
        case factButtonTapped, factResponse(String)
        case queryChanged(String), searched(String)
        case startTimer, stopTimer, timerTicked
        case listen, listenLater, heard(Int)
        case child(ChildAction), openChild
    }

    struct Environment {
        var fact: (Int) -> Effect<String>
        var mainQueue: AnySchedulerOf<DispatchQueue>
        var events = PassthroughSubject<Int, Never>()
    }

    enum TimerID: Hashable, Sendable { case timer }
    enum SearchID: Hashable, Sendable { case search }

    @MainActor static let childReducer = Reducer<Int, ChildAction, Void> { state, _, _ in
        state += 1
        return .none
    }

    @MainActor static let reducer = Reducer<State, Action, Environment>.combine(
        Reducer { state, action, environment in
            switch action {
            case .increment:
                state.count += 1
                return .none
            case .noop, .failingNoop:
                return .none
            case .factButtonTapped:
                state.isLoading = true
                return environment.fact(state.count).map(Action.factResponse)
            case .factResponse(let fact):
                state.isLoading = false
                state.fact = fact
                return .none
            case .queryChanged(let query):
                state.query = query
                // Typing restarts the wait: only a query left alone for 300 ms is searched.
                return Just(query).append(Empty(completeImmediately: false))
                    .debounce(for: .milliseconds(300), scheduler: environment.mainQueue)
                    .prefix(1)
                    .map(Action.searched)
                    .eraseToEffect()
                    .cancellable(id: SearchID.search, cancelInFlight: true)
            case .searched(let query):
                state.searched.append(query)
                return .none
            case .startTimer:
                return SchedulerTimer.publish(every: .seconds(1), on: environment.mainQueue).autoconnect()
                    .map { _ in Action.timerTicked }
                    .eraseToEffect()
                    .cancellable(id: TimerID.timer)
            case .stopTimer:
                return .cancel(id: TimerID.timer)
            case .timerTicked:
                state.ticks += 1
                return .none
            case .listen:
                return environment.events.map(Action.heard).eraseToEffect()
            case .listenLater:
                return Effect(value: .listen)
            case .heard(let value):
                state.count = value
                return .none
            case .openChild:
                state.child = 0
                return .none
            case .child:
                return .none
            }
        },
        childReducer.optional().pullback(state: \.child, action: /Action.child, environment: { _ in () }))

    /// A fact computed at once.
    static func immediateFact(_ n: Int) -> Effect<String> {
        Effect(value: "\(n) is a good number")
    }

    /// A fact computed on another thread.
    static func backgroundFact(_ n: Int) -> Effect<String> {
        Future { promise in
            DispatchQueue.global().async { promise(.success("\(n) is a good number")) }
        }.eraseToEffect()
    }

    @MainActor
    static func store(
        fact: @escaping (Int) -> Effect<String> = immediateFact,
        scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test,
        fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line
    ) -> TestStore<State, Action, Environment> {
        let store = TestStore(initialState: State(), reducer: reducer,
                              environment: Environment(fact: fact, mainQueue: scheduler.eraseToAnyScheduler()),
                              fileID: fileID, file: file, line: line)
        // Waits end as soon as what they wait for happens; a generous bound keeps tests that
        // share the main actor with slow ones from timing out.
        store.timeout = .seconds(10)
        return store
    }
}

/// The state's first lines in a diff when only `count` changed from `old` to `new`.
private func countDiff(_ old: Int, _ new: Int) -> String {
    """
      State(
    -   count: \(old),
    +   count: \(new),
        fact: nil,
        isLoading: false,
        query: "",
        … (4 unchanged lines)
    """
}

@MainActor
@Suite("TestStore")
struct TestStoreTests {
    // MARK: Happy paths

    @Test func sendAssertsTheStateChange() {
        let store = Feature.store()
        store.send(.increment) { $0.count = 1 }
        store.send(.increment) { $0.count = 2 }
        #expect(store.state.count == 2)
    }

    @Test func anActionThatChangesNothingNeedsNoClosure() {
        let store = Feature.store()
        store.send(.noop)
    }

    @Test func receiveAnActionAnEffectSentBackAtOnce() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
    }

    @Test func receiveByCasePath() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        store.receive(/Feature.Action.factResponse) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
    }

    @Test func aDelayedEffectDeliversWhenTheSchedulerAdvances() {
        let scheduler = DispatchQueue.test
        let store = Feature.store(
            fact: { n in Just("\(n)!").delay(for: .seconds(1), scheduler: scheduler).eraseToEffect() },
            scheduler: scheduler)
        store.send(.factButtonTapped) { $0.isLoading = true }
        #expect(store.runningEffectCount == 1)
        scheduler.advance(by: .milliseconds(999))
        #expect(store.state.fact == nil)
        scheduler.advance(by: .milliseconds(1))
        store.receive(.factResponse("0!")) {
            $0.isLoading = false
            $0.fact = "0!"
        }
        #expect(store.runningEffectCount == 0)
    }

    @Test func debouncedSearchWithTheTestScheduler() {
        let scheduler = DispatchQueue.test
        let store = Feature.store(scheduler: scheduler)
        store.send(.queryChanged("s")) { $0.query = "s" }
        scheduler.advance(by: .milliseconds(200))
        store.send(.queryChanged("sw")) { $0.query = "sw" }   // cancels the wait for "s"
        scheduler.advance(by: .milliseconds(200))
        #expect(store.state.searched == [])
        scheduler.advance(by: .milliseconds(100))
        store.receive(.searched("sw")) { $0.searched = ["sw"] }
        #expect(store.runningEffectCount == 0)
    }

    @Test func aTimerStoppedByAnAction() {
        let scheduler = DispatchQueue.test
        let store = Feature.store(scheduler: scheduler)
        store.send(.startTimer)
        scheduler.advance(by: .seconds(3))
        store.receive(.timerTicked) { $0.ticks = 1 }
        store.receive(.timerTicked) { $0.ticks = 2 }
        store.receive(.timerTicked) { $0.ticks = 3 }
        store.send(.stopTimer)
        scheduler.advance(by: .seconds(3))
        #expect(store.runningEffectCount == 0)
    }

    @Test func theTaskSendReturnsCancelsItsEffects() {
        let scheduler = DispatchQueue.test
        let store = Feature.store(scheduler: scheduler)
        let task = store.send(.startTimer)
        #expect(!task.isFinished)
        scheduler.advance(by: .seconds(1))
        store.receive(.timerTicked) { $0.ticks = 1 }
        task.cancel()
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
        scheduler.advance(by: .seconds(5))
    }

    @Test func theEnvironmentCanChangeBetweenSteps() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
        store.environment.fact = { _ in Effect(value: "replaced") }
        store.send(.factButtonTapped) { $0.isLoading = true }
        store.receive(.factResponse("replaced")) {
            $0.isLoading = false
            $0.fact = "replaced"
        }
    }

    @Test func eachTestStoreHasItsOwnCancellationIDs() {
        let scheduler = DispatchQueue.test
        let first = Feature.store(scheduler: scheduler)
        let second = Feature.store(scheduler: scheduler)
        first.send(.startTimer)
        second.send(.startTimer)
        first.send(.stopTimer)
        scheduler.advance(by: .seconds(1))
        second.receive(.timerTicked) { $0.ticks = 1 }
        #expect(first.runningEffectCount == 0)
        second.send(.stopTimer)
    }

    @Test func anActionSentBackStartsItsOwnEffects() {
        let store = Feature.store()
        store.send(.listenLater)
        store.receive(.listen)
        store.environment.events.send(5)
        store.receive(.heard(5)) { $0.count = 5 }
        store.environment.events.send(completion: .finished)
    }

    @Test func actionsSentBackRunBreadthFirstAsInTheStore() {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            switch action {
            case "root": return .merge(Effect(value: "a"), Effect(value: "b"))
            case "a": return Effect(value: "a1")
            case "b": return Effect(value: "b1")
            default: return .none
            }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.send("root") { $0 = ["root"] }
        store.receive("a") { $0.append("a") }
        store.receive("b") { $0.append("b") }
        store.receive("a1") { $0.append("a1") }
        store.receive("b1") { $0.append("b1") }
    }

    /// The order is the store's (TestStore runs the very same send loop): if the shipped loop
    /// ran depth-first, or ran a publisher's actions after the `Effect(value:)`s merged with it,
    /// this test would fail.
    @Test func effectsThatSendSeveralActionsEachSendingMoreRunBreadthFirst() {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            switch action {
            case "root": return .merge(["a", "b"].publisher.eraseToEffect(), Effect(value: "c"))
            case "a": return ["a1", "a2"].publisher.eraseToEffect()
            case "b": return Effect(value: "b1")
            case "c": return .concatenate(Effect(value: "c1"), Effect(value: "c2"))
            case "a1": return Effect(value: "a11")
            default: return .none
            }
        }
        let expected = ["root", "a", "b", "c", "a1", "a2", "b1", "c1", "c2", "a11"]
        // The app's store runs them in this order...
        let app = Store(initialState: [], reducer: reducer, environment: ())
        app.send("root")
        #expect(app.state == expected)
        // ...and the test store asserts each, in the same order, with the state it left.
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.send("root") { $0 = ["root"] }
        for action in expected.dropFirst() {
            store.receive(action) { $0.append(action) }
        }
        #expect(store.state == expected)
        #expect(store.runningEffectCount == 0)
    }

    // MARK: Async effects (other threads)

    @Test func asyncReceiveWaitsForAnEffectOnAnotherThread() async {
        let store = Feature.store(fact: Feature.backgroundFact)
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
    }

    @Test func asyncReceiveByCasePath() async {
        let store = Feature.store(fact: Feature.backgroundFact)
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(/Feature.Action.factResponse, timeout: .seconds(5)) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
    }

    @Test func finishWaitsForEffectsThenReceiveAsserts() async {
        let store = Feature.store(fact: Feature.backgroundFact)
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.finish()
        #expect(store.runningEffectCount == 0)
        #expect(store.state.fact == nil)  // arrived, not asserted yet
        await store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
        #expect(store.state.fact == "0 is a good number")
    }

    @Test func theTasksFinishWaitsForItsEffects() async {
        let store = Feature.store(fact: Feature.backgroundFact)
        let task = store.send(.factButtonTapped) { $0.isLoading = true }
        await task.finish()
        #expect(task.isFinished)
        await store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
    }

    @Test func actionsFromManyThreadsAreCollectedSafely() async {
        let store = Feature.store()
        store.exhaustivity = .off
        store.send(.listen)
        let events = store.environment.events
        DispatchQueue.concurrentPerform(iterations: 100) { n in events.send(n) }
        await store.receive(.heard(99), timeout: .seconds(5))
        #expect(Set(0..<100).contains(store.state.count))
    }

    // MARK: Non-exhaustive mode

    @Test func nonExhaustiveChecksOnlyWhatTheTestAsserts() {
        let store = Feature.store()
        store.exhaustivity = .off
        store.send(.factButtonTapped)   // isLoading changed: not asserted, not checked
        store.receive(.factResponse("0 is a good number")) { $0.fact = "0 is a good number" }
        store.send(.increment) { $0.count = 1 }
    }

    @Test func nonExhaustiveSkipsReceivedActionsAndLeavesEffectsRunning() {
        let scheduler = DispatchQueue.test
        let store = Feature.store(scheduler: scheduler)
        store.exhaustivity = .off
        store.send(.startTimer)
        scheduler.advance(by: .seconds(3))
        store.receive(.timerTicked) { $0.ticks = 1 }
        store.send(.increment) { $0.count = 1 }   // two ticks not asserted: skipped
        #expect(store.state.ticks == 3)
        #expect(store.runningEffectCount == 1)   // still running at the end: no failure
    }

    @Test func nonExhaustiveReceiveSkipsToTheMatchingAction() {
        let store = Feature.store()
        store.exhaustivity = .off
        store.send(.listen)
        store.environment.events.send(1)
        store.environment.events.send(2)
        store.environment.events.send(3)
        store.receive(.heard(2)) { $0.count = 2 }   // the state right after `.heard(2)`
        store.receive(.heard(3)) { $0.count = 3 }
    }

    // MARK: A11 — exhaustive failures, each with the step's file and line and a readable diff

    @Test func a11_unassertedStateChangeFailsWithADiff() {
        let store = Feature.store()
        expectFailures {
            store.send(.increment)
        } matching: { issue in
            issue.description.contains("""
                Sending Action.increment changed the state, but no change was asserted (- expected, + actual):
                \(countDiff(0, 1))
                """)
        }
    }

    @Test func a11_wronglyAssertedStateChangeFailsWithADiff() {
        let store = Feature.store()
        expectFailures {
            store.send(.increment) { $0.count = 2 }
        } matching: { issue in
            issue.description.contains("""
                The state after sending Action.increment does not match the expectation (- expected, + actual):
                \(countDiff(2, 1))
                """)
        }
    }

    @Test func a11_expectedChangeThatDidNotHappenFails() {
        let store = Feature.store()
        expectFailures {
            store.send(.noop) { $0.count = 1 }
        } matching: { issue in
            issue.description.contains("""
                Sending Action.noop was expected to change the state, but it did not change (- expected, + actual):
                \(countDiff(1, 0))
                """)
        }
    }

    @Test func a11_receivedActionNotAssertedBeforeTheNextSendFails() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        expectFailures {
            store.send(.increment) { $0.count = 1 }
        } matching: { issue in
            issue.description.contains("""
                1 received action was not asserted before sending Action.increment:
                  Action.factResponse("0 is a good number")
                Assert each one with `receive`, or make the test non-exhaustive (`store.exhaustivity = .off`).
                """)
        }
        #expect(store.state.count == 1)
    }

    @Test func a11_receivedActionsNotAssertedFailOnceAndStayQueued() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        expectFailures {
            store.send(.increment) { $0.count = 1 }
        } matching: { issue in
            issue.description.contains("1 received action was not asserted before sending Action.increment")
        }
        // Still queued: asserted now, with the state it left then; no second failure, now or at
        // the end of the test.
        store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
        store.send(.increment) { $0.count = 2 }
    }

    @Test func a11_unassertedActionsAreReportedOnceAcrossSends() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        expectFailures {
            store.send(.increment) { $0.count = 1 }
        } matching: { issue in
            issue.description.contains("1 received action was not asserted")
        }
        store.send(.increment) { $0.count = 2 }  // the same action is not reported again
    }

    @Test func a11_stateIsTheStateAsOfTheLastAssertedStep() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        // The fact has arrived already (the effect is synchronous), but not been asserted.
        #expect(store.state.isLoading)
        #expect(store.state.fact == nil)
        store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
        #expect(!store.state.isLoading)
        #expect(store.state.fact == "0 is a good number")
    }

    @Test func a11_stateInNonExhaustiveModeIsTheCurrentState() {
        let store = Feature.store()
        store.exhaustivity = .off
        store.send(.factButtonTapped)
        #expect(store.state.fact == "0 is a good number")
    }

    @Test func a11_anUpdateClosureThatChangesNothingFails() {
        let store = Feature.store()
        expectFailures {
            store.send(.noop) { _ in }
        } matching: { issue in
            issue.description.contains("""
                Expected the state to change, but it did not; leave out the closure if no change is expected.
                Step: sending Action.noop
                """)
        }
        expectFailures {
            store.send(.noop) { $0.count = 0 }  // sets what is already there
        } matching: { issue in
            issue.description.contains("Expected the state to change, but it did not")
        }
        // Non-exhaustive: a closure may restate what is there.
        store.exhaustivity = .off
        store.send(.noop) { $0.count = 0 }
    }

    @Test func a11_receiveOfAnActionThatDidNotArriveFails() {
        let store = Feature.store()
        expectFailures {
            store.receive(.timerTicked)
        } matching: { issue in
            issue.description.contains("Expected to receive Action.timerTicked, but no action was received.")
        }
    }

    @Test func a11_receiveWhileAnEffectRunsSaysSo() {
        let store = Feature.store()
        let task = store.send(.startTimer)
        expectFailures {
            store.receive(.timerTicked)
        } matching: { issue in
            issue.description.contains("""
                Expected to receive Action.timerTicked, but no action was received.
                1 effect is still running; `await store.receive(...)` waits for an action.
                """)
        }
        task.cancel()
    }

    @Test func a11_receiveOfADifferentActionShowsBoth() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        expectFailures {
            store.receive(.factResponse("wrong"))
        } matching: { issue in
            issue.description.contains("""
                Received a different action than expected (- expected, + received):
                - Action.factResponse("wrong")
                + Action.factResponse("0 is a good number")
                """)
        }
    }

    @Test func a11_receiveByCasePathOfAnotherCaseFails() {
        let scheduler = DispatchQueue.test
        let store = Feature.store(scheduler: scheduler)
        let task = store.send(.startTimer)
        scheduler.advance(by: .seconds(1))
        expectFailures {
            store.receive(/Feature.Action.factResponse)
        } matching: { issue in
            issue.description.contains("""
                Received an action that does not match CasePath<Action, String>:
                  Action.timerTicked
                """)
        }
        task.cancel()
    }

    @Test func a11_receivedStateChangeIsCheckedToo() {
        let store = Feature.store()
        store.send(.factButtonTapped) { $0.isLoading = true }
        expectFailures {
            store.receive(.factResponse("0 is a good number")) { $0.fact = "0 is a good number" }
        } matching: { issue in
            issue.description.contains("""
                The state after receiving Action.factResponse("0 is a good number") does not match the \
                expectation (- expected, + actual):
                  State(
                    count: 0,
                    fact: "0 is a good number",
                -   isLoading: true,
                +   isLoading: false,
                    query: "",
                    searched: [],
                    ticks: 0,
                    … (2 unchanged lines)
                """)
        }
    }

    @Test func a11_failuresCarryTheFileAndLineOfTheStep() {
        let store = Feature.store()
        let line = #line + 2
        expectFailures {
            store.send(.increment)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "TestStoreTests.swift"
        }
    }

    @Test func a11_effectStillRunningAtTheEndFailsAtTheStepThatStartedIt() {
        let line = #line + 3
        expectFailures {
            let store = Feature.store()
            store.send(.listen)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.description.contains("""
                An effect started by sending Action.listen is still running at the end of the test. Wait for it \
                (`await store.finish()`), cancel it, or make the test non-exhaustive (`store.exhaustivity = .off`).
                """)
        }
    }

    @Test func a11_effectStartedByAReceivedActionFailsAtTheReceive() {
        let line = #line + 4
        expectFailures {
            let store = Feature.store()
            store.send(.listenLater)
            store.receive(.listen)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.description.contains("An effect started by receiving Action.listen is still running")
        }
    }

    @Test func a11_receivedActionsNotAssertedAtTheEndFail() {
        let line = #line + 3
        expectFailures {
            let store = Feature.store()
            store.send(.factButtonTapped) { $0.isLoading = true }
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.description.contains("""
                The test ended with 1 received action not asserted:
                  Action.factResponse("0 is a good number")
                """)
        }
    }

    @Test func a11_finishFailsWhenEffectsAreStillRunning() async {
        let store = Feature.store()
        let sendLine = #line + 1
        store.send(.listen)
        await expectFailures {
            await store.finish(timeout: .milliseconds(50))
        } matching: { issue in
            issue.description.contains("""
                Expected every effect to finish within 0.05 seconds, but 1 effect is still running:
                  started by sending Action.listen (TestStoreTests.swift:\(sendLine))
                """)
        }
        // `finish` cancelled it: the end of the test does not report it again.
        #expect(store.runningEffectCount == 0)
    }

    @Test func a11_taskFinishFailsWhenItsEffectsAreStillRunning() async {
        let store = Feature.store()
        let task = store.send(.listen)
        await expectFailures {
            await task.finish(timeout: .milliseconds(50))
        } matching: { issue in
            issue.description.contains("""
                Expected the effects of this action to finish within 0.05 seconds, but 1 effect is still running:
                  started by sending Action.listen
                """)
        }
        #expect(task.isFinished)
    }

    @Test func a11_asyncReceiveOfAnActionThatNeverComesTimesOut() async {
        let store = Feature.store()
        let task = store.send(.listen)
        let start = ContinuousClock.now
        await expectFailures {
            await store.receive(.heard(1), timeout: .milliseconds(50))
        } matching: { issue in
            issue.description.contains("""
                Expected to receive Action.heard(1), but no action was received (waited 0.05 seconds).
                1 effect is still running; `await store.receive(...)` waits for an action.
                """)
        }
        // It waited for the timeout (other tests on the main actor may make it wait longer).
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        task.cancel()
    }

    @Test func a11_runtimeIssueFailsTheTest() {
        let store = Feature.store()
        let line = #line + 2
        expectFailures {
            store.send(.child(.bump))
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.description.contains("""
                A runtime issue was reported while running Action.child(ChildAction.bump):
                An `optional()` reducer (ComposableArchitectureTests/TestStoreTests.swift:
                """) && issue.description.contains("received an action while its state was nil")
        }
        store.send(.openChild) { $0.child = 0 }
        store.send(.child(.bump)) { $0.child = 1 }
    }

    @Test func a11_runtimeIssueFromAnotherThreadFailsAtTheNextStep() async {
        // An effect on another thread sends an action the optional child reducer cannot run (its
        // state is nil). The action runs in a main-queue block, outside the test's task: the
        // failure is recorded at the next step, pointing at the step that started the effect.
        let childEvents = PassthroughSubject<Feature.ChildAction, Never>()
        let reducer = Feature.reducer.combined(with: Reducer { _, action, _ in
            action == .failingNoop
                ? childEvents.receive(on: DispatchQueue.global()).map(Feature.Action.child).eraseToEffect()
                : .none
        })
        let store = TestStore(
            initialState: Feature.State(), reducer: reducer,
            environment: Feature.Environment(fact: Feature.immediateFact, mainQueue: DispatchQueue.test.eraseToAnyScheduler()))
        store.exhaustivity = .off
        let sendLine = #line + 1
        store.send(.failingNoop)
        childEvents.send(.bump)
        await expectFailures {
            await store.receive(.child(.bump), timeout: .seconds(5))
        } matching: { issue in
            issue.sourceLocation?.line == sendLine
                && issue.description.contains("A runtime issue was reported while running Action.child(ChildAction.bump)")
        }
    }

    @Test func a11_throwingAssertionFails() {
        struct Unexpected: Error {}
        let store = Feature.store()
        expectFailures {
            store.send(.increment) { _ in throw Unexpected() }
        } matching: { issue in
            issue.description.contains("The state assertion for sending Action.increment threw an error: Unexpected()")
        }
    }

    @Test func a11_nonExhaustiveStillFailsOnAWrongAssertion() {
        let store = Feature.store()
        store.exhaustivity = .off
        expectFailures {
            store.send(.increment) { $0.count = 5 }
        } matching: { issue in
            issue.description.contains("""
                The state after sending Action.increment does not match the expectation (- expected, + actual):
                \(countDiff(5, 1))
                """)
        }
    }

    @Test func a11_nonExhaustiveReceiveOfAnActionThatNeverCameFails() {
        let store = Feature.store()
        store.exhaustivity = .off
        store.send(.factButtonTapped)
        expectFailures {
            store.receive(.timerTicked)
        } matching: { issue in
            issue.description.contains("""
                Expected to receive Action.timerTicked, but it is not among the actions received:
                  Action.factResponse("0 is a good number")
                """)
        }
    }

    @Test func a11_statesThatDifferButRenderTheSameSaySo() {
        final class Ref { let value = 1 }
        struct State: Equatable {
            var ref = Ref()
            static func == (lhs: State, rhs: State) -> Bool { lhs.ref === rhs.ref }
        }
        let store = TestStore(initialState: State(), reducer: Reducer<State, Void, Void> { state, _, _ in
            state.ref = Ref()
            return .none
        }, environment: ())
        expectFailures {
            store.send(())
        } matching: { issue in
            issue.description.contains("""
                Sending () changed the state, but no change was asserted (- expected, + actual):
                  (The two states render the same: they differ in something the rendering does not show, \
                or in how their `==` is written.)
                """)
        }
    }
}

// MARK: - XCTest

/// TestStore in an XCTest test case: steps pass as in Swift Testing, and failures go to `XCTFail`
/// with the step's file and line.
final class TestStoreXCTests: XCTestCase {
    /// Failures recorded while `capturing` is set, instead of failing the test.
    private var captured: [(message: String, line: Int)] = []
    private var capturing = false

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
                                expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber,
                                       expected: expected)
        }
        captured.append((description, lineNumber))
    }
    #endif

    @MainActor
    func testStepsPass() {
        let scheduler = DispatchQueue.test
        let store = Feature.store(scheduler: scheduler)
        store.send(.increment) { $0.count = 1 }
        store.send(.queryChanged("a")) { $0.query = "a" }
        scheduler.advance(by: .milliseconds(300))
        store.receive(.searched("a")) { $0.searched = ["a"] }
    }

    @MainActor
    func testAsyncReceive() async {
        let store = Feature.store(fact: Feature.backgroundFact)
        store.send(.factButtonTapped) { $0.isLoading = true }
        await store.receive(.factResponse("0 is a good number")) {
            $0.isLoading = false
            $0.fact = "0 is a good number"
        }
    }

    @MainActor
    func testFailuresGoToXCTFailWithTheStepsLine() {
        XCTAssertNil(Test.current)
        let store = Feature.store()
        capturing = true
        let line = #line + 1
        store.send(.increment)
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.line, line)
        XCTAssertTrue(captured.first?.message.contains("""
            Sending Action.increment changed the state, but no change was asserted (- expected, + actual):
            \(countDiff(0, 1))
            """) == true, captured.first?.message ?? "")
    }
}
