import ComposableArchitecture
import ComposableArchitectureTesting
import Testing

// Example: effects as publishers. The favorite primes are saved to and loaded from disk through a
// file client whose methods return effects made with the `sync` and `fireAndForget` helpers; a
// reducer composes them as publishers (compactMap, concatenate, catchToEffect). An earlier
// store crashed on an effect that completed while it was being subscribed to (its
// completion handler looked up a cancellable not stored yet); every kind of effect that completes
// at once is run here and must leave nothing behind.

/// The effects-as-publishers feature's types.
enum EffectsAsPublishersExample {
    // MARK: The file client

    struct FileError: Error, Equatable {
        let file: String
    }

    /// The disk, and a log of the file client's work on it.
    final class Disk {
        var files: [String: [Int]] = [:]
        var log: [String] = []
    }

    struct FileClient {
        /// The primes in a file, or `nil`; sent when the effect starts.
        var load: (String) -> Effect<[Int]?>
        /// Writes the primes; sends nothing.
        var save: (String, [Int]) -> Effect<Never>
        /// The primes in a file; fails when there is no such file.
        var read: (String) -> AnyPublisher<[Int], FileError>

        static func live(_ disk: Disk) -> FileClient {
            FileClient(
                load: { file in
                    .sync {
                        disk.log.append("load \(file)")
                        return disk.files[file]
                    }
                },
                save: { file, primes in
                    .fireAndForget {
                        disk.log.append("save \(file)")
                        disk.files[file] = primes
                    }
                },
                read: { file in
                    Deferred { () -> AnyPublisher<[Int], FileError> in
                        disk.log.append("read \(file)")
                        guard let primes = disk.files[file] else {
                            return Fail(error: FileError(file: file)).eraseToAnyPublisher()
                        }
                        return Just(primes).setFailureType(to: FileError.self).eraseToAnyPublisher()
                    }
                    .eraseToAnyPublisher()
                })
        }
    }

    // MARK: Favorite primes, saved and loaded

    static let file = "favorite-primes.json"

    struct State: Equatable {
        var favoritePrimes: [Int] = []
        var readError: FileError?
    }

    enum Action: Equatable {
        case deleteFavoritePrimes(atOffsets: [Int])
        case saveButtonTapped
        case loadButtonTapped
        case loadedFavoritePrimes([Int])
        case saveAndReloadTapped
        case readButtonTapped
        case readResponse(Result<[Int], FileError>)
    }

    struct Environment {
        var fileClient: FileClient
    }

    @MainActor static let reducer = Reducer<State, Action, Environment> { state, action, environment in
        let save = environment.fileClient.save(file, state.favoritePrimes).fireAndForget(outputType: Action.self)
        let load = environment.fileClient.load(file)
            .compactMap { $0 }
            .map(Action.loadedFavoritePrimes)
            .eraseToEffect()
        switch action {
        case .deleteFavoritePrimes(let offsets):
            for index in offsets.sorted(by: >) { state.favoritePrimes.remove(at: index) }
            return .none
        case .saveButtonTapped:
            return save
        case .loadButtonTapped:
            return load
        case .loadedFavoritePrimes(let primes):
            state.favoritePrimes = primes
            return .none
        case .saveAndReloadTapped:
            return .concatenate(save, load)
        case .readButtonTapped:
            return environment.fileClient.read(file).catchToEffect(Action.readResponse)
        case .readResponse(.success(let primes)):
            state.favoritePrimes = primes
            state.readError = nil
            return .none
        case .readResponse(.failure(let error)):
            state.readError = error
            return .none
        }
    }

    // MARK: Effects that complete at once

    enum Immediate: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case none, empty, just, value, sync, fireAndForget, sequence, merged, concatenated, cancellable,
             immediateScheduler, publisherFireAndForget

        var testDescription: String { rawValue }

        /// The actions the effect sends, in order.
        var sends: [String] {
            switch self {
            case .none, .empty, .fireAndForget, .publisherFireAndForget: []
            case .just: ["just"]
            case .value: ["value"]
            case .sync: ["sync"]
            case .sequence: ["1", "2", "3"]
            case .merged: ["m1", "m2", "m3"]
            case .concatenated: ["c1", "c2"]
            case .cancellable: ["cancellable"]
            case .immediateScheduler: ["immediate"]
            }
        }

        /// The side effects its work does.
        var sideEffects: [String] {
            switch self {
            case .fireAndForget: ["fired"]
            case .concatenated: ["between"]
            case .publisherFireAndForget: ["subscribed"]
            default: []
            }
        }
    }

    enum ImmediateAction: Equatable {
        case start(Immediate)
        case got(String)
        case chain(Int)
    }

    /// Records work done by effects.
    final class SideEffects {
        var log: [String] = []
    }

    enum CancelID: Hashable, Sendable { case immediate }

    @MainActor static let immediateReducer = Reducer<[String], ImmediateAction, SideEffects> { state, action, sideEffects in
        switch action {
        case .start(let kind):
            state.append("start \(kind.rawValue)")
            return effect(kind, sideEffects)
        case .got(let value):
            state.append(value)
            return .none
        case .chain(let remaining):
            state.append("chain \(remaining)")
            return remaining == 0 ? .none : Effect(value: .chain(remaining - 1))
        }
    }

    @MainActor
    static func effect(_ kind: Immediate, _ sideEffects: SideEffects) -> Effect<ImmediateAction> {
        switch kind {
        case .none:
            .none
        case .empty:
            Empty().eraseToEffect()
        case .just:
            Just(.got("just")).eraseToEffect()
        case .value:
            Effect(value: .got("value"))
        case .sync:
            .sync { .got("sync") }
        case .fireAndForget:
            .fireAndForget { sideEffects.log.append("fired") }
        case .sequence:
            ["1", "2", "3"].publisher.map(ImmediateAction.got).eraseToEffect()
        case .merged:
            .merge(Effect(value: .got("m1")), .none, .sync { .got("m2") }, Empty().eraseToEffect(),
                   Just(.got("m3")).eraseToEffect())
        case .concatenated:
            .concatenate(Effect(value: .got("c1")), .fireAndForget { sideEffects.log.append("between") },
                         .sync { .got("c2") })
        case .cancellable:
            Effect(value: .got("cancellable")).cancellable(id: CancelID.immediate, cancelInFlight: true)
        case .immediateScheduler:
            Effect(value: .got("immediate")).receive(on: ImmediateScheduler.shared)
        case .publisherFireAndForget:
            Just(42).handleEvents(receiveSubscription: { _ in sideEffects.log.append("subscribed") })
                .fireAndForget()
        }
    }
}

@MainActor
@Suite("Example: effects as publishers — sync and fireAndForget helpers, effects that complete at once")
struct EffectsAsPublishersExampleTests {
    typealias State = EffectsAsPublishersExample.State

    func makeStore(_ disk: EffectsAsPublishersExample.Disk, state: State = State()) -> TestStore<State, EffectsAsPublishersExample.Action, EffectsAsPublishersExample.Environment> {
        TestStore(initialState: state, reducer: EffectsAsPublishersExample.reducer,
                  environment: EffectsAsPublishersExample.Environment(fileClient: .live(disk)))
    }

    // MARK: sync and fireAndForget through a file client

    @Test func saveIsFireAndForget() {
        let disk = EffectsAsPublishersExample.Disk()
        let store = makeStore(disk, state: State(favoritePrimes: [2, 3, 5]))
        store.send(.deleteFavoritePrimes(atOffsets: [1])) { $0.favoritePrimes = [2, 5] }
        #expect(disk.log == [])
        let task = store.send(.saveButtonTapped)
        // The work ran when the store started the effect, which sent nothing and is over.
        #expect(disk.log == ["save favorite-primes.json"])
        #expect(disk.files == [EffectsAsPublishersExample.file: [2, 5]])
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
    }

    @Test func loadIsSyncAndFeedsItsResultBack() {
        let disk = EffectsAsPublishersExample.Disk()
        disk.files[EffectsAsPublishersExample.file] = [7, 11]
        let store = makeStore(disk)
        store.send(.loadButtonTapped)
        #expect(disk.log == ["load favorite-primes.json"])
        store.receive(.loadedFavoritePrimes([7, 11])) { $0.favoritePrimes = [7, 11] }
        #expect(store.runningEffectCount == 0)
    }

    @Test func loadingNothingSendsNothing() {
        let disk = EffectsAsPublishersExample.Disk()
        let store = makeStore(disk, state: State(favoritePrimes: [3]))
        store.send(.loadButtonTapped)
        // `compactMap` dropped the `nil`: the effect finished without an action.
        #expect(disk.log == ["load favorite-primes.json"])
        #expect(store.runningEffectCount == 0)
    }

    @Test func effectsAreLazyAndRunOncePerStart() {
        let disk = EffectsAsPublishersExample.Disk()
        var state = State(favoritePrimes: [2])
        let environment = EffectsAsPublishersExample.Environment(fileClient: .live(disk))
        // Running the reducer only describes the work.
        let save = EffectsAsPublishersExample.reducer.run(&state, .saveButtonTapped, environment)
        let load = EffectsAsPublishersExample.reducer.run(&state, .loadButtonTapped, environment)
        #expect(disk.log == [])
        // Each subscription runs it again.
        var loaded: [EffectsAsPublishersExample.Action] = []
        _ = save.sink { _ in }
        _ = load.sink { loaded.append($0) }
        _ = load.sink { loaded.append($0) }
        #expect(disk.log == ["save favorite-primes.json", "load favorite-primes.json", "load favorite-primes.json"])
        #expect(loaded == [.loadedFavoritePrimes([2]), .loadedFavoritePrimes([2])])
    }

    @Test func concatenateRunsTheSaveBeforeTheLoad() {
        let disk = EffectsAsPublishersExample.Disk()
        disk.files[EffectsAsPublishersExample.file] = [2]
        let store = makeStore(disk, state: State(favoritePrimes: [2, 3, 5]))
        store.send(.deleteFavoritePrimes(atOffsets: [0, 2])) { $0.favoritePrimes = [3] }
        store.send(.saveAndReloadTapped)
        #expect(disk.log == ["save favorite-primes.json", "load favorite-primes.json"])
        store.receive(.loadedFavoritePrimes([3]))
        #expect(store.runningEffectCount == 0)
    }

    @Test func aFailingPublisherIsTurnedIntoAnActionByCatchToEffect() {
        let disk = EffectsAsPublishersExample.Disk()
        let store = makeStore(disk)
        store.send(.readButtonTapped)
        store.receive(.readResponse(.failure(EffectsAsPublishersExample.FileError(file: EffectsAsPublishersExample.file)))) {
            $0.readError = EffectsAsPublishersExample.FileError(file: EffectsAsPublishersExample.file)
        }
        disk.files[EffectsAsPublishersExample.file] = [13]
        store.send(.readButtonTapped)
        store.receive(.readResponse(.success([13]))) {
            $0.favoritePrimes = [13]
            $0.readError = nil
        }
        #expect(disk.log == ["read favorite-primes.json", "read favorite-primes.json"])
        #expect(store.runningEffectCount == 0)
    }

    // MARK: Effects that complete while the store subscribes (the crash an earlier store had)

    @Test(arguments: EffectsAsPublishersExample.Immediate.allCases)
    func anEffectThatCompletesAtOnceLeavesNothingBehind(_ kind: EffectsAsPublishersExample.Immediate) {
        let sideEffects = EffectsAsPublishersExample.SideEffects()
        let store = Store(initialState: [], reducer: EffectsAsPublishersExample.immediateReducer, environment: sideEffects)
        let task = store.send(.start(kind))
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
        #expect(store.state == ["start \(kind.rawValue)"] + kind.sends)
        #expect(sideEffects.log == kind.sideEffects)

        // Again, on the same store: nothing was left over from the first time.
        store.send(.start(kind))
        #expect(store.runningEffectCount == 0)
        #expect(store.state == (["start \(kind.rawValue)"] + kind.sends) + (["start \(kind.rawValue)"] + kind.sends))
        #expect(sideEffects.log == kind.sideEffects + kind.sideEffects)
    }

    @Test(arguments: EffectsAsPublishersExample.Immediate.allCases)
    func aTestStoreAssertsEveryActionOfAnEffectThatCompletesAtOnce(_ kind: EffectsAsPublishersExample.Immediate) {
        let sideEffects = EffectsAsPublishersExample.SideEffects()
        let store = TestStore(initialState: [], reducer: EffectsAsPublishersExample.immediateReducer, environment: sideEffects)
        let task = store.send(.start(kind)) { $0 = ["start \(kind.rawValue)"] }
        for value in kind.sends {
            store.receive(.got(value)) { $0.append(value) }
        }
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
        #expect(sideEffects.log == kind.sideEffects)
    }

    @Test func anEffectThatCompletesAtOnceIsLetGoAtOnce() {
        final class Token {}
        weak var weakToken: Token?
        let reducer = Reducer<Int, Int, Void> { state, action, _ in
            state = action
            guard action == 0 else { return .none }
            let token = Token()
            weakToken = token
            return .sync { withExtendedLifetime(token) { 1 } }
        }
        let store = Store(initialState: -1, reducer: reducer, environment: ())
        store.send(0)
        #expect(store.state == 1)
        #expect(store.runningEffectCount == 0)
        // Neither the store nor the finished subscription keeps the effect's closure.
        #expect(weakToken == nil)
        withExtendedLifetime(store) {}
    }

    @Test func everyKindAtOnceInOneSend() {
        let sideEffects = EffectsAsPublishersExample.SideEffects()
        let starter = Reducer<[String], EffectsAsPublishersExample.ImmediateAction, EffectsAsPublishersExample.SideEffects> { state, action, sideEffects in
            guard case .chain = action else { return EffectsAsPublishersExample.immediateReducer(&state, action, sideEffects) }
            return .merge(EffectsAsPublishersExample.Immediate.allCases.map { Effect(value: .start($0)) })
        }
        let store = Store(initialState: [], reducer: starter, environment: sideEffects)
        let task = store.send(.chain(0))
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
        // Breadth-first: every start, in order, then what each start's effect sent, in order.
        let starts = EffectsAsPublishersExample.Immediate.allCases.map { "start \($0.rawValue)" }
        #expect(store.state == starts + EffectsAsPublishersExample.Immediate.allCases.flatMap(\.sends))
        #expect(sideEffects.log == EffectsAsPublishersExample.Immediate.allCases.flatMap(\.sideEffects))
    }

    @Test func aLongChainOfImmediateEffectsRunsInOneSend() {
        let store = Store(initialState: [], reducer: EffectsAsPublishersExample.immediateReducer, environment: EffectsAsPublishersExample.SideEffects())
        let task = store.send(.chain(10_000))
        #expect(task.isFinished)
        #expect(store.state.count == 10_001)
        #expect(store.state.last == "chain 0")
        #expect(store.runningEffectCount == 0)
    }

    @Test func aMergedEffectRunsUntilItsLastPartFinishes() {
        let subject = PassthroughSubject<EffectsAsPublishersExample.ImmediateAction, Never>()
        let reducer = Reducer<[String], EffectsAsPublishersExample.ImmediateAction, EffectsAsPublishersExample.SideEffects> { state, action, sideEffects in
            guard case .chain = action else { return EffectsAsPublishersExample.immediateReducer(&state, action, sideEffects) }
            return .merge(
                EffectsAsPublishersExample.effect(.sync, sideEffects),
                subject.eraseToEffect(),
                EffectsAsPublishersExample.effect(.empty, sideEffects))
        }
        let store = TestStore(initialState: [], reducer: reducer, environment: EffectsAsPublishersExample.SideEffects())
        let task = store.send(.chain(0))
        store.receive(.got("sync")) { $0 = ["sync"] }
        #expect(store.runningEffectCount == 1)
        #expect(!task.isFinished)
        subject.send(.got("later"))
        store.receive(.got("later")) { $0.append("later") }
        subject.send(completion: .finished)
        #expect(task.isFinished)
        #expect(store.runningEffectCount == 0)
    }
}
