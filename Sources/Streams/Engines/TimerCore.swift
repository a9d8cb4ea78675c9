/// The shared state of a timer publisher (`SchedulerTimer`, Foundation's `Timer.TimerPublisher`):
/// its subscribers, and the one running connection.
///
/// A timer is a connectable, multicast source: every subscriber attached when a tick fires gets
/// that tick's value, if it has demand for one; a subscriber without demand misses it ([S1]), as
/// in Combine. Each subscriber has its own ``TimerSubscription`` with its own demand. The
/// repeating schedule holds this object weakly, so a timer nobody can reach any more (no
/// publisher, no subscriber, no connection) stops by itself.
///
/// [S1]: doc:/Contract/StreamContract#S1
// `subscriptions`, `connection` guarded by `lock`; `currentValue` immutable
@usableFromInline
final class TimerCore<Value>: @unchecked Sendable {
    let lock = Lock()
    var subscriptions: [TimerSubscriptionBase<Value>] = []
    var connection: TimerConnection<Value>?
    /// The value of a tick, read when it fires (the scheduler's `now`, or the date), on the
    /// thread the timer fires on.
    let currentValue: () -> Value

    @usableFromInline
    init(currentValue: @escaping () -> Value) {
        self.currentValue = currentValue
    }

    /// Nobody can subscribe or connect any more: stop the schedule, even if the connection is
    /// still held somewhere.
    deinit {
        connection?.cancel()
    }

    /// Gives `subscriber` its own subscription; it receives the ticks of the current and later
    /// connections, as far as its demand allows.
    @usableFromInline
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Value, S.Failure == Never {
        let subscription = TimerSubscription(core: self, downstream: subscriber)
        lock.withLock { subscriptions.append(subscription) }
        subscriber.receive(subscription: subscription)
    }

    func detach(_ subscription: TimerSubscriptionBase<Value>) {
        lock.lock()
        if let index = subscriptions.firstIndex(where: { $0 === subscription }) {
            subscriptions.remove(at: index)
        }
        lock.unlock()
    }

    /// Sends one tick to every subscriber attached now.
    func fire() {
        let value = currentValue()
        lock.lock()
        let subscriptions = self.subscriptions
        lock.unlock()
        for subscription in subscriptions {
            subscription.deliver(value)
        }
    }

    /// Starts the timer with `start`, unless it is running already: then the running
    /// connection is returned. `start` schedules the action it is given to run at each tick and
    /// returns what stops the schedule; the action holds this object weakly.
    @usableFromInline
    func connect(start: (_ tick: @escaping @Sendable () -> Void) -> Cancellable) -> Cancellable {
        lock.lock()
        if let connection {
            lock.unlock()
            return connection
        }
        let connection = TimerConnection(core: self)
        self.connection = connection
        lock.unlock()
        connection.started(start { [weak self] in self?.fire() })
        return connection
    }

    func disconnected(_ connection: TimerConnection<Value>) {
        lock.withLock {
            if self.connection === connection { self.connection = nil }
        }
    }
}

/// The cancellable `connect()` returns: stops the repeating schedule. It holds the core weakly:
/// the core holds it while it runs.
final class TimerConnection<Value>: Cancellable, @unchecked Sendable {  // `schedule`, `cancelled` guarded by `lock`
    let lock = Lock()
    weak let core: TimerCore<Value>?
    var schedule: Cancellable?
    var cancelled = false

    init(core: TimerCore<Value>) {
        self.core = core
    }

    func started(_ schedule: Cancellable) {
        lock.lock()
        if cancelled {
            lock.unlock()
            schedule.cancel()
            return
        }
        self.schedule = schedule
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        if cancelled {
            lock.unlock()
            return
        }
        cancelled = true
        let schedule = self.schedule.take()
        lock.unlock()
        schedule?.cancel()
        core?.disconnected(self)
    }
}

/// A timer subscription without its downstream's type, so that the core can keep a list.
class TimerSubscriptionBase<Value>: @unchecked Sendable {  // subclasses guard their state with a lock
    init() {}
    func deliver(_ value: Value) { fatalError("abstract") }
}

/// One subscriber's subscription to a timer: its demand, and whether a tick is being
/// delivered to it.
final class TimerSubscription<Downstream: Subscriber>: TimerSubscriptionBase<Downstream.Input>, Subscription,
    CustomStringConvertible, @unchecked Sendable  // `downstream`, `demand`, `delivering` guarded by `lock`
where Downstream.Failure == Never {
    let lock = Lock()
    let core: TimerCore<Downstream.Input>
    var downstream: Downstream?
    var demand = Subscribers.Demand.none
    /// A tick that arrives while the previous one is still being delivered is missed, like one
    /// without demand: two calls into one subscriber never overlap ([S3]).
    ///
    /// [S3]: doc:/Contract/StreamContract#S3
    var delivering = false

    init(core: TimerCore<Downstream.Input>, downstream: Downstream) {
        self.core = core
        self.downstream = downstream
    }

    var description: String { "Timer" }

    override func deliver(_ value: Downstream.Input) {
        lock.lock()
        guard let downstream, demand > 0, !delivering else {
            lock.unlock()
            return
        }
        demand -= 1
        delivering = true
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        delivering = false
        if self.downstream != nil { demand += more }
        lock.unlock()
    }

    func request(_ demand: Subscribers.Demand) {
        // S9: asking for `.none` is accepted and does nothing, as in Combine (it is not passed on).
        guard demand != .none else { return }
        lock.withLock {
            if downstream != nil { self.demand += demand }
        }
    }

    func cancel() {
        lock.lock()
        let downstream = self.downstream.take()
        demand = .none
        lock.unlock()
        guard downstream != nil else { return }
        core.detach(self)
    }
}
