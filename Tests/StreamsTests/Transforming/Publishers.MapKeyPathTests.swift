import Streams
import StreamsTesting
import Testing

@Suite("map with key paths")
struct MapKeyPathTests {
    struct Boom: Error, Equatable {}
    struct User: Equatable { let name: String }
    struct Point: Equatable { let x: Int, y: Int }
    struct Color: Equatable { let r: Int, g: Int, b: Int }

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-'bc'-|", { $0.map(\.count) }, "-1-2-|")
        assertMarbles("-a-'bc'-^", { $0.map(\.count, \.isEmpty) }, "-'(1, false)'-'(2, false)'-^")
        assertMarbles("-a-|", { $0.map(\.count, \.isEmpty, \.self) }, "-'(1, false, \"a\")'-|")
        assertMarbles([Point(x: 1, y: 2), Point(x: 3, y: 4)].publisher.map(\.y), "[24|]")
    }

    @Test func docExampleOutputs() {
        #expect(values([User(name: "Ann"), User(name: "Bo")].publisher.map(\.name)) == ["Ann", "Bo"])
        let pairs = values([Point(x: 1, y: 2)].publisher.map(\.x, \.y))
        #expect(pairs.map { [$0.0, $0.1] } == [[1, 2]])
        let triples = values([Color(r: 1, g: 2, b: 3)].publisher.map(\.r, \.g, \.b))
        #expect(triples.map { [$0.0, $0.1, $0.2] } == [[1, 2, 3]])
    }

    /// Adding the key path overloads must not capture closures: `map { ... }` stays `map`.
    @Test func aClosureStillPicksTheClosureOverload() {
        let upstream = TestPublisher<User, Never>()
        let byClosure = upstream.map { $0.name }
        #expect(type(of: byClosure) == Publishers.Map<TestPublisher<User, Never>, String>.self)
        let byClosureOfTuple = upstream.map { ($0.name, $0.name.count) }
        #expect(type(of: byClosureOfTuple) == Publishers.Map<TestPublisher<User, Never>, (String, Int)>.self)
        let byKeyPath = upstream.map(\.name)
        #expect(type(of: byKeyPath) == Publishers.MapKeyPath<TestPublisher<User, Never>, String>.self)
        let byTwo = upstream.map(\.name, \.name.count)
        #expect(type(of: byTwo) == Publishers.MapKeyPath2<TestPublisher<User, Never>, String, Int>.self)
        let byThree = upstream.map(\.name, \.name.count, \.self)
        #expect(type(of: byThree) == Publishers.MapKeyPath3<TestPublisher<User, Never>, String, Int, User>.self)
        // On `Just`, Apple's documented example: a key path is not ambiguous with Just's eager map.
        let onJust = Just(User(name: "Ann")).map(\.name)
        #expect(type(of: onJust) == Publishers.MapKeyPath<Just<User>, String>.self)
        #expect(values(onJust) == ["Ann"])
        #expect(byKeyPath.keyPath == \User.name)
        #expect(byTwo.keyPath0 == \User.name && byTwo.keyPath1 == \User.name.count)
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Point, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.map(\.x).subscribe(subscriber)
        #expect(upstream.send(Point(x: 5, y: 6)) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])
        #expect(subscriber.values == [5])
    }

    // MARK: Completion and failure

    @Test func completionAndFailurePassThrough() {
        let finished = RecordingSubscriber<Int, Never>()
        [Point(x: 1, y: 2)].publisher.map(\.x).subscribe(finished)
        #expect(finished.events == [.subscription, .value(1), .completion(.finished)])

        let upstream = TestPublisher<Point, Boom>()
        let failed = RecordingSubscriber<Int, Boom>()
        upstream.map(\.y).subscribe(failed)
        upstream.send(Point(x: 1, y: 2))
        upstream.send(completion: .failure(Boom()))
        #expect(failed.events == [.subscription, .value(2), .completion(.failure(Boom()))])
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstreamAndLetsGo_S7() {
        let upstream = TestPublisher<Point, Never>()
        let subscriber = RecordingSubscriber<(Int, Int, Int), Never>(demand: .max(1))
        upstream.map(\.x, \.y, \.x).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
        #expect(upstream.subscriptions.last?.isAttached == false)
    }

    // MARK: The upstream's subscription

    /// As in Combine, map(keyPath) keeps no state and hands the subscriber the upstream's own
    /// subscription.
    @Test func passesTheUpstreamSubscription() {
        let subscriber = RecordingSubscriber<Int, Boom>(demand: nil)
        TestPublisher<Int, Boom>().map(\.self).subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "TestSubscription")
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<(Int, String), Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<(Int, String), Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<10_000).publisher.map(\.self, \.description).subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.values.last.map { $0.1 } == "9999")
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.map(\.description) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map(\.self, \.description) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map(\.self, \.description, \.bitWidth) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryMap { n -> Int in
            if n == 150 { throw Boom() }
            return n
        }.map(\.description) }, requestingNone: .isIgnored)
        checkContract { Just(Point(x: 1, y: 2)).eraseToAnyPublisher().map(\.x, \.y) }
    }
}
