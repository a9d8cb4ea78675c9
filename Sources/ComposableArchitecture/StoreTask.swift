/// A handle on the effects one ``Store/send(_:)`` started: cancel them, or wait until they have
/// all finished.
///
/// <!-- example context: store -->
/// ```swift
/// let task = store.send(.refresh)
/// await task.finish()       // the refresh effects are done
/// ```
@MainActor
public struct StoreTask: Sendable {
    /// `nil` when the action started no effect (the common case: nothing is allocated).
    @usableFromInline let record: TaskRecord?

    @usableFromInline
    nonisolated init(record: TaskRecord?) {
        self.record = record
    }

    /// Cancels the effects the action started (the ones still running).
    public func cancel() {
        guard let record, let effects = record.effects else { return }
        effects.cancel(record.ids)
    }

    /// Waits until every effect the action started has finished or been cancelled. Cancelling
    /// the waiting task cancels those effects.
    public func finish() async {
        guard let record, let effects = record.effects else { return }
        let ids = record.ids
        await withTaskCancellationHandler {
            await effects.waitUntilFinished(ids)
        } onCancel: {
            Task { @MainActor in effects.cancel(ids) }
        }
    }

    /// Whether every effect the action started has finished or been cancelled.
    public var isFinished: Bool {
        guard let record, let effects = record.effects else { return true }
        return record.ids.allSatisfy { !effects.isRunning($0) }
    }
}

/// The effects one action started. An action sent while another runs gets its record at once
/// and the ids when the loop gets to it.
@MainActor
@usableFromInline
final class TaskRecord {
    @usableFromInline var ids: [Int]
    @usableFromInline weak var effects: RunningEffects?

    @usableFromInline
    init(ids: [Int], effects: RunningEffects) {
        self.ids = ids
        self.effects = effects
    }
}
