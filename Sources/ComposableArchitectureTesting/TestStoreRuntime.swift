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

    private struct Running {
        var cancellable: AnyCancellable?
        var origin: Origin
    }

    let reporter = FailureReporter()
    /// How long `receive` and `finish` wait by default.
    var timeout: Duration = .seconds(1)
    private var running: [Int: Running] = [:]
    private var lastID = 0
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var lastWaiterID = 0

    nonisolated init() {}

    // MARK: Effects

    var runningCount: Int { running.count }

    /// Registers an effect that is about to be subscribed to; returns its id.
    func begin(_ origin: Origin) -> Int {
        lastID += 1
        running[lastID] = Running(cancellable: nil, origin: origin)
        return lastID
    }

    /// Keeps the subscription of effect `id`, unless it has already finished.
    func attach(_ cancellable: AnyCancellable, to id: Int) {
        running[id]?.cancellable = cancellable
    }

    /// Effect `id` finished: forget it, and wake the waiting tasks.
    func finished(_ id: Int) {
        guard running.removeValue(forKey: id) != nil else { return }
        signal()
    }

    func isRunning(_ id: Int) -> Bool {
        running[id] != nil
    }

    /// The step the effect belongs to, for its actions.
    func origin(of id: Int) -> Origin? {
        running[id]?.origin
    }

    /// Moves the effects an action started to the step that asserted the action.
    func relocate(_ ids: [Int], to location: StepLocation) {
        for id in ids {
            running[id]?.origin.location = location
        }
    }

    /// Cancels the effects `ids` (all, for `nil`) and forgets them.
    func cancel(_ ids: [Int]?) {
        let taken: [Running]
        if let ids {
            taken = ids.compactMap { running.removeValue(forKey: $0) }
        } else {
            taken = Array(running.values)
            running = [:]
        }
        for effect in taken { effect.cancellable?.cancel() }
        if !taken.isEmpty { signal() }
    }

    /// The running effects among `ids` (all, for `nil`), oldest first.
    func origins(of ids: [Int]?) -> [Origin] {
        let selected = ids ?? Array(running.keys)
        return selected.sorted().compactMap { running[$0]?.origin }
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
