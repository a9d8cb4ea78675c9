import ComposableArchitecture
import StreamsTesting

/// The effect of a marble input row for the generated `DocMarbles` tests: its values, as an
/// effect (which cannot fail; the doc comments' effect rows never fail).
func effect<P: Publisher>(_ publisher: P) -> Effect<P.Output> {
    Effect(publisher.catch { _ in Empty<P.Output, Never>() })
}
