import Streams
import StreamsTesting
import Testing

@Suite("AnyPublisher, AnySubscriber, Subject.subscribe")
struct AnyPublisherTests {
    struct Oops: Error, Equatable {}

    @Test func erasesAndForwardsEverything() {
        func evens() -> AnyPublisher<Int, Never> {
            (1...6).publisher.filter { $0 % 2 == 0 }.eraseToAnyPublisher()
        }
        #expect(values(evens()) == [2, 4, 6])
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.eraseToAnyPublisher().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.max(2)), .cancelled])
    }

    @Test func erasingTwiceReusesTheBox() {
        let once = Just(1).eraseToAnyPublisher()
        let twice = AnyPublisher(once)
        #expect(values(twice) == [1])
        #expect(once.eraseToAnyPublisher().description == "AnyPublisher")
    }

    @Test func anySubscriberFromClosures() {
        final class Log: @unchecked Sendable { var entries: [String] = [] }
        let log = Log()
        let printer = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(2)) },
            receiveValue: { log.entries.append("\($0)"); return .none },
            receiveCompletion: { log.entries.append("\($0)") })
        [1, 2, 3].publisher.subscribe(printer)
        #expect(log.entries == ["1", "2"])
    }

    @Test func anySubscriberKeepsTheIdentity() {
        let recorder = RecordingSubscriber<Int, Never>()
        let erased = AnySubscriber(recorder)
        #expect(erased.combineIdentifier == recorder.combineIdentifier)
        #expect(AnySubscriber(erased).combineIdentifier == recorder.combineIdentifier)
        Just(1).subscribe(erased)
        #expect(recorder.values == [1])
    }

    @Test func anySubscriberWrappingASubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        [1, 2].publisher.subscribe(AnySubscriber(subject))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .finished)
    }

    @Test func anySubscriberWrappingASubjectPassesTheFirstSubscriptionAndCompletionOnly() {
        let subject = PassthroughSubject<Int, Oops>()
        let recorder = RecordingSubscriber<Int, Oops>()
        subject.subscribe(recorder)
        let erased = AnySubscriber(subject)
        #expect(erased.description == "Subject")
        let first = TestPublisher<Int, Oops>()
        let second = TestPublisher<Int, Oops>()
        first.subscribe(erased)
        second.subscribe(erased)  // a second subscription: cancelled, as Combine's
        #expect(first.history == [.requested(.unlimited)])
        #expect(second.history == [.cancelled])
        first.send(1)
        first.send(completion: .failure(Oops()))
        first.send(completion: .finished)  // after the end: ignored
        first.send(2)
        #expect(recorder.values == [1])
        #expect(recorder.completion == .failure(Oops()))
        #expect(recorder.violations.isEmpty)
    }

    @Test func combineIdentifiers() {
        let a = CombineIdentifier()
        let b = CombineIdentifier()
        #expect(a != b)
        let object = RecordingSubscriber<Int, Never>()
        #expect(CombineIdentifier(object) == CombineIdentifier(object))
        #expect(object.combineIdentifier == CombineIdentifier(object))
        #expect(a.description.hasPrefix("0x"))
    }

    @Test func completionIsCodableAndHashable() throws {
        struct Code: Error, Codable, Hashable { var value: Int }
        let completions: [Subscribers.Completion<Code>] = [.finished, .failure(Code(value: 3))]
        let data = try JSONEncoder().encode(completions)
        #expect(try JSONDecoder().decode([Subscribers.Completion<Code>].self, from: data) == completions)
        #expect(Set(completions).count == 2)
    }
}

import Foundation
