import Foundation
import Streams
import StreamsTesting

/// What happened during the current tick of a run, by whom: each subscriber's events and
/// requests, the requests, cancels and subscriptions each row was sent, the values a row could
/// not send.
final class LabLog: @unchecked Sendable {  // every field is guarded by `lock`
    private let lock = Lock()
    private var output: [Int: [Marbles.Event]] = [:]
    private var asked: [String: [Marbles.Event]] = [:]
    private var dropped: [String: [Marbles.Event]] = [:]
    private var subscriber: [Int: [Marbles.Event]] = [:]
    private var subscriptions: [String: [Marbles.Event]] = [:]
    private var notes: [String] = []
    private var subscriptionCounts: [String: Int] = [:]
    private var currentTick = 0
    private var replayEnd = 0
    private let subscriberCount: Int

    /// A log for a run with `subscriberCount` subscribers at the end of the chain.
    init(subscriberCount: Int = 1) { self.subscriberCount = subscriberCount }

    func output(_ event: Marbles.Event, subscriber index: Int) {
        lock.withLock { output[index, default: []].append(event) }
    }
    func asked(_ row: String, _ event: Marbles.Event) { lock.withLock { asked[row, default: []].append(event) } }
    /// A row was cancelled: in its demand row, and (with one subscriber) in the output row.
    func cancelled(_ row: String) {
        lock.withLock {
            asked[row, default: []].append(.cancelled)
            if subscriberCount == 1 { output[0, default: []].append(.cancelled) }
        }
    }
    /// A row was subscribed to: the how-manieth time, in its subscriptions row.
    func subscribed(_ row: String) {
        lock.withLock {
            subscriptionCounts[row, default: 0] += 1
            subscriptions[row, default: []].append(.value(String(subscriptionCounts[row] ?? 0)))
        }
    }
    func dropped(_ row: String, _ value: String) { lock.withLock { dropped[row, default: []].append(.value(value)) } }
    func subscriber(_ event: Marbles.Event, index: Int) {
        lock.withLock { subscriber[index, default: []].append(event) }
    }
    /// Records a problem met while running (a formula that does not apply to a value), once.
    func note(_ text: String) {
        lock.withLock {
            let text = "tick \(currentTick): \(text)"
            if !notes.contains(text) { notes.append(text) }
        }
    }
    /// A cold row plays its diagram until `tick`.
    func replaying(until tick: Int) { lock.withLock { replayEnd = max(replayEnd, tick) } }
    /// The tick at which the last replay of a cold row ends.
    var lastReplayEnd: Int { lock.withLock { replayEnd } }
    /// The tick the run is at, for the notes.
    func setTick(_ tick: Int) { lock.withLock { currentTick = tick } }

    struct Tick {
        var output: [Int: [Marbles.Event]]
        var asked: [String: [Marbles.Event]]
        var dropped: [String: [Marbles.Event]]
        var subscriber: [Int: [Marbles.Event]]
        var subscriptions: [String: [Marbles.Event]]
    }

    /// The tick's events, and a fresh start for the next.
    func take() -> Tick {
        lock.withLock {
            defer {
                output = [:]
                asked = [:]
                dropped = [:]
                subscriber = [:]
                subscriptions = [:]
            }
            return Tick(
                output: output, asked: asked, dropped: dropped, subscriber: subscriber, subscriptions: subscriptions)
        }
    }

    var allNotes: [String] { lock.withLock { notes } }
    /// How many times each row was subscribed to.
    var subscriptionCountsByRow: [String: Int] { lock.withLock { subscriptionCounts } }
}

/// An input row. A hot row is a publisher the run drives at the row's ticks, like a subject:
/// each subscriber gets what is sent after it subscribed, and a subscriber that comes after the
/// end gets the end at once. A cold row plays its diagram again for each subscription, from the
/// tick of that subscription, like a `Deferred` publisher (so `retry` sees it from the start). A
/// value goes only to a subscription that asked for it (with `respectsDemand`; otherwise to every
/// one, as the docs' `TestPublisher` does), and the log shows who asked for what, and what was
/// dropped for want of demand.
final class LabRow: Publisher, @unchecked Sendable {  // every mutable field is guarded by `lock`
    typealias Output = String
    typealias Failure = MarbleFailure

    /// A cold row's diagram, and the clock it plays it on for each subscription.
    struct Replay {
        let ticks: [[Marbles.Event]]
        let scheduler: TestSchedulerOf<DispatchQueue>
        /// The time of tick 0 of the run.
        let origin: DispatchQueue.SchedulerTimeType
    }

    let name: String
    let log: LabLog
    let respectsDemand: Bool
    /// For a cold row, what each subscription plays; `nil` for a hot row.
    let replay: Replay?
    private let lock = Lock()
    private var subscriptions: [RowSubscription] = []
    private var completion: Subscribers.Completion<MarbleFailure>?

    init(name: String, log: LabLog, respectsDemand: Bool, replay: Replay? = nil) {
        self.name = name
        self.log = log
        self.respectsDemand = respectsDemand
        self.replay = replay
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == MarbleFailure {
        let subscription = RowSubscription(row: self, subscriber: AnySubscriber(subscriber))
        let completion = lock.withLock {
            subscriptions.append(subscription)
            return self.completion
        }
        log.subscribed(name)
        subscriber.receive(subscription: subscription)
        if let replay {
            // Tick 0 of the diagram is the tick of the subscription, after what it is doing now.
            let start = replay.scheduler.now
            let tick = Int(replay.origin.distance(to: start).magnitude / 1_000_000_000)
            log.replaying(until: tick + replay.ticks.count)
            for (offset, events) in replay.ticks.enumerated() where !events.isEmpty {
                replay.scheduler.schedule(after: start.advanced(by: .seconds(offset))) {
                    subscription.play(events)
                }
            }
        } else if let completion {
            subscription.finish(completion)
        }
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
            row.log.cancelled(row.name)
        }

        /// A cold row's events for this subscription alone.
        func play(_ events: [Marbles.Event]) {
            for event in events {
                switch event {
                case .value(let value):
                    if isAttached, !deliver(value, evenUnasked: !row.respectsDemand) {
                        row.log.dropped(row.name, value)
                    }
                case .finished: finish(.finished)
                case .failure: finish(.failure(MarbleFailure()))
                case .cancelled: cancel()
                }
            }
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
    /// Which subscriber it is, from 0, for the log.
    let index: Int
    private var subscription: Subscription?
    private var completed = false

    init(log: LabLog, initial: Subscribers.Demand, index: Int = 0) {
        self.log = log
        self.initial = initial
        self.index = index
    }

    var isCompleted: Bool { lock.withLock { completed } }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        if initial > .none {
            log.subscriber(LabRender.demandEvent(initial), index: index)
            subscription.request(initial)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        log.subscriber(LabRender.demandEvent(demand), index: index)
        lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
        log.subscriber(.cancelled, index: index)
        let subscription = lock.withLock {
            defer { self.subscription = nil }
            return self.subscription
        }
        subscription?.cancel()
    }

    func receive(_ input: String) -> Subscribers.Demand {
        log.output(.value(input), subscriber: index)
        return .none
    }

    func receive(completion: Subscribers.Completion<MarbleFailure>) {
        lock.withLock { completed = true }
        log.output(completion == .finished ? .finished : .failure, subscriber: index)
    }
}
