import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("SchedulerTimer")
struct SchedulerTimerTests {
    /// Whole seconds from `start` to `time`, as text for marble diagrams.
    static func seconds(from start: DispatchQueue.SchedulerTimeType, to time: DispatchQueue.SchedulerTimeType) -> String {
        String(start.distance(to: time).magnitude / 1_000_000_000)
    }

    // MARK: Marbles

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        assertMarbles(on: scheduler, SchedulerTimer.publish(every: .seconds(1), on: scheduler).autoconnect()
            .map { Self.seconds(from: start, to: $0) }, "-123456789")
    }

    @Test func marblesEveryTwoTicks() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        assertMarbles(on: scheduler, SchedulerTimer(interval: .seconds(2), scheduler: scheduler).autoconnect()
            .map { Self.seconds(from: start, to: $0) }, "--2-4-6-8")
    }

    @Test func nothingHappensUntilConnected() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        assertMarbles(on: scheduler, timer.map { _ in "x" }, "-----")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theFirstTickIsOneIntervalAfterConnecting() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = SchedulerTimer.publish(every: .seconds(2), on: scheduler)
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        timer.subscribe(subscriber)
        scheduler.advance(by: .seconds(3))
        let connection = timer.connect()
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.map { Self.seconds(from: start, to: $0) } == ["5", "7"])
        connection.cancel()
    }

    @Test func docExamples() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let printed = LockedLog()
        let first = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
            .autoconnect()
            .sink { printed.append("\(start.distance(to: $0) == .seconds(1))") }
        scheduler.advance(by: .seconds(1))
        #expect(printed.entries == ["true"])
        first.cancel()

        let timer = SchedulerTimer(interval: .seconds(1), scheduler: scheduler)
        let count = AtomicTickCounter()
        let second = timer.autoconnect().sink { _ in count.increment() }
        scheduler.advance(by: .seconds(5))
        #expect(count.count == 5)
        second.cancel()
    }

    @Test func theParametersAreKept() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(3), tolerance: .milliseconds(5), on: scheduler)
        #expect(timer.interval == .seconds(3))
        #expect(timer.tolerance == .milliseconds(5))
        #expect(timer.options == nil)
        #expect(SchedulerTimer(interval: .seconds(1), scheduler: scheduler).tolerance == nil)
    }

    @Test func everySubscriberSeesTheSameTicks() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let first = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        let second = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        timer.subscribe(first)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(2))
        timer.subscribe(second)
        scheduler.advance(by: .seconds(2))
        #expect(first.values.count == 4)
        #expect(second.values == Array(first.values.suffix(2)))
        connection.cancel()
    }

    // MARK: Demand

    @Test func aTickWithoutDemandIsMissed() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>(demand: .max(2))
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.map { Self.seconds(from: start, to: $0) } == ["1", "2"])
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.map { Self.seconds(from: start, to: $0) } == ["1", "2", "6"])
        #expect(subscriber.violations.isEmpty)
        connection.cancel()
    }

    @Test func demandReturnedFromReceiveCounts() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>(
            demand: .max(1), onValue: { _ in .max(1) })
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(4))
        #expect(subscriber.values.count == 4)
        #expect(subscriber.violations.isEmpty)
        connection.cancel()
    }

    @Test func eachSubscribersDemandIsItsOwn() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let hungry = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        let idle = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>(demand: nil)
        timer.subscribe(hungry)
        timer.subscribe(idle)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(hungry.values.count == 3)
        #expect(idle.values.isEmpty)
        connection.cancel()
    }

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing.
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>(demand: nil)
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        timer.subscribe(subscriber)
        let connection = timer.connect()
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.count == 1)
        connection.cancel()
    }

    // MARK: Completion and failure

    @Test func neverCompletes() {
        let scheduler = DispatchQueue.test
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(10))
        connection.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values.count == 10)
        #expect(subscriber.completion == nil)
    }

    // MARK: Cancellation

    @Test func cancellingTheConnectionStopsTheSchedule() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(2))
        #expect(scheduler.pendingCount == 1)
        connection.cancel()
        connection.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values.count == 2)
    }

    @Test func connectingWhileConnectedReturnsTheRunningConnection() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let first = timer.connect()
        let second = timer.connect()
        let same = (first as AnyObject) === (second as AnyObject)
        #expect(same)
        #expect(scheduler.pendingCount == 1)
        second.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func connectingAgainAfterACancelStartsANewSchedule() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let timer = SchedulerTimer.publish(every: .seconds(2), on: scheduler)
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        timer.subscribe(subscriber)
        timer.connect().cancel()
        scheduler.advance(by: .seconds(1))
        let connection = timer.connect()
        scheduler.advance(by: .seconds(4))
        #expect(subscriber.values.map { Self.seconds(from: start, to: $0) } == ["3", "5"])
        connection.cancel()
    }

    @Test func aCancelledSubscriberGetsNothingMore() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(1))
        subscriber.cancel()
        subscriber.request(.max(5))
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.count == 1)
        connection.cancel()
    }

    @Test func autoconnectStopsTheScheduleWhenTheLastSubscriberCancels() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler).autoconnect()
        let first = timer.sink { _ in }
        let second = timer.sink { _ in }
        scheduler.advance(by: .seconds(1))
        first.cancel()
        #expect(scheduler.pendingCount == 1)
        second.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let connection = timer.connect()
        weak var weakSubscriber: RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>?
        do {
            let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
            weakSubscriber = subscriber
            timer.subscribe(subscriber)
            scheduler.advance(by: .seconds(1))
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
        connection.cancel()
    }

    @Test func aTimerNobodyCanReachStopsItsSchedule_S7() {
        let scheduler = DispatchQueue.test
        weak var weakTimer: SchedulerTimer<TestSchedulerOf<DispatchQueue>>?
        do {
            let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
            weakTimer = timer
            _ = timer.connect()
            scheduler.advance(by: .seconds(2))
        }
        #expect(weakTimer == nil)
        #expect(scheduler.pendingCount == 0)
    }

    // MARK: Reentrancy

    @Test func requestAndCancelFromInsideReceive() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>(demand: .max(1), onValue: { _ in
            guard let subscriber = box.subscriber else { return .none }
            if subscriber.values.count == 3 { subscriber.cancel() } else { subscriber.request(.max(1)) }
            return .none
        })
        box.subscriber = subscriber
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(6))
        box.subscriber = nil
        #expect(subscriber.values.count == 3)
        #expect(subscriber.violations.isEmpty)
        connection.cancel()
    }

    @Test func subscribingAndConnectingFromInsideATick() {
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let late = RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        let subscribed = AtomicTickCounter()
        let trigger = timer.sink { _ in
            if subscribed.count == 0 {
                subscribed.increment()
                timer.subscribe(late)
                _ = timer.connect()
            }
        }
        let connection = timer.connect()
        scheduler.advance(by: .seconds(3))
        #expect(late.values.count == 2)
        connection.cancel()
        trigger.cancel()
    }

    // MARK: Contract

    @Test func contractOnVirtualTime() {
        // The contract checker needs a synchronous publisher; on virtual time the same rules are
        // checked by a recording subscriber at every step.
        let scheduler = DispatchQueue.test
        let timer = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
        let subscribers = [nil, Subscribers.Demand.max(1), .max(3), .unlimited].map {
            RecordingSubscriber<DispatchQueue.SchedulerTimeType, Never>(demand: $0)
        }
        for subscriber in subscribers { timer.subscribe(subscriber) }
        let connection = timer.connect()
        scheduler.advance(by: .seconds(5))
        #expect(subscribers.map(\.values.count) == [0, 1, 3, 5])
        for subscriber in subscribers { #expect(subscriber.violations.isEmpty) }
        connection.cancel()
    }
}
