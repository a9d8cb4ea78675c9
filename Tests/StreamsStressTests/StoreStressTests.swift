import ComposableArchitecture
import Dispatch
import Streams
import Synchronization
import Testing

/// The store with effects on real threads (the store contract's A4, A5, A9, A10, in
/// Docs/Contract.docc/StoreContract.md): actions sent from many threads at once,
/// cancellation racing an effect's own completion, and scoped stores and root stores released
/// while their effects still run. CI runs these under ThreadSanitizer.
@MainActor
@Suite("Store under concurrency")
struct StoreStressTests {
    enum Action: Equatable, Sendable {
        case burst(threads: Int, each: Int)
        case increment
        case respondLater(round: Int)
        case response(round: Int)
        case cancel
    }

    struct State: Equatable {
        var count = 0
        var responses: [Int] = []
        var offMain = 0
    }

    struct CancelID: Hashable, Sendable {}

    /// Work on other threads that the test waits for before its final checks.
    final class Background: Sendable {
        let group = DispatchGroup()

        func run(_ work: @escaping @Sendable () -> Void) {
            group.enter()
            DispatchQueue.global().async {
                work()
                self.group.leave()
            }
        }

        /// Returns once every piece of work has ended and the main queue has run what they
        /// handed to it (actions and completions hop there first in, first out).
        func settle() async {
            await withCheckedContinuation { continuation in
                group.notify(queue: .main) { continuation.resume() }
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.main.async { continuation.resume() }
            }
        }
    }

    static func reducer(_ background: Background) -> Reducer<State, Action, Void> {
        Reducer { state, action, _ in
            if !MainQueue.isCurrent { state.offMain += 1 }  // A9
            switch action {
            case let .burst(threads, each):
                return .create { subscriber in
                    background.run {
                        DispatchQueue.concurrentPerform(iterations: threads) { _ in
                            for _ in 0..<each { subscriber.send(.increment) }
                        }
                        subscriber.send(completion: .finished)
                    }
                    return AnyCancellable {}
                }
            case .increment:
                state.count += 1
                return .none
            case let .respondLater(round):
                return Effect.create { subscriber in
                    background.run {
                        subscriber.send(.response(round: round))
                        subscriber.send(completion: .finished)
                    }
                    return AnyCancellable {}
                }
                .cancellable(id: CancelID(), cancelInFlight: true)
            case let .response(round):
                state.responses.append(round)
                return .none
            case .cancel:
                return .cancel(id: CancelID())
            }
        }
    }

    @Test func actionsSentFromManyThreadsAllRunOnTheMainQueue_A9() async {
        let background = Background()
        let store = Store(initialState: State(), reducer: Self.reducer(background), environment: ())
        for _ in 0..<20 {
            await store.send(.burst(threads: 8, each: 50)).finish()
        }
        await background.settle()
        #expect(store.state.count == 20 * 8 * 50)
        #expect(store.state.offMain == 0)
        #expect(store.runningEffectCount == 0)
    }

    @Test func cancellationRacingTheEffectsCompletionLeavesNothingRunning_A4_A5() async {
        let background = Background()
        let store = Store(initialState: State(), reducer: Self.reducer(background), environment: ())
        var published = 0
        let observation = store.publisher.sink { _ in published += 1 }
        for round in 0..<300 {
            let task = store.send(.respondLater(round: round))
            switch round % 3 {
            case 0: store.send(.cancel)
            case 1: task.cancel()
            default: store.send(.respondLater(round: -round))  // cancels it in flight
            }
        }
        await background.settle()
        // Each round's response came at most once, in order, or not at all (a response already
        // handed to the main queue when the cancel ran still arrives: it was sent before).
        let responses = store.state.responses
        #expect(responses.count <= 300 + 100)
        #expect(Set(responses).count == responses.count)
        #expect(store.runningEffectCount == 0)
        #expect(store.state.offMain == 0)
        // One publication per outermost send (A3): 500 sends by the test, one per response.
        #expect(published == 1 + 500 + responses.count)
        observation.cancel()
    }

    /// Cancellable effects under one id starting on several threads (some cancelling the ones
    /// in flight) while `cancel(id:)` runs on another: an effect registers only after it has
    /// subscribed to its work, racing the others' registrations and cancels. Every effect ends
    /// (A5) and nothing stays registered (A4).
    @Test nonisolated func cancellableEffectsStartingWhileCancelledOnOtherThreads_A4_A5() {
        for _ in 0..<100 {
            let context = EffectContext()
            let subject = PassthroughSubject<Int, Never>()
            let started = Atomic(0)
            let finished = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<25 {
                    if thread == 3, index.isMultiple(of: 3) {
                        _ = Effect<Int>.cancel(id: "x").publisherOrEmpty(in: context).sink { _ in }
                        continue
                    }
                    started.add(1, ordering: .relaxed)
                    // A plain `Subscribers.Sink`: it stays subscribed without being kept.
                    subject.eraseToEffect()
                        .cancellable(id: "x", cancelInFlight: thread == 2)
                        .publisherOrEmpty(in: context)
                        .subscribe(Subscribers.Sink(
                            receiveCompletion: { _ in finished.add(1, ordering: .relaxed) }, receiveValue: { _ in }))
                }
            }
            // The subject never finishes: only cancellation ends these effects.
            _ = Effect<Int>.cancel(id: "x").publisherOrEmpty(in: context).sink { _ in }
            #expect(context.cancellations.runningCount == 0)
            #expect(finished.load(ordering: .relaxed) == started.load(ordering: .relaxed))
        }
    }

    @Test func scopesReleasedWhileTheirEffectsRunNeitherCrashNorLeak_A4_A10() async {
        let background = Background()
        weak var lastRoot: Store<State, Action>?
        weak var lastScope: Store<Int, Action>?
        for round in 0..<200 {
            do {
                let store = Store(initialState: State(), reducer: Self.reducer(background), environment: ())
                let scope = store.scope(state: \.count)
                scope.send(.burst(threads: 4, each: 5))
                scope.send(.respondLater(round: round))
                lastRoot = store
                lastScope = scope
                // Both go away here, while the effects run on other threads: their effects are
                // cancelled (A4) and what they still send reaches nobody.
            }
            #expect(lastRoot == nil)
            #expect(lastScope == nil)
        }
        await background.settle()
    }

    @Test func aScopeReleasedWhileItsRootRunsItsEffects_A10() async {
        let background = Background()
        let store = Store(initialState: State(), reducer: Self.reducer(background), environment: ())
        for round in 0..<200 {
            do {
                let scope = store.scope(state: \.count)
                scope.send(.burst(threads: 4, each: 5))
                scope.send(.respondLater(round: round))
            }
        }
        await background.settle()
        await background.settle()
        #expect(store.state.count == 200 * 4 * 5)
        #expect(store.runningEffectCount == 0)
        #expect(store.state.offMain == 0)
    }
}
