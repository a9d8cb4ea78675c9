import ComposableArchitecture
import ComposableArchitectureTesting
import Dispatch
import StreamsTesting
import Testing

// `Effect.task` sending from the main actor.

@MainActor
@Suite("Effect constructors: the main actor")
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
}
