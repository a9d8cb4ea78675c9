import Foundation
import Streams
import StreamsTesting
import Testing

/// Foundation's `Timer.publish`: what can be checked without running a run loop. The ticks
/// themselves, on a real run loop, are tested in StreamsStressTests (TimerPublisherRunLoopTests).
@Suite("Timer.publish, Timer.TimerPublisher")
struct TimerPublisherTests {
    // MARK: Marbles
    // None on virtual time: a run loop timer runs on real time (see StreamsStressTests).

    @Test func theParametersAreKept() {
        let mode = RunLoop.Mode("streams.test")
        let publisher = Timer.publish(every: 0.25, tolerance: 0.02, on: .current, in: mode)
        #expect(publisher.interval == 0.25)
        #expect(publisher.tolerance == 0.02)
        #expect(publisher.runLoop === RunLoop.current)
        #expect(publisher.mode == mode)
        #expect(publisher.options == nil)
        let plain = Timer.TimerPublisher(interval: 1, runLoop: .current, mode: .default)
        #expect(plain.tolerance == nil)
    }

    @Test func subscribingAloneStartsNothing() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
        let subscriber = RecordingSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.events.count == 1)  // the subscription only
        #expect(subscriber.values.isEmpty)
    }

    // MARK: Demand

    @Test func requestingNoneIsIgnored_S9() {
        // Combine accepts `.none` here and does nothing.
        let subscriber = RecordingSubscriber<Date, Never>(demand: nil)
        Timer.publish(every: 1, on: .current, in: .default).subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.request(.none) }
        #expect(messages.isEmpty)
        #expect(subscriber.events.count == 1)  // just the subscription
    }

    // MARK: Cancellation

    @Test func connectingWhileConnectedReturnsTheRunningConnection() {
        let publisher = Timer.publish(every: 60, on: .current, in: .default)
        let first = publisher.connect()
        let second = publisher.connect()
        let same = (first as AnyObject) === (second as AnyObject)
        #expect(same)
        first.cancel()
        let third = publisher.connect()
        let fresh = (first as AnyObject) !== (third as AnyObject)
        #expect(fresh)
        third.cancel()
    }

    @Test func cancelReleasesTheSubscriber_S7() {
        let publisher = Timer.publish(every: 60, on: .current, in: .default)
        weak var weakSubscriber: RecordingSubscriber<Date, Never>?
        do {
            let subscriber = RecordingSubscriber<Date, Never>()
            weakSubscriber = subscriber
            publisher.subscribe(subscriber)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber == nil)
    }
}
