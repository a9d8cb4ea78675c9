import ComposableArchitecture
import Dispatch
import Streams

/// What a test store tracks besides its state: the effects it runs, the tasks waiting for
/// something to happen, and where failures go. Not generic, so a ``TestStoreTask`` can hold it.
@MainActor
final class TestStoreRuntime {
    /// The step an effect belongs to: the action that started it and where the test sent or
    /// received that action. A still-running effect fails the test there.
    struct Origin {
        /// `sending` or `receiving`.
        var verb: String
        /// The action, rendered when a message needs it.
        var describeAction: () -> String
        var location: StepLocation
    }

    let reporter = FailureReporter()
    /// How long `receive` and `finish` wait by default.
    var timeout: Duration = .seconds(1)
    /// The running effects of the store the test drives.
    private let effects: RunningEffects
    /// The step each effect belongs to, by effect id (kept after the effect ends: the actions
    /// it sent may still be waiting to run).
    private var origins: [Int: Origin] = [:]
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var lastWaiterID = 0

    init(effects: RunningEffects) {
        self.effects = effects
        effects.onChange = { [weak self] in self?.signal() }
    }

    // MARK: Effects

    var runningCount: Int { effects.count }

    func isRunning(_ id: Int) -> Bool {
        effects.isRunning(id)
    }

    /// Records the step effect `id` belongs to.
    func setOrigin(of id: Int, to origin: Origin) {
        origins[id] = origin
    }

    /// The step the effect belongs to, for its actions.
    func origin(of id: Int) -> Origin? {
        origins[id]
    }

    /// Moves the effects an action started to the step that asserted the action.
    func relocate(_ ids: [Int], to location: StepLocation) {
        for id in ids {
            origins[id]?.location = location
        }
    }

    /// Cancels the running effects among `ids` (all, for `nil`).
    func cancel(_ ids: [Int]?) {
        if let ids {
            effects.cancel(ids)
        } else {
            effects.cancelAll()
        }
    }

    /// The running effects among `ids` (all, for `nil`), oldest first.
    func origins(of ids: [Int]?) -> [Origin] {
        let selected = ids ?? effects.ids
        return selected.sorted().filter(effects.isRunning).compactMap { origins[$0] }
    }

    // MARK: Waiting

    /// Waits until something happens (an action is received, an effect finishes) or `deadline`
    /// passes; returns `false` at once when it has passed.
    func waitForChange(until deadline: ContinuousClock.Instant) async -> Bool {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        lastWaiterID += 1
        let id = lastWaiterID
        await withCheckedContinuation { continuation in
            waiters[id] = continuation
            DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(remaining.nanoseconds)) { [weak self] in
                MainActor.assumeIsolated { self?.waiters.removeValue(forKey: id)?.resume() }
            }
        }
        return true
    }

    /// Waits until `condition` holds or `timeout` has passed; returns whether it holds.
    func wait(until condition: () -> Bool, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard await waitForChange(until: deadline) else { return condition() }
        }
        return true
    }

    /// Wakes every waiting task, to check what it waits for.
    func signal() {
        guard !waiters.isEmpty else { return }
        let woken = waiters
        waiters = [:]
        for waiter in woken.values { waiter.resume() }
    }

    // MARK: Messages

    /// One line per still-running effect: `started by sending AppAction.start (File.swift:12)`.
    func describe(_ origins: [Origin]) -> String {
        origins.map { "  started by \($0.verb) \($0.describeAction()) (\($0.location.short))" }
            .joined(separator: "\n")
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int`.
    var nanoseconds: Int {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return Int(clamping: product &+ attoseconds / 1_000_000_000)
    }
}
