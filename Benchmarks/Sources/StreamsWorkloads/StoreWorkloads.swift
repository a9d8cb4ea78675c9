// The store's workloads: what `send` costs over calling the reducer directly (the reducer called
// directly is their plain loop).
import ComposableArchitecture
import WorkloadSupport

struct CounterState {
    var count = 0
}

@MainActor let counterReducer = Reducer<CounterState, Int, Void> { state, action, _ in
    state.count &+= action
    return .none
}

/// The chained reducer: each action up to a limit starts a synchronous effect with the next.
@MainActor let chainReducer = Reducer<CounterState, Int, Void> { state, action, _ in
    state.count &+= 1
    return action > 1 ? Effect(value: action - 1) : .none
}

@MainActor public func reducerCalls(_ n: Int) -> UInt64 {
    var state = CounterState()
    let reducer = opaque(counterReducer)
    for i in 0..<n {
        _ = reducer.run(&state, i & 1, ())
    }
    return checksum(state.count)
}

@MainActor public func storeSends(_ n: Int) -> UInt64 {
    let store = Store(initialState: CounterState(), reducer: counterReducer, environment: ())
    for i in 0..<n { store.send(i & 1) }
    return checksum(store.state.count)
}

@MainActor public func chainedActions(_ n: Int) -> UInt64 {
    let store = Store(initialState: CounterState(), reducer: chainReducer, environment: ())
    store.send(n)
    // The baseline adds i & 1 for each of n actions; match its checksum.
    return checksum(store.state.count / 2)
}

@MainActor public func scopedSends(_ n: Int, depth: Int) -> UInt64 {
    let root = Store(initialState: CounterState(), reducer: counterReducer, environment: ())
    var store = root.scope(state: { $0 })
    for _ in 1..<depth { store = store.scope(state: { $0 }) }
    for i in 0..<n { store.send(i & 1) }
    return checksum(root.state.count)
}

/// A list of 1,000 rows; each action adds to the first row (and to `count`, for the checksum).
struct RowsState {
    var rows = [Int](repeating: 0, count: 1_000)
    var count = 0
}

@MainActor let rowsReducer = Reducer<RowsState, Int, Void> { state, action, _ in
    state.count &+= action
    state.rows[0] &+= 1
    return .none
}

@MainActor public func rowReducerCalls(_ n: Int) -> UInt64 {
    var state = RowsState()
    let reducer = opaque(rowsReducer)
    for i in 0..<n {
        _ = reducer.run(&state, i & 1, ())
    }
    return checksum(state.count)
}

/// One scoped store per row; `observed`: each is observed (its state read, as a view would),
/// so each is refreshed after every send.
@MainActor public func rowSends(_ n: Int, observed: Bool) -> UInt64 {
    let root = Store(initialState: RowsState(), reducer: rowsReducer, environment: ())
    let children = (0..<1_000).map { index in root.scope(state: { $0.rows[index] }) }
    if observed { for child in children { _ = child.state } }
    for i in 0..<n { root.send(i & 1) }
    return checksum(root.state.count)
}
