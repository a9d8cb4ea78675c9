import Dispatch
import Streams
import StreamsTesting
import Testing

// The examples of `Sources/Streams/Streams.docc/ShareAndMulticast.md`, run as written there.
@Suite("Guide: share and multicast")
struct ShareAndMulticastGuideTests {
    @Test func withoutShareEachSubscriberRunsTheWork() {
        var work: [Int] = []
        let numbers = [1, 2].publisher.handleEvents(receiveOutput: { work.append($0) })
        let c1 = numbers.sink { _ in }
        let c2 = numbers.sink { _ in }
        #expect(work == [1, 2, 1, 2])
        _ = (c1, c2)
    }

    @Test func mapOnASequencePublisherMapsOnceWhenItIsMade() {
        // As Combine's: `Publishers.Sequence.map` returns a sequence publisher of the mapped
        // elements, so the closure runs when the publisher is made, not per subscriber.
        var work: [Int] = []
        let doubled = [1, 2].publisher.map { value -> Int in
            work.append(value)
            return value * 2
        }
        #expect(work == [1, 2])
        let c1 = doubled.sink { _ in }
        let c2 = doubled.sink { _ in }
        #expect(work == [1, 2])
        _ = (c1, c2)
    }

    @Test func shareRunsTheWorkOnceForEverySubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let shared = subject
            .map { value -> Int in
                log.append("work \(value)")
                return value * 10
            }
            .share()
        let c1 = shared.sink { log.append("1 got \($0)") }
        subject.send(1)
        let c2 = shared.sink { log.append("2 got \($0)") }
        subject.send(2)
        #expect(log == ["work 1", "1 got 10", "work 2", "1 got 20", "2 got 20"])
        _ = (c1, c2)
    }

    @Test func aSynchronousUpstreamIsUsedUpByTheFirstSubscriber() {
        let shared = [1, 2, 3].publisher.share()
        var first: [Int] = []
        var second: [String] = []
        let c1 = shared.sink { first.append($0) }
        let c2 = shared.sink(receiveCompletion: { _ in second.append("finished") },
                             receiveValue: { second.append("\($0)") })
        #expect(first == [1, 2, 3])
        #expect(second == ["finished"])
        _ = (c1, c2)
    }

    @Test func multicastWaitsForConnect() {
        var log: [String] = []
        let work = [1, 2].publisher.handleEvents(receiveOutput: { log.append("work \($0)") })
        let multicast = work.multicast { PassthroughSubject<Int, Never>() }
        let c1 = multicast.sink { log.append("1 got \($0)") }
        let c2 = multicast.sink { log.append("2 got \($0)") }
        #expect(log == [])
        let connection = multicast.connect()
        #expect(log == ["work 1", "1 got 1", "2 got 1", "work 2", "1 got 2", "2 got 2"])
        _ = (c1, c2, connection)
    }

    @Test func theLastCancelDisconnectsAndTheNextSubscriberConnectsAgain() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let c1 = shared.sink { _ in }
        let c2 = shared.sink { _ in }
        #expect(upstream.subscriptions.count == 1)
        c1.cancel()
        #expect(!upstream.isCancelled)
        c2.cancel()
        #expect(upstream.isCancelled)
        let c3 = shared.sink { _ in }
        #expect(upstream.subscriptions.count == 2)
        _ = c3
    }

    @Test func autoconnectStartsATimerWithItsFirstSubscriber() {
        let scheduler = DispatchQueue.test
        var ticks = 0
        let cancellable = SchedulerTimer.publish(every: .seconds(1), on: scheduler)
            .autoconnect()
            .sink { _ in ticks += 1 }
        scheduler.advance(by: .seconds(3))
        #expect(ticks == 3)
        cancellable.cancel()
        scheduler.advance(by: .seconds(3))
        #expect(ticks == 3)
    }
}
