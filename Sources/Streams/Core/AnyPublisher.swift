/// A publisher that hides the type of the publisher it wraps.
///
/// Return `AnyPublisher<Output, Failure>` from an API instead of a long chain of operator types,
/// so that the chain can change without changing the API. Subscribing to it subscribes to the
/// wrapped publisher.
///
/// ```swift
/// func evens() -> AnyPublisher<Int, Never> {
///     (1...6).publisher.filter { $0 % 2 == 0 }.eraseToAnyPublisher()
/// }
/// _ = evens().sink { print($0) }   // Prints: 2, 4, 6
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    @usableFromInline let box: AnyPublisherBox<Output, Failure>

    /// Wraps `publisher`. Wrapping an `AnyPublisher` reuses its box instead of adding a layer.
    ///
    /// - Parameter publisher: The publisher to wrap.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            box = erased.box
        } else {
            box = PublisherBox(publisher)
        }
    }

    /// Subscribes `subscriber` to the wrapped publisher.
    ///
    /// - Parameter subscriber: The subscriber that receives the wrapped publisher's values and
    ///   completion.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }

    /// "AnyPublisher".
    public var description: String { "AnyPublisher" }
}

extension Publisher {
    /// Wraps this publisher in an ``AnyPublisher``, hiding its concrete type.
    ///
    /// <!-- marble eraseToAnyPublisher: $0.eraseToAnyPublisher() -->
    /// ```text
    /// upstream: -a-b-|
    ///           eraseToAnyPublisher()
    /// output:   -a-b-|
    /// ```
    ///
    /// ![Marble diagram of eraseToAnyPublisher](marble-eraseToAnyPublisher)
    ///
    /// Values, demand, completion and cancellation pass through unchanged.
    ///
    /// - Returns: An ``AnyPublisher`` that wraps this publisher.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

extension AnyPublisher {
    /// Returns itself: erasing twice adds nothing.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { self }
}

@usableFromInline
class AnyPublisherBox<Output, Failure: Error> {
    @inlinable init() {}
    @inlinable func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        fatalError("abstract")
    }
}

@usableFromInline
final class PublisherBox<P: Publisher>: AnyPublisherBox<P.Output, P.Failure> {
    @usableFromInline let publisher: P
    @inlinable init(_ publisher: P) { self.publisher = publisher }
    @inlinable override func receive<S: Subscriber>(subscriber: S) where S.Input == P.Output, S.Failure == P.Failure {
        publisher.receive(subscriber: subscriber)
    }
}
