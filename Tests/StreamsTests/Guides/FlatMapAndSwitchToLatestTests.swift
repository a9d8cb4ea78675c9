import Streams
import StreamsTesting
import Testing

// The examples of `Sources/Streams/Streams.docc/FlatMapAndSwitchToLatest.md`, run as written there.
@Suite("Guide: flatMap and switchToLatest")
struct FlatMapAndSwitchToLatestGuideTests {
    @Test func flatMapMergesEveryInnerPublisher() {
        let outer = PassthroughSubject<String, Never>()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = outer
            .flatMap { name in name == "a" ? a : b }
            .sink { received.append($0) }
        outer.send("a")
        a.send(1)
        outer.send("b")
        b.send(7)
        a.send(2)       // `a` is still live
        #expect(received == [1, 7, 2])
        _ = cancellable
    }

    @Test func maxPublishersOneSubscribesOneInnerAtATime() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = [first, second].publisher
            .flatMap(maxPublishers: .max(1)) { $0 }
            .sink { received.append($0) }
        second.send(20)                      // not subscribed yet: nobody hears it
        first.send(1)
        first.send(completion: .finished)    // now `second` is subscribed
        second.send(2)
        #expect(received == [1, 2])
        _ = cancellable
    }

    @Test func flatMapAsksTheUpstreamForMaxPublishersThenOneMorePerFinishedInner() {
        let upstream = TestPublisher<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let cancellable = upstream
            .flatMap(maxPublishers: .max(2)) { _ in inner.prefix(1) }
            .sink { _ in }
        #expect(upstream.history == [.requested(.max(2))])
        upstream.send(1)
        upstream.send(2)
        inner.send(0)    // both inners take it and finish
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(1)), .requested(.max(1))])
        _ = cancellable
    }

    @Test func switchToLatestCancelsThePreviousInner() {
        let queries = PassthroughSubject<String, Never>()
        let catReplies = PassthroughSubject<String, Never>()
        let dogReplies = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable = queries
            .map { query in query == "cat" ? catReplies : dogReplies }
            .switchToLatest()
            .sink { received.append($0) }
        queries.send("cat")
        catReplies.send("cat 1")
        queries.send("dog")           // cancels the subscription to `catReplies`
        catReplies.send("cat 2")      // nobody listens any more
        dogReplies.send("dog 1")
        #expect(received == ["cat 1", "dog 1"])
        _ = cancellable
    }

    @Test func flatMapKeepsTheOldInnerWhereSwitchToLatestDropsIt() {
        let outer = PassthroughSubject<String, Never>()
        let a = PassthroughSubject<String, Never>()
        let b = PassthroughSubject<String, Never>()
        let merged = RecordingSubscriber<String, Never>()
        let switched = RecordingSubscriber<String, Never>()
        outer.flatMap { $0 == "a" ? a : b }.subscribe(merged)
        outer.map { $0 == "a" ? a : b }.switchToLatest().subscribe(switched)
        outer.send("a")
        a.send("1")
        outer.send("b")
        a.send("2")
        b.send("7")
        #expect(merged.values == ["1", "2", "7"])
        #expect(switched.values == ["1", "7"])
    }

    @Test func aNewInnerIsAskedForWhatIsStillOutstanding_S1() {
        let outer = PassthroughSubject<TestPublisher<Int, Never>, Never>()
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(3))
        outer.switchToLatest().subscribe(subscriber)
        outer.send(first)
        #expect(first.history == [.requested(.max(3))])
        first.send(1)
        outer.send(second)
        #expect(first.history == [.requested(.max(3)), .cancelled])
        #expect(second.history == [.requested(.max(2))])
    }
}
