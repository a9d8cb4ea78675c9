/// The publisher an ``ObservableObject`` uses to announce that it is about to change: each
/// ``send()`` delivers one `Void` value to every subscriber.
///
/// The default `objectWillChange` of a class is one of these, and
/// every `@Published` property of the class calls ``send()`` just before its value changes. Call
/// ``send()`` yourself to announce other changes:
///
/// <!-- marble observableObjectPublisher: driving(ObservableObjectPublisher(), by: $0) { publisher, _ in publisher.send() } -->
/// ```text
/// send():      -s-s--s-
/// subscriber:  -w-w--w-      (w = (); after its first request)
/// ```
///
/// ```swift
/// final class Settings: ObservableObject {
///     var volume = 5 { willSet { objectWillChange.send() } }
/// }
/// let settings = Settings()
/// let c = settings.objectWillChange.sink { print("will change:", settings.volume) }
/// settings.volume = 7   // Prints: will change: 5
/// ```
///
/// - Threading: ``send()`` may be called from any thread. A subscriber is called one call at a
///   time ([S3]), subscribers in subscription order; a ``send()`` made from inside a subscriber,
///   or while another thread is delivering, is delivered after the current signal, without
///   recursion ([S11]).
/// - Demand: as in Combine, the amount is ignored: once a subscriber has asked for at least one
///   value it receives every later signal. A subscriber that has not asked yet receives nothing.
///   `request(.none)` is accepted and does nothing.
/// - Completion: never completes.
/// - Cancellation: a cancelled subscriber is removed at once and released ([S7]).
/// - Combine compatibility: as Combine.
///
/// [S3]: doc:/Contract/StreamContract#S3
/// [S7]: doc:/Contract/StreamContract#S7
/// [S11]: doc:/Contract/StreamContract#S11
public final class ObservableObjectPublisher: Publisher, Sendable {
    /// Signals carry no value.
    public typealias Output = Void
    /// Never fails.
    public typealias Failure = Never

    let core = SubjectCore<Void, Never>(currentValue: nil)

    /// Creates a publisher with no subscribers.
    public init() {}

    /// Sends a signal to every subscriber that has asked for values.
    public func send() {
        core.send(())
    }

    /// Attaches `subscriber`; it receives the signals sent after its first request.
    ///
    /// - Parameter subscriber: The subscriber that receives a `Void` value for each change signal.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        core.receive(subscriber: ObservableObjectSubscription(downstream: subscriber), owner: self)
    }
}

/// One subscriber's subscription to an ``ObservableObjectPublisher``: it stands between the
/// publisher's subject engine and the subscriber, turning the subscriber's first request (of any
/// size) into an unlimited one, as Combine does.
final class ObservableObjectSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable  // every `var` is guarded by `lock`
where Downstream.Input == Void, Downstream.Failure == Never {
    typealias Input = Void
    typealias Failure = Never

    private let lock = Lock()
    /// Cleared by `cancel()`, so that a subscription kept after cancelling does not keep the
    /// subscriber alive ([S7]).
    ///
    /// [S7]: doc:/Contract/StreamContract#S7
    private var downstream: Downstream?
    /// The subject engine's subscription while `holdsUpstream`, else a `NoSubscription`
    /// (Engines/NoSubscription.swift).
    private var upstream: any Subscription = NoSubscription()
    /// From the subject engine's subscription until `cancel()`.
    private var holdsUpstream = false
    private var requested = false

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var description: String { "ObservableObjectPublisher" }

    func receive(subscription: Subscription) {
        let downstream = lock.withLock {
            upstream = subscription
            holdsUpstream = true
            return self.downstream
        }
        downstream?.receive(subscription: self)
    }

    func receive(_ input: Void) -> Subscribers.Demand {
        let downstream = lock.withLock { self.downstream }
        _ = downstream?.receive(())
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        let downstream = lock.withLock {
            defer { self.downstream = nil }
            return self.downstream
        }
        downstream?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        if demand == .none { return }
        lock.lock()
        guard !requested, holdsUpstream else {
            lock.unlock()
            return
        }
        requested = true
        let upstream = self.upstream
        lock.unlock()
        upstream.request(.unlimited)
    }

    func cancel() {
        lock.lock()
        holdsUpstream = false
        let upstream = NoSubscription.take(from: &self.upstream)
        let downstream = self.downstream
        self.downstream = nil
        lock.unlock()
        upstream.cancel()
        keepAlive(downstream)  // released here, after unlocking
    }
}
