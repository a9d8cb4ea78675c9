import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("Published")
struct PublishedTests {
    final class Model: @unchecked Sendable {  // the tests touch it from one thread at a time, or only through its lock-guarded properties
        @Published var count = 0
        @Published var name: String? = nil
    }

    final class Log: @unchecked Sendable {  // written by one subscriber at a time
        var entries: [String] = []
    }

    // MARK: The projected publisher

    @Test func projectedPublisherSendsTheCurrentValueThenEachChange() {
        let model = Model()
        model.count = 3
        let subscriber = RecordingSubscriber<Int, Never>()
        model.$count.subscribe(subscriber)
        model.count = 4
        model.count += 1
        #expect(subscriber.values == [3, 4, 5])
        #expect(model.count == 5)
        #expect(subscriber.completion == nil)
    }

    @Test func theSubscriptionIsNamedPublishedSubjectAsInCombine() {
        let model = Model()
        let subscriber = RecordingSubscriber<Int, Never>()
        model.$count.subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "PublishedSubject")
    }

    @Test func optionalPropertyHoldingNil() {
        let model = Model()
        let subscriber = RecordingSubscriber<String?, Never>()
        model.$name.subscribe(subscriber)
        model.name = "a"
        model.name = nil
        #expect(subscriber.values == [nil, "a", nil])
    }

    @Test func subscriberReadingThePropertySeesTheOldValue() {
        // Combine publishes in the property's willSet: the value arrives before it is stored.
        let model = Model()
        var seen: [String] = []
        let cancellable = model.$count.sink { newValue in seen.append("\(newValue) while \(model.count)") }
        model.count = 1
        model.count = 2
        #expect(seen == ["0 while 0", "1 while 0", "2 while 1"])
        #expect(model.count == 2)
        _ = cancellable
    }

    @Test func eachCopyOfThePublisherIsTheSameStream() {
        let model = Model()
        let publisher = model.$count
        let early = RecordingSubscriber<Int, Never>()
        publisher.subscribe(early)
        model.count = 1
        let late = RecordingSubscriber<Int, Never>()
        model.$count.subscribe(late)
        publisher.subscribe(RecordingSubscriber<Int, Never>())
        model.count = 2
        #expect(early.values == [0, 1, 2])
        #expect(late.values == [1, 2])
    }

    @Test func settingTheProjectedValueDoesNothing() {
        // As Combine: `$a = $b` neither changes a's value nor connects the two.
        let a = Model()
        let b = Model()
        b.count = 2
        a.$count = b.$count
        #expect(a.count == 0)
        let subscriber = RecordingSubscriber<Int, Never>()
        a.$count.subscribe(subscriber)
        b.count = 5
        #expect(subscriber.values == [0])
    }

    // MARK: Demand

    @Test func subscriberWithMaxOneGetsOnlyTheCurrentValueUntilItAsks_S1() {
        let model = Model()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        model.$count.subscribe(subscriber)
        #expect(subscriber.values == [0])
        model.count = 1
        model.count = 2
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 2])
        model.count = 3
        #expect(subscriber.values == [0, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func nothingArrivesBeforeTheFirstRequest() {
        let model = Model()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        model.$count.subscribe(subscriber)
        model.count = 7
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [7])
    }

    @Test func demandSequenceAsCombine_S10() {
        // The history Combine records (OpenCombine's PublishedTests.testBasicBehavior): missed
        // values are replaced by the latest one when demand arrives.
        let model = Model()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        model.$count.subscribe(subscriber)
        subscriber.request(.max(2))
        model.count += 1
        model.count += 2
        model.count += 3
        #expect(subscriber.values == [0, 1])
        subscriber.request(.max(10))
        #expect(subscriber.values == [0, 1, 6])
        let second = RecordingSubscriber<Int, Never>()
        model.$count.subscribe(second)
        model.count = 42
        subscriber.cancel()
        model.count = -1
        #expect(subscriber.values == [0, 1, 6, 42])
        #expect(second.values == [6, 42, -1])
    }

    @Test func returnedDemandIsHonoured() {
        let model = Model()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in .max(1) })
        model.$count.subscribe(subscriber)
        for value in 1...5 { model.count = value }
        #expect(subscriber.values == [0, 1, 2, 3, 4, 5])
    }

    @Test func requestingNoneIsAViolation_S9() {
        let model = Model()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        model.$count.subscribe(subscriber)
        let messages = recordingAPIViolations { subscriber.subscription?.request(.none) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("S9") == true)
    }

    @Test func contract() {
        checkContract {
            let model = Model()
            model.count = 9
            return model.$count
        }
    }

    // MARK: Cancellation and lifetime

    @Test func cancelStopsDeliveryAndReleasesTheSubscriber_S7() {
        let model = Model()
        weak var weakSubscriber: RecordingSubscriber<Int, Never>?
        var subscription: Subscription?
        do {
            let subscriber = RecordingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            model.$count.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
            model.count = 1
            #expect(subscriber.values == [0, 1])
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        model.count = 2
        #expect(weakSubscriber == nil)
    }

    @Test func aSubscriptionDoesNotKeepTheObjectAlive() {
        weak var weakModel: Model?
        let subscriber = RecordingSubscriber<Int, Never>()
        do {
            let model = Model()
            weakModel = model
            model.$count.subscribe(subscriber)
            model.count = 1
        }
        #expect(weakModel == nil)
        #expect(subscriber.values == [0, 1])
        #expect(subscriber.completion == nil)
    }

    // MARK: Reentrancy and threads

    @Test func aSetFromInsideASubscriberIsQueuedAndTheLastSetWins_S11() {
        // Combine delivers the inner set recursively and then stores the outer value, which
        // leaves the property with a value older than the last one its subscribers saw; here
        // the inner value is delivered after the outer one and is the one that stays.
        let model = Model()
        let log = Log()
        let a = model.$count.sink { value in
            log.entries.append("a\(value)")
            if value == 1 {
                model.count = 10
                log.entries.append("read \(model.count)")
            }
        }
        let b = model.$count.sink { log.entries.append("b\($0)") }
        model.count = 1
        #expect(log.entries == ["a0", "b0", "a1", "read 10", "b1", "a10", "b10"])
        #expect(model.count == 10)
        _ = (a, b)
    }

    @Test func clampingInsideTheSinkSticks() {
        let model = Model()
        let cancellable = model.$count.sink { if $0 > 10 { model.count = 10 } }
        model.count = 50
        #expect(model.count == 10)
        _ = cancellable
    }

    @Test func setsFromManyThreadsAreDeliveredOneAtATimeAndTheLastDeliveredStays_S3() {
        let model = Model()
        let subscriber = RecordingSubscriber<Int, Never>()
        model.$count.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 1...500 { model.count = thread * 1_000 + i }
        }
        let values = subscriber.values
        #expect(values.count == 2_001)
        #expect(Set(values).count == 2_001)
        #expect(values.last == model.count)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: assign(to:)

    @Test func assignToPublishedSetsEachValueAndAsksForUnlimited() {
        let model = Model()
        let upstream = TestPublisher<Int, Never>()
        upstream.assign(to: &model.$count)
        #expect(upstream.history == [.requested(.unlimited)])
        let subscriber = RecordingSubscriber<Int, Never>()
        model.$count.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(model.count == 2)
        #expect(subscriber.values == [0, 1, 2])
        upstream.send(completion: .finished)
        // As Combine: the completion is ignored and the subscription is kept.
        #expect(subscriber.completion == nil)
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(model.count == 2)
    }

    @Test func assignToPublishedIsCancelledWhenTheObjectGoesAway() {
        let upstream = TestPublisher<Int, Never>()
        weak var weakModel: Model?
        do {
            let model = Model()
            weakModel = model
            upstream.assign(to: &model.$count)
            upstream.send(5)
            #expect(model.count == 5)
            #expect(upstream.history == [.requested(.unlimited)])
        }
        #expect(weakModel == nil)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func assigningToItsOwnPropertyMakesNoCycle() {
        final class Clock {
            @Published var ticks = 0
            init(source: some Publisher<Int, Never>) { source.assign(to: &$ticks) }
        }
        let source = PassthroughSubject<Int, Never>()
        weak var weakClock: Clock?
        do {
            let clock = Clock(source: source)
            weakClock = clock
            source.send(3)
            #expect(clock.ticks == 3)
        }
        #expect(weakClock == nil)
        source.send(4)  // nothing left to receive it
    }

    @Test func assignToPublishedFromASynchronousSource() {
        let model = Model()
        [1, 2, 3].publisher.assign(to: &model.$count)
        #expect(model.count == 3)
    }

    // MARK: In context

    @Test func theStoreOfTheMotivatingExampleScopesItsValue() {
        let store = Store<Int, Int>(initialValue: 1) { value, action in value += action }
        let local = store.view(value: { "\($0)" }, action: { $0 })
        var seen: [String] = []
        let cancellable = local.$value.sink { seen.append($0) }
        store.send(2)
        local.send(10)
        #expect(store.value == 13)
        #expect(local.value == "13")
        // "13" twice: once from the parent's publisher, once from the local reducer's own write.
        #expect(seen == ["1", "3", "13", "13"])
        _ = cancellable
    }

    @Test func theScopedStoreIsReleasedWithItsParentStillAlive() {
        let store = Store<Int, Int>(initialValue: 1) { value, action in value += action }
        weak var weakLocal: Store<String, Int>?
        do {
            let local = store.view(value: { "\($0)" }, action: { $0 })
            weakLocal = local
            store.send(1)
            #expect(local.value == "2")
        }
        #expect(weakLocal == nil)
        store.send(1)
        #expect(store.value == 3)
    }

    @MainActor @Test func worksInAMainActorClass() {
        let model = MainActorModel()
        var seen: [Int] = []
        let cancellable = model.$count.sink { seen.append($0) }
        let willChange = model.objectWillChange.sink { seen.append(-1) }
        model.increment()
        #expect(seen == [0, -1, 1])
        _ = (cancellable, willChange)
    }
}

@MainActor
private final class MainActorModel: ObservableObject {
    @Published private(set) var count = 0
    func increment() { count += 1 }
}

/// The store of the motivating example: a value, a reducer, and scoped views of both.
private final class Store<Value, Action>: ObservableObject {
    @Published private(set) var value: Value
    private let reducer: (inout Value, Action) -> Void
    private var cancellable: AnyCancellable?

    init(initialValue: Value, reducer: @escaping (inout Value, Action) -> Void) {
        self.reducer = reducer
        self.value = initialValue
    }

    func send(_ action: Action) {
        reducer(&value, action)
    }

    func view<LocalValue, LocalAction>(
        value toLocalValue: @escaping (Value) -> LocalValue,
        action toGlobalAction: @escaping (LocalAction) -> Action
    ) -> Store<LocalValue, LocalAction> {
        let localStore = Store<LocalValue, LocalAction>(initialValue: toLocalValue(self.value)) { localValue, localAction in
            self.send(toGlobalAction(localAction))
            localValue = toLocalValue(self.value)
        }
        localStore.cancellable = self.$value.sink { [weak localStore] newValue in
            localStore?.value = toLocalValue(newValue)
        }
        return localStore
    }
}
