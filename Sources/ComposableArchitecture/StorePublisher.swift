/// A store's state over time, and of any part of it.
///
/// `store.publisher` sends the current state when subscribed, then the state after each
/// outermost send. A dynamic member of it is a publisher of that part of the state that sends
/// only when the part changes:
///
/// <!-- example context: store -->
/// ```swift
/// let c = store.publisher.user.name.sink { print("name:", $0) }
/// ```
@dynamicMemberLookup
public struct StorePublisher<State>: Publisher {
    /// The state, or a part of it.
    public typealias Output = State
    /// A store's state never fails.
    public typealias Failure = Never

    /// The publisher of the state.
    public let upstream: AnyPublisher<State, Never>

    init(_ upstream: AnyPublisher<State, Never>) {
        self.upstream = upstream
    }

    /// Subscribes `subscriber` to the state.
    ///
    /// - Parameter subscriber: The subscriber that receives the current state, then each new one.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == State, S.Failure == Never {
        upstream.receive(subscriber: subscriber)
    }

    /// A publisher of the part of the state at `keyPath`, sending only when it changes.
    ///
    /// - Parameter keyPath: The key path of the part of the state to publish.
    /// - Returns: A publisher of that part of the state.
    public subscript<LocalState: Equatable>(dynamicMember keyPath: KeyPath<State, LocalState>) -> StorePublisher<
        LocalState
    > {
        StorePublisher<LocalState>(upstream.map(keyPath).removeDuplicates().eraseToAnyPublisher())
    }
}
