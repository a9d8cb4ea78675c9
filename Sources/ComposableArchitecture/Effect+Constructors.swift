import Streams

// The ways to make an effect from work: synchronous work, callbacks, and async/await.
//
// Every constructor here is lazy — nothing runs until the store starts the effect — and every
// one of them works with `cancellable(id:)`: cancelling the effect (by identifier, with
// `StoreTask.cancel()`, or by the store going away) stops the work, cancelling its `Task` for
// the async ones.
//
// An effect is a publisher, and it is read as an asynchronous sequence with `values`:
// `for await action in effect.values { ... }`. `Effect` itself is deliberately not an
// `AsyncSequence`, so that `effect.map { ... }` keeps meaning the effect's own `map`.

// MARK: - Synchronous work

extension Effect {
    /// An effect that does `work` when the store starts it, and sends nothing.
    ///
    /// Use it for side effects whose result the feature does not need: logging, analytics,
    /// writing a value to disk. The work runs synchronously, once each time the effect is
    /// started, on the thread that starts it (the main actor, when a store starts it directly;
    /// the scheduler's thread, under `deferred` or `debounce`). Building the effect runs nothing.
    ///
    /// <!-- marble effect-fireAndForget source: Effect<String>.fireAndForget {} -->
    /// ```text
    /// fireAndForget { work() }: [|]    (work runs, then the effect finishes at once)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .favoriteTapped(let prime):
    ///     state.favorites.insert(prime)
    ///     return .fireAndForget { environment.analytics.track("favorite", prime) }
    /// ```
    ///
    /// - Parameter work: The side effect to run each time the effect starts.
    /// - Returns: An effect that runs `work` and finishes without sending an action.
    /// - Completion: finishes as soon as `work` returns, so the store never tracks it.
    /// - Cancellation: nothing to cancel: the work is over before anyone could.
    /// - Threading: `work` runs where the effect is started.
    /// - Complexity: O(1) besides `work`.
    public static func fireAndForget(_ work: @escaping () -> Void) -> Effect {
        Effect(
            Deferred { () -> Empty<Output, Never> in
                work()
                return Empty()
            })
    }

    /// An effect that does `work` when the store starts it, and sends `work`'s result as its one
    /// action.
    ///
    /// The synchronous counterpart of ``task(priority:operation:catch:fileID:line:)``: the work runs when the
    /// effect starts (not when it is built), and its action is fed back within the same send, as
    /// any action an effect sends synchronously. Each start runs the work again.
    ///
    /// <!-- marble effect-sync source: Effect.sync { "the value work returns" } -->
    /// ```text
    /// sync { work() }: [a|]    (a = the value work returns, at the moment the effect starts)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .loadFavorites:
    ///     return .sync { .favoritesLoaded(environment.fileClient.loadFavorites()) }
    /// ```
    ///
    /// - Parameter work: A closure that does the work each time the effect starts and returns the
    ///   action to send.
    /// - Returns: An effect that sends the action `work` returns, then finishes.
    /// - Completion: finishes right after its one action.
    /// - Threading: `work` runs where the effect is started.
    /// - Note: spelled `sync`, not `result`: an effect cannot fail, so the closure returns the
    ///   action itself rather than a `Result`; turn a failing call into an action inside it.
    /// - Complexity: O(1) besides `work`.
    public static func sync(_ work: @escaping () -> Output) -> Effect {
        Effect(Deferred { Just(work()) })
    }
}

// MARK: - Callbacks

extension Effect {
    /// An effect that bridges a one-shot callback API: it starts `attemptToFulfill` when the
    /// store starts the effect, and sends the one value given to the callback.
    ///
    /// Unlike a `Future`, which starts its work as soon as it is made, nothing runs until the
    /// effect is started (and each start runs the work again). The callback is `@Sendable` and
    /// may be called from any thread, at once or later; the first call sends its value and
    /// finishes the effect, and later calls are ignored.
    ///
    /// <!-- marble effect-future scheduler source: Effect<String>.future { callback in scheduler.atTick(3) { callback("a"); callback("b") } } -->
    /// ```text
    /// future { callback in ... callback(a) ... callback(b) }:  ---[a|]    (b is ignored)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .locateTapped:
    ///     return .future { callback in
    ///         environment.locationManager.requestLocation { location in
    ///             callback(.located(location))       // from the manager's own queue
    ///         }
    ///     }
    /// ```
    ///
    /// - Parameter attemptToFulfill: A closure that starts the work and calls the callback it is
    ///   given with the action to send.
    /// - Returns: An effect that sends the first action given to the callback, then finishes.
    /// - Demand: the value waits until it is asked for (the store asks for everything).
    /// - Completion: finishes right after the value; if the callback is never called, the effect
    ///   never finishes (cancel it).
    /// - Cancellation: a call after the effect was cancelled is ignored. The work itself is not
    ///   interrupted: use ``create(_:)`` to cancel it too.
    /// - Threading: the value is handed to the store from the thread that calls the callback;
    ///   the store runs it on the main actor.
    /// - Complexity: O(1).
    public static func future(_ attemptToFulfill: @escaping (@escaping @Sendable (Output) -> Void) -> Void) -> Effect {
        Effect(
            EmittingEffect { emitter in
                attemptToFulfill { output in _ = emitter.sendLast(output) }
            })
    }

    /// An effect that bridges a callback API sending any number of values: it calls `work` with a
    /// ``EffectSubscriber`` when the store starts the effect, and runs the cancellable `work`
    /// returns when the effect ends.
    ///
    /// Send actions with `subscriber.send(_:)` and end the effect with
    /// `subscriber.send(completion: .finished)`; both may be called from any thread. The
    /// cancellable is the teardown: it runs once, when the effect is cancelled (by identifier,
    /// by the store going away, ...) or when it has finished — stop the work there.
    ///
    /// <!-- marble effect-create scheduler source: Effect<String>.create { s in scheduler.atTick(1) { s.send("a") }; scheduler.atTick(4) { s.send("b") }; scheduler.atTick(6) { s.send(completion: .finished) }; return AnyCancellable {} } -->
    /// ```text
    /// create { s in ... s.send(a) ... s.send(b) ... s.send(completion: .finished) }:  -a--b-|
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .startMonitoring:
    ///     return .create { subscriber in
    ///         let token = environment.motion.startUpdates { reading in
    ///             subscriber.send(.motion(reading))
    ///         }
    ///         return AnyCancellable { environment.motion.stopUpdates(token) }
    ///     }
    ///     .cancellable(id: MotionID.self)
    /// ```
    ///
    /// - Parameter work: A closure that starts the work, sends through the subscriber it is given,
    ///   and returns the cancellable that stops the work.
    /// - Returns: An effect that sends what `work` sends, until it finishes or is cancelled.
    /// - Demand: values sent before they are asked for wait, in order, and are delivered as the
    ///   subscriber asks (the store asks for everything, so nothing waits there; a `for await`
    ///   loop over `values` gets every value, one per iteration).
    /// - Completion: `send(completion: .finished)` finishes the effect after the values sent
    ///   before it; anything sent afterwards is ignored.
    /// - Cancellation: cancelling drops the waiting values, runs the teardown and ignores later
    ///   sends.
    /// - Threading: `work` runs where the effect is started; the subscriber's methods are
    ///   thread-safe, and each value is delivered from the thread that sends it (or from the one
    ///   delivering earlier values), never two at once. The teardown runs on the thread that
    ///   ends the effect.
    /// - Combine compatibility: named `create` so it does not collide with ``run(priority:operation:catch:fileID:line:)``.
    /// - Complexity: O(1) amortized per value.
    public static func create(_ work: @escaping (EffectSubscriber<Output>) -> any Cancellable) -> Effect {
        Effect(
            EmittingEffect { emitter in
                let teardown = work(EffectSubscriber(emitter: emitter))
                emitter.onEnd { teardown.cancel() }
            })
    }
}

/// What an ``Effect/create(_:)`` effect's work sends its actions through.
///
/// Every method is thread-safe: call them from any thread, at once or later.
public struct EffectSubscriber<Output>: Sendable {
    let emitter: EffectEmitter<Output>

    /// Sends `value`; ignored once the effect has finished or been cancelled.
    ///
    /// - Parameter value: The action to send.
    public func send(_ value: Output) {
        _ = emitter.send(value)
    }

    /// Finishes the effect, after the values sent before; ignored once it has ended.
    ///
    /// - Parameter completion: `.finished`, the only completion an effect has.
    public func send(completion: Subscribers.Completion<Never>) {
        emitter.finish()
    }
}

// MARK: - Async/await

extension Effect {
    /// An effect that runs `work` in a `Task` when the store starts it, and sends nothing.
    ///
    /// The effect lasts as long as the work: it finishes when `work` returns (so
    /// `await store.send(.save).finish()` waits for it), and cancelling the effect cancels the
    /// task. Handle errors inside `work` (`try?`): it cannot fail.
    ///
    /// <!-- marble effect-fireAndForget-work scheduler source async: Effect<String>.fireAndForget { [reached = scheduler.waitForTick(5)] in await reached() } -->
    /// ```text
    /// fireAndForget { await work() }: -----|    (finishes when work returns)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .saveTapped:
    ///     return .fireAndForget { [favorites = state.favorites] in
    ///         try? await environment.fileClient.save(favorites)
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of the task, or `nil` for the default.
    ///   - work: The asynchronous work to run.
    /// - Returns: An effect that runs `work` and finishes, without sending an action, when it
    ///   returns.
    /// - Completion: finishes when `work` returns.
    /// - Cancellation: cancels the task (`Task.isCancelled` becomes `true` inside `work`).
    /// - Threading: `work` runs on Swift's global concurrent executor.
    /// - Complexity: one `Task` per start.
    public static func fireAndForget(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable () async -> Void
    ) -> Effect {
        run(priority: priority) { _ in await work() }
    }

    /// An effect that runs `operation` in a `Task` when the store starts it, and sends the action
    /// it returns, from the main actor.
    ///
    /// The async/await way to do one piece of work and feed its result back: the effect sends
    /// `operation`'s result, then finishes. The operation runs on Swift's global executor, and
    /// its result is handed over on the main actor: a store runs the action in the same
    /// main-actor job, and a subscriber outside a store gets it on the main thread too, so
    /// whoever waits there for it sees it without a race. Cancelling the effect cancels the task,
    /// and the action it returns after that is dropped.
    ///
    /// `operation` may throw. `handler` turns an error into an action, which the effect sends
    /// instead. Without a handler, an error is a bug the feature did not plan for: it is
    /// reported through ``RuntimeIssues`` (naming `fileID` and `line`, where the effect was made;
    /// a `TestStore` fails the test at the step that started the effect), and the effect
    /// finishes without an action. A `CancellationError`, and any error thrown once the effect
    /// has been cancelled, is neither handled nor reported: the effect just ends.
    ///
    /// <!-- marble effect-task scheduler source async: Effect<String>.task { [reached = scheduler.waitForTick(5)] in await reached(); return "the action work returns" } -->
    /// ```text
    /// task { await work() }: -----[a|]    (a = the action work returns)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .nthPrimeButtonTapped:
    ///     return .task { [count = state.count] in
    ///         .nthPrimeResponse(.success(try await environment.nthPrime(count)))
    ///     } catch: { error in
    ///         .nthPrimeResponse(.failure(error))
    ///     }
    ///     .cancellable(id: NthPrimeID.self, cancelInFlight: true)
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; `nil` for the default.
    ///   - operation: The work; its result is the action the effect sends.
    ///   - handler: Turns an error `operation` throws into the action to send instead; `nil` to
    ///     report errors through ``RuntimeIssues``.
    ///   - fileID: Where the effect is made, for the report of an unhandled error.
    ///   - line: The line where the effect is made.
    /// - Returns: An effect that sends one action, from the main actor, then finishes.
    ///
    /// - Completion: finishes right after the action (or at once after an unhandled error).
    /// - Cancellation: cancels the task; its action is dropped, and an error it throws then is
    ///   ignored.
    /// - Threading: `operation` and `handler` run on Swift's global concurrent executor; the
    ///   action is sent, and the effect finishes, on the main actor. The main actor must be free
    ///   to run it: a thread that blocks the main thread waiting for the action never gets it.
    /// - Complexity: one `Task` per start.
    public static func task(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Output,
        catch handler: (@Sendable (_ error: any Error) async -> Output)? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Effect {
        task(
            priority: priority, operation: operation, catch: handler,
            madeBy: "Effect.task", fileID: fileID, line: line)
    }

    /// ``task(priority:operation:catch:fileID:line:)``, with `madeBy` naming the constructor in
    /// the report of an unhandled error.
    static func task(
        priority: TaskPriority?,
        operation: @escaping @Sendable () async throws -> Output,
        catch handler: (@Sendable (_ error: any Error) async -> Output)?,
        madeBy constructor: String,
        fileID: StaticString,
        line: UInt
    ) -> Effect {
        Effect(
            EmittingEffect { emitter in
                // Only the send hops to the main actor: `operation` and `handler` are nonisolated
                // and run on the global executor. Their result is a value no other code holds, so
                // it may cross to the main actor without being `Sendable`.
                let task = Task(priority: priority) { @MainActor in
                    do {
                        let output = try await operation()
                        _ = emitter.sendLast(output)
                    } catch  where isCancellation(error) {
                        emitter.finish()
                    } catch {
                        guard let handler else {
                            reportUnhandled(error, madeBy: constructor, fileID: fileID, line: line)
                            emitter.finish()
                            return
                        }
                        let output = await handler(error)
                        _ = emitter.sendLast(output)
                    }
                }
                emitter.onEnd { task.cancel() }
            })
    }

    /// An effect that runs `operation` in a `Task` when the store starts it, and sends every
    /// action `operation` passes to `send`; it finishes when `operation` returns.
    ///
    /// The async/await way to feed many actions back over time — the values of a stream, the
    /// progress of a download. `send` (a ``Send``) is `Sendable` and synchronous: call it as
    /// `send(.action)`, with no `await`, from `operation`, from a task it starts, or from a
    /// callback on any thread; it never waits for the store. Actions are delivered in the order
    /// they are sent, from the thread that sends them (the store runs them on the main actor).
    /// Cancelling the effect cancels the task; `send` then does nothing.
    ///
    /// `operation` may throw. `handler` gets the error and the same `send`, to send actions for
    /// it; the effect finishes when the handler returns. Without a handler, an error is reported
    /// through ``RuntimeIssues`` from the main actor (naming `fileID` and `line`; a `TestStore`
    /// fails the test at the step that started the effect), and the effect finishes. A
    /// `CancellationError`, and any error thrown once the effect has been cancelled, just ends
    /// the effect.
    ///
    /// <!-- marble effect-run scheduler source async: Effect<String>.run { [reached = scheduler.waitForTick(4)] send in send("a"); await reached(); send("b") } -->
    /// ```text
    /// run { send in send(a); await ...; send(b) }: [a]---[b|]    (| when operation returns)
    /// ```
    ///
    /// <!-- example context: primeFeatureCases -->
    /// ```swift
    /// case .onAppear:
    ///     return .run { send in
    ///         for try await reading in environment.temperatures() {
    ///             send(.temperature(reading))
    ///         }
    ///     } catch: { error, send in
    ///         send(.temperaturesFailed)
    ///     }
    ///     .cancellable(id: TemperatureID.self)
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; `nil` for the default.
    ///   - operation: The work; it sends actions with the ``Send`` it is given.
    ///   - handler: Sends actions for an error `operation` throws; `nil` to report errors
    ///     through ``RuntimeIssues``.
    ///   - fileID: Where the effect is made, for the report of an unhandled error.
    ///   - line: The line where the effect is made.
    /// - Returns: An effect that sends what `operation` sends, and finishes when it returns.
    ///
    /// - Demand: actions sent before they are asked for wait, in order (the store asks for
    ///   everything; a `for await` loop over `values` gets every action, one per iteration).
    /// - Completion: finishes when `operation` (or `handler`) returns, after the actions sent
    ///   before.
    /// - Cancellation: cancels the task and drops the actions still waiting. Calling `send`
    ///   after `operation` has returned is a mistake (the effect is over): the action is dropped
    ///   and reported through ``RuntimeIssues``.
    /// - Threading: `operation` and `handler` run on Swift's global concurrent executor; each
    ///   action is handed over from the thread that sends it (no hop to the main actor: `send`
    ///   would have to be awaited), and the store runs the actions on the main actor.
    /// - Complexity: one `Task` per start; O(1) amortized per action.
    public static func run(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable (_ send: Send<Output>) async throws -> Void,
        catch handler: (@Sendable (_ error: any Error, _ send: Send<Output>) async -> Void)? = nil,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Effect {
        Effect(
            EmittingEffect { emitter in
                let task = Task(priority: priority) {
                    let send = Send(emitter: emitter)
                    do {
                        try await operation(send)
                    } catch  where isCancellation(error) {
                        // The effect ends quietly.
                    } catch {
                        if let handler {
                            await handler(error, send)
                        } else {
                            await reportUnhandledOnTheMainActor(error, madeBy: "Effect.run", fileID: fileID, line: line)
                        }
                    }
                    emitter.finish()
                }
                emitter.onEnd { task.cancel() }
            })
    }
}

/// Whether an error thrown by an effect's work ends the effect quietly: a `CancellationError`, or
/// any error thrown by a task that was cancelled (the effect was, then).
func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || Task.isCancelled
}

/// Reports, from the main actor, an error that an effect's work threw and nothing handles. From
/// the main actor, as `Effect.task` reports: a test store records the failure at once, in the
/// test that started the effect (its task inherits the test's context).
func reportUnhandledOnTheMainActor(_ error: any Error, madeBy constructor: String, fileID: StaticString, line: UInt)
    async
{
    await MainActor.run { reportUnhandled(error, madeBy: constructor, fileID: fileID, line: line) }
}

/// Reports an error that an effect's work threw and nothing handles.
@MainActor
func reportUnhandled(_ error: any Error, madeBy constructor: String, fileID: StaticString, line: UInt) {
    RuntimeIssues.report(
        """
        An effect made by `\(constructor)` at \(fileID):\(line) threw an error that nothing handles: \(error). \
        The effect finished without sending an action for it. Handle the error in the operation (`do`/`catch`), \
        or pass a `catch:` handler that turns it into an action.
        """)
}

// MARK: - Test environments

extension Effect {
    /// An effect for a dependency a test does not expect to be used: when a store starts it, it
    /// reports a runtime issue naming `description`, then finishes without sending anything.
    ///
    /// Give it to the endpoints of a test's environment that the feature under test must not
    /// call. In a `TestStore` the report fails the test, at the step that sent (or received)
    /// the action whose reducer returned the effect. Anywhere else it goes through
    /// ``RuntimeIssues``: to the handler bound where the store started the effect, or to
    /// standard error (a plain ``Store`` in a test only fails it if the test binds
    /// `RuntimeIssues.$handler`). Building the effect reports nothing: only starting it does.
    ///
    /// <!-- marble effect-unimplemented source: Effect<String>.unimplemented("search").reportingRuntimeIssues(to: { _ in }) -->
    /// ```text
    /// unimplemented("fetch"): [|]    (reported when started, then finished at once)
    /// ```
    ///
    /// ```swift
    /// let store = TestStore(
    ///     initialState: SearchState(), reducer: searchReducer,
    ///     environment: SearchEnvironment(search: { _ in .unimplemented("SearchEnvironment.search") }))
    /// store.send(.clearTapped)   // fails here if clearing runs a search
    /// ```
    ///
    /// - Parameters:
    ///   - description: What is unimplemented, for the message: usually the endpoint's name.
    ///   - fileID: Where the effect is made, for the message.
    ///   - line: The line where the effect is made.
    /// - Returns: An effect that reports, each time it is started, and finishes at once.
    ///
    /// - Completion: finishes as soon as it has reported, so the store never tracks it.
    /// - Threading: reports on the thread that starts it.
    public static func unimplemented(
        _ description: String,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Effect {
        Effect(
            Deferred { () -> Empty<Output, Never> in
                RuntimeIssues.report(
                    """
                    An unimplemented effect was started: \(description) (made at \(fileID):\(line)). \
                    A test's environment marked this dependency as not expected to be used; \
                    give the test an implementation if the feature is meant to use it.
                    """)
                return Empty()
            })
    }
}

/// Sends actions from an ``Effect/run(priority:operation:catch:fileID:line:)`` effect: call it, `send(.action)`.
///
/// It is `@Sendable` and synchronous: call it from any task, actor or thread, with no `await`.
/// It never waits for the store; actions are delivered in the order they are sent.
public struct Send<Output>: Sendable {
    let emitter: EffectEmitter<Output>

    /// Sends `action`. Ignored once the effect is cancelled; reported (and ignored) once the
    /// `run` closure has returned.
    ///
    /// - Parameter action: The action to send back to the store.
    public func callAsFunction(_ action: Output) {
        switch emitter.send(action) {
        case .accepted, .cancelled:
            break
        case .finished:
            RuntimeIssues.report(
                "An action was sent with `send` after its `Effect.run` closure had returned; it was dropped. "
                    + "Send only while the closure runs (await the work that sends).")
        }
    }
}

// MARK: - Erasing

extension AsyncSequence where Self: Sendable, Failure == Never {
    /// Turns this asynchronous sequence into an ``Effect`` that sends its elements.
    ///
    /// A task iterates the sequence when the store starts the effect; the effect finishes when
    /// the sequence ends, and cancelling it cancels the task.
    ///
    /// <!-- example context: primeFeatureCode -->
    /// ```swift
    /// let readings = environment.temperatures().eraseToEffect()   // Effect<Double>
    /// ```
    ///
    /// - Returns: An effect that sends the sequence's elements as actions.
    /// - Completion: finishes when the sequence ends.
    /// - Cancellation: cancels the iterating task.
    /// - Threading: elements are sent from the iterating task; the store runs them on the main
    ///   actor.
    public func eraseToEffect() -> Effect<Element> {
        Effect(AsyncSequencePublisher(self))
    }

    /// Turns this asynchronous sequence into an ``Effect`` of actions made from its elements.
    ///
    /// <!-- example context: primeFeature -->
    /// ```swift
    /// return environment.temperatures().eraseToEffect(AppAction.temperature)
    /// ```
    ///
    /// - Parameter transform: A closure that takes an element and returns the action to send.
    /// - Returns: An effect that sends `transform`'s action for each element.
    public func eraseToEffect<T>(_ transform: @escaping (Element) -> T) -> Effect<T> {
        Effect(AsyncSequencePublisher(self).map(transform))
    }
}

extension Publisher {
    /// Turns this publisher into an ``Effect`` that runs it for its side effects and sends
    /// nothing: its values and its failure are ignored.
    ///
    /// <!-- example context: primeFeature -->
    /// ```swift
    /// return environment.save(state.favorites).fireAndForget()
    /// ```
    ///
    /// - Parameter outputType: The action type of the effect; inferred when it can be.
    /// - Returns: An effect that runs this publisher and sends no action.
    /// - Completion: finishes when the publisher finishes or fails.
    public func fireAndForget<NewOutput>(outputType: NewOutput.Type = NewOutput.self) -> Effect<NewOutput> {
        Effect(compactMap { _ -> NewOutput? in nil }.catch { _ in Empty<NewOutput, Never>() })
    }
}

// MARK: - Internal: the emitter behind callbacks and tasks

/// A publisher that hands each subscriber an ``EffectEmitter`` and then calls `start` with it,
/// to begin the work that sends through it.
struct EmittingEffect<Output>: Publisher {
    typealias Failure = Never
    let start: (EffectEmitter<Output>) -> Void

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let emitter = EffectEmitter<Output>(downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: emitter)
        // A subscriber that cancelled at once never starts the work.
        guard emitter.isActive else { return }
        start(emitter)
    }
}

/// The subscription of a callback or task effect: a thread-safe queue between the work, which
/// sends whenever it likes from any thread, and the subscriber, which gets values as it asks.
///
/// Values wait in ``buffer`` until there is demand. Whoever finds nobody draining becomes the
/// drainer and delivers, one value at a time and never under the lock, until the buffer or the
/// demand runs out; everybody else only appends. So the subscriber is never called twice at
/// once ([S3]), reentrant requests do not recurse ([S8]), and no value is sent without demand ([S1]).
///
/// [S1]: doc:/Contract/StreamContract#S1
/// [S3]: doc:/Contract/StreamContract#S3
/// [S8]: doc:/Contract/StreamContract#S8
final class EffectEmitter<Output>: Subscription, CustomStringConvertible,
    @unchecked Sendable  // all mutable state guarded by `lock`
{
    /// What became of a value handed to ``send(_:)``.
    enum SendOutcome { case accepted, cancelled, finished }

    private let lock = Lock()
    // Guarded by `lock`:
    private var downstream: AnySubscriber<Output, Never>?
    private var demand = Subscribers.Demand.none
    private var buffer: [Output] = []
    private var head = 0
    /// No more values are accepted; the effect finishes once the buffer is delivered.
    private var finishing = false
    private var draining = false
    /// Finished or cancelled: the downstream is let go.
    private var ended = false
    private var cancelled = false
    /// Runs once, when the effect ends.
    private var teardown: (() -> Void)?

    init(downstream: AnySubscriber<Output, Never>) {
        self.downstream = downstream
    }

    var description: String { "Effect" }

    /// Whether the effect has not ended yet.
    var isActive: Bool { lock.withLock { !ended } }

    // MARK: The work's side

    /// Queues `value` for delivery.
    func send(_ value: Output) -> SendOutcome {
        enqueue(value, last: false)
    }

    /// Queues `value` as the effect's last one: accepted only if nothing finished it before, so
    /// of two racing calls exactly one wins.
    func sendLast(_ value: Output) -> SendOutcome {
        enqueue(value, last: true)
    }

    /// Finishes the effect once everything sent before has been delivered.
    func finish() {
        lock.lock()
        guard !ended, !finishing else {
            lock.unlock()
            return
        }
        finishing = true
        startDrainingAndUnlock()
    }

    /// Sets the teardown; runs it at once if the effect has already ended.
    func onEnd(_ body: @escaping () -> Void) {
        lock.lock()
        guard ended else {
            teardown = body
            lock.unlock()
            return
        }
        lock.unlock()
        body()
    }

    private func enqueue(_ value: Output, last: Bool) -> SendOutcome {
        lock.lock()
        if cancelled {
            lock.unlock()
            return .cancelled
        }
        if ended || finishing {
            lock.unlock()
            return .finished
        }
        buffer.append(value)
        if last { finishing = true }
        startDrainingAndUnlock()
        return .accepted
    }

    // MARK: The subscriber's side

    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "An effect") else { return }
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        self.demand += demand
        startDrainingAndUnlock()
    }

    func cancel() {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        ended = true
        cancelled = true
        let downstream = self.downstream.take()
        let teardown = self.teardown.take()
        let dropped = buffer
        buffer = []
        head = 0
        lock.unlock()
        teardown?()
        keepAlive(downstream, dropped)
    }

    // MARK: Draining

    /// With the lock held: becomes the drainer unless someone else is, then unlocks.
    private func startDrainingAndUnlock() {
        guard !draining else {
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        drain()
    }

    /// Delivers waiting values while there is demand, then the completion once finishing and
    /// empty. Called by the drainer only, without the lock.
    private func drain() {
        while true {
            lock.lock()
            if ended {
                draining = false
                lock.unlock()
                return
            }
            if head < buffer.count, demand > 0, let downstream {
                let value = buffer[head]
                head += 1
                if head == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 64, head * 2 >= buffer.count {
                    buffer.removeFirst(head)
                    head = 0
                }
                demand -= 1
                lock.unlock()
                let more = downstream.receive(value)
                if more != .none {
                    lock.withLock { if !ended { demand += more } }
                }
                continue
            }
            if head == buffer.count, finishing {
                ended = true
                draining = false
                let downstream = self.downstream.take()
                let teardown = self.teardown.take()
                lock.unlock()
                downstream?.receive(completion: .finished)
                teardown?()
                return
            }
            draining = false
            lock.unlock()
            return
        }
    }
}
