extension Store {
    /// Calls `unwrap` with a store of the state's value each time this store's optional state
    /// becomes non-`nil`, and `else` each time it becomes `nil`: how a view shows a child feature
    /// that comes and goes (a sheet, a pushed screen).
    ///
    /// Both are called at once for the current state, then on each change between `nil` and
    /// non-`nil` (not on changes of the value itself, which the child store publishes). The
    /// child store's state follows this store's while it is there, and keeps its last value when
    /// it becomes `nil`, so a view being dismissed still has something to show.
    ///
    /// An action sent to the child store after its state became `nil` is not sent on: it
    /// changes nothing, starts nothing, and is reported (``RuntimeIssues``) with a message naming
    /// the action and where `ifLet` was called:
    ///
    /// > A store made by `ifLet` (Sources/App/AppView.swift:27) received an action after its state
    /// > had become nil: `SearchAction.queryChanged("swift")`. The action was not sent and changed
    /// > nothing. Whoever holds this store (a view being dismissed?) outlived its state: let go of
    /// > it when `ifLet`'s `else` runs.
    ///
    /// <!-- example context: viewController -->
    /// ```swift
    /// let cancellable = appStore.scope(state: \.search, action: AppAction.search).ifLet(
    ///     then: { searchStore in self.present(SearchViewController(store: searchStore)) },
    ///     else: { self.dismiss() })
    /// ```
    ///
    /// The returned cancellable stops the calls; keep it as long as the view. It keeps this store
    /// alive until it is cancelled or released (so `store.scope(...).ifLet(...)` works), and
    /// so do the child stores (they send to it), as ``scope(state:action:)``'s do.
    ///
    /// - Parameters:
    ///   - unwrap: A closure called with a store of the value each time the state becomes
    ///     non-`nil`.
    ///   - else: A closure called each time the state becomes `nil`; does nothing by default.
    ///   - fileID: The file to name in the report; the caller's by default.
    ///   - line: The line to name in the report; the caller's by default.
    /// - Returns: A cancellable that stops the calls.
    @MainActor
    public func ifLet<Wrapped>(
        then unwrap: @escaping (Store<Wrapped, Action>) -> Void,
        else: @escaping () -> Void = {},
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> AnyCancellable where State == Wrapped? {
        subject
            .removeDuplicates { ($0 == nil) == ($1 == nil) }
            .sink { [self] state in
                if let state {
                    unwrap(unwrapped(state, fileID: fileID, line: line))
                } else {
                    `else`()
                }
            }
    }

    /// A store of this store's state while it is not `nil`, starting from `initialState`.
    @MainActor
    private func unwrapped<Wrapped>(
        _ initialState: Wrapped, fileID: StaticString, line: UInt
    ) -> Store<Wrapped, Action> where State == Wrapped? {
        // Keeps the last value when the state becomes nil: observed from the start, so that it
        // follows this store's state while it is there.
        var last = initialState
        let child: Store<Wrapped, Action> = scope(
            state: { state in
                if let state { last = state }
                return last
            },
            send: { [self] action in
                guard currentState != nil else {
                    RuntimeIssues.report(
                        """
                        A store made by `ifLet` (\(fileID):\(line)) received an action after its state had become \
                        nil: `\(describe(action))`. The action was not sent and changed nothing. Whoever holds this \
                        store (a view being dismissed?) outlived its state: let go of it when `ifLet`'s `else` runs.
                        """)
                    return StoreTask(record: nil)
                }
                return send(action)
            })
        child.startObserving()
        return child
    }
}
