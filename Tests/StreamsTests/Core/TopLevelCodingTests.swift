import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("TopLevelEncoder, TopLevelDecoder")
struct TopLevelCodingTests {
    struct Point: Codable, Equatable { var x, y: Int }

    /// A coder of our own: encodes a value as its description, decodes an `Int` from a string.
    struct DescriptionCoder: TopLevelEncoder, TopLevelDecoder {
        struct Unsupported: Error {}
        func encode<T: Encodable>(_ value: T) throws -> String { String(describing: value) }
        func decode<T: Decodable>(_ type: T.Type, from input: String) throws -> T {
            guard T.self == Int.self, let value = Int(input) else { throw Unsupported() }
            return value as! T
        }
    }

    func roundTrip<E: TopLevelEncoder, D: TopLevelDecoder>(_ value: Point, _ encoder: E, _ decoder: D) throws -> Point
    where E.Output == D.Input {
        try decoder.decode(Point.self, from: try encoder.encode(value))
    }

    @Test func jsonCodersConform() throws {
        let encoder: some TopLevelEncoder = JSONEncoder()
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        let data: Data = try sorted.encode(Point(x: 1, y: 2))
        #expect(String(decoding: data, as: UTF8.self) == #"{"x":1,"y":2}"#)
        #expect(try roundTrip(Point(x: 3, y: 4), JSONEncoder(), JSONDecoder()) == Point(x: 3, y: 4))
        _ = encoder
    }

    @Test func propertyListCodersConform() throws {
        #expect(try roundTrip(Point(x: 5, y: 6), PropertyListEncoder(), PropertyListDecoder()) == Point(x: 5, y: 6))
    }

    @Test func anyTypeCanBeACoder() {
        let subscriber = RecordingSubscriber<Int, any Error>()
        [7, 8].publisher.encode(encoder: DescriptionCoder()).decode(type: Int.self, decoder: DescriptionCoder())
            .subscribe(subscriber)
        #expect(subscriber.values == [7, 8])
        let strings = RecordingSubscriber<String, any Error>()
        [Point(x: 1, y: 2)].publisher.encode(encoder: DescriptionCoder()).subscribe(strings)
        #expect(strings.values == ["Point(x: 1, y: 2)"])
    }
}
