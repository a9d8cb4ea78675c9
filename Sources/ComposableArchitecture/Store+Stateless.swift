extension Store {
    /// A store of no state that sends this store's actions: for a view that only sends (a
    /// button bar, a screen that starts a feature).
    ///
    /// It is a scope of this store (``scope(state:action:)``): its actions go to this store's
    /// root, and it keeps this store alive. Its state, `()`, is computed from nothing and never
    /// changes: neither the store nor a ``ViewStore`` of it publishes after its first state.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// let buttons = ViewStore(store.stateless)
    /// buttons.send(.increment)
    /// ```
    @MainActor
    public var stateless: Store<Void, Action> {
        scope(state: { _ in () })
    }

    /// A store of this store's state that cannot send actions (its action type is `Never`): for a
    /// view that only shows.
    ///
    /// It is a scope of this store (``scope(state:action:)``), so its state follows this store's,
    /// computed only once something observes it; when the state is `Equatable`, it publishes
    /// only when the state changed. It keeps this store alive.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// let display = ViewStore(store.actionless)
    /// let c = display.publisher(for: \.count).sink { print("count:", $0) }
    /// ```
    @MainActor
    public var actionless: Store<State, Never> {
        // No action of the child's type exists: the transform is never called.
        func absurd(_ never: Never) -> Action {}
        return scope(state: { $0 }, action: absurd)
    }
}
