/// A property wrapper that publishes every change of a class's property.
///
/// `$name` is the property's publisher (a ``Published/Publisher``): a new subscriber receives
/// the current value, then each new value. A change is published *before* it is stored (the
/// property's `willSet`, as in Combine): a subscriber that reads the property while it receives
/// a value still sees the old one. In a class that conforms to ``ObservableObject`` (and does not
/// declare its own `objectWillChange`), every change first fires the object's
/// `objectWillChange`.
///
/// <!-- marble published: driving(PublishedModel("20"), by: $0) { $0.value = $1 }.$value -->
/// ```text
/// weather.temperature = :  ------b---c---   (a = 20, the value it starts with; b = 25; c = 30)
/// $temperature:            a-----b---c---   (subscribed at the start)
/// ```
///
/// ```swift
/// final class Weather {
///     @Published var temperature: Double
///     init(temperature: Double) { self.temperature = temperature }
/// }
/// let weather = Weather(temperature: 20)
/// let c = weather.$temperature.sink { print("now \($0), was \(weather.temperature)") }
/// // Prints: now 20.0, was 20.0
/// weather.temperature = 25
/// // Prints: now 25.0, was 20.0
/// ```
///
/// `@Published` works only on properties of classes (it reaches its value through the enclosing
/// instance); the compiler rejects it elsewhere.
///
/// - Threading: reading, setting and subscribing may happen on any thread (the state sits
///   behind a lock), so an `@unchecked Sendable` class may set a property from several threads,
///   and `$name` may be handed to other threads when `Value` is `Sendable`. Subscribers are
///   called one at a time ([S3]), in subscription order. A set made while another set of the same
///   property is being delivered (from inside a subscriber, or on another thread) is not
///   delivered recursively: it is delivered after the current value reaches every subscriber
///   ([S11]), and the property takes the new value as soon as that set returns. The property's
///   final value is always the last value its subscribers received.
/// - Demand: as ``CurrentValueSubject``: a subscriber that had no demand when values were set
///   receives the latest value when it asks ([S10]); asking for `.none` is an API violation ([S9]).
/// - Completion: never completes.
/// - Combine compatibility: as Combine, except that a set from inside one of the property's
///   subscribers is queued instead of being delivered recursively, and the last value set wins
///   (see "Deviations from Combine").
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S9]: doc:/Contract/StreamContract#S9
/// [S10]: doc:/Contract/StreamContract#S10
/// [S11]: doc:/Contract/StreamContract#S11
@propertyWrapper
public struct Published<Value> {
    /// The property's state, shared by every copy of this wrapper and by its publishers.
    let storage: PublishedStorage<Value>

    /// Creates the wrapper of a property whose initial value is `wrappedValue`.
    ///
    /// Written by the compiler for `@Published var name = value`, or by
    /// `self.name = value` in an initializer.
    ///
    /// - Parameter wrappedValue: The property's initial value.
    public init(wrappedValue: Value) {
        storage = PublishedStorage(wrappedValue)
    }

    /// Creates the wrapper of a property whose initial value is `initialValue`.
    ///
    /// - Parameter initialValue: The property's initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// Unavailable: `@Published` reaches its value through the enclosing class instance, so it
    /// cannot wrap a property of a structure, an enumeration or a local variable.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        // swiftlint:disable:this unused_setter_value
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher, `$name`.
    ///
    /// Setting it does nothing (as in Combine); it is settable so that
    /// ``Publisher/assign(to:)`` can take it `inout`.
    public var projectedValue: Publisher {
        get { Publisher(storage: storage) }
        set {}  // swiftlint:disable:this unused_setter_value
    }

    /// The property's value, as the enclosing instance `object` reads and writes it. Written by
    /// the compiler for every access to the property; not for direct use.
    ///
    /// Setting fires the object's `objectWillChange` (when the default one is in use), then
    /// delivers the new value to the property's subscribers, then stores it.
    ///
    /// - Parameters:
    ///   - object: The instance whose property is accessed.
    ///   - wrappedKeyPath: The key path of the property itself.
    ///   - storageKeyPath: The key path of the property's `Published` wrapper.
    /// - Returns: The property's current value.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.value }
        set { object[keyPath: storageKeyPath].storage.set(newValue) }
    }

    /// The publisher of a `@Published` property, `$name`: the current value to each new
    /// subscriber, then every new value, before it is stored.
    ///
    /// <!-- marble published-projectedValue: driving(PublishedModel("0"), by: $0) { $0.value = $1 }.$value -->
    /// ```text
    /// property = :  ----1-2----3---   (it starts with 0)
    /// $property:    0---1-2----3---   (subscribed at the start, unlimited demand)
    /// ```
    ///
    /// ```swift
    /// final class Counter { @Published var count = 0 }
    /// let counter = Counter()
    /// let c = counter.$count.sink { print($0) }   // Prints: 0
    /// counter.count += 1                           // Prints: 1
    /// ```
    ///
    /// - Demand: the current value waits for the first request; a subscriber without demand
    ///   when values are set receives the latest when it asks ([S10]). `.none` is an API
    ///   violation ([S9]).
    /// - Completion: never completes.
    /// - Cancellation: a cancelled subscriber is removed at once and released ([S7]). A
    ///   subscription does not keep the object that owns the property alive.
    /// - Combine compatibility: as Combine (the subscription's `description` is
    ///   `"PublishedSubject"`).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    /// [S10]: doc:/Contract/StreamContract#S10
    public struct Publisher: Streams.Publisher {
        /// The property's type.
        public typealias Output = Value
        /// Never fails.
        public typealias Failure = Never

        let storage: PublishedStorage<Value>

        /// Attaches `subscriber`; it receives the property's current value as soon as it asks.
        ///
        /// - Parameter subscriber: The subscriber that receives the current value, then each new
        ///   one.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            storage.core.receive(subscriber: subscriber, owner: storage)
        }
    }
}

extension Published: Sendable where Value: Sendable {}
extension Published.Publisher: Sendable where Value: Sendable {}

extension Publisher where Failure == Never {
    /// Subscribes and writes every value into a `@Published` property, through its publisher.
    ///
    /// The subscription lives as long as the property does: it is cancelled when the object
    /// that owns the property goes away, so there is no ``AnyCancellable`` to keep, and no
    /// reference cycle when an object assigns into its own property.
    ///
    /// <!-- marble published-assign: u in let model = PublishedModel("0"); u.assertNoFailure().assign(to: &model.$value); return model.$value -->
    /// ```text
    /// upstream:     -1-2-|
    /// model.value:  01-2--        (0 before; each value set as it arrives; the completion is ignored)
    /// ```
    ///
    /// ```swift
    /// final class Model {
    ///     @Published var value = 0
    ///     init(source: some Publisher<Int, Never>) {
    ///         source.assign(to: &$value)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter published: The publisher of the `@Published` property to write to, as
    ///   `$property`.
    /// - Demand: asks for unlimited values.
    /// - Completion: ignored; the property keeps its last value.
    /// - Cancellation: when the property's owner is deallocated (more exactly, when the last
    ///   copy of the property's wrapper and of its publisher goes away).
    /// - Combine compatibility: as Combine.
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(PublishedAssignment(storage: published.storage))
    }
}

/// The state of one `@Published` property: its subject engine, whose `currentValue` is the
/// property's value, and the `objectWillChange` publisher installed by the owner's default
/// ``ObservableObject/objectWillChange``.
///
/// A set delivers the value before storing it (`SubjectCore.sendBeforeStoring`), which gives
/// subscribers the old value when they read the property (willSet).
final class PublishedStorage<Value>: @unchecked Sendable {  // `objectWillChange` is guarded by `core.lock`
    let core: SubjectCore<Value, Never>
    private var objectWillChange: ObservableObjectPublisher?

    init(_ value: Value) {
        core = SubjectCore(currentValue: value, name: "PublishedSubject")
    }

    deinit {
        core.cancelUpstreams()  // the subscriptions of `assign(to:)`
    }

    var value: Value {
        core.lock.withLock { core.currentValue! }
    }

    func set(_ newValue: Value) {
        core.lock.lock()
        let willChange = objectWillChange
        core.lock.unlock()
        willChange?.send()
        core.sendBeforeStoring(newValue)
    }

    /// The `objectWillChange` publisher installed in this property, installing `candidate` (or
    /// a new publisher) if there is none yet. Installation happens once.
    func installObjectWillChange(_ candidate: ObservableObjectPublisher?) -> ObservableObjectPublisher {
        core.lock.withLock {
            if let installed = objectWillChange { return installed }
            let publisher = candidate ?? ObservableObjectPublisher()
            objectWillChange = publisher
            return publisher
        }
    }
}

/// The subscriber of ``Publisher/assign(to:)``: sets the property's value. It holds the property
/// weakly; the property holds the upstream subscription and cancels it when it goes away.
struct PublishedAssignment<Value>: Subscriber {
    typealias Input = Value
    typealias Failure = Never

    let combineIdentifier = CombineIdentifier()
    weak var storage: PublishedStorage<Value>?

    func receive(subscription: Subscription) {
        if let storage {
            storage.core.send(subscription: subscription)
        } else {
            subscription.cancel()
        }
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        storage?.set(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
