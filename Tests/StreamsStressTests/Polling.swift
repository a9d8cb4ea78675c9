/// Waits until `condition` holds, for at most `timeout`; returns whether it held. For conditions
/// another thread or task makes true (the stress tests' only wait: bounded, never a hang).
func pollUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        if clock.now >= deadline { return false }
        await Task.yield()
        try? await Task.sleep(for: .microseconds(100))
    }
    return true
}
