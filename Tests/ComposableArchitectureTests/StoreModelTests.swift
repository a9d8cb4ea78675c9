import ComposableArchitecture
import Dispatch
import Foundation
import StreamsTesting
import Testing

// The store against a model of its rules (A1–A12, the store contract:
// Docs/Contract.docc/StoreContract.md).
//
// A random program — sends to the root store, to a scope, to an `ifLet` child store, and moves of
// a TestScheduler's clock — runs on a real `Store` and on `StoreModel`, a plain first-in first-out
// queue of actions over the same reducer that interprets each effect from its description. After
// every step they must agree: the state (which logs every action in the order the reducer saw it),
// the scope's state, one publication per outermost send with the final state (the scope's only
// when its state changed), the number of
// running effects, and the runtime issues reported. At the end every cancellation id is cancelled
// and the clock run out: nothing may be left running and nothing delivered after its cancel.
//
// Effects complete synchronously, later on the TestScheduler, or never; each sends zero to three
// actions, which may start effects of their own, cancel by id (with or without
// `cancelInFlight`), reach the scope, or show and hide the optional child state while its effects
// are in flight. Cases are seeded (SplitMix64); a failure names the seed and the program, and
// `STORE_MODEL_SEED=<seed> STORE_MODEL_CASES=1` replays it. `STORE_MODEL_CASES` runs more cases.

@MainActor
@Suite("Store against a model")
struct StoreModelTests {
    @Test func randomProgramsAgreeWithTheModel() {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["STORE_MODEL_CASES"].flatMap(Int.init) ?? 1_000
        let baseSeed = environment["STORE_MODEL_SEED"].flatMap(UInt64.init) ?? 0x5EED_0F_57_0DE
        var failures = 0
        for index in 0..<cases {
            let seed = baseSeed &+ UInt64(index)
            if let failure = ModelCase.run(seed: seed) {
                failures += 1
                Issue.record("""
                    Store and model disagree (seed \(seed); replay with STORE_MODEL_SEED=\(seed) STORE_MODEL_CASES=1): \
                    \(failure)
                    """)
                if failures == 3 { break }
            }
        }
    }

    /// The checker catches a store that breaks a rule: a model that expects one more publication
    /// per send disagrees at once (so a passing run means something).
    @Test func theModelCatchesADifferenceInPublications() {
        let failure = ModelCase.run(seed: 1, sabotage: true)
        #expect(failure?.contains("publications") == true)
    }

    /// A fixed program through every kind of step, so the model's own rules are pinned too.
    @Test func aKnownProgramGivesTheExpectedLog() {
        let program: [ModelStep] = [
            .send(.effect(Spec(.sync, [.tick(1), .effect(Spec(.sync, [.tick(2)]))]))),
            .send(.effect(Spec(.later(2), [.tick(3), .cancel(0), .tick(4)], id: 0))),
            .send(.show),
            .sendOptional(.effect(Spec(.later(1), [.tick(5)]))),
            .send(.hide),
            .advance(1),  // .opt(.tick(5)) arrives for state that is gone: reported
            .sendOptional(.tick(6)),  // dropped by the ifLet store: reported
            .advance(1),  // tick 3, then the cancel wins over tick 4
            .sendScope(.effect(Spec(.never, [.tick(7)], id: 1))),
            .observerSends(.tick(8)),  // runs within the next send, after tick 9's publication
            .send(.tick(9)),
        ]
        let result = ModelCase.run(program: program, seed: 0)
        #expect(result.failure == nil)
        #expect(result.log == [
            .effect(Spec(.sync, [.tick(1), .effect(Spec(.sync, [.tick(2)]))])), .tick(1),
            .effect(Spec(.sync, [.tick(2)])), .tick(2),
            .effect(Spec(.later(2), [.tick(3), .cancel(0), .tick(4)], id: 0)),
            .show, .opt(.effect(Spec(.later(1), [.tick(5)]))), .hide, .opt(.tick(5)),
            .tick(3), .cancel(0),
            .child(.effect(Spec(.never, [.tick(7)], id: 1))), .child(.tick(7)),
            .tick(9), .tick(8),
            // The end: every id cancelled.
            .cancel(0), .cancel(1), .cancel(2),
        ])
        #expect(result.reports == 2)
    }
}

// MARK: - The feature under test

/// How an effect behaves.
enum Timing: Equatable, Sendable {
    /// Sends its actions while it is being subscribed to, then finishes.
    case sync
    /// Sends its actions and finishes that many seconds later, on the TestScheduler.
    case later(Int)
    /// Sends its actions while it is being subscribed to, then never finishes (until cancelled).
    case never
}

/// An effect, described.
struct Spec: Equatable, Sendable, CustomStringConvertible {
    var timing: Timing
    var actions: [ModelAction]
    var id: Int?
    var cancelInFlight = false

    init(_ timing: Timing, _ actions: [ModelAction], id: Int? = nil, cancelInFlight: Bool = false) {
        self.timing = timing
        self.actions = actions
        self.id = id
        self.cancelInFlight = cancelInFlight
    }

    var description: String {
        let idText = id.map { ", id: \($0)\(cancelInFlight ? ", cancelInFlight" : "")" } ?? ""
        return "Spec(.\(timing), \(actions)\(idText))"
    }

    /// The effect, on `scheduler`.
    func effect(_ scheduler: TestSchedulerOf<DispatchQueue>) -> Effect<ModelAction> {
        let effect: Effect<ModelAction> = switch timing {
        case .sync: Effect(actions.publisher)
        case let .later(seconds): Effect(actions.publisher.delay(for: .seconds(seconds), scheduler: scheduler))
        case .never: Effect(actions.publisher.append(Empty(completeImmediately: false)))
        }
        guard let id else { return effect }
        return effect.cancellable(id: ModelCancelID(value: id), cancelInFlight: cancelInFlight)
    }
}

struct ModelCancelID: Hashable, Sendable {
    var value: Int
}

/// The actions: the root's, and the same ones for the scope (`child`) and the optional child
/// state (`opt`).
indirect enum ModelAction: Equatable, Sendable, CustomStringConvertible {
    case tick(Int)
    case effect(Spec)
    case cancel(Int)
    case show
    case hide
    case child(ModelAction)
    case opt(ModelAction)

    var description: String {
        switch self {
        case let .tick(n): "tick(\(n))"
        case let .effect(spec): "effect(\(spec))"
        case let .cancel(id): "cancel(\(id))"
        case .show: "show"
        case .hide: "hide"
        case let .child(action): "child(\(action))"
        case let .opt(action): "opt(\(action))"
        }
    }
}

struct ChildState: Equatable {
    var log: [ModelAction] = []
}

struct ModelState: Equatable {
    /// Every action the root reducer ran, in order.
    var log: [ModelAction] = []
    var child = ChildState()
    var opt: ChildState?
}

/// Logs the action and returns the effect it describes.
@MainActor
func coreReducer<State>(_ log: WritableKeyPath<State, [ModelAction]>) -> Reducer<State, ModelAction, TestSchedulerOf<DispatchQueue>> {
    Reducer { state, action, scheduler in
        state[keyPath: log].append(action)
        switch action {
        case let .effect(spec): return spec.effect(scheduler)
        case let .cancel(id): return .cancel(id: ModelCancelID(value: id))
        default: return .none
        }
    }
}

@MainActor
let modelReducer = Reducer<ModelState, ModelAction, TestSchedulerOf<DispatchQueue>>.combine(
    coreReducer(\ModelState.log),
    coreReducer(\ChildState.log).pullback(state: \ModelState.child, action: /ModelAction.child, environment: { $0 }),
    coreReducer(\ChildState.log).optional().pullback(state: \ModelState.opt, action: /ModelAction.opt, environment: { $0 }),
    Reducer { state, action, _ in
        switch action {
        case .show: state.opt = state.opt ?? ChildState()
        case .hide: state.opt = nil
        default: break
        }
        return .none
    })

// MARK: - The model

/// One step of a program.
enum ModelStep: CustomStringConvertible {
    case send(ModelAction)
    case sendScope(ModelAction)
    case sendOptional(ModelAction)
    case advance(Int)
    /// The next time the state is published, an observer sends this action (A2).
    case observerSends(ModelAction)
    /// Cancels the `StoreTask` of the last `send` or `scope.send`: the effects its action started.
    case cancelLastTask

    var description: String {
        switch self {
        case let .send(action): "send(\(action))"
        case let .sendScope(action): "scope.send(\(action))"
        case let .sendOptional(action): "ifLetStore.send(\(action))"
        case let .advance(seconds): "advance(\(seconds)s)"
        case let .observerSends(action): "observerSends(\(action))"
        case .cancelLastTask: "lastTask.cancel()"
        }
    }
}

/// The store's rules, written plainly: a FIFO queue over the reducer, effects interpreted from
/// their description, a clock.
@MainActor
final class StoreModel {
    struct Running {
        var key: Int
        var id: Int?
        /// `nil` for an effect that never finishes.
        var due: Int?
        /// The order of scheduling, for work due at the same time.
        var order: Int
        var actions: [ModelAction]
    }

    var state = ModelState()
    var running: [Running] = []
    var now = 0
    var publications = 0
    /// The scope's publications: a scope of `Equatable` state publishes only when its state
    /// changed (A10).
    var scopePublications = 0
    private var lastPublishedChild = ChildState()
    var reports = 0
    /// What an observer sends the next time the state is published.
    var observerAction: ModelAction?
    /// The effects the first action of the last outermost send started (its `StoreTask`'s).
    var startedByFirstAction: [Int] = []
    private var isFirstAction = false
    private var nextKey = 0
    private var queue: [ModelAction] = []
    private let scheduler = DispatchQueue.test  // never advanced: the model runs no effect

    /// An outermost send: the queue is drained (A1), then the state published once (A3); an
    /// action an observer sends meanwhile runs before the send returns, and the state is
    /// published again after it (A2).
    func send(_ action: ModelAction) {
        queue = [action]
        startedByFirstAction = []
        var next = 0
        repeat {
            while next < queue.count {
                let action = queue[next]
                isFirstAction = next == 0
                next += 1
                let before = state
                _ = modelReducer.run(&state, action, scheduler)
                start(action, before: before)
            }
            publications += 1
            if state.child != lastPublishedChild {
                lastPublishedChild = state.child
                scopePublications += 1
            }
            if let observed = observerAction {
                observerAction = nil
                queue.append(observed)
            }
        } while next < queue.count
        queue = []
    }

    /// Starts the effect `action` describes, if the reducer that handles it ran.
    private func start(_ action: ModelAction, before: ModelState) {
        switch action {
        case let .effect(spec): start(spec, embed: { $0 })
        case let .cancel(id): cancel(id)
        case let .child(.effect(spec)): start(spec, embed: ModelAction.child)
        case let .child(.cancel(id)): cancel(id)
        case let .opt(.effect(spec)) where before.opt != nil: start(spec, embed: ModelAction.opt)
        case let .opt(.cancel(id)) where before.opt != nil: cancel(id)
        case .opt where before.opt == nil: reports += 1  // the optional() reducer reports it
        default: break
        }
    }

    private func start(_ spec: Spec, embed: (ModelAction) -> ModelAction) {
        if let id = spec.id, spec.cancelInFlight { cancel(id) }  // A5: before the new one starts
        let actions = spec.actions.map(embed)
        nextKey += 1
        switch spec.timing {
        case .sync:
            queue.append(contentsOf: actions)  // A6: nothing sent while subscribing is lost
        case .never:
            queue.append(contentsOf: actions)
            running.append(Running(key: nextKey, id: spec.id, due: nil, order: nextKey, actions: []))
            if isFirstAction { startedByFirstAction.append(nextKey) }
        case let .later(seconds):
            running.append(Running(key: nextKey, id: spec.id, due: now + seconds, order: nextKey, actions: actions))
            if isFirstAction { startedByFirstAction.append(nextKey) }
        }
    }

    /// A5: every effect running under `id` stops at once.
    private func cancel(_ id: Int) {
        running.removeAll { $0.id == id }
    }

    /// `StoreTask.cancel()`: the effects still running that the task's action started stop.
    func cancel(keys: [Int]) {
        running.removeAll { keys.contains($0.key) }
    }

    /// A `send` to the `ifLet` store: dropped and reported once the optional state is gone.
    func sendOptional(_ action: ModelAction) {
        if state.opt == nil {
            reports += 1
        } else {
            send(.opt(action))
        }
    }

    /// Moves the clock, delivering what is due in order of time, then of scheduling; each action
    /// a later effect sends is an outermost send, and an effect cancelled meanwhile sends no more.
    func advance(to target: Int?) {
        while let next = running.filter({ $0.due != nil && (target == nil || $0.due! <= target!) })
            .min(by: { ($0.due!, $0.order) < ($1.due!, $1.order) }) {
            now = next.due!
            for action in next.actions {
                guard running.contains(where: { $0.key == next.key }) else { break }
                send(action)
            }
            running.removeAll { $0.key == next.key }
        }
        if let target { now = target }
    }
}

// MARK: - One case

enum ModelCase {
    /// Runs the random program of `seed`; returns what disagreed, if anything.
    @MainActor
    static func run(seed: UInt64, sabotage: Bool = false) -> String? {
        var random = SplitMix64(seed: seed)
        let program = (0..<random.int(in: 4...24)).map { _ in randomStep(&random) }
        return run(program: program, seed: seed, sabotage: sabotage).failure
    }

    struct Result {
        var failure: String?
        var log: [ModelAction]
        var reports: Int
    }

    @MainActor
    static func run(program: [ModelStep], seed: UInt64, sabotage: Bool = false) -> Result {
        let scheduler = DispatchQueue.test
        let model = StoreModel()
        let store = Store(initialState: ModelState(), reducer: modelReducer, environment: scheduler)
        let scope = store.scope(state: \.child, action: ModelAction.child)
        var published: [ModelState] = []
        var scopePublished = 0
        var optionalStore: Store<ChildState, ModelAction>?
        var observerAction: ModelAction?
        var lastTask: StoreTask?
        var lastTaskKeys: [Int] = []
        let observations = [
            store.publisher.sink { state in
                published.append(state)
                if let action = observerAction {
                    observerAction = nil
                    store.send(action)
                }
            },
            scope.publisher.sink { _ in scopePublished += 1 },
            store.scope(state: \.opt, action: ModelAction.opt).ifLet(then: { optionalStore = $0 }),
        ]
        defer { observations.forEach { $0.cancel() } }
        let realReports = SendableLog<String>()
        var done: [String] = []

        func check(_ step: String) -> String? {
            done.append(step)
            var problems: [String] = []
            if store.state != model.state {
                problems.append("state: store \(store.state), model \(model.state)")
            }
            if scope.state != model.state.child {
                problems.append("scope state: \(scope.state), model \(model.state.child)")
            }
            let expectedPublications = model.publications + 1 + (sabotage ? 1 : 0)
            if published.count != expectedPublications || scopePublished != model.scopePublications + 1 {
                problems.append("publications: store \(published.count), scope \(scopePublished), model \(expectedPublications)")
            }
            if published.last != store.state {
                problems.append("the last publication is not the final state")
            }
            if store.runningEffectCount != model.running.count {
                problems.append("running effects: store \(store.runningEffectCount), model \(model.running.count)")
            }
            if realReports.entries.count != model.reports {
                problems.append("reports: store \(realReports.entries), model \(model.reports)")
            }
            if problems.isEmpty { return nil }
            return problems.joined(separator: "; ") + "\n  after: " + done.joined(separator: ", ")
        }

        func perform(_ step: ModelStep) {
            // The ifLet store exists once the optional state has been shown.
            if case .sendOptional = step, optionalStore == nil { return }
            let ignored = SendableLog<String>()  // the model counts its reports itself
            RuntimeIssues.$handler.withValue({ ignored.append($0) }) {
                switch step {
                case let .send(action): model.send(action); lastTaskKeys = model.startedByFirstAction
                case let .sendScope(action): model.send(.child(action)); lastTaskKeys = model.startedByFirstAction
                case let .sendOptional(action): model.sendOptional(action)
                case let .advance(seconds): model.advance(to: model.now + seconds)
                case let .observerSends(action): model.observerAction = action
                case .cancelLastTask: model.cancel(keys: lastTaskKeys)
                }
            }
            RuntimeIssues.$handler.withValue({ realReports.append($0) }) {
                switch step {
                case let .send(action): lastTask = store.send(action)
                case let .sendScope(action): lastTask = scope.send(action)
                case let .sendOptional(action): optionalStore?.send(action)
                case let .advance(seconds): scheduler.advance(by: .seconds(seconds))
                case let .observerSends(action): observerAction = action
                case .cancelLastTask: lastTask?.cancel()
                }
            }
        }

        for step in program {
            perform(step)
            if let failure = check(step.description) { return Result(failure: failure, log: store.state.log, reports: model.reports) }
        }
        // The end: cancel every id, run the clock out; again while the model still runs something.
        for _ in 0..<8 {
            for id in 0..<idCount {
                perform(.send(.cancel(id)))
                if let failure = check("send(.cancel(\(id)))") {
                    return Result(failure: failure, log: store.state.log, reports: model.reports)
                }
            }
            RuntimeIssues.$handler.withValue({ _ in }) { model.advance(to: nil) }
            RuntimeIssues.$handler.withValue({ realReports.append($0) }) { scheduler.run() }
            if let failure = check("run the clock out") { return Result(failure: failure, log: store.state.log, reports: model.reports) }
            if model.running.isEmpty { break }
        }
        if store.runningEffectCount != 0 || scheduler.pendingCount != 0 {
            return Result(failure: "left running at the end: \(store.runningEffectCount) effects, \(scheduler.pendingCount) scheduled",
                          log: store.state.log, reports: model.reports)
        }
        return Result(failure: nil, log: store.state.log, reports: model.reports)
    }

    // MARK: Random programs

    static let idCount = 3

    static func randomStep(_ random: inout SplitMix64) -> ModelStep {
        switch random.int(in: 0...11) {
        case 0...3: .send(randomAction(&random, depth: 2, root: true))
        case 4, 5: .sendScope(randomAction(&random, depth: 2, root: false))
        case 6: .sendOptional(randomAction(&random, depth: 2, root: false))
        case 7: .observerSends(randomAction(&random, depth: 1, root: true))
        case 8: .cancelLastTask
        default: .advance(random.int(in: 0...3))
        }
    }

    static func randomAction(_ random: inout SplitMix64, depth: Int, root: Bool) -> ModelAction {
        let kinds = root ? 9 : 5
        switch random.int(in: 0...(kinds - 1)) {
        case 0: return .tick(random.int(in: 0...99))
        case 1...2: return depth > 0 ? .effect(randomSpec(&random, depth: depth - 1, root: root)) : .tick(random.int(in: 0...99))
        case 3, 4: return .cancel(random.int(in: 0...(idCount - 1)))
        case 5: return random.int(in: 0...1) == 0 ? .show : .hide
        case 6: return .child(randomAction(&random, depth: depth, root: false))
        case 7, 8: return .opt(randomAction(&random, depth: depth, root: false))
        default: return .tick(0)
        }
    }

    static func randomSpec(_ random: inout SplitMix64, depth: Int, root: Bool) -> Spec {
        let timing: Timing = switch random.int(in: 0...3) {
        case 0: .sync
        case 1, 2: .later(random.int(in: 0...3))
        default: .never
        }
        let actions = (0..<random.int(in: 0...3)).map { _ in randomAction(&random, depth: depth, root: root) }
        // An effect that never finishes has an id, so the end of the program can cancel it.
        let id: Int? = timing == .never || random.int(in: 0...2) > 0 ? random.int(in: 0...(idCount - 1)) : nil
        return Spec(timing, actions, id: id, cancelInFlight: id != nil && random.int(in: 0...1) == 0)
    }
}

extension SplitMix64 {
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
