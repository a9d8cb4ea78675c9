import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("Record")
struct RecordTests {
    struct Oops: Error, Equatable, Codable {}

    @Test func playsBackValuesThenCompletion() {
        let record = Record<Int, Never> { r in
            r.receive(1)
            r.receive(2)
            r.receive(completion: .finished)
        }
        assertMarbles(record, "[12|]")
        assertMarbles(Record<Int, Oops>(output: [1, 2], completion: .failure(Oops())), "[12^]")
        assertMarbles(Record<Int, Oops>(output: [], completion: .failure(Oops())), "^", demand: .none)
    }

    @Test func unfinishedRecordingFinishes() {
        let record = Record<Int, Never> { $0.receive(9) }
        assertMarbles(record, "[9|]")
    }

    @Test func valuesWaitForDemand_S1() {
        let subscriber = RecordingSubscriber<Int, Oops>(demand: .max(1))
        Record<Int, Oops>(output: [1, 2], completion: .failure(Oops())).subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .failure(Oops()))
    }

    @Test func codableRoundTrip() throws {
        let record = Record<Int, Oops>(output: [3, 4], completion: .failure(Oops()))
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<Int, Oops>.self, from: data)
        #expect(decoded.recording.output == [3, 4])
        #expect(decoded.recording.completion == .failure(Oops()))
    }

    @Test func recordingAfterTheCompletionStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = Record<Int, Never> { r in
                r.receive(completion: .finished)
                r.receive(1)
            }
        }
    }

    @Test func contract() {
        checkContract({ Record<Int, Never>(output: Array(0..<300), completion: .finished) }, requestingNone: .isIgnored)
        checkContract({ Record<Int, Oops>(output: [1, 2, 3], completion: .failure(Oops())) }, requestingNone: .isIgnored)
    }
}
