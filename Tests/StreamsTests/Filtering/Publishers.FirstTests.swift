import Streams
import StreamsTesting
import Testing

@Suite("first, first(where:), tryFirst(where:)")
struct FirstTests {
    struct Boom: Error, Equatable {}

    // MARK: Marbles

    @Test func marbles() {
        assertMarbles("-a-b-|", { $0.first() }, "-[;a|]")
        assertMarbles("---|", { $0.first() }, "---|")
        assertMarbles("-^", { $0.first() }, "-^")
        assertMarbles("-1-3-|", { $0.first { Int($0)!.isMultiple(of: 2) } }, "-----|")
        assertMarbles("-1-3-^", { $0.first { Int($0)!.isMultiple(of: 2) } }, "-----^")
        // As in Combine, the upstream is cancelled as the answer arrives, before it is sent.
        assertMarbles("-1-4-|", { $0.tryFirst { Int($0)!.isMultiple(of: 2) } }, "---[;4|]")
        assertMarbles([7, 8, 9].publisher.first(), "[7|]")
        assertMarbles([7, 8, 9].publisher.first { $0 > 7 }, "[8|]")
    }

    @Test func docExampleOutputs() {
        let first = RecordingSubscriber<Int, Never>()
        [-10, 0, 10].publisher.first().subscribe(first)
        #expect(first.events == [.subscription, .value(-10), .completion(.finished)])

        let firstWhere = RecordingSubscriber<Int, Never>()
        [1, 3, 4, 5, 6].publisher.first { $0.isMultiple(of: 2) }.subscribe(firstWhere)
        #expect(firstWhere.events == [.subscription, .value(4), .completion(.finished)])

        let tryFirst = RecordingSubscriber<Int, any Error>()
        [1, -1, 4].publisher
            .tryFirst { n in
                if n < 0 { throw Boom() }
                return n.isMultiple(of: 2)
            }
            .subscribe(tryFirst)
        #expect(tryFirst.values.isEmpty)
        guard case .failure(let error)? = tryFirst.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
    }

    // MARK: Demand

    /// As Combine: `.unlimited` up front, the value goes out with the first request (S15: the
    /// upstream is cancelled at once), and the subscriber's requests are not passed on.
    @Test func asksForUnlimitedUpFrontAndCancelsAfterTheValue_S15() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(3))
        upstream.first().subscribe(subscriber)
        #expect(upstream.history == [.requested(.unlimited)])
        #expect(upstream.send(5) == .none)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    /// As Combine (OpenCombine's `testFirstRequestsUnlimitedThenSendsSubscription`, whose
    /// subscriber finds the upstream not yet asked): the subscriber gets its subscription first,
    /// then the upstream is asked for `.unlimited` whatever the subscriber asks for; the same for
    /// `first(where:)` and `tryFirst(where:)`. Over a `dropFirst`, whose subscriber gets its
    /// subscription before the upstream is subscribed, the `.unlimited` reaches the upstream
    /// when its subscription arrives.
    @Test func theSubscriberGetsItsSubscriptionThenTheUpstreamIsAskedForUnlimited() {
        for makeFirst in [
            { (p: TestPublisher<Int, Never>) in p.first().eraseToAnyPublisher() },
            { (p: TestPublisher<Int, Never>) in p.first { $0 > 1 }.eraseToAnyPublisher() },
            { (p: TestPublisher<Int, Never>) in p.tryFirst { $0 > 1 }.replaceError(with: -1).eraseToAnyPublisher() },
        ] {
            for demand in [nil, Subscribers.Demand.max(1)] {
                let log = LockedLog()
                let upstream = TestPublisher<Int, Never>()
                let subscriber = RecordingSubscriber<Int, Never>(demand: demand, onSubscription: { _ in
                    log.append("\(upstream.history)")
                })
                makeFirst(upstream).subscribe(subscriber)
                #expect(log.entries == ["[]"])
                #expect(upstream.history == [.requested(.unlimited)])
            }
        }
        let late = LateSubscriptionPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        late.dropFirst(1).first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        late.sendSubscriptions()
        #expect(late.history == [.requested(.unlimited)])
        late.send(1)
        late.send(2)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        #expect(late.history == [.requested(.unlimited), .cancelled])
    }

    /// Combine's history: the value arrives without demand, waits, and goes out with `.finished`
    /// at the first request; the upstream was cancelled when it arrived.
    @Test func theAnswerWaitsForTheFirstRequest_S5() {
        for makeFirst in [
            { (p: TestPublisher<Int, Never>) in p.first().eraseToAnyPublisher() },
            { (p: TestPublisher<Int, Never>) in p.first { $0 > 1 }.eraseToAnyPublisher() },
        ] {
            let upstream = TestPublisher<Int, Never>()
            let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
            makeFirst(upstream).subscribe(subscriber)
            #expect(upstream.send(1) == .none)
            #expect(upstream.send(2) == .none)
            #expect(subscriber.events == [.subscription])
            #expect(upstream.history == [.requested(.unlimited), .cancelled])
            subscriber.request(.max(1))
            subscriber.request(.max(1))
            #expect(subscriber.values.count == 1)
            #expect(subscriber.completion == .finished)
            #expect(upstream.history == [.requested(.unlimited), .cancelled])
            #expect(subscriber.violations.isEmpty)
        }
    }

    /// The S5 decision: an upstream `.finished` with no answer also waits for the first
    /// request; a failure does not wait.
    @Test func finishedWithoutAnAnswerWaitsForARequest_S5() {
        let finished = RecordingSubscriber<Int, Never>(demand: nil)
        Empty<Int, Never>().first { $0 > 1 }.subscribe(finished)
        #expect(finished.events == [.subscription])
        finished.request(.max(1))
        #expect(finished.events == [.subscription, .completion(.finished)])

        let failed = RecordingSubscriber<Int, any Error>(demand: nil)
        Fail<Int, Boom>(error: Boom()).tryFirst { _ in true }.subscribe(failed)
        #expect(failed.completion != nil)
        #expect(failed.values.isEmpty)
    }

    /// Combine delivers 1: `first` takes the current value at once, with its up-front demand.
    @Test func currentValueSubjectGivesItsValueAtSubscription() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        subject.first().subscribe(subscriber)
        subject.send(0)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func tryFirstAsksForUnlimitedAndIgnoresRejectedValues() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>(demand: .max(1))
        upstream.tryFirst { $0 > 1 }.subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        #expect(subscriber.values == [2])
    }

    @Test func laterRequestsAreNotPassedOn() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.first { $0 > 2 }.subscribe(subscriber)
        subscriber.request(.max(2))
        #expect(upstream.history == [.requested(.unlimited)])
    }

    @Test func aCancelDropsTheWaitingAnswer_S6() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: nil)
        upstream.first().subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    // MARK: Its own subscription

    /// Combine's names: `first(where:)`'s subscription is called `TryFirst` in Combine too.
    @Test func subscriptionsAreNamedLikeCombines() {
        checkOwnSubscription(named: "First") { $0.first() }
        checkOwnSubscription(named: "TryFirst") { $0.first { $0 > 1 } }
        checkOwnSubscription(named: "TryFirstWhere") { $0.tryFirst { $0 > 1 } }
    }

    @Test func ignoresMisbehavingUpstream() {
        checkIgnoresMisbehavingUpstream({ $0.first() }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.first { $0 > 1 } }, value: 1, failure: Boom())
        checkIgnoresMisbehavingUpstream({ $0.tryFirst { $0 > 1 } }, value: 1, failure: Boom())
    }

    // MARK: Completion and failure

    @Test func upstreamCompletionBeforeAValuePassesThrough() {
        let upstream = TestPublisher<Int, Boom>()
        let failed = RecordingSubscriber<Int, Boom>()
        upstream.first().subscribe(failed)
        upstream.send(completion: .failure(Boom()))
        #expect(failed.events == [.subscription, .completion(.failure(Boom()))])

        let finished = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().first { _ in true }.subscribe(finished)
        #expect(finished.events == [.subscription, .completion(.finished)])

        let tryUpstream = TestPublisher<Int, Boom>()
        let tryFailed = RecordingSubscriber<Int, any Error>()
        tryUpstream.tryFirst { _ in false }.subscribe(tryFailed)
        tryUpstream.send(1)
        tryUpstream.send(completion: .failure(Boom()))
        guard case .failure(let error)? = tryFailed.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
        #expect(tryFailed.values.isEmpty)
    }

    @Test func throwCancelsUpstreamAndFails_S14() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, any Error>()
        upstream.tryFirst { n in
            if n == 2 { throw Boom() }
            return n > 5
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(9)
        #expect(subscriber.values.isEmpty)
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
        guard case .failure(let error)? = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Boom == Boom())
        #expect(subscriber.violations.isEmpty)
    }

    @Test func signalsAfterTheAnswerAreIgnored_S4() {
        // An upstream that does not stop when cancelled: the operator must deliver nothing more.
        let subscriber = RecordingSubscriber<Int, Never>()
        HeedlessPublisher(values: [1, 2, 3]).first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)

        let tryFirst = RecordingSubscriber<Int, any Error>()
        HeedlessPublisher(values: [1, 2, 3]).tryFirst { n in
            if n == 2 { throw Boom() }
            return false
        }.subscribe(tryFirst)
        #expect(tryFirst.events.count == 2)
        #expect(tryFirst.violations.isEmpty)
    }

    // MARK: Cancellation

    @Test func cancelReachesUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.first().subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelInsideTheValueStopsTheCompletionAndDoesNotCancelTwice_S6() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>(onValue: { _ in
            box.subscriber?.cancel()
            return .none
        })
        box.subscriber = subscriber
        upstream.first().subscribe(subscriber)
        upstream.send(1)
        box.subscriber = nil
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.history == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelReleasesTheClosure_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            weakCaptured = captured
            cancellable = upstream
                .first { _ in _ = captured; return false }
                .tryFirst { _ in true }
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        #expect(weakCaptured != nil)
        cancellable?.cancel()
        #expect(weakCaptured == nil)
        _ = cancellable
    }

    @Test func endingEarlyReleasesTheClosureAndTheSubscriber_S7() {
        final class Captured {}
        weak var weakCaptured: Captured?
        weak var weakSink: Captured?
        let upstream = TestPublisher<Int, Never>()
        var cancellable: AnyCancellable?
        do {
            let captured = Captured()
            let sinkCaptured = Captured()
            weakCaptured = captured
            weakSink = sinkCaptured
            cancellable = upstream.first { _ in _ = captured; return true }.sink { _ in _ = sinkCaptured }
        }
        #expect(weakCaptured != nil)
        upstream.send(1)
        #expect(weakCaptured == nil)
        #expect(weakSink == nil)
        _ = cancellable
    }

    // MARK: Reentrancy

    @Test func requestFromInsideReceiveIsBounded_S8() {
        final class Box: @unchecked Sendable { var subscriber: RecordingSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1), onValue: { _ in
            box.subscriber?.request(.max(1))
            return .none
        })
        box.subscriber = subscriber
        (0..<10_000).publisher.first { $0 == 9_999 }.subscribe(subscriber)
        box.subscriber = nil
        #expect(subscriber.values == [9_999])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    // MARK: Contract

    @Test func contract() {
        // The types ask for the general operator: on a sequence Combine evaluates these at once.
        typealias Numbers = Publishers.Sequence<Range<Int>, Never>
        checkContract({ () -> Publishers.First<Numbers> in (0..<300).publisher.first() }, requestingNone: .isIgnored)
        checkContract({ () -> Publishers.FirstWhere<Numbers> in (0..<300).publisher.first { $0 == 200 } },
                      requestingNone: .isIgnored)
        checkContract({ () -> Publishers.FirstWhere<Numbers> in (0..<300).publisher.first { $0 == 1_000 } },
                      requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryFirst { $0 == 200 } }, requestingNone: .isIgnored)
        checkContract({ (0..<300).publisher.tryFirst { n in
            if n == 150 { throw Boom() }
            return false
        } }, requestingNone: .isIgnored)
        // The subscriber holds the operator's own subscription, not Just's: `.none` is ignored.
        checkContract({ () -> Publishers.First<Just<Int>> in Just(1).first() }, requestingNone: .isIgnored)
    }
}

/// A badly behaved publisher for tests: it sends all its values and `.finished` as soon as it is
/// subscribed to, ignoring demand and cancellation, to check that an operator guards S4 itself.
struct HeedlessPublisher<Output>: Publisher {
    typealias Failure = Never
    let values: [Output]

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        for value in values { _ = subscriber.receive(value) }
        subscriber.receive(completion: .finished)
    }
}
