import Streams

// The spellings of RedUx, a Redux-style Swift library (https://red-ux.vercel.app/effects), so
// that its effects port as they are written: `Effect(.action)`, `Effect { ... }` (one action
// from async work), `Effect { emit, finish in ... }`, `Effect(id:) { ... }` (replaces the running
// effect with the same id), `Effect.cancel(id)`, and `eraseToEffect(id:)` on an asynchronous
// sequence. Each is a thin front on a constructor of Effect+Constructors.swift or on
// `cancellable(id:cancelInFlight:)`, and works with the store like any other effect.

// MARK: - One action

extension Publisher {
    /// An effect that sends `value` at once, then finishes: the same as ``Effect/init(value:)``,
    /// spelled as RedUx spells it.
    ///
    /// It is declared on `Publisher` (for `Self == Effect<A>`) rather than on ``Effect``, so that
    /// `Effect(somePublisher)` keeps wrapping the publisher, whose own initializer is preferred,
    /// instead of making an effect that sends the publisher as its one value. With a contextual
    /// type (a reducer's `return`), `Effect(.action)` is this initializer.
    ///
    /// <!-- marble effect-init-value source: Effect<String>("a") -->
    /// ```text
    /// Effect(a): [a|]
    /// ```
    ///
    /// <!-- example context: redUxFeatureCases -->
    /// ```swift
    /// case .searchTapped:
    ///     return Effect(.fetchResults)
    /// ```
    ///
    /// - Parameter value: The action to send.
    ///
    /// - Completion: finishes right after the value, within the send that started it.
    /// - Complexity: O(1); a store runs it without subscribing to anything.
    public init<A>(_ value: A) where Self == Effect<A> {
        self = Effect(value: value)
    }
}

// MARK: - Async work

extension Effect {
    /// An effect that runs `operation` in a `Task` when the store starts it, and sends the action
    /// it returns, from the main actor: ``task(priority:operation:catch:fileID:line:)``, spelled
    /// as RedUx spells it.
    ///
    /// An error `operation` throws is reported through ``RuntimeIssues`` (naming `fileID` and
    /// `line`) and the effect finishes without an action; to turn errors into actions, catch
    /// them inside `operation` or use `Effect.task(operation:catch:)`.
    ///
    /// The action type comes from the context, as in a reducer's `return`. Without one, name it
    /// (`Effect<AppAction> { ... }`): a bare `Effect { ... }` is read as `Effect(_:)` with the
    /// closure itself as the value, which is the better match for a closure that does not await.
    ///
    /// <!-- example context: redUxFeatureCases -->
    /// ```swift
    /// case let .queryChanged(query):
    ///     return Effect {
    ///         let results = try await environment.api.search(query)
    ///         return .didFetchResults(results)
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The work; its result is the action the effect sends.
    ///   - fileID: Where the effect is made, for the report of an unhandled error.
    ///   - line: The line where the effect is made.
    ///
    /// - Completion, cancellation, threading: as ``task(priority:operation:catch:fileID:line:)``.
    public init(
        operation: @escaping @Sendable () async throws -> Output,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self = .task(
            priority: nil, operation: operation, catch: nil, madeBy: "Effect { ... }",
            fileID: fileID, line: line)
    }

    /// An effect like `Effect { ... }` (one action from async work), cancellable by `id`:
    /// starting it cancels the effects already running under `id`, so it replaces them.
    ///
    /// The same as `Effect { ... }.cancellable(id: id, cancelInFlight: true)`; cancel it with
    /// ``cancel(_:)-(ID)`` (or ``cancel(id:)-(ID)``).
    ///
    /// <!-- example context: redUxFeatureCases -->
    /// ```swift
    /// case let .queryChanged(query):
    ///     return Effect(id: "search") {
    ///         .didFetchResults(try await environment.api.search(query))
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - id: Any hashable, sendable value: the running effect with the same one is cancelled.
    ///   - operation: The work; its result is the action the effect sends.
    ///   - fileID: Where the effect is made, for the report of an unhandled error.
    ///   - line: The line where the effect is made.
    public init<ID: Hashable & Sendable>(
        id: ID,
        operation: @escaping @Sendable () async throws -> Output,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self = Effect(operation: operation, fileID: fileID, line: line).cancellable(id: id, cancelInFlight: true)
    }

    /// An effect that runs `operation` in a `Task` when the store starts it, sends every action
    /// passed to `emit`, and finishes when `finish` is called.
    ///
    /// The effect ends when `finish()` is called, after the actions emitted before it — not
    /// when `operation` returns: call `finish()` after the last `emit`, or later, from a callback
    /// `operation` set up. Both closures are `Sendable` and synchronous: call them from
    /// `operation`, a task it starts, or any thread; after `finish()` (or once the effect is
    /// cancelled) they do nothing. Cancelling the effect cancels the task.
    ///
    /// `operation` may throw: the error is reported through ``RuntimeIssues`` from the main actor
    /// (naming `fileID` and `line`), and the effect finishes. A `CancellationError`, and any error thrown once
    /// the effect has been cancelled, just ends the effect.
    ///
    /// <!-- marble effect-init-emit scheduler source async: Effect<String> { [reached = scheduler.waitForTick(3)] emit, finish in emit("a"); await reached(); emit("b"); finish() } -->
    /// ```text
    /// Effect { emit, finish in emit(a); await ...; emit(b); finish() }: [a]--[b|]
    /// ```
    ///
    /// <!-- example context: redUxFeatureCases -->
    /// ```swift
    /// case .startTracking:
    ///     return Effect { emit, finish in
    ///         for await location in environment.locations() {
    ///             emit(.didReceiveLocation(location))
    ///         }
    ///         finish()
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The work, given `emit` (sends an action) and `finish` (ends the effect).
    ///   - fileID: Where the effect is made, for the report of an unhandled error.
    ///   - line: The line where the effect is made.
    ///
    /// - Demand: actions emitted before they are asked for wait, in order (the store asks for
    ///   everything).
    /// - Completion: when `finish` is called, after the actions emitted before; or when
    ///   `operation` throws.
    /// - Cancellation: cancels the task and drops the actions still waiting.
    /// - Threading: `operation` runs on Swift's global concurrent executor; each action is
    ///   handed over from the thread that emits it, and the store runs it on the main actor.
    /// - Complexity: one `Task` per start; O(1) amortized per action.
    public init(
        operation:
            @escaping @Sendable (
                _ emit: @escaping @Sendable (Output) -> Void, _ finish: @escaping @Sendable () -> Void
            ) async throws -> Void,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.init(
            EmittingEffect { emitter in
                let task = Task {
                    do {
                        try await operation({ _ = emitter.send($0) }, { emitter.finish() })
                    } catch {
                        if !isCancellation(error) {
                            await reportUnhandledOnTheMainActor(
                                error, madeBy: "Effect { emit, finish in ... }", fileID: fileID, line: line)
                        }
                        emitter.finish()
                    }
                }
                emitter.onEnd { task.cancel() }
            })
    }

    /// An effect like `Effect { emit, finish in ... }`, cancellable by `id`: starting it cancels
    /// the effects already running under `id`, so it replaces them.
    ///
    /// <!-- example context: redUxFeatureCases -->
    /// ```swift
    /// case .startTracking:
    ///     return Effect(id: "locations") { emit, finish in
    ///         for await location in environment.locations() {
    ///             emit(.didReceiveLocation(location))
    ///         }
    ///         finish()
    ///     }
    /// ```
    ///
    /// - Parameters:
    ///   - id: Any hashable, sendable value: the running effect with the same one is cancelled.
    ///   - operation: The work, given `emit` (sends an action) and `finish` (ends the effect).
    ///   - fileID: Where the effect is made, for the report of an unhandled error.
    ///   - line: The line where the effect is made.
    public init<ID: Hashable & Sendable>(
        id: ID,
        operation:
            @escaping @Sendable (
                _ emit: @escaping @Sendable (Output) -> Void, _ finish: @escaping @Sendable () -> Void
            ) async throws -> Void,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self = Effect(operation: operation, fileID: fileID, line: line).cancellable(id: id, cancelInFlight: true)
    }

    /// An effect that cancels the effects running under `id`: ``cancel(id:)-(ID)``, spelled as RedUx
    /// spells it.
    ///
    /// <!-- example context: redUxFeatureCases -->
    /// ```swift
    /// case .cancelSearchTapped:
    ///     return .cancel("search")
    /// ```
    ///
    /// - Parameter id: The identifier the effects were made cancellable with.
    /// - Returns: An effect that cancels them, and sends nothing.
    public static func cancel<ID: Hashable & Sendable>(_ id: ID) -> Effect {
        cancel(id: id)
    }

    /// ``cancel(_:)-(ID)`` under a type: `Effect.cancel(SearchID.self)`.
    ///
    /// ```swift
    /// enum SearchID {}
    /// let stop = Effect<String>.cancel(SearchID.self)
    /// ```
    ///
    /// - Parameter id: The type the effects were made cancellable with.
    /// - Returns: An effect that cancels them, and sends nothing.
    public static func cancel(_ id: Any.Type) -> Effect {
        cancel(id: id)
    }
}

// MARK: - Asynchronous sequences

extension AsyncSequence where Self: Sendable, Failure == Never {
    /// Turns this asynchronous sequence into an ``Effect`` that sends its elements, cancellable
    /// by `id`: starting it cancels the effects already running under `id`, so it replaces them.
    ///
    /// The same as `eraseToEffect().cancellable(id: id, cancelInFlight: true)`.
    ///
    /// <!-- example context: redUxFeatureCases -->
    /// ```swift
    /// case let .queryChanged(query):
    ///     return environment.suggestions(query).eraseToEffect(id: "search")
    /// ```
    ///
    /// - Parameter id: Any hashable, sendable value: the running effect with the same one is
    ///   cancelled.
    /// - Returns: An effect that sends the sequence's elements and finishes when it ends.
    ///
    /// - Cancellation: cancels the iterating task.
    /// - Threading: elements are sent from the iterating task; the store runs them on the main
    ///   actor.
    public func eraseToEffect<ID: Hashable & Sendable>(id: ID) -> Effect<Element> {
        eraseToEffect().cancellable(id: id, cancelInFlight: true)
    }

    /// ``eraseToEffect(id:)-(ID)`` under a type (`SearchID.self`).
    ///
    /// - Parameter id: A type that names the effect: the running effect under it is cancelled.
    /// - Returns: An effect that sends the sequence's elements and finishes when it ends.
    public func eraseToEffect(id: Any.Type) -> Effect<Element> {
        eraseToEffect().cancellable(id: id, cancelInFlight: true)
    }
}
