import Streams
import StreamsTesting
import Testing

// The examples of `Sources/Streams/Streams.docc/MergeZipCombineLatest.md`, run as written there.
@Suite("Guide: merge, zip and combineLatest")
struct MergeZipCombineLatestGuideTests {
    @Test func theThreeSideBySide() {
        let numbers = PassthroughSubject<Int, Never>()
        let letters = PassthroughSubject<String, Never>()
        var merged: [String] = []
        var zipped: [String] = []
        var latest: [String] = []
        let c1 = numbers.map(String.init).merge(with: letters).sink { merged.append($0) }
        let c2 = numbers.zip(letters).sink { zipped.append("\($0)\($1)") }
        let c3 = numbers.combineLatest(letters).sink { latest.append("\($0)\($1)") }
        numbers.send(1)
        numbers.send(2)
        letters.send("a")
        numbers.send(3)
        letters.send("b")
        #expect(merged == ["1", "2", "a", "3", "b"])
        #expect(zipped == ["1a", "2b"])
        #expect(latest == ["2a", "3a", "3b"])
        _ = (c1, c2, c3)
    }

    @Test func marbles() {
        assertMarbles(["-1---3-|",
                       "---2---|"],
                      { $0[0].merge(with: $0[1]) },
                      "-1-2-3-|")
        assertMarbles(["-1-2-----3-|",
                       "---a-b-c---|"],
                      { $0[0].zip($0[1]) { $0 + $1 } },
                      "---'1a'-'2b'---'3c'-[;|]")
        assertMarbles(["-1---2-3---|",
                       "---a-----b-|"],
                      { $0[0].combineLatest($0[1]) { $0 + $1 } },
                      "---'1a'-'2a'-'3a'-'3b'-|")
    }

    @Test func mergeUnderLimitedDemandAsksEachUpstreamForOneAtATime_S1() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        a.merge(with: b).subscribe(subscriber)
        #expect(a.history == [.requested(.max(1))])
        #expect(b.history == [.requested(.max(1))])
        let more = a.send(1)   // delivered: `a` may send its next
        #expect(more == .max(1))
        b.send(2)              // no demand left: waits in the merge
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(b.history == [.requested(.max(1)), .requested(.max(1))])
    }

    @Test func zipAsksEachUpstreamForWhatTheSubscriberAsksFor() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<String, Never>()
        let subscriber = RecordingSubscriber<(Int, String), Never>(demand: .max(2))
        a.zip(b).subscribe(subscriber)
        #expect(a.history == [.requested(.max(2))])
        #expect(b.history == [.requested(.max(2))])
    }

    @Test func combineLatestDropsATupleWithoutDemandButKeepsTheValue_S1() {
        let width = PassthroughSubject<Int, Never>()
        let height = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(2))
        width.combineLatest(height) { $0 * $1 }.subscribe(subscriber)
        width.send(2)
        height.send(5)       // 10: the first unit of demand
        width.send(3)        // 15: the second
        height.send(6)       // 18 finds no demand: dropped, but 6 is kept
        subscriber.request(.max(1))
        width.send(4)        // 24, with the kept 6
        #expect(subscriber.values == [10, 15, 24])
    }

    @Test func aSubjectUpstreamDropsWhatGoesBeyondItsOwnDemand() {
        // combineLatest asks each subject for what the subscriber asked for: one value each here.
        let width = PassthroughSubject<Int, Never>()
        let height = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        width.combineLatest(height) { $0 * $1 }.subscribe(subscriber)
        width.send(2)
        height.send(5)       // 10
        width.send(3)        // `width` has no demand left: the subject drops 3 itself
        subscriber.request(.max(1))
        height.send(7)       // 14: 2 is still the latest width
        #expect(subscriber.values == [10, 14])
    }

    @Test func theFirstFailureCancelsTheOthers() {
        struct Boom: Error {}
        let a = TestPublisher<Int, Boom>()
        let b = TestPublisher<Int, Boom>()
        let subscriber = RecordingSubscriber<Int, Boom>()
        a.merge(with: b).subscribe(subscriber)
        a.send(completion: .failure(Boom()))
        #expect(b.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.completion != nil)
    }
}
