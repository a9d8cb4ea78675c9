// The workloads written for Streams: what a user of Combine's API writes. OpenCombineWorkloads
// holds the same text for OpenCombine, AsyncWorkloads their AsyncSequence counterparts,
// LoopWorkloads the plain loops they are measured against.
import Streams
import WorkloadSupport

// Operators called on a `Just` or a sequence publisher pick Combine's eager specializations
// (`Just(1).map { ... }` is a `Just`, `[1, 2].publisher.map { ... }` a new array): those measure
// the standard library, not the operators. So the workloads that measure an operator's
// per-value path (W1, W5) call it on a generic upstream (`over:`), where the general operator
// applies; the optimizer
// specializes the generic code for the concrete type, so the indirection costs nothing.

// MARK: W1

public func pipeline(_ n: Int) -> UInt64 {
    pipeline(over: (0..<n).publisher)
}

func pipeline<Upstream: Publisher<Int, Never>>(over upstream: Upstream) -> UInt64 {
    var sum = 0
    let cancellable =
        upstream
        .map { $0 &* 3 }
        .compactMap { $0 % 2 == 0 ? $0 : nil }
        .filter { $0 % 3 == 0 }
        .sink { sum &+= $0 }
    cancellable.cancel()
    return checksum(sum)
}

// MARK: W2

/// W2x1: a subject sending to one sink.
public func sendsToOneSink(_ n: Int) -> UInt64 { fanOut(n, sinks: 1) }
/// W2x10: a subject sending to ten sinks.
public func sendsToTenSinks(_ n: Int) -> UInt64 { fanOut(n, sinks: 10) }

public func fanOut(_ n: Int, sinks: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    var bag: [AnyCancellable] = []
    for _ in 0..<sinks { subject.sink { sum &+= $0 }.store(in: &bag) }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    bag.removeAll()
    return checksum(sum)
}

// MARK: W3

// `Just(i).map` is Combine's specialization (a `Just`), here as in Combine and as this workload
// has always measured: the cost of a one-value subscription from a user's point of view.

public func churn(_ n: Int) -> UInt64 {
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

// MARK: W3mem

/// Heap growth per live subscription: `Just(i).map.sink` kept alive (`Just` has finished, so
/// what lives is the `AnyCancellable` and its finished sink). The slots are allocated before the
/// mark and not counted.
public func liveMemory(_ n: Int) -> MemoryReading {
    var total = 0
    var live = [AnyCancellable?](repeating: nil, count: n)
    let start = heapBytesInUse()
    for i in 0..<n { live[i] = Just(i).map { $0 + 1 }.sink { total &+= $0 } }
    let bytes = Double(heapBytesInUse() - start) / Double(max(1, n))
    withExtendedLifetime(live) {}
    return MemoryReading(bytesPerPipeline: bytes, checksum: checksum(total))
}

// MARK: W4

public func currentValue(_ n: Int) -> UInt64 {
    let subject = CurrentValueSubject<Int, Never>(0)
    var sum = 0
    let cancellable = subject.removeDuplicates().map { $0 &* 2 }.sink { sum &+= $0 }
    for i in 0..<n { subject.send(i >> 1) }
    cancellable.cancel()
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

public func demandReturned(_ n: Int) -> UInt64 {
    let subscriber = ReturnsOne()
    tripled(over: (0..<n).publisher).subscribe(subscriber)
    return checksum(subscriber.sum)
}

public func demandRequested(_ n: Int) -> UInt64 {
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

public func demandFromOutside(_ n: Int) -> UInt64 {
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

// MARK: W7

public func zip(_ n: Int) -> UInt64 {
    var sum = 0
    let cancellable = (0..<n).publisher.zip((0..<n).publisher).sink { sum &+= $0.0 &* 3 &+ $0.1 }
    cancellable.cancel()
    return checksum(sum)
}

// MARK: W6, M, F, C (combining)

public func flatMapInners(_ n: Int) -> UInt64 {
    var sum = 0
    let cancellable = (0..<n).publisher.flatMap { Just($0) }.sink { sum &+= $0 }
    cancellable.cancel()
    return checksum(sum)
}

public func mergeElements(_ n: Int) -> UInt64 {
    var sum = 0
    let half = n / 2
    let cancellable = (0..<half).publisher.merge(with: (half..<(2 * half)).publisher).sink { sum &+= $0 }
    cancellable.cancel()
    return checksum(sum)
}

public func mergeChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = Just(i).merge(with: Just(i)).sink { sum &+= $0 }
    }
    return checksum(sum)
}

public func flatMapChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = Just(i).flatMap { Just($0) }.sink { sum &+= $0 }
    }
    return checksum(sum)
}

public func combineLatestSends(_ n: Int) -> UInt64 {
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

public func combineLatestChurn(_ n: Int) -> UInt64 {
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

public func bufferSends(_ n: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum = 0
    let cancellable = subject.buffer(size: 16, prefetch: .byRequest, whenFull: .dropNewest).sink { sum &+= $0 }
    for i in 0..<n { subject.send(i) }
    subject.send(completion: .finished)
    cancellable.cancel()
    return checksum(sum)
}

public func receiveOnSends(_ n: Int) -> UInt64 {
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

public func catchChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = caught(over: Fail<Int, Boom>(error: Boom()), i).sink { sum &+= $0 }
    }
    return checksum(sum)
}

@inline(__always)
func caught<Upstream: Publisher<Int, Boom>>(over upstream: Upstream, _ i: Int) -> Publishers.Catch<Upstream, Just<Int>>
{
    upstream.catch { _ in Just(i) }
}

public func appendChurn(_ n: Int) -> UInt64 {
    var sum = 0
    for i in 0..<n {
        _ = appended(over: Just(i), Just(i)).sink { sum &+= $0 }
    }
    return checksum(sum)
}

@inline(__always)
func appended<Upstream: Publisher<Int, Never>>(over upstream: Upstream, _ suffix: Upstream)
    -> Publishers.Concatenate<Upstream, Upstream>
{
    upstream.append(suffix)
}

public func retryChurn(_ n: Int) -> UInt64 {
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
