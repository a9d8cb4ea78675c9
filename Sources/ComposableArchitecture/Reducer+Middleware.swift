extension Reducer {
    /// Runs `middleware` after this reducer, on the new state, and merges the effects: the shape
    /// of a Redux middleware, as a higher-order reducer.
    ///
    /// A middleware sees every action after the reducer has applied it and may start more work:
    /// log it, persist the state, call a service and feed the answer back as an action. It gets
    /// the state read-only; only reducers change state.
    ///
    /// <!-- example context: animals -->
    /// ```swift
    /// let logging: Middleware<AppState, AppAction, AppEnvironment> = { state, action, environment in
    ///     .fireAndForget { environment.log("\(action) -> \(state.animals.count) animals") }
    /// }
    /// let appReducer = animalsReducer.middleware(logging, animalServiceMiddleware)
    /// ```
    ///
    /// The middlewares run in order; their effects are merged with the reducer's.
    ///
    /// - Parameter middlewares: The middlewares to run after the reducer, in order.
    /// - Returns: A reducer that runs this one, then the middlewares, and merges all their effects.
    public func middleware(_ middlewares: Middleware<State, Action, Environment>...) -> Reducer {
        Reducer { state, action, environment in
            let effect = self.run(&state, action, environment)
            let newState = state
            return .merge([effect] + middlewares.map { $0(newState, action, environment) })
        }
    }
}

/// A Redux-style middleware: given the state after the reducer ran, the action and the
/// environment, the effect to start. Attach one with ``Reducer/middleware(_:)``.
public typealias Middleware<State, Action, Environment> = (State, Action, Environment) -> Effect<Action>
