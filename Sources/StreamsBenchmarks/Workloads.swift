import Streams

func allWorkloads() -> [Workload] {
    [
        Workload(id: "W1", unit: "ns/element", what: "(0..<n).publisher.map.compactMap.filter.sink",
                 scale: (1, 1)) { n in timed(n, streams: pipeline, baseline: pipelineBaseline) },
        Workload(id: "W2x1", unit: "ns/send", what: "PassthroughSubject.send to 1 sink",
                 scale: (1, 1)) { n in timed(n, streams: sendsToOneSink, baseline: oneHandlerBaseline) },
        Workload(id: "W2x10", unit: "ns/send", what: "PassthroughSubject.send to 10 sinks",
                 scale: (1, 8)) { n in timed(n, streams: sendsToTenSinks, baseline: tenHandlersBaseline) },
        Workload(id: "W3", unit: "ns/subscription", what: "Just(i).map.sink subscribe, then cancel in batches",
                 scale: (1, 8)) { n in timed(n, streams: churn, baseline: churnBaseline) },
        Workload(id: "W3mem", unit: "bytes/subscription", what: "Just(i).map.sink kept alive: resident bytes per live subscription",
                 scale: (1, 1)) { n in liveMemory(n) },
        Workload(id: "W4", unit: "ns/send", what: "CurrentValueSubject.removeDuplicates.map.sink, every other value repeats",
                 scale: (1, 4)) { n in timed(n, streams: currentValue, baseline: currentValueBaseline) },
        Workload(id: "W5ret", unit: "ns/element", what: "one at a time: receive(_:) returns .max(1)",
                 scale: (1, 2)) { n in timed(n, streams: demandReturned, baseline: demandBaseline) },
        Workload(id: "W5req", unit: "ns/element", what: "one at a time: request(.max(1)) inside receive(_:)",
                 scale: (1, 4)) { n in timed(n, streams: demandRequested, baseline: demandBaseline) },
        Workload(id: "W5ext", unit: "ns/element", what: "one at a time: request(.max(1)) after receive(_:) returns",
                 scale: (1, 4)) { n in timed(n, streams: demandFromOutside, baseline: demandBaseline) },
        Workload(id: "W6", unit: "ns/inner", what: "(0..<n).publisher.flatMap { Just($0) }.sink",
                 scale: (1, 8)) { n in timed(n, streams: flatMapInners, baseline: flatMapBaseline) },
        Workload(id: "M1", unit: "ns/element", what: "merge of two (0..<n/2).publishers into a sink",
                 scale: (1, 1)) { n in timed(n, streams: mergeElements, baseline: mergeBaseline) },
        Workload(id: "M2", unit: "ns/subscription", what: "Just(i).merge(with: Just(i)).sink, subscribe and finish",
                 scale: (1, 8)) { n in timed(n, streams: mergeChurn, baseline: twoValueChurnBaseline) },
        Workload(id: "F2", unit: "ns/subscription", what: "Just(i).flatMap { Just($0) }.sink, subscribe and finish",
                 scale: (1, 8)) { n in timed(n, streams: flatMapChurn, baseline: oneValueChurnBaseline) },
        Workload(id: "C1", unit: "ns/send", what: "combineLatest of two PassthroughSubjects, sent to alternately",
                 scale: (1, 2)) { n in timed(n, streams: combineLatestSends, baseline: combineLatestBaseline) },
        Workload(id: "C2", unit: "ns/subscription", what: "Just(i).combineLatest(Just(i)).sink, subscribe and finish",
                 scale: (1, 8)) { n in timed(n, streams: combineLatestChurn, baseline: oneValueChurnBaseline) },
        Workload(id: "K1", unit: "ns/subscription", what: "Fail.catch { Just(i) }.sink, subscribe and finish",
                 scale: (1, 8)) { n in timed(n, streams: catchChurn, baseline: oneValueChurnBaseline) },
        Workload(id: "A1", unit: "ns/subscription", what: "Just(i).append(Just(i)).sink, subscribe and finish",
                 scale: (1, 8)) { n in timed(n, streams: appendChurn, baseline: twoValueChurnBaseline) },
        Workload(id: "T1", unit: "ns/subscription", what: "Fail.retry(2).replaceError(with: i).sink, three attempts",
                 scale: (1, 8)) { n in timed(n, streams: retryChurn, baseline: oneValueChurnBaseline) },
        Workload(id: "B1", unit: "ns/send", what: "PassthroughSubject.buffer(size: 16, .byRequest, .dropNewest).sink",
                 scale: (1, 2)) { n in timed(n, streams: bufferSends, baseline: oneHandlerBaseline) },
        Workload(id: "R1", unit: "ns/send", what: "PassthroughSubject.receive(on: ImmediateScheduler).sink",
                 scale: (1, 2)) { n in timed(n, streams: receiveOnSends, baseline: oneHandlerBaseline) },
    ]
}

// Operators called on a `Just` or a sequence publisher pick Combine's eager specializations
// (`Just(1).map { ... }` is a `Just`, `[1, 2].publisher.map { ... }` a new array): those measure
// the standard library, not the operators. So the workloads that measure an operator's
// per-value path (W1, W5) call it on a generic upstream (`over:`), where the general operator
// applies; the optimizer
// specializes the generic code for the concrete type, so the indirection costs nothing.

// MARK: W1

func pipeline(_ n: Int) -> UInt64 {
    pipeline(over: (0..<n).publisher)
}

func pipeline<Upstream: Publisher<Int, Never>>(over upstream: Upstream) -> UInt64 {
    var sum = 0
    let cancellable = upstream
        .map { $0 &* 3 }
        .compactMap { $0 % 2 == 0 ? $0 : nil }
        .filter { $0 % 3 == 0 }
        .sink { sum &+= $0 }
    cancellable.cancel()
    return checksum(sum)
}

func pipelineBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    let map = opaque { (x: Int) -> Int in x &* 3 }
    let compactMap = opaque { (x: Int) -> Int? in x % 2 == 0 ? x : nil }
    let filter = opaque { (x: Int) -> Bool in x % 3 == 0 }
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    for i in 0..<n {
        if let v = compactMap(map(i)), filter(v) { sink(v) }
    }
    return checksum(sum)
}

// MARK: W2

/// W2x1: a subject sending to one sink.
func sendsToOneSink(_ n: Int) -> UInt64 { fanOut(n, sinks: 1) }
/// W2x10: a subject sending to ten sinks.
func sendsToTenSinks(_ n: Int) -> UInt64 { fanOut(n, sinks: 10) }
/// The baseline of W2x1, B1 and R1: each value handed to one handler.
func oneHandlerBaseline(_ n: Int) -> UInt64 { fanOutBaseline(n, sinks: 1) }
/// The baseline of W2x10: each value handed to ten handlers.
func tenHandlersBaseline(_ n: Int) -> UInt64 { fanOutBaseline(n, sinks: 10) }

func fanOut(_ n: Int, sinks: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    var bag: [AnyCancellable] = []
    for _ in 0..<sinks { subject.sink { sum &+= $0 }.store(in: &bag) }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    bag.removeAll()
    return checksum(sum)
}

func fanOutBaseline(_ n: Int, sinks: Int) -> UInt64 {
    var sum = 0
    var handlers: [(Int) -> Void] = []
    for _ in 0..<sinks { handlers.append { sum &+= $0 } }
    handlers = opaque(handlers)
    for i in 0..<n {
        for handler in handlers { handler(i) }
    }
    return checksum(sum)
}

// MARK: W3

// `Just(i).map` is Combine's specialization (a `Just`), here as in Combine and as this workload
// has always measured: the cost of a one-value subscription from a user's point of view.

func churn(_ n: Int) -> UInt64 {
    var total = 0
    var bag: [AnyCancellable] = []
    bag.reserveCapacity(1024)
    for i in 0..<n {
        Just(i).map { $0 + 1 }.sink { total &+= $0 }.store(in: &bag)
        if bag.count == 1024 {
            for cancellable in bag { cancellable.cancel() }
            bag.removeAll(keepingCapacity: true)
        }
    }
    for cancellable in bag { cancellable.cancel() }
    return checksum(total)
}

/// One object per subscription, holding the sink closure until cancelled.
final class Token {
    var onValue: ((Int) -> Void)?
    init(_ onValue: @escaping (Int) -> Void) { self.onValue = onValue }
    func cancel() { onValue = nil }
}

func churnBaseline(_ n: Int) -> UInt64 {
    var total = 0
    let map = opaque { (x: Int) -> Int in x + 1 }
    var bag: [Token] = []
    bag.reserveCapacity(1024)
    for i in 0..<n {
        let token = Token { total &+= $0 }
        token.onValue?(map(i))
        bag.append(token)
        if bag.count == 1024 {
            for token in bag { token.cancel() }
            bag.removeAll(keepingCapacity: true)
        }
    }
    for token in bag { token.cancel() }
    return checksum(total)
}

// MARK: W3mem

/// Resident memory growth per live subscription. The baseline's tokens stay alive while the
/// Streams subscriptions are made, so neither run reuses memory the other freed; the slots are
/// allocated before each mark and not counted.
func liveMemory(_ n: Int) -> Measurement {
    var baselineTotal = 0
    let map = opaque { (x: Int) -> Int in x + 1 }
    var tokens = [Token?](repeating: nil, count: n)
    var start = residentBytes()
    for i in 0..<n {
        let token = Token { baselineTotal &+= $0 }
        token.onValue?(map(i))
        tokens[i] = token
    }
    let baseline = Double(residentBytes() - start) / Double(n)

    var total = 0
    var live = [AnyCancellable?](repeating: nil, count: n)
    start = residentBytes()
    for i in 0..<n { live[i] = Just(i).map { $0 + 1 }.sink { total &+= $0 } }
    let streams = Double(residentBytes() - start) / Double(n)
    live.removeAll()
    tokens.removeAll()
    return Measurement(streams: streams, baseline: baseline,
                       streamsChecksum: checksum(total), baselineChecksum: checksum(baselineTotal))
}

// MARK: W4

func currentValue(_ n: Int) -> UInt64 {
    let subject = CurrentValueSubject<Int, Never>(0)
    var sum = 0
    let cancellable = subject.removeDuplicates().map { $0 &* 2 }.sink { sum &+= $0 }
    for i in 0..<n { subject.send(i >> 1) }
    cancellable.cancel()
    return checksum(sum)
}

func currentValueBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    let map = opaque { (x: Int) -> Int in x &* 2 }
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    var last = 0
    sink(map(last))
    for i in 0..<n {
        let value = i >> 1
        if value != last {
            last = value
            sink(map(value))
        }
    }
    return checksum(sum)
}

// MARK: W5

/// Asks for one element at a time by returning `.max(1)` from `receive(_:)`.
final class ReturnsOne: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var sum = 0
    func receive(subscription: Subscription) { subscription.request(.max(1)) }
    func receive(_ input: Int) -> Subscribers.Demand {
        sum &+= input
        return .max(1)
    }
    func receive(completion: Subscribers.Completion<Never>) {}
}

/// Asks for one element at a time with a re-entrant `request(.max(1))` inside `receive(_:)`.
final class RequestsOne: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var sum = 0
    var subscription: Subscription?
    func receive(subscription: Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }
    func receive(_ input: Int) -> Subscribers.Demand {
        sum &+= input
        subscription?.request(.max(1))
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { subscription = nil }
}

func demandReturned(_ n: Int) -> UInt64 {
    let subscriber = ReturnsOne()
    tripled(over: (0..<n).publisher).subscribe(subscriber)
    return checksum(subscriber.sum)
}

func demandRequested(_ n: Int) -> UInt64 {
    let subscriber = RequestsOne()
    tripled(over: (0..<n).publisher).subscribe(subscriber)
    return checksum(subscriber.sum)
}

/// Asks for one element at a time from outside `receive(_:)`, after it has returned, as an
/// async iterator or a consumer that paces itself does.
final class PacedOne: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var sum = 0
    var subscription: Subscription?
    var received = false
    func receive(subscription: Subscription) { self.subscription = subscription }
    func receive(_ input: Int) -> Subscribers.Demand {
        sum &+= input
        received = true
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) { subscription = nil }
}

func demandFromOutside(_ n: Int) -> UInt64 {
    let subscriber = PacedOne()
    tripled(over: (0..<n).publisher).subscribe(subscriber)
    while let subscription = subscriber.subscription {
        subscriber.received = false
        subscription.request(.max(1))
        if !subscriber.received { break }
    }
    return checksum(subscriber.sum)
}

@inline(__always)
func tripled<Upstream: Publisher<Int, Never>>(over upstream: Upstream) -> Publishers.Map<Upstream, Int> {
    upstream.map { $0 &* 3 }
}

func demandBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    let map = opaque { (x: Int) -> Int in x &* 3 }
    let receive = opaque { (x: Int) -> Int in sum &+= x; return 1 }
    var demand = 1
    var i = 0
    while i < n && demand > 0 {
        demand -= 1
        demand += receive(map(i))
        i += 1
    }
    return checksum(sum)
}

// MARK: W6, M, F, C (combining)

func flatMapInners(_ n: Int) -> UInt64 {
    var sum = 0
    let cancellable = (0..<n).publisher.flatMap { Just($0) }.sink { sum &+= $0 }
    cancellable.cancel()
    return checksum(sum)
}

func flatMapBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    let transform = opaque { (x: Int) -> Int in x }
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    for i in 0..<n { sink(transform(i)) }
    return checksum(sum)
}

func mergeElements(_ n: Int) -> UInt64 {
    var sum = 0
    let half = n / 2
    let cancellable = (0..<half).publisher.merge(with: (half..<(2 * half)).publisher).sink { sum &+= $0 }
    cancellable.cancel()
    return checksum(sum)
}

func mergeBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    let half = n / 2
    let sink = opaque { (x: Int) -> Void in sum &+= x }
    var first = (0..<half).makeIterator()
    var second = (half..<(2 * half)).makeIterator()
    while let value = first.next() { sink(value) }
    while let value = second.next() { sink(value) }
    return checksum(sum)
}

func mergeChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = Just(i).merge(with: Just(i)).sink { sum &+= $0 }
    }
    return checksum(sum)
}

/// A subscription that delivers two values: one token object holding the closure.
func twoValueChurnBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        let token = opaque(Token { sum &+= $0 })
        token.onValue?(opaque(i))
        token.onValue?(opaque(i))
        token.cancel()
    }
    return checksum(sum)
}

func flatMapChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = Just(i).flatMap { Just($0) }.sink { sum &+= $0 }
    }
    return checksum(sum)
}

/// A subscription that delivers one value: one token object holding the closure.
func oneValueChurnBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        let token = opaque(Token { sum &+= $0 })
        token.onValue?(opaque(i) &* 2 / 2)
        token.cancel()
    }
    return checksum(sum)
}

func combineLatestSends(_ n: Int) -> UInt64 {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = a.combineLatest(b).sink { sum &+= $0.0 &+ $0.1 }
    for i in 0..<n {
        if i & 1 == 0 { a.send(i) } else { b.send(i) }
    }
    cancellable.cancel()
    return checksum(sum)
}

func combineLatestBaseline(_ n: Int) -> UInt64 {
    var sum = 0
    let sink = opaque { (pair: (Int, Int)) -> Void in sum &+= pair.0 &+ pair.1 }
    var latestA: Int?
    var latestB: Int?
    for i in 0..<n {
        if i & 1 == 0 { latestA = opaque(i) } else { latestB = opaque(i) }
        if let a = latestA, let b = latestB { sink((a, b)) }
    }
    return checksum(sum)
}

func combineLatestChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = Just(i).combineLatest(Just(i)).sink { sum &+= ($0.0 &+ $0.1) / 2 }
    }
    return checksum(sum)
}

// MARK: B1, R1 (serialized delivery)

// The per-value cost of the serialized-delivery engine (Engines/SerialDelivery.swift) under an
// operator that has no fast path of its own: each value is queued, taken out by the drain-token
// holder under the lock, and delivered outside it. The baseline is W2's: a subject with one sink
// is what these would cost without the operator.

func bufferSends(_ n: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject.buffer(size: 16, prefetch: .byRequest, whenFull: .dropNewest).sink { sum &+= $0 }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    cancellable.cancel()
    return checksum(sum)
}

func receiveOnSends(_ n: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { sum &+= $0 }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    cancellable.cancel()
    return checksum(sum)
}

// MARK: K1, A1, T1 (switching to another publisher)

// `catch`, `append` and `retry` subscribe a publisher of their own after the first one ends:
// these measure a whole subscription, through a generic upstream (`over:`) so that no eager
// specialization applies.

struct Boom: Error {}

func catchChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = caught(over: Fail<Int, Boom>(error: Boom()), i).sink { sum &+= $0 }
    }
    return checksum(sum)
}

@inline(__always)
func caught<Upstream: Publisher<Int, Boom>>(over upstream: Upstream, _ i: Int) -> Publishers.Catch<Upstream, Just<Int>> {
    upstream.catch { _ in Just(i) }
}

func appendChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = appended(over: Just(i), Just(i)).sink { sum &+= $0 }
    }
    return checksum(sum)
}

@inline(__always)
func appended<Upstream: Publisher<Int, Never>>(over upstream: Upstream, _ suffix: Upstream) -> Publishers.Concatenate<Upstream, Upstream> {
    upstream.append(suffix)
}

func retryChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = retried(over: Fail<Int, Boom>(error: Boom())).replaceError(with: i).sink { sum &+= $0 }
    }
    return checksum(sum)
}

@inline(__always)
func retried<Upstream: Publisher<Int, Boom>>(over upstream: Upstream) -> Publishers.Retry<Upstream> {
    upstream.retry(2)
}
