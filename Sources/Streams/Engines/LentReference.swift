// Calling an object that an `Unmanaged` reference keeps alive, without a retain and a release.
//
// The sink keeps its core, and a subject its subscribers' conduits, as `Unmanaged` references
// that they retained once. To call such an object, `takeUnretainedValue()` makes a new strong
// reference: the compiler cannot know that the object outlives the call, so it retains it (or
// the closure read from it) around the call and releases it after, two atomic operations per
// value. `withLentReference` instead moves the holder's own reference out for the call and puts
// it back after (`takeRetainedValue()`, then `passRetained`): inside the call the object is
// owned by a local, so what is read from it stays alive without a retain, and the optimizer
// cancels the take and the put-back, which are a release and a retain of the same object with
// nothing between them that could free it. Gain and measurements: Docs/Performance.md, "Calling
// an unmanaged object without a retain".
//
// Safe only where nothing releases the holder's reference during the call (the caller says why
// at each use). A nested call on the same reference is fine: it lends the same reference again
// and puts it back before the outer call does; if the optimizer left the pair in, each level
// would only retain and release an object that stays alive throughout.

extension Unmanaged {
    /// Calls `body` with the object, lent from the reference this `Unmanaged` stands for.
    @inlinable
    func withLentReference<Result>(_ body: (Instance) -> Result) -> Result {
        let object = takeRetainedValue()
        defer { _ = Unmanaged.passRetained(object) }
        return body(object)
    }
}
