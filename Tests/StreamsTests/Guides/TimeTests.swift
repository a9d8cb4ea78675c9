import Dispatch
import Streams
import StreamsTesting
import Testing

// The examples of `Sources/Streams/Streams.docc/Time.md`, run as written there.
@Suite("Guide: Time")
struct TimeGuideTests {
    @Test func virtualTimeRunsOnlyWhenAdvanced() {
        let scheduler = DispatchQueue.test
        var received: [Int] = []
        let cancellable = Just(1)
            .delay(for: .seconds(2), scheduler: scheduler)
            .sink { received.append($0) }
        scheduler.advance(by: .seconds(1))
        #expect(received == [])
        scheduler.advance(by: .seconds(1))
        #expect(received == [1])
        _ = cancellable
    }

    @Test func marbles() {
        let scheduler = DispatchQueue.test
        assertMarbles("-a-b-----c-d|", on: scheduler,
                      { $0.debounce(for: .seconds(2), scheduler: scheduler) },
                      "-----b------|")
        assertMarbles("-abcd-----f|", on: scheduler,
                      { $0.throttle(for: .seconds(3), scheduler: scheduler, latest: true) },
                      "-a--d-----f|")
        assertMarbles("-abcd-----f|", on: scheduler,
                      { $0.throttle(for: .seconds(3), scheduler: scheduler, latest: false) },
                      "-a--b-----f|")
        assertMarbles("-a-b---c|", on: scheduler,
                      { $0.delay(for: .seconds(2), scheduler: scheduler) },
                      "---a-b---c|")
        assertMarbles("-a-b------c|", on: scheduler,
                      { $0.timeout(.seconds(3), scheduler: scheduler) },
                      "-a-b--[;|]")
    }

    @Test func debounceWaitsForTheQuietTime() {
        let scheduler = DispatchQueue.test
        let typed = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable = typed
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink { received.append($0) }
        typed.send("s")
        typed.send("sw")
        scheduler.advance(by: .milliseconds(100))
        typed.send("swi")
        scheduler.advance(by: .milliseconds(299))
        #expect(received == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(received == ["swi"])
        _ = cancellable
    }

    @Test func throttleSendsTheFirstAtOnceThenOnePerInterval() {
        let scheduler = DispatchQueue.test
        let taps = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = taps
            .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
            .sink { received.append($0) }
        taps.send(1)
        scheduler.advance()                   // 1 goes at once
        #expect(received == [1])
        taps.send(2)
        taps.send(3)
        scheduler.advance(by: .seconds(1))    // the latest of 2 and 3, a second after 1
        #expect(received == [1, 3])
        _ = cancellable
    }

    @Test func timeoutFailsWithTheCustomError() {
        struct TooSlow: Error {}
        let scheduler = DispatchQueue.test
        let replies = PassthroughSubject<String, any Error>()
        var log: [String] = []
        let cancellable = replies
            .timeout(.seconds(5), scheduler: scheduler, customError: { TooSlow() })
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { log.append("failed: \(error is TooSlow)") }
            }, receiveValue: { log.append($0) })
        replies.send("pong")
        scheduler.advance(by: .seconds(4))
        #expect(log == ["pong"])
        scheduler.advance(by: .seconds(5))   // five seconds after "pong"
        #expect(log == ["pong", "failed: true"])
        _ = cancellable
    }

    @Test func debounceDropsAValueWhoseTimeComesWithoutDemand_S1() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.history == [.requested(.unlimited)])
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(1))   // 2's time comes, and no demand is left
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    @Test func delayPassesRequestsStraightUp_S1() {
        let scheduler = DispatchQueue.test
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.history == [.requested(.max(2))])
    }
}
