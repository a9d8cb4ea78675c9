import ComposableArchitecture
import Dispatch
import StreamsTesting
import Testing

/// Suspends until the current task is cancelled: an `AsyncStream`'s loop ends when its task is
/// cancelled, and this one gets no element before.
func suspendUntilCancelled() async {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}
    withExtendedLifetime(continuation) {}
}

/// Messages from effects' work to the test, in order.
struct Signals: Sendable {
    let stream: AsyncStream<String>
    let continuation: AsyncStream<String>.Continuation

    init() {
        (stream, continuation) = AsyncStream<String>.makeStream()
    }

    func send(_ message: String) {
        continuation.yield(message)
    }

    /// The next `count` messages.
    func next(_ count: Int = 1) async -> [String] {
        var messages: [String] = []
        for await message in stream {
            messages.append(message)
            if messages.count == count { break }
        }
        return messages
    }
}

extension Store {
    /// Waits until `isDone(state)` holds, bounded by the test's time limit. The state is
    /// published on the main actor, where this loop runs, so no change is missed.
    ///
    /// Tests call it after `await task.finish()` because `finish()` alone can return before the
    /// actions of an effect that finished on another thread have run: when such an effect
    /// finishes right after the store subscribed to it, before `RootStoreCore.start` checks its
    /// `finished` flag, the store never tracks it, so `finish()` has nothing to wait for while
    /// the effect's actions are still on their way to the main queue.
    @MainActor
    func waitUntil(_ isDone: (State) -> Bool) async {
        for await state in publisher.values where isDone(state) { return }
    }
}

extension Store where State: Equatable {
    /// Waits until the store's state is `expected` (see ``waitUntil(_:)``).
    @MainActor
    func waitForState(_ expected: State) async {
        await waitUntil { $0 == expected }
    }
}

/// A thread-safe list, for work running off the main actor.
final class SendableLog<Element: Sendable>: @unchecked Sendable {  // `storage` guarded by `lock`
    private let lock = Lock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    var entries: [Element] { lock.withLock { storage } }
}

/// A slot for a value handed out by an effect (a callback, a subscriber, a `send`).
final class Box<Value>: @unchecked Sendable {  // `value` guarded by `lock`
    private let lock = Lock()
    private var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@MainActor
@Suite("Effect constructors")
struct EffectConstructorsTests {
    enum ID: Hashable, Sendable { case work }

    // MARK: - Synchronous work

    @Test func fireAndForgetRunsWhenStartedAndSendsNothing() {
        final class Log { var entries: [String] = [] }
        let log = Log()
        let reducer = Reducer<Int, String, Void> { state, action, _ in
            state += 1
            return action == "save" ? .fireAndForget { log.entries.append("saved") } : .none
        }
        let unstarted = Effect<String>.fireAndForget { log.entries.append("never") }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        let task = store.send("save")
        #expect(log.entries == ["saved"])
        #expect(store.state == 1)
        #expect(store.runningEffectCount == 0)
        #expect(task.isFinished)
        _ = unstarted
    }

    @Test func syncSendsTheWorksActionWithinTheSameSend() {
        final class Counter { var runs = 0 }
        let counter = Counter()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "load" else { return .none }
            return .sync {
                counter.runs += 1
                return "loaded \(counter.runs)"
            }
        }
        let unstarted = Effect<String>.sync { counter.runs += 100; return "never" }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("load")
        #expect(store.state == ["load", "loaded 1"])
        store.send("load")
        #expect(store.state == ["load", "loaded 1", "load", "loaded 2"])
        #expect(store.runningEffectCount == 0)
        _ = unstarted
    }

    @Test func publisherFireAndForgetRunsItAndSendsNothing() {
        struct Boom: Error {}
        let upstream = TestPublisher<Int, Boom>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "start" ? upstream.fireAndForget() : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        upstream.send(1)
        #expect(store.runningEffectCount == 1)
        upstream.send(completion: .failure(Boom()))
        #expect(store.state == ["start"])
        #expect(store.runningEffectCount == 0)
        #expect(upstream.history == [.requested(.unlimited)])
    }

    // MARK: - Callbacks: future

    @Test(.timeLimit(.minutes(1))) func futureCalledFromABackgroundThread() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "locate" else { return .none }
            return .future { callback in
                DispatchQueue.global().async {
                    callback("located")
                    callback("ignored")
                }
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        await store.send("locate").finish()
        await store.waitForState(["locate", "located"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func futureIsLazyAndRunsOncePerStart() {
        final class Counter { var starts = 0 }
        let counter = Counter()
        let effect = Effect<String>.future { callback in
            counter.starts += 1
            callback("done \(counter.starts)")
        }
        #expect(counter.starts == 0)
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "go" ? effect : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("go")
        store.send("go")
        #expect(counter.starts == 2)
        #expect(store.state == ["go", "done 1", "go", "done 2"])
    }

    @Test func futureIgnoresASecondCall() {
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            state.append(action)
            return action == 0 ? .future { callback in callback(1); callback(2) } : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send(0)
        #expect(store.state == [0, 1])
        #expect(store.runningEffectCount == 0)
    }

    @Test func futureCancelledByIDIgnoresItsCallback() {
        let callback = Box<@Sendable (String) -> Void>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start": return Effect.future { callback.value = $0 }.cancellable(id: ID.work)
            case "cancel": return .cancel(id: ID.work)
            default: state.append(action); return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        #expect(store.runningEffectCount == 1)
        store.send("cancel")
        #expect(store.runningEffectCount == 0)
        callback.value?("late")
        #expect(store.state == [])
    }

    // MARK: - Callbacks: create

    @Test func createSendsUntilFinishedThenRunsItsTeardown() {
        final class Log { var entries: [String] = [] }
        let log = Log()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "start" else { return .none }
            return .create { subscriber in
                subscriber.send("a")
                subscriber.send("b")
                subscriber.send(completion: .finished)
                subscriber.send("after completion")
                return AnyCancellable { log.entries.append("teardown") }
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        #expect(store.state == ["start", "a", "b"])
        #expect(log.entries == ["teardown"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func createCancelledByIDRunsItsTeardownAndIgnoresLaterSends() {
        final class Log { var entries: [String] = [] }
        let log = Log()
        let subscriber = Box<EffectSubscriber<String>>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start":
                return Effect.create {
                    subscriber.value = $0
                    return AnyCancellable { log.entries.append("teardown") }
                }
                .cancellable(id: ID.work)
            case "stop":
                return .cancel(id: ID.work)
            default:
                state.append(action)
                return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        store.send("start")
        subscriber.value?.send("a")
        #expect(log.entries == [])
        store.send("stop")
        #expect(log.entries == ["teardown"])
        subscriber.value?.send("b")
        subscriber.value?.send(completion: .finished)
        #expect(store.state == ["a"])
        #expect(log.entries == ["teardown"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func createSubscriberIsThreadSafe() async {
        let subscriber = Box<EffectSubscriber<Int>>()
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            if action == -1 {
                return .create { subscriber.value = $0; return AnyCancellable {} }
            }
            state.append(action)
            return .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let task = store.send(-1)
        let handle = subscriber.value!
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<200 {
                group.addTask { handle.send(n) }
            }
        }
        handle.send(completion: .finished)
        await task.finish()
        await store.waitUntil { $0.count == 200 }
        #expect(store.state.sorted() == Array(0..<200))
        #expect(store.runningEffectCount == 0)
    }

    @Test func createHoldsValuesUntilTheyAreAskedFor() {
        let effect = Effect<Int>.create { subscriber in
            for n in 1...3 { subscriber.send(n) }
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        effect.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    // MARK: - Async/await

    @Test(.timeLimit(.minutes(1))) func taskSendsTheActionItReturns() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            guard action == "fetch" else { return .none }
            return .task {
                await Task.yield()
                return "fetched"
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        await store.send("fetch").finish()
        await store.waitForState(["fetch", "fetched"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func runSendsAStreamOfValuesUntilItFinishes() async {
        let (numbers, input) = AsyncStream<Int>.makeStream()
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            if action == 0 {
                return .run { send in
                    for await n in numbers { send(n * 10) }
                    send(-1)
                }
            }
            state.append(action)
            return .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let task = store.send(0)
        for n in 1...5 { input.yield(n) }
        #expect(!task.isFinished)
        input.finish()
        await task.finish()
        await store.waitForState([10, 20, 30, 40, 50, -1])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func runSendIsCalledWithoutAwaitFromAnyContext() async {
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            guard action == "start" else {
                state.append(action)
                return .none
            }
            return .run { send in
                send("from the task")
                await MainActor.run { send("from the main actor") }
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async {
                        send("from a callback on another thread")
                        done.resume()
                    }
                }
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        await store.send("start").finish()
        await store.waitUntil { $0.count == 3 }
        #expect(store.state == ["from the task", "from the main actor", "from a callback on another thread"])
    }

    @Test(.timeLimit(.minutes(1))) func fireAndForgetAsyncRunsTheWorkAndFinishesWithIt() async {
        let log = SendableLog<String>()
        let reducer = Reducer<Int, String, Void> { state, action, _ in
            state += 1
            guard action == "save" else { return .none }
            return .fireAndForget {
                await Task.yield()
                log.append("saved")
            }
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        await store.send("save").finish()
        #expect(log.entries == ["saved"])
        #expect(store.state == 1)
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func taskCancelledByIDCancelsItsTaskAndDropsItsAction() async {
        let signals = Signals()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start":
                return Effect.task {
                    signals.send("started")
                    await suspendUntilCancelled()
                    signals.send("cancelled: \(Task.isCancelled)")
                    return "finished"
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
        let task = store.send("start")
        #expect(await signals.next() == ["started"])
        store.send("cancel")
        #expect(task.isFinished)
        #expect(await signals.next() == ["cancelled: true"])
        #expect(store.state == [])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func runCancelledByIDCancelsItsTask() async {
        let signals = Signals()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            switch action {
            case "start":
                return Effect.run { send in
                    send("first")
                    signals.send("started")
                    await suspendUntilCancelled()
                    signals.send("cancelled: \(Task.isCancelled)")
                    send("after cancel")
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
        let task = store.send("start")
        #expect(await signals.next() == ["started"])
        store.send("cancel")
        #expect(task.isFinished)
        #expect(await signals.next() == ["cancelled: true"])
        await store.waitForState(["first"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func storeTaskCancelCancelsARunEffect() async {
        let signals = Signals()
        let reducer = Reducer<Int, Int, Void> { _, _, _ in
            .run { _ in
                signals.send("started")
                await suspendUntilCancelled()
                signals.send("cancelled: \(Task.isCancelled)")
            }
        }
        let store = Store(initialState: 0, reducer: reducer, environment: ())
        let task = store.send(0)
        #expect(await signals.next() == ["started"])
        task.cancel()
        #expect(await signals.next() == ["cancelled: true"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func storeGoingAwayCancelsARunningRunEffect() async {
        let signals = Signals()
        weak var weakStore: Store<Int, Int>?
        do {
            let reducer = Reducer<Int, Int, Void> { _, _, _ in
                .run { _ in
                    signals.send("started")
                    await suspendUntilCancelled()
                    signals.send("cancelled: \(Task.isCancelled)")
                }
            }
            let store = Store(initialState: 0, reducer: reducer, environment: ())
            weakStore = store
            store.send(0)
            #expect(store.runningEffectCount == 1)
            #expect(await signals.next() == ["started"])
        }
        #expect(weakStore == nil)
        #expect(await signals.next() == ["cancelled: true"])
    }

    @Test(.timeLimit(.minutes(1))) func sendAfterRunReturnedIsReportedAndDropped() async {
        let escaped = Box<Send<String>>()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "start" ? .run { send in escaped.value = send } : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        await store.send("start").finish()
        let reports = SendableLog<String>()
        RuntimeIssues.$handler.withValue({ reports.append($0) }) {
            escaped.value?("late")
        }
        #expect(reports.entries.count == 1)
        #expect(reports.entries.first?.contains("after its `Effect.run` closure had returned") == true)
        #expect(store.state == ["start"])
    }

    @Test func fireAndForgetOverloadsPickSyncOrAsyncByTheClosure() {
        final class Log { var entries: [String] = [] }
        let log = Log()
        // No `await`: the synchronous overload, which runs at once when started.
        let sync = Effect<Int>.fireAndForget { log.entries.append("sync") }
        // An `await`: the async overload.
        let asynchronous = Effect<Int>.fireAndForget { await Task.yield() }
        _ = sync.sink { _ in }
        #expect(log.entries == ["sync"])
        _ = asynchronous
    }

    // MARK: - Async sequences

    @Test(.timeLimit(.minutes(1))) func asyncSequenceBecomesAnEffect() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        for n in 1...3 { continuation.yield(n) }
        continuation.finish()
        let reducer = Reducer<[String], String, Void> { state, action, _ in
            state.append(action)
            return action == "start" ? stream.eraseToEffect { "n\($0)" } : .none
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        await store.send("start").finish()
        await store.waitForState(["start", "n1", "n2", "n3"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func asyncSequenceEffectIsCancelledByIDWhichCancelsItsTask() async {
        let signals = Signals()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        // Called with `.cancelled` when the task iterating the stream is cancelled.
        continuation.onTermination = { signals.send("\($0)") }
        let reducer = Reducer<[Int], Int, Void> { state, action, _ in
            switch action {
            case 0: return stream.eraseToEffect().cancellable(id: ID.work)
            case -1: return .cancel(id: ID.work)
            default: state.append(action); return .none
            }
        }
        let store = Store(initialState: [], reducer: reducer, environment: ())
        let task = store.send(0)
        continuation.yield(1)
        await store.waitForState([1])
        store.send(-1)
        #expect(task.isFinished)
        #expect(await signals.next() == ["cancelled"])
        #expect(store.runningEffectCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func effectsAreReadWithForAwaitOverValues() async {
        let effect = Effect<Int>.run { send in
            for n in 1...3 { send(n) }
        }
        var received: [Int] = []
        for await action in effect.values {
            received.append(action)
        }
        #expect(received == [1, 2, 3])

        var merged: [Int] = []
        for await action in Effect.merge(Effect(value: 1), Effect(value: 2)).map({ $0 * 10 }).values {
            merged.append(action)
        }
        #expect(merged == [10, 20])
    }

    @Test func mapOnAnEffectIsTheEffectsOwnAndNotAmbiguous() {
        let effect = Effect(value: 1)
        // No annotation: the call resolves to `Effect.map`, which returns an `Effect`.
        let mapped = effect.map { $0 + 1 }
        #expect(type(of: mapped) == Effect<Int>.self)
        let compactMapped = effect.compactMap { $0 > 0 ? "\($0)" : nil }.eraseToEffect()
        var received: [String] = []
        _ = mapped.map(String.init).merge(with: compactMapped).sink { received.append($0) }
        #expect(received == ["2", "1"])
    }
}
