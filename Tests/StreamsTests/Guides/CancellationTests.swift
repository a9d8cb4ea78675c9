import Streams
import StreamsTesting
import Testing

// The examples of `Sources/Streams/Streams.docc/Cancellation.md`, run as written there.
@Suite("Guide: Cancellation")
struct CancellationGuideTests {
    @Test func cancelFromInsideTheSinkStopsTheNextValue_S6() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = subject
            .map { $0 * 10 }
            .sink { value in
                received.append(value)
                if value == 20 { cancellable?.cancel() }
            }
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(received == [10, 20])
        _ = cancellable
    }

    @Test func aSynchronousPublisherIsDoneBeforeSinkReturns() {
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = [1, 2, 3].publisher
            .sink { value in
                received.append(value)
                if value == 2 { cancellable?.cancel() }  // still nil here
            }
        #expect(received == [1, 2, 3])
        _ = cancellable
    }

    @Test func prefixEndsASynchronousPublisherEarly_S15() {
        var received: [Int] = []
        let cancellable = [1, 2, 3].publisher
            .prefix(while: { $0 < 3 })
            .sink { received.append($0) }
        #expect(received == [1, 2])
        _ = cancellable
    }

    @Test func droppingTheCancellableCancels() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellables = Set<AnyCancellable>()
        subject
            .sink { received.append($0) }
            .store(in: &cancellables)
        subject.send(1)
        cancellables.removeAll()  // the last reference goes: cancelled
        subject.send(2)
        #expect(received == [1])
    }

    @Test func endingEarlyCancelsTheUpstream_S15() {
        let upstream = TestPublisher<Int, Never>()
        var received: [Int] = []
        let cancellable = upstream.first().sink { received.append($0) }
        #expect(upstream.history == [.requested(.unlimited)])
        _ = upstream.send(1)
        #expect(received == [1])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        _ = cancellable
    }

    @Test func cancelIsIdempotentAndReachesTheUpstreamOnce_S6() {
        let upstream = TestPublisher<Int, Never>()
        let cancellable = upstream.dropFirst().sink { _ in }
        cancellable.cancel()
        cancellable.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancellingReleasesTheSubscriber_S7() {
        let subject = PassthroughSubject<Int, Never>()
        final class Owner {}
        weak var weakOwner: Owner?
        var cancellable: AnyCancellable?
        do {
            let owner = Owner()
            weakOwner = owner
            cancellable = subject.sink { _ in _ = owner }
        }
        #expect(weakOwner != nil)
        cancellable?.cancel()
        #expect(weakOwner == nil)
    }
}
