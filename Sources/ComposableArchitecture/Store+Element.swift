extension Store {
    /// A store of the element with `id` in a collection of this store's state, for one row's
    /// view; `nil` if there is no element with that id now.
    ///
    /// The child's state is the element with `id`, looked up (in O(1)) each time this store
    /// publishes its state; its actions are sent to this store as `fromLocalAction(id, action)`,
    /// which is how a reducer made by `forEach(state:action:environment:)` over an
    /// ``IdentifiedArray`` expects them.
    ///
    /// When the element is removed the child store stops updating: it keeps the element's last
    /// value (a row being animated away still has something to show), and never crashes. An
    /// action sent to it then is not sent on — it changes nothing and starts nothing — and is
    /// reported (``RuntimeIssues``) as `ifLet`'s store reports one (it is built on
    /// ``ifLet(then:else:fileID:line:)``), with where `scope(id:)` was called:
    ///
    /// > A store made by `ifLet` (App/TodosView.swift:31) received an action after its state had
    /// > become nil: `TodoAction.toggle`. The action was not sent and changed nothing. ...
    ///
    /// If an element with the same id is added again, the child follows it again.
    ///
    /// <!-- example context: store -->
    /// ```swift
    /// for id in store.state.todos.ids {
    ///     guard let rowStore = store.scope(id: id, state: \.todos, action: AppAction.todo(id:action:)) else { continue }
    ///     rows.append(TodoRow(store: rowStore))
    /// }
    /// ```
    ///
    /// Like ``scope(state:action:)``'s, the child keeps this store alive (it sends to it) and
    /// this store does not keep the child.
    ///
    /// - Parameters:
    ///   - id: The id of the element.
    ///   - toElements: A closure that takes this store's state and returns the identified array of
    ///     elements.
    ///   - fromLocalAction: A closure that takes the element's id and a child action, and returns
    ///     the action to send to this store.
    ///   - fileID: The file to name in the report; the caller's by default.
    ///   - line: The line to name in the report; the caller's by default.
    /// - Returns: A store of the element, or `nil` if there is none with `id` now.
    @MainActor
    public func scope<ID: Hashable, LocalState, LocalAction>(
        id: ID,
        state toElements: @escaping (State) -> IdentifiedArray<ID, LocalState>,
        action fromLocalAction: @escaping (ID, LocalAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Store<LocalState, LocalAction>? {
        // The element as an optional scope; `ifLet` makes the store of its value, which drops
        // and reports actions once the element is gone. `ifLet` calls `then` at once for the
        // current state; its observation is not needed afterwards (the child observes the
        // optional scope itself).
        let element = scope(state: { toElements($0)[id: id] }, action: { fromLocalAction(id, $0) })
        var child: Store<LocalState, LocalAction>?
        let observation = element.ifLet(
            then: { store in
                if child == nil { child = store }
            }, fileID: fileID, line: line)
        observation.cancel()
        return child
    }
}
