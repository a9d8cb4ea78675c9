import ComposableArchitecture

/// The store's workloads: what `send` costs over calling the reducer directly.
func storeWorkloads() -> [Workload] {
    var workloads = [
        Workload(id: "S1", unit: "ns/send", what: "Store.send, reducer returns .none (baseline: the reducer called directly)",
                 scale: (1, 2)) { n in timed(n, streams: storeSends, baseline: reducerCalls) },
        Workload(id: "S2", unit: "ns/action", what: "100,000 actions chained through synchronous effects, per action",
                 scale: (1, 10)) { n in timed(n, streams: chainedActions, baseline: reducerCalls) },
    ]
    for depth in 1...5 {
        workloads.append(Workload(id: "S3d\(depth)", unit: "ns/send", what: "send through \(depth) nested scope(s)",
                                  scale: (1, 4)) { n in timed(n, streams: { scopedSends($0, depth: depth) }, baseline: reducerCalls) })
    }
    workloads.append(Workload(id: "S4", unit: "ns/send", what: "send with 1,000 observed scoped children, one changing (baseline: the reducer)",
                              scale: (1, 20)) { n in timed(n, streams: { rowSends($0, observed: true) }, baseline: rowReducerCalls) })
    workloads.append(Workload(id: "S4idle", unit: "ns/send", what: "send with 1,000 scoped children nobody observes",
                              scale: (1, 4)) { n in timed(n, streams: { rowSends($0, observed: false) }, baseline: rowReducerCalls) })
    return workloads
}

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

func reducerCalls(_ n: Int) -> UInt64 {
    MainActor.assumeIsolated {
        var state = CounterState()
        let reducer = opaque(counterReducer)
        for i in 0..<n {
            _ = reducer.run(&state, i & 1, ())
        }
        return checksum(state.count)
    }
}

func storeSends(_ n: Int) -> UInt64 {
    MainActor.assumeIsolated {
        let store = Store(initialState: CounterState(), reducer: counterReducer, environment: ())
        for i in 0..<n { store.send(i & 1) }
        return checksum(store.state.count)
    }
}

func chainedActions(_ n: Int) -> UInt64 {
    MainActor.assumeIsolated {
        let store = Store(initialState: CounterState(), reducer: chainReducer, environment: ())
        store.send(n)
        // The baseline adds i & 1 for each of n actions; match its checksum.
        return checksum(store.state.count / 2)
    }
}

func scopedSends(_ n: Int, depth: Int) -> UInt64 {
    MainActor.assumeIsolated {
        let root = Store(initialState: CounterState(), reducer: counterReducer, environment: ())
        var store = root.scope(state: { $0 })
        for _ in 1..<depth { store = store.scope(state: { $0 }) }
        for i in 0..<n { store.send(i & 1) }
        return checksum(root.state.count)
    }
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

func rowReducerCalls(_ n: Int) -> UInt64 {
    MainActor.assumeIsolated {
        var state = RowsState()
        let reducer = opaque(rowsReducer)
        for i in 0..<n {
            _ = reducer.run(&state, i & 1, ())
        }
        return checksum(state.count)
    }
}

/// One scoped store per row; `observed`: each is observed (its state read, as a view would),
/// so each is refreshed after every send.
func rowSends(_ n: Int, observed: Bool) -> UInt64 {
    MainActor.assumeIsolated {
        let root = Store(initialState: RowsState(), reducer: rowsReducer, environment: ())
        let children = (0..<1_000).map { index in root.scope(state: { $0.rows[index] }) }
        if observed { for child in children { _ = child.state } }
        for i in 0..<n { root.send(i & 1) }
        return checksum(root.state.count)
    }
}
