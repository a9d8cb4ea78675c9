import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// `Effect.task` sending from the main actor, errors thrown by `task` and `run` (handled by
// `catch:` or reported through `RuntimeIssues`), and `Effect.unimplemented`.

/// An error an effect's work throws.
struct Boom: Error, Equatable {}

/// Tells when it is released: an effect's operation captures one, and the task running the
/// operation releases it once its body, error handling included, is over.
final class ReleaseSignal: Sendable {
    let signals: Signals
    let name: String

    init(_ signals: Signals, _ name: String) {
        self.signals = signals
        self.name = name
    }

    deinit { signals.send("\(name) released") }
}

@MainActor
@Suite("Effect constructors: the main actor, errors, unimplemented")
struct EffectErrorsTests {
    enum ID: Hashable, Sendable { case work }

    // MARK: - Effect.task sends from the main actor

    @Test(.timeLimit(.minutes(1))) func taskSendsItsValueFromTheMainActorAndRunsItsOperationOffIt() async {
        let log = SendableLog<String>()
        let effect = Effect<String>.task {
            log.append("operation on the main queue: \(MainQueue.isCurrent)")
            await Task.yield()
            return "value"
        }
        let cancellable = Box<AnyCancellable>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            cancellable.value = effect.sink(
                receiveCompletion: { _ in
                    log.append("finished on the main queue: \(MainQueue.isCurrent)")
                    done.resume()
                },
                receiveValue: { log.append("\($0) on the main queue: \(MainQueue.isCurrent)") })
        }
        #expect(log.entries == [
            "operation on the main queue: false",
            "value on the main queue: true",
            "finished on the main queue: true",
        ])
    }

    @Test(.timeLimit(.minutes(1))) func aStoreRunsTheTasksActionAsItArrives() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "fetch" ? .task { "fetched" } : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        await store.send("fetch").finish()
        // The action ran before the effect finished, both on the main actor: nothing to wait for.
        #expect(store.state == ["fetch", "fetched"])
    }

    // MARK: - Errors in Effect.task

    @Test(.timeLimit(.minutes(1))) func taskCatchTurnsTheErrorIntoAnAction() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "fetch" else { return .none }
            return .task { () async throws -> String in
                throw Boom()
            } catch: { error in
                "failed: \(error)"
            }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        store.send("fetch") { $0 = ["fetch"] }
        await store.receive("failed: Boom()") { $0.append("failed: Boom()") }
    }

    @Test(.timeLimit(.minutes(1))) func taskErrorWithoutHandlerFailsTheTestAtTheStepThatStartedIt() async {
        let effectLine = #line + 4
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "fetch" else { return .none }
            return .task { () async throws -> String in throw Boom() }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let sendLine = #line + 2
        await expectFailures {
            await store.send("fetch") { $0 = ["fetch"] }.finish()
        } matching: { issue in
            issue.sourceLocation?.line == sendLine
                && issue.description.contains("""
                    An effect returned for "fetch" reported a runtime issue:
                    An effect made by `Effect.task` at \
                    ComposableArchitectureTests/Effect+ErrorsTests.swift:\(effectLine) threw an error that \
                    nothing handles: Boom(). The effect finished without sending an action for it.
                    """)
        }
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aPlainStoreReportsAnUnhandledErrorToTheHandlerBoundAroundSend() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "fetch" ? .task { () async throws -> String in throw Boom() } : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let reports = SendableLog<String>()
        // The effect's task inherits the handler bound where the store started it.
        let task = RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            store.send("fetch")
        }
        await task.finish()
        #expect(reports.entries.count == 1)
        #expect(reports.entries.first?.contains("made by `Effect.task`") == true)
        #expect(reports.entries.first?.contains("nothing handles: Boom()") == true)
        #expect(store.state == ["fetch"])
    }

    @Test(.timeLimit(.minutes(1))) func taskCancellationErrorEndsTheEffectQuietly() async {
        let reports = SendableLog<String>()
        let handled = SendableLog<String>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "fetch" else { return .none }
            return .task { () async throws -> String in
                throw CancellationError()
            } catch: { _ in
                handled.append("handled")
                return "handled"
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let task = RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            store.send("fetch")
        }
        await task.finish()
        #expect(reports.entries == [])
        #expect(handled.entries == [])
        #expect(store.state == ["fetch"])
    }

    @Test(.timeLimit(.minutes(1))) func taskErrorThrownOnceCancelledIsNeitherHandledNorReported() async {
        let signals = Signals()
        let reports = SendableLog<String>()
        let handled = SendableLog<String>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "fetch":
                let released = ReleaseSignal(signals, "operation")
                return Effect.task { () async throws -> String in
                    signals.send("started")
                    await suspendUntilCancelled()
                    // An error because of the cancellation, as a network client's `cancelled`.
                    withExtendedLifetime(released) {}
                    throw Boom()
                } catch: { _ in
                    handled.append("handled")
                    return "handled"
                }
                .cancellable(id: ID.work)
            case "cancel":
                return .cancel(id: ID.work)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            _ = store.send("fetch")
        }
        #expect(await signals.next() == ["started"])
        store.send("cancel")
        // The task released its operation: its body, error handling included, is over.
        #expect(await signals.next() == ["operation released"])
        #expect(reports.entries == [])
        #expect(handled.entries == [])
        #expect(store.state == [])
    }

    // MARK: - Errors in Effect.run

    @Test(.timeLimit(.minutes(1))) func runCatchSendsActionsForTheError() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "listen" else { return .none }
            return .run { send in
                send("first")
                throw Boom()
            } catch: { error, send in
                send("failed: \(error)")
            }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let task = store.send("listen") { $0 = ["listen"] }
        await store.receive("first") { $0.append("first") }
        await store.receive("failed: Boom()") { $0.append("failed: Boom()") }
        await task.finish()
    }

    @Test(.timeLimit(.minutes(1))) func runErrorWithoutHandlerFailsTheTestAtTheStepThatStartedIt() async {
        let effectLine = #line + 4
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "listen" else { return .none }
            return .run { _ in throw Boom() }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        store.timeout = .seconds(30)  // the effect runs in a task; a passing test never waits this long
        let sendLine = #line + 2
        await expectFailures {
            await store.send("listen") { $0 = ["listen"] }.finish()
        } matching: { issue in
            issue.sourceLocation?.line == sendLine
                && issue.description.contains("""
                    An effect made by `Effect.run` at \
                    ComposableArchitectureTests/Effect+ErrorsTests.swift:\(effectLine) threw an error that \
                    nothing handles: Boom().
                    """)
        }
    }

    @Test(.timeLimit(.minutes(1))) func runCancellationErrorEndsTheEffectQuietly() async {
        let reports = SendableLog<String>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "listen" else { return .none }
            return .run { send in
                send("first")
                throw CancellationError()
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let task = RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            store.send("listen")
        }
        await task.finish()
        await store.waitForState(["listen", "first"])
        #expect(reports.entries == [])
    }

    // MARK: - Effect.unimplemented

    @Test func unimplementedFailsTheTestAtTheSendThatStartedIt() {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "refresh" ? .unimplemented("Environment.refresh") : .none
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        let sendLine = #line + 2
        expectFailures {
            store.send("refresh") { $0 = ["refresh"] }
        } matching: { issue in
            issue.sourceLocation?.line == sendLine
                && issue.description.contains("""
                    An effect returned for "refresh" reported a runtime issue:
                    An unimplemented effect was started: Environment.refresh (made at \
                    ComposableArchitectureTests/Effect+ErrorsTests.swift:
                    """)
        }
        #expect(store.runningEffectCount == 0)
    }

    @Test func unimplementedStartedByAnActionAnEffectSentFailsTheTestAtTheStepThatStartedThatEffect() {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            switch action {
            case "start": return Effect(value: "refresh")
            case "refresh": return .unimplemented("Environment.refresh")
            default: return .none
            }
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: ())
        let sendLine = #line + 2
        expectFailures {
            store.send("start") { $0 = ["start"] }
        } matching: { issue in
            issue.sourceLocation?.line == sendLine
                && issue.description.contains("""
                    An effect returned for "refresh" reported a runtime issue:
                    An unimplemented effect was started: Environment.refresh
                    """)
        }
        store.receive("refresh") { $0.append("refresh") }
    }

    @Test func unimplementedIsReportedOnlyWhenStartedAndFinishesAtOnce() {
        let reports = SendableLog<String>()
        let effect = RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            Effect<String>.unimplemented("Environment.refresh")
        }
        #expect(reports.entries == [])
        let subscriber = RecordingSubscriber<String, Never>()
        RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            effect.subscribe(subscriber)
        }
        #expect(subscriber.values == [])
        #expect(subscriber.completion == .finished)
        #expect(reports.entries.count == 1)
        #expect(reports.entries.first?.hasPrefix("An unimplemented effect was started: Environment.refresh") == true)
    }

    @Test func aPlainStoreReportsUnimplementedToTheHandlerBoundAroundSend() {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "refresh" ? .unimplemented("Environment.refresh") : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let reports = SendableLog<String>()
        RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            _ = store.send("refresh")   // its reducer returns `.unimplemented("Environment.refresh")`
        }
        #expect(reports.entries.count == 1)
        #expect(store.state == ["refresh"])
        #expect(store.runningEffectCount == 0)
    }
}
