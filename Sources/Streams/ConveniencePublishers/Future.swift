// Engine: none. The future's state and its subscriptions are in this file.

/// A publisher that eventually produces one value and finishes, or fails.
///
/// The closure you give it runs once, right away, in `init`, with a *promise*: call the promise
/// with `.success(value)` or `.failure(error)` when the work is done, from any thread. Every
/// subscriber, early or late, receives that same result ([S12]). A second call of the promise is
/// ignored.
///
/// <!-- marble future scheduler source row=1: Future<String, Never> { promise in scheduler.atTick(3) { promise(.success("a")) } } -->
/// <!-- marble future-late scheduler source subscribe=5 row=2: Future<String, Never> { promise in scheduler.atTick(3) { promise(.success("a")) } } -->
/// ```text
///                            promise(.success(a)) at tick 3
/// subscriber (from tick 0):  ---[a|]
/// subscriber (from tick 5):  -----[a|]   (at once, on its first request)
/// ```
///
/// ```swift
/// let future = Future<Int, Never> { promise in
///     DispatchQueue.global().async { promise(.success(42)) }
/// }
/// let c = future.sink { print($0) }
/// // Prints, a moment later: 42
/// ```
///
/// - Demand: the value waits for demand; a failure is delivered without it ([S5]). Asking for
///   `.none` is an API violation ([S9]).
/// - Threading: the promise is `@Sendable` and may be called from any thread; results are
///   delivered on the thread that calls the promise, or that requests or subscribes after it.
/// - Cancellation: a cancelled subscriber is released and receives nothing more ([S6], [S7]).
/// - Combine compatibility: as Combine, except that ``Promise`` is `@Sendable`, so that the
///   everyday `DispatchQueue.global().async { promise(...) }` compiles in Swift 6 mode.
///
/// [S5]: doc:/Contract/StreamContract#S5
/// [S6]: doc:/Contract/StreamContract#S6
/// [S7]: doc:/Contract/StreamContract#S7
/// [S9]: doc:/Contract/StreamContract#S9
/// [S12]: doc:/Contract/StreamContract#S12
public final class Future<Output, Failure: Error>: Publisher {
    /// The callback that fulfills the future. `@Sendable`: call it from any thread.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    let core = FutureCore<Output, Failure>()

    /// Creates a future and runs `attemptToFulfill` now, once, with its promise.
    ///
    /// - Parameter attemptToFulfill: A closure that starts the work and calls the promise it is
    ///   given with the result, now or later; calls after the first are ignored.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        let core = self.core
        attemptToFulfill { result in core.fulfill(result) }
    }

    /// Attaches `subscriber`; it receives the result as soon as there is one and it has demand.
    ///
    /// - Parameter subscriber: The subscriber that receives the result: a value and `.finished`, or
    ///   the failure.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = FutureSubscription(core: core, downstream: subscriber)
        subscriber.receive(subscription: subscription)
        core.attach(subscription)
    }
}

extension Future: Sendable where Output: Sendable {}

final class FutureCore<Output, Failure: Error>: @unchecked Sendable {  // state guarded by `lock`
    let lock = Lock()
    var result: Result<Output, Failure>?
    var waiting: [FutureSubscriptionBase<Output, Failure>] = []

    init() {}

    func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        if self.result != nil {
            lock.unlock()
            return
        }
        self.result = result
        let subscribers = waiting
        waiting = []
        lock.unlock()
        for subscriber in subscribers { subscriber.resultArrived(result) }
    }

    /// Registers a subscription for the result, or hands it the result at once.
    func attach(_ subscription: FutureSubscriptionBase<Output, Failure>) {
        lock.lock()
        guard let result else {
            waiting.append(subscription)
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.resultArrived(result)
    }

    func detach(_ subscription: FutureSubscriptionBase<Output, Failure>) {
        lock.lock()
        if let index = waiting.firstIndex(where: { $0 === subscription }) {
            waiting.remove(at: index)
        }
        lock.unlock()
    }
}

class FutureSubscriptionBase<Output, Failure: Error>: @unchecked Sendable {
    init() {}
    func resultArrived(_ result: Result<Output, Failure>) { fatalError("abstract") }
}

final class FutureSubscription<Downstream: Subscriber>: FutureSubscriptionBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, @unchecked Sendable  // state guarded by `lock`
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    let lock = Lock()
    let core: FutureCore<Output, Failure>
    var downstream: Downstream?
    var demanded = false
    var cancelled = false
    var result: Result<Output, Failure>?

    init(core: FutureCore<Output, Failure>, downstream: Downstream) {
        self.core = core
        self.downstream = downstream
    }

    override func resultArrived(_ result: Result<Output, Failure>) {
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        if case .success = result, !demanded {
            self.result = result
            lock.unlock()
            return
        }
        let downstream = self.downstream.take()!
        lock.unlock()
        deliver(result, to: downstream)
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand.isValidRequest(of: "Future") else { return }
        lock.lock()
        guard downstream != nil, !demanded else {
            lock.unlock()
            return
        }
        demanded = true
        guard let result else {
            lock.unlock()
            return
        }
        let downstream = self.downstream.take()!
        lock.unlock()
        deliver(result, to: downstream)
    }

    func cancel() {
        lock.lock()
        let downstream = self.downstream.take()
        result = nil
        cancelled = true
        lock.unlock()
        if downstream != nil { core.detach(self) }
    }

    private func deliver(_ result: Result<Output, Failure>, to downstream: Downstream) {
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            if !lock.withLock({ cancelled }) {
                downstream.receive(completion: .finished)
            }
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }

    var description: String { "Future" }
}
