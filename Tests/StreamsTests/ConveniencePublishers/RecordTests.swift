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

    @Test func encodesInCombinesForm() throws {
        // Combine nests the recording under "recording" (OpenCombine's RecordTests record the
        // encoder calls Combine makes), and a completion is {"success": ...}.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let finished = Record<Int, Oops>(output: [3, 2, 1], completion: .finished)
        #expect(String(decoding: try encoder.encode(finished), as: UTF8.self)
            == #"{"recording":{"completion":{"success":true},"output":[3,2,1]}}"#)
        let failed = Record<Int, Oops>(output: [], completion: .failure(Oops()))
        #expect(String(decoding: try encoder.encode(failed), as: UTF8.self)
            == #"{"recording":{"completion":{"error":{},"success":false},"output":[]}}"#)
    }

    @Test func decodesWhatCombineWrites() throws {
        let json = #"{"recording":{"completion":{"success":true},"output":[1,2]}}"#
        let record = try JSONDecoder().decode(Record<Int, Oops>.self, from: Data(json.utf8))
        #expect(record.recording.output == [1, 2])
        #expect(record.recording.completion == .finished)
        assertMarbles(record, "[12|]")

        let failedJSON = #"{"recording":{"output":[7],"completion":{"success":false,"error":{}}}}"#
        let failed = try JSONDecoder().decode(Record<Int, Oops>.self, from: Data(failedJSON.utf8))
        assertMarbles(failed, "[7^]")
    }

    @Test func decodingWithoutTheRecordingKeyFails() {
        // As Combine: the missing key is "recording".
        do {
            _ = try JSONDecoder().decode(Record<Int, Oops>.self, from: Data("{}".utf8))
            Issue.record("decoding {} should fail")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "recording")
        } catch {
            Issue.record("unexpected error \(error)")
        }
        // The old flat form is not Combine's.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Record<Int, Oops>.self, from: Data(#"{"output":[1],"completion":{"success":true}}"#.utf8))
        }
    }

    @Test func recordingEncodesIntoAnEncoderAsCombine() throws {
        struct ThroughInto: Encodable {
            let recording: Record<Int, Oops>.Recording
            func encode(to encoder: any Encoder) throws { try recording.encode(into: encoder) }
        }
        let recording = Record<Int, Oops>.Recording(output: [5], completion: .finished)
        let data = try JSONEncoder().encode(ThroughInto(recording: recording))
        let decoded = try JSONDecoder().decode(Record<Int, Oops>.Recording.self, from: data)
        #expect(decoded.output == [5])
        #expect(decoded.completion == .finished)
    }

    @Test func completionCodableForm() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(Subscribers.Completion<Oops>.finished), as: UTF8.self)
            == #"{"success":true}"#)
        #expect(String(decoding: try encoder.encode(Subscribers.Completion<Oops>.failure(Oops())), as: UTF8.self)
            == #"{"error":{},"success":false}"#)
        let decoded = try JSONDecoder().decode(Subscribers.Completion<Oops>.self, from: Data(#"{"success":false,"error":{}}"#.utf8))
        #expect(decoded == .failure(Oops()))
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
