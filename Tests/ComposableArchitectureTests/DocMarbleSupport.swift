import ComposableArchitecture
import Dispatch
import StreamsTesting

/// The effect of a marble input row for the generated `DocMarbles` tests: its values, as an
/// effect (which cannot fail; the doc comments' effect rows never fail).
func effect<P: Publisher>(_ publisher: P) -> Effect<P.Output> {
    Effect(publisher.catch { _ in Empty<P.Output, Never>() })
}

/// Runs the effects a store would start for a row of actions: at each action's tick,
/// `start(action)` is started, as the store starts a reducer's effect, in one set of
/// cancellation identifiers and throttle windows (a store's own, not the process-wide one, so
/// tests do not share identifiers). The output row is everything the started effects send; it
/// finishes once the actions have finished and every effect started has completed (an effect
/// cancelled by identifier completes at once).
///
/// For the diagrams of `cancellable(id:)`, `cancel(id:)`, `debounce(id:)`, `throttle(id:)`
/// and `timer(id:)`, whose effects are started by actions at different ticks.
func runEffects<Actions: Publisher>(
    _ actions: Actions, _ start: @escaping (String) -> Effect<String>
) -> some Publisher<String, Never> where Actions.Output == String {
    let context = EffectContext()
    return actions.catch { _ in Empty<String, Never>() }
        .flatMap { start($0).publisherOrEmpty(in: context) }
}

/// Whole seconds since a `DispatchQueue.test` scheduler started.
func seconds(_ time: DispatchQueue.SchedulerTimeType) -> Int {
    Int(time.dispatchTime.uptimeNanoseconds / 1_000_000_000)
}
