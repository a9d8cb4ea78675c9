import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("encode, decode")
struct EncodeTests {
    struct Boom: Error, Equatable {}
    struct Point: Codable, Equatable { var x, y: Int }
    /// A value whose encoding always throws.
    struct Unencodable: Encodable {
        func encode(to encoder: any Encoder) throws { throw Boom() }
    }

    // MARK: Marbles

    @Test func marbles() {
        // Encoding and decoding again gives back the values.
        assertMarbles("-a-b-|", {
            $0.encode(encoder: JSONEncoder()).decode(type: String.self, decoder: JSONDecoder())
        }, "-a-b-|")
        assertMarbles("-a-b-^", {
            $0.encode(encoder: JSONEncoder()).decode(type: String.self, decoder: JSONDecoder())
        }, "-a-b-^")
        // "x" is not JSON for an Int: the decoding error cancels the upstream and fails.
        assertMarbles("-1-x-2-|", {
            $0.map { Data($0.utf8) }.decode(type: Int.self, decoder: JSONDecoder())
        }, "-1-[;^]")
        assertMarbles([1, 2, 3].publisher.encode(encoder: JSONEncoder()).decode(type: Int.self, decoder: JSONDecoder()),
                      "[123|]")
    }

    @Test func encodeDocExample() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let subscriber = RecordingSubscriber<Data, any Error>()
        [Point(x: 1, y: 2)].publisher.encode(encoder: encoder).subscribe(subscriber)
        #expect(subscriber.values.map { String(decoding: $0, as: UTF8.self) } == [#"{"x":1,"y":2}"#])
        guard case .finished? = subscriber.completion else {
            Issue.record("expected .finished")
            return
        }
    }

    @Test func decodeDocExample() {
        let subscriber = RecordingSubscriber<Point, any Error>()
        [Data(#"{"x":1,"y":2}"#.utf8), Data("oops".utf8)].publisher
            .decode(type: Point.self, decoder: JSONDecoder())
            .subscribe(subscriber)
        #expect(subscriber.values == [Point(x: 1, y: 2)])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is DecodingError)
    }

    // MARK: Demand

    @Test func demandPassesThroughUnchanged() {
        let upstream = TestPublisher<Point, Never>()
        let subscriber = RecordingSubscriber<Data, any Error>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        #expect(upstream.send(Point(x: 0, y: 0)) == .max(1))
        subscriber.request(.max(3))
        #expect(upstream.history == [.requested(.max(2)), .requested(.max(3))])

        let dataUpstream = TestPublisher<Data, Never>()
        let decoded = RecordingSubscriber<Int, any Error>(demand: .max(4))
        dataUpstream.decode(type: Int.self, decoder: JSONDecoder()).subscribe(decoded)
        decoded.request(.max(1))
        #expect(dataUpstream.history == [.requested(.max(4)), .requested(.max(1))])
    }

    // MARK: Completion and failure

    @Test func anEncodingErrorCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Unencodable, Never>()
        let subscriber = RecordingSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        upstream.send(Unencodable())
        upstream.send(Unencodable())
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aDecodingErrorCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Data, Never>()
        let subscriber = RecordingSubscriber<Point, any Error>()
        upstream.decode(type: Point.self, decoder: JSONDecoder()).subscribe(subscriber)
        upstream.send(Data(#"{"x":1,"y":2}"#.utf8))
        upstream.send(Data(#"{"x":1}"#.utf8))
        #expect(subscriber.values == [Point(x: 1, y: 2)])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        guard case .failure(let error)? = subscriber.completion, case DecodingError.keyNotFound? = error as? DecodingError else {
            Issue.record("expected a keyNotFound decoding error")
            return
        }
    }

    @Test func theUpstreamsFailurePassesThrough() {
        let upstream = TestPublisher<Point, Boom>()
        let subscriber = RecordingSubscriber<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
        upstream.send(completion: .failure(Boom()))
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Data, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(1))
        upstream.decode(type: Int.self, decoder: JSONDecoder()).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelAndCompletionReleaseTheSubscriber_S7() {
        for cancels in [true, false] {
            weak var weakSubscriber: RecordingSubscriber<Data, any Error>?
            let upstream = TestPublisher<Point, Never>()
            do {
                let subscriber = RecordingSubscriber<Data, any Error>()
                weakSubscriber = subscriber
                upstream.encode(encoder: JSONEncoder()).subscribe(subscriber)
                if cancels { subscriber.cancel() } else { upstream.send(completion: .finished) }
                subscriber.releaseSubscription()
            }
            #expect(weakSubscriber == nil)
        }
    }

    // MARK: Its own subscription

    @Test func subscriptionsAreCombinesEncodeAndDecode() {
        checkOwnSubscription(named: "Encode") { $0.encode(encoder: JSONEncoder()) }
        checkOwnSubscription(named: "Decode") {
            $0.map { Data("\($0)".utf8) }.decode(type: Int.self, decoder: JSONDecoder())
        }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.encode(encoder: JSONEncoder()) }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.decode(type: Int.self, decoder: JSONDecoder()) },
                                        value: Data("1".utf8), failure: Boom())
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, any Error>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<10_000).publisher.encode(encoder: JSONEncoder()).decode(type: Int.self, decoder: JSONDecoder())
            .subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values.count == 10_000)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        checkContract({ (0..<300).publisher.encode(encoder: JSONEncoder()) }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.encode(encoder: JSONEncoder()).decode(type: Int.self, decoder: JSONDecoder()) },
                      requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.map { $0 == 150 ? Data("x".utf8) : Data("\($0)".utf8) }
            .decode(type: Int.self, decoder: JSONDecoder()) }, requestingNone: .isIgnored)
        // The subscriber holds the operator's own subscription, not Just's: `.none` is ignored.
        checkContract({ Just(Point(x: 1, y: 2)).encode(encoder: PropertyListEncoder()) }, requestingNone: .isIgnored)
    }
}
