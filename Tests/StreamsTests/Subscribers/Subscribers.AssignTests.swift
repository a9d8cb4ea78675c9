import Streams
import StreamsTesting
import Testing

@Suite("assign(to:on:)")
struct AssignTests {
    final class Model: @unchecked Sendable { var count = 0 }

    @Test func writesEachValue() {
        let model = Model()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.assign(to: \.count, on: model)
        subject.send(1)
        #expect(model.count == 1)
        subject.send(5)
        #expect(model.count == 5)
        _ = cancellable
    }

    @Test func docExample() {
        let model = Model()
        let cancellable = [1, 2, 3].publisher.assign(to: \.count, on: model)
        #expect(model.count == 3)
        _ = cancellable
    }

    @Test func requestsUnlimitedAndCancels() {
        let upstream = TestPublisher<Int, Never>()
        let cancellable = upstream.assign(to: \.count, on: Model())
        cancellable.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func releasesTheObjectOnCompletionAndCancel_S7() {
        weak var weakModel: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            weakModel = model
            cancellable = Just(1).assign(to: \.count, on: model)
        }
        #expect(weakModel == nil)

        let subject = PassthroughSubject<Int, Never>()
        do {
            let model = Model()
            weakModel = model
            cancellable = subject.assign(to: \.count, on: model)
        }
        #expect(weakModel != nil)
        cancellable?.cancel()
        #expect(weakModel == nil)
    }

    @Test func ignoresMisbehavingUpstream_S2() {
        // As Combine's Assign: nothing before the subscription, nothing after the completion.
        final class Target {
            var values: [Int] = []
            var value = 0 { didSet { values.append(value) } }
        }
        let target = Target()
        let upstream = MisbehavingPublisher<Int, Never>([.value(1), .completion(.finished), .subscription,
                                                         .value(2), .completion(.finished), .value(3), .subscription])
        let cancellable = upstream.assign(to: \.value, on: target)
        #expect(target.values == [2])
        #expect(upstream.subscriptions.map(\.history) == [[.requested(.unlimited)], [.cancelled]])
        _ = cancellable
    }

    @Test func secondSubscriptionIsCancelled_S2() {
        let assign = Subscribers.Assign(object: Model(), keyPath: \.count)
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        first.subscribe(assign)
        second.subscribe(assign)
        #expect(second.history == [.cancelled])
        assign.cancel()
        #expect(assign.object == nil)
    }
}
