import Streams
import StreamsTesting

/// What happened during the current tick of a run, by whom: the subscriber's events, the
/// requests and cancels each row was sent, the values a row could not send.
final class LabLog: @unchecked Sendable {  // every field is guarded by `lock`
    private let lock = Lock()
    private var output: [Marbles.Event] = []
    private var asked: [String: [Marbles.Event]] = [:]
    private var dropped: [String: [Marbles.Event]] = [:]
    private var subscriber: [Marbles.Event] = []
    private var notes: [String] = []
    private var subscribed: Set<String> = []
    private var currentTick = 0

    func output(_ event: Marbles.Event) { lock.withLock { output.append(event) } }
    func asked(_ row: String, _ event: Marbles.Event) { lock.withLock { asked[row, default: []].append(event) } }
    func subscribed(_ row: String) { lock.withLock { _ = subscribed.insert(row) } }
    func dropped(_ row: String, _ value: String) { lock.withLock { dropped[row, default: []].append(.value(value)) } }
    func subscriber(_ event: Marbles.Event) { lock.withLock { subscriber.append(event) } }
    /// Records a problem met while running (a formula that does not apply to a value), once.
    func note(_ text: String) {
        lock.withLock {
            let text = "tick \(currentTick): \(text)"
            if !notes.contains(text) { notes.append(text) }
        }
    }
    /// The tick the run is at, for the notes.
    func setTick(_ tick: Int) { lock.withLock { currentTick = tick } }

    struct Tick {
        var output: [Marbles.Event]
        var asked: [String: [Marbles.Event]]
        var dropped: [String: [Marbles.Event]]
        var subscriber: [Marbles.Event]
    }

    /// The tick's events, and a fresh start for the next.
    func take() -> Tick {
        lock.withLock {
            defer {
                output = []
                asked = [:]
                dropped = [:]
                subscriber = []
            }
            return Tick(output: output, asked: asked, dropped: dropped, subscriber: subscriber)
        }
    }

    var allNotes: [String] { lock.withLock { notes } }
    var subscribedRows: Set<String> { lock.withLock { subscribed } }
}

/// An input row: a hot publisher the run drives at the row's ticks, like a subject. Each
/// subscriber gets what is sent after it subscribed; a value goes only to a subscription that
/// asked for it (with `respectsDemand`; otherwise to every one, as the docs' `TestPublisher`
/// does), and the log shows who asked for what, and what was dropped for want of demand.
final class LabRow: Publisher, @unchecked Sendable {  // every mutable field is guarded by `lock`
    typealias Output = String
    typealias Failure = MarbleFailure

    let name: String
    let log: LabLog
    let respectsDemand: Bool
    private let lock = Lock()
    private var subscriptions: [RowSubscription] = []
    private var completion: Subscribers.Completion<MarbleFailure>?

    init(name: String, log: LabLog, respectsDemand: Bool) {
        self.name = name
        self.log = log
        self.respectsDemand = respectsDemand
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == MarbleFailure {
        let subscription = RowSubscription(row: self, subscriber: AnySubscriber(subscriber))
        let completion = lock.withLock {
            subscriptions.append(subscription)
            return self.completion
        }
        log.subscribed(name)
        subscriber.receive(subscription: subscription)
        if let completion { subscription.finish(completion) }
    }

    func play(_ events: [Marbles.Event]) {
        for event in events {
            switch event {
            case .value(let text): send(text)
            case .finished: send(completion: .finished)
            case .failure: send(completion: .failure(MarbleFailure()))
            case .cancelled: lock.withLock { subscriptions.last }?.cancel()
            }
        }
    }

    private func send(_ value: String) {
        // A value no one is subscribed for is not dropped: no one could have asked for it.
        let attached = lock.withLock { subscriptions.filter(\.isAttached) }
        for subscription in attached {
            if !subscription.deliver(value, evenUnasked: !respectsDemand) { log.dropped(name, value) }
        }
    }

    private func send(completion: Subscribers.Completion<MarbleFailure>) {
        let attached = lock.withLock {
            self.completion = self.completion ?? completion
            return subscriptions
        }
        for subscription in attached { subscription.finish(completion) }
    }

    final class RowSubscription: Subscription, @unchecked Sendable {  // every mutable field is guarded by `lock`
        private let lock = Lock()
        private let row: LabRow
        private var subscriber: AnySubscriber<String, MarbleFailure>?
        private var demand = Subscribers.Demand.none

        init(row: LabRow, subscriber: AnySubscriber<String, MarbleFailure>) {
            self.row = row
            self.subscriber = subscriber
        }

        var isAttached: Bool { lock.withLock { subscriber != nil } }

        func request(_ demand: Subscribers.Demand) {
            let attached = lock.withLock {
                self.demand += demand
                return subscriber != nil
            }
            if attached { row.log.asked(row.name, LabRender.demandEvent(demand)) }
        }

        func cancel() {
            let subscriber = lock.withLock {
                defer { self.subscriber = nil }
                return self.subscriber
            }
            guard subscriber != nil else { return }
            row.log.asked(row.name, .cancelled)
            row.log.output(.cancelled)
        }

        /// Sends `value` if it was asked for (or `evenUnasked`); `false` when it was not sent.
        func deliver(_ value: String, evenUnasked: Bool) -> Bool {
            let subscriber: AnySubscriber<String, MarbleFailure>? = lock.withLock {
                guard let subscriber = self.subscriber else { return nil }
                if demand > .none {
                    demand -= 1
                } else if !evenUnasked {
                    return nil
                }
                return subscriber
            }
            guard let subscriber else { return false }
            let more = subscriber.receive(value)
            lock.withLock { demand += more }
            return true
        }

        func finish(_ completion: Subscribers.Completion<MarbleFailure>) {
            let subscriber = lock.withLock {
                defer { self.subscriber = nil }
                return self.subscriber
            }
            subscriber?.receive(completion: completion)
        }
    }
}

/// The subscriber at the end of the chain: asks for what `--demand` says, when it says, and
/// cancels at `--cancel-at`.
final class LabSubscriber: Subscriber, @unchecked Sendable {  // every mutable field is guarded by `lock`
    typealias Input = String
    typealias Failure = MarbleFailure

    private let lock = Lock()
    private let log: LabLog
    private let initial: Subscribers.Demand
    private var subscription: Subscription?
    private var completed = false

    init(log: LabLog, initial: Subscribers.Demand) {
        self.log = log
        self.initial = initial
    }

    var isCompleted: Bool { lock.withLock { completed } }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        if initial > .none {
            log.subscriber(LabRender.demandEvent(initial))
            subscription.request(initial)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        log.subscriber(LabRender.demandEvent(demand))
        lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
        log.subscriber(.cancelled)
        let subscription = lock.withLock {
            defer { self.subscription = nil }
            return self.subscription
        }
        subscription?.cancel()
    }

    func receive(_ input: String) -> Subscribers.Demand {
        log.output(.value(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<MarbleFailure>) {
        lock.withLock { completed = true }
        log.output(completion == .finished ? .finished : .failure)
    }
}
