import Dispatch
import Foundation
import Streams
import StreamsTesting

// The generator, runner, oracle and shrinker of the random pipeline tests (`ModelTests.swift`).
// The models themselves are in `ReferenceModels.swift`.

/// How the subscriber at the end of a pipeline asks for values.
struct DemandPlan: Equatable, Sendable, CustomStringConvertible {
    /// Requested in `receive(subscription:)`: `nil` is `.unlimited`, 0 nothing.
    var upFront: Int?
    /// Returned from each `receive(_:)`.
    var returned = 0
    /// Requested with `request(.max(n))` from inside each `receive(_:)` (re-entrant).
    var reentrant = 0
    /// Requested later, from work on the test scheduler at 25, 125, 225, ... ms.
    var delayed: [Int] = []

    static let unlimited = DemandPlan(upFront: nil)

    var description: String {
        var parts = ["up front \(upFront.map { ".max(\($0))" } ?? ".unlimited")"]
        if returned > 0 { parts.append("returns .max(\(returned)) per value") }
        if reentrant > 0 { parts.append("requests .max(\(reentrant)) inside receive") }
        if !delayed.isEmpty { parts.append("later " + delayed.enumerated().map { ".max(\($1))@\(25 + 100 * $0)ms" }.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}

/// When the subscriber cancels.
enum CancelPlan: Equatable, Sendable, CustomStringConvertible {
    case never
    /// From inside `receive(_:)`, on the n-th value.
    case afterValues(Int)
    /// From work on the test scheduler at that time (ms).
    case atTime(Int)

    var description: String {
        switch self {
        case .never: "never"
        case .afterValues(let n): "from inside receive on value \(n)"
        case .atTime(let t): "at \(t)ms"
        }
    }
}

/// One random case: a source, operators, demand, cancellation.
struct PipelineCase: Equatable, Sendable, CustomStringConvertible {
    var source: SourceSpec
    var ops: [OpSpec]
    var demand: DemandPlan
    var cancel: CancelPlan

    /// Pull cases (a source that waits for demand, and only pull sources anywhere) take any
    /// demand and are compared without times; push cases (subjects on virtual time) get ample
    /// demand and are compared event by event, with times.
    var isPull: Bool { source.isPull }

    var description: String {
        """
        source:  \(source)
        ops:     \(ops.map(\.description).joined(separator: " -> "))
        demand:  \(demand)
        cancel:  \(cancel)
        """
    }

    /// Every source: the main one, then each operator's.
    var sources: [SourceSpec] {
        [source] + ops.compactMap { op -> SourceSpec? in
            switch op {
            case .append(let s), .merge(let s), .zip(let s), .combineLatest(let s), .catchWith(let s),
                 .prefixUntil(let s), .dropUntil(let s): s
            case .flatMap(_, let s?), .switchToLatest(let s?): s
            default: nil
            }
        }
    }
}

// MARK: - Generating

struct CaseGenerator {
    var rng: SplitMix64

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func values(max: Int = 6) -> [Int] { (0..<int(0...max)).map { _ in int(0...9) } }
    mutating func interval() -> Int { [31, 71, 131, 151, 251][int(0...4)] }

    /// Free slots of virtual time (multiples of 100 ms) for the subjects' events.
    var freeSlots: [Int] = []

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    mutating func pullSource() -> SourceSpec {
        switch int(0...9) {
        case 0: .just(int(0...9))
        case 1: .empty
        case 2: .fail(int(1...9))
        case 3, 4, 5: .sequence(values())
        default: .record(values(), failure: chance(50) ? int(1...9) : nil)
        }
    }

    mutating func script() -> Trace {
        let count = min(freeSlots.count, int(0...6))
        let times = freeSlots.prefix(count).sorted()
        freeSlots.removeFirst(count)
        var trace = times.map { Timed(time: $0, event: .value(int(0...9))) }
        if !trace.isEmpty, chance(70) {
            trace[trace.count - 1].event = chance(60) ? .finished : .failure(int(1...9))
        }
        return trace
    }

    mutating func pushSource(main: Bool) -> SourceSpec {
        switch int(0...9) {
        case 0: .completedSubject(failure: chance(50) ? int(1...9) : nil)
        case 1, 2: main ? .currentValue(int(0...9), script()) : .subject(script())
        default: .subject(script())
        }
    }

    mutating func secondary(pull: Bool) -> SourceSpec {
        pull || chance(25) ? pullSource() : pushSource(main: false)
    }

    mutating func outputOp() -> OpSpec {
        let a = int(0...3), n = int(1...3)
        return chance(50) ? .outputAt(a) : .outputIn(a, a + n)
    }

    mutating func flatMapOp(pull: Bool) -> OpSpec {
        if pull || chance(40) { return .flatMap(max: chance(40) ? nil : int(1...3), inner: nil) }
        return .flatMap(max: nil, inner: pushSource(main: false))
    }

    mutating func op(pull: Bool) -> OpSpec {
        switch int(0...49) {
        case 0: .map(int(1...5))
        case 1: .modulo(int(2...4))
        case 2: .filterEven(chance(50))
        case 3: .compactMap
        case 4: .scan
        case 5: .tryMap(throwOn: int(0...9))
        case 6: .tryFilter(throwOn: int(0...9))
        case 7: .removeDuplicates
        case 8: .reduce
        case 9: .count
        case 10: .ignoreOutput
        case 11: chance(50) ? .min : .max
        case 12: .collect
        case 13: .collectBy(int(1...3))
        case 14: .first
        case 15: .last
        case 16: .firstWhere(int(0...9))
        case 17: .lastWhere(int(0...9))
        case 18: .contains(int(0...9))
        case 19: .allSatisfy(int(0...9))
        case 20: .prefix(int(0...4))
        case 21: .dropFirst(int(0...3))
        case 22: .prefixWhile(int(0...9))
        case 23: .dropWhile(int(0...9))
        case 24: outputOp()
        case 25: .replaceError(-1)
        case 26: .replaceEmpty(-2)
        case 27: .mapError
        case 28: .catchWith(pullSource())
        case 29: .retry(int(0...2))
        case 30: .buffer(int(1...4), keepFull: chance(50), dropOldest: chance(50))
        case 31: .handleEvents
        case 32: .prepend(values(max: 3))
        case 33: .append(secondary(pull: pull))
        // The other sources of `merge`, `zip` and `combineLatest` are subjects: a pull source
        // there sends what it is asked for at the time it is asked, and operators downstream
        // that ask for a few values at a time (`flatMap(maxPublishers:)`, `merge` under limited
        // demand) would make that time depend on demand, which the models do not track.
        // Nor a subject that completed before the subscription: its completion would race,
        // at the same instant, with what operators upstream hand over on the scheduler.
        case 34: pull ? .append(pullSource()) : .merge(.subject(script()))
        case 35: pull ? .prepend(values(max: 2)) : .zip(.subject(script()))
        case 36: pull ? .scan : .combineLatest(.subject(script()))
        // An inner subject with `maxPublishers` would leave values of a pull upstream waiting
        // for demand (the same reason): it runs with `.unlimited`.
        case 37, 38: flatMapOp(pull: pull)
        case 39: .switchToLatest(inner: pull || chance(40) ? nil : pushSource(main: false))
        case 40: .receiveOn
        case 41: .subscribeOn
        case 42: pull ? .filterEven(chance(50)) : .debounce(interval())
        case 43: pull ? .map(int(1...5)) : .delay(interval())
        case 44: pull ? .removeDuplicates : .throttle(interval(), latest: chance(50))
        case 45: pull ? .dropFirst(1) : .timeout(interval() + 200, fails: chance(50))
        case 46: pull ? .collectBy(2) : .merge(.subject(script()))
        case 47: pull ? .first : .zip(.subject(script()))
        case 48: pull ? .compactMap : .prefixUntil(.subject(script()))
        default: pull ? .tryMap(throwOn: int(0...9)) : .dropUntil(.subject(script()))
        }
    }

    mutating func makeCase() -> PipelineCase {
        freeSlots = Array(1...14).map { $0 * 100 }.shuffled(using: &rng)
        let pull = chance(55)
        let source = pull ? pullSource() : pushSource(main: true)
        var ops = (0..<int(1...5)).map { _ in op(pull: pull) }
        // One timing operator at most: two timers on different paths could fire at the same
        // instant, where the order is the scheduler's, not the operators'.
        if let firstTimed = ops.firstIndex(where: \.isTimed) {
            ops = ops.enumerated().filter { $0.offset <= firstTimed || !$0.element.isTimed }.map(\.element)
        }
        if !pull, let firstTimed = ops.firstIndex(where: \.isTimed) {
            // `subscribe(on:)` after `throttle` hands the subscriber's demand over later than the
            // value sent during the subscription, which `throttle` then drops (its documented rule).
            for i in ops.indices where i > firstTimed && ops[i] == .subscribeOn { ops[i] = .receiveOn }
        }
        if let firstBuffer = ops.firstIndex(where: { if case .buffer = $0 { true } else { false } }) {
            // `subscribe(on:)` after a `buffer` hands the demand over later: a failure meanwhile
            // overtakes the values the buffer holds (its documented rule), not modelled.
            for i in ops.indices where i > firstBuffer && ops[i] == .subscribeOn { ops[i] = .handleEvents }
        }
        for i in ops.indices {
            // `flatMap(maxPublishers:)` asks a few values at a time: subjects upstream would drop
            // the rest (only modelled right above it), so push cases use `.unlimited`.
            if !pull, case .flatMap(_?, let inner) = ops[i] { ops[i] = .flatMap(max: nil, inner: inner) }
            // A `.keepFull` buffer asks a few values at a time: a subject upstream would drop the
            // rest (not modelled), so push cases buffer `.byRequest`.
            if !pull, case .buffer(let size, true, let dropOldest) = ops[i] {
                ops[i] = .buffer(size, keepFull: false, dropOldest: dropOldest)
            }
        }
        for i in ops.indices.dropFirst() {
            if case .buffer(_, false, let dropOldest) = ops[i] { ops[i] = .buffer(50, keepFull: false, dropOldest: dropOldest) }
        }
        if let firstBuffer = ops.firstIndex(where: { if case .buffer = $0 { true } else { false } }),
           let lastKeepFull = ops.lastIndex(where: { if case .buffer(_, true, _) = $0 { true } else { false } }) {
            // A `.keepFull` buffer asks its upstream for more as it hands values on; behind a
            // `receive(on:)` it gets them later, so a buffer upstream of that can run out of
            // demand with values left, and a failure then overtakes them (its documented rule),
            // although the subscriber asked for everything: not modelled.
            for i in ops.indices where i > firstBuffer && i < lastKeepFull && ops[i] == .receiveOn { ops[i] = .handleEvents }
        }
        if !pull { avoidScheduledWorkRaces(source: source, ops: &ops) }
        if pull && ops.contains(where: \.needsAmpleDemand) {
            // `subscribe(on:)` hands the subscriber's requests over later: inner publishers'
            // values then wait for demand, and how waiting values are shared out is not modelled.
            // `receive(on:)` likewise hands values over later, while the demand they would
            // have used goes on to other inner publishers.
            ops = ops.map { $0 == .subscribeOn || $0 == .receiveOn ? .handleEvents : $0 }
        }
        var demand: DemandPlan
        // A `buffer` with operators after it lets a failure overtake values it holds when the
        // downstream has no demand (its documented rule): what those operators then see is not
        // modelled, so such pipelines get ample demand.
        let bufferInside = ops.dropLast().contains { if case .buffer = $0 { true } else { false } }
        if pull && !bufferInside && !ops.contains(where: \.needsAmpleDemand) {
            demand = DemandPlan(upFront: [nil, 0, 1, 1, 2, 3][int(0...5)])
            if chance(40) { demand.returned = int(1...2) }
            if chance(30) { demand.reentrant = 1 }
            if chance(40) { demand.delayed = (0..<int(1...3)).map { _ in int(1...3) } }
        } else {
            // Ample demand: a subject drops what nobody asked for, and the models do not track
            // how limited demand is shared out among inner publishers.
            // (`merge` under limited demand asks each upstream for one value at a time, which
            // changes when pull parts upstream send: it gets `.unlimited`.)
            let merges = ops.contains { if case .merge = $0 { true } else { false } }
            demand = DemandPlan(upFront: chance(50) || merges ? nil : 1000)
            if chance(30) { demand.returned = 1 }
            if chance(30) { demand.reentrant = 1 }
        }
        var cancel = CancelPlan.never
        if chance(30) {
            cancel = chance(50) ? .afterValues(int(1...4)) : .atTime(75 + 100 * int(0...12))
        }
        return PipelineCase(source: source, ops: ops, demand: demand, cancel: cancel)
    }

    /// Push cases: removes the scheduler hops that would make the order of two pieces of work
    /// scheduled for the same instant matter, which the models do not track (they order events
    /// by time only). Both happen where something reaches an operator *at a subscription
    /// instant* (time 0, or when a `retry` downstream subscribes again) and work scheduled at
    /// that instant decides what it does with it:
    ///
    /// - `subscribe(on:)` after an operator that asks its upstream for values on its own
    ///   (`flatMap`, `switchToLatest`, `replaceEmpty`, the ones that need ample demand, and
    ///   `merge`, which asks each upstream for one value before any demand) hands
    ///   the subscriber's requests over one scheduled step after the subscription, so what the
    ///   upstream sends at the subscription instant finds no demand. As in Combine, `flatMap`
    ///   then holds one value per inner publisher and asks them for the rest once the demand
    ///   comes, in an order Combine does not document (`[9, 2, 109, 102]` for `prepend([9, 2])`
    ///   mapped to `[v, v + 100]`, where the model, which assumes demand, says
    ///   `[9, 109, 2, 102]`); `switchToLatest` asks a new inner publisher for nothing, so the
    ///   next upstream value cancels it before it sent anything (OpenCombine's `testDemand`,
    ///   which runs against Combine); what `replaceEmpty` passes on unasked is dropped by
    ///   the `append` or `retry` after it, as by Combine's `Concatenate`; and the value `merge`
    ///   took early is dropped by a failure that follows (its documented rule). It becomes
    ///   `receive(on:)`, which passes requests on at once.
    /// - A `throttle` sends the first value of an instant from work it schedules when that value
    ///   arrives. A value that reaches it at the same instant through work scheduled later (a
    ///   `prepend` after a `receive(on:)` or `subscribe(on:)`: the prepended values come at
    ///   once, then the upstream's through the scheduler) comes after that emission and waits an
    ///   interval, as in Combine (OpenCombine's `testThrottleDemand`: a value sent after the
    ///   scheduled emission ran, at the same virtual time, is scheduled an interval later). The
    ///   model treats an instant as one moment, so the hop becomes `handleEvents()`.
    /// - A `retry` subscribes again at the instant of a failure, when the subject of a `merge`,
    ///   `zip`, `combineLatest`, `prefix(untilOutputFrom:)` or `drop(untilOutputFrom:)` may have
    ///   ended: it then gives its completion during the subscription, before what the main path
    ///   hands over through the scheduler (a `throttle`'s first emission, what `timeout` and
    ///   `receive(on:)` pass on, `debounce`'s completion, `subscribe(on:)`, upstream of that
    ///   operator), where the model puts the main path first.
    ///   Such a `retry` becomes `handleEvents()`.
    mutating func avoidScheduledWorkRaces(source: SourceSpec, ops: inout [OpSpec]) {
        /// Whether the ops before `end` send a value at a subscription instant: at time 0, or
        /// at all when a `retry` after `hop` subscribes them again.
        func sendsAtSubscription(before end: Int, hop: Int) -> Bool {
            if ops[(hop + 1)...].contains(where: { if case .retry = $0 { true } else { false } }) { return true }
            return model(source: source, ops: Array(ops[..<end])).contains { $0.time == 0 && !$0.event.isTerminal }
        }
        for j in ops.indices where ops[j] == .subscribeOn {
            let asksOnItsOwn = { (op: OpSpec) -> Bool in
                if case .merge = op { return true }
                return op.needsAmpleDemand
            }
            if ops[..<j].indices.contains(where: { asksOnItsOwn(ops[$0]) && sendsAtSubscription(before: $0, hop: j) }) {
                ops[j] = .receiveOn
            }
        }
        func hands(_ op: OpSpec) -> Bool {
            switch op {
            case .throttle, .timeout, .debounce, .receiveOn, .subscribeOn: true
            default: false
            }
        }
        func joinsASubject(_ op: OpSpec) -> Bool {
            switch op {
            case .merge(let s), .zip(let s), .combineLatest(let s), .prefixUntil(let s), .dropUntil(let s): !s.isPull
            default: false
            }
        }
        for r in ops.indices {
            guard case .retry = ops[r] else { continue }
            let racing = ops[..<r].indices.contains { h in hands(ops[h]) && ops[(h + 1)..<r].contains(where: joinsASubject) }
            if racing { ops[r] = .handleEvents }
        }
        guard let throttle = ops.firstIndex(where: { if case .throttle = $0 { true } else { false } }) else { return }
        for h in ops[..<throttle].indices where ops[h] == .receiveOn || ops[h] == .subscribeOn {
            let prepends = ops[(h + 1)..<throttle].contains { if case .prepend(let v) = $0 { !v.isEmpty } else { false } }
            if prepends && sendsAtSubscription(before: h, hop: h) { ops[h] = .handleEvents }
        }
    }
}

// MARK: - Running in Streams

typealias ModelPublisher = AnyPublisher<Int, ModelError>

/// What a case builds: the test scheduler and the subjects' scripts.
final class PipelineEnvironment {
    let scheduler = DispatchQueue.test
    let start: DispatchQueue.SchedulerTimeType
    var scripts: [(Trace, @Sendable (ModelEvent) -> Void)] = []

    init() { start = scheduler.now }

    /// Milliseconds since the start.
    static func milliseconds(_ scheduler: TestSchedulerOf<DispatchQueue>, since start: DispatchQueue.SchedulerTimeType) -> Int {
        Int((scheduler.now.dispatchTime.uptimeNanoseconds - start.dispatchTime.uptimeNanoseconds) / 1_000_000)
    }

    func at(_ milliseconds: Int) -> DispatchQueue.SchedulerTimeType {
        start.advanced(by: .milliseconds(milliseconds))
    }

    func makeSource(_ spec: SourceSpec) -> ModelPublisher {
        switch spec {
        case .sequence(let values):
            return Publishers.Sequence<[Int], ModelError>(sequence: values).eraseToAnyPublisher()
        case .record(let values, let failure):
            return Record(output: values, completion: failure.map { .failure(ModelError(code: $0)) } ?? .finished)
                .eraseToAnyPublisher()
        case .just(let v): return Just(v).setFailureType(to: ModelError.self).eraseToAnyPublisher()
        case .empty: return Empty().eraseToAnyPublisher()
        case .fail(let code): return Fail(error: ModelError(code: code)).eraseToAnyPublisher()
        case .completedSubject(let failure):
            let subject = PassthroughSubject<Int, ModelError>()
            subject.send(completion: failure.map { .failure(ModelError(code: $0)) } ?? .finished)
            return subject.eraseToAnyPublisher()
        case .subject(let script):
            let subject = PassthroughSubject<Int, ModelError>()
            scripts.append((script, { Self.send($0, to: subject) }))
            return subject.eraseToAnyPublisher()
        case .currentValue(let initial, let script):
            let subject = CurrentValueSubject<Int, ModelError>(initial)
            scripts.append((script, { Self.send($0, to: subject) }))
            return subject.eraseToAnyPublisher()
        }
    }

    static func send<S: Subject>(_ event: ModelEvent, to subject: S) where S.Output == Int, S.Failure == ModelError {
        switch event {
        case .value(let v): subject.send(v)
        case .finished: subject.send(completion: .finished)
        case .failure(let code): subject.send(completion: .failure(ModelError(code: code)))
        }
    }

    func inner(_ v: Int, _ inner: ModelPublisher?) -> ModelPublisher {
        if let inner { return inner.map { v &* 1000 &+ $0 }.eraseToAnyPublisher() }
        if v % 4 == 3 { return Fail(error: ModelError(code: 30 &+ v)).eraseToAnyPublisher() }
        return Publishers.Sequence<[Int], ModelError>(sequence: [v, v &+ 100]).eraseToAnyPublisher()
    }

    func apply(_ op: OpSpec, _ up: ModelPublisher) -> ModelPublisher {
        let scheduler = self.scheduler
        switch op {
        case .map(let k): return up.map { $0 &+ k }.eraseToAnyPublisher()
        case .modulo(let k): return up.map { $0 % k }.eraseToAnyPublisher()
        case .filterEven(let keep): return up.filter { $0.isMultiple(of: 2) == keep }.eraseToAnyPublisher()
        case .compactMap: return up.compactMap { $0 % 3 == 0 ? nil : $0 &+ 1 }.eraseToAnyPublisher()
        case .scan: return up.scan(0, &+).eraseToAnyPublisher()
        case .tryMap(let k):
            return up.tryMap { v -> Int in
                if v == k { throw ModelError(code: k) }
                return v
            }.mapError { $0 as? ModelError ?? ModelError(code: -99) }.eraseToAnyPublisher()
        case .tryFilter(let k):
            return up.tryFilter { v in
                if v == k { throw ModelError(code: k) }
                return v % 2 != 0
            }.mapError { $0 as? ModelError ?? ModelError(code: -99) }.eraseToAnyPublisher()
        case .removeDuplicates: return up.removeDuplicates().eraseToAnyPublisher()
        case .reduce: return up.reduce(0, &+).eraseToAnyPublisher()
        case .count: return up.count().eraseToAnyPublisher()
        case .ignoreOutput: return up.ignoreOutput().map(absurd).eraseToAnyPublisher()
        case .min: return up.min().eraseToAnyPublisher()
        case .max: return up.max().eraseToAnyPublisher()
        case .collect: return up.collect().map(encodeCollected).eraseToAnyPublisher()
        case .collectBy(let n): return up.collect(n).map(encodeCollected).eraseToAnyPublisher()
        case .first: return up.first().eraseToAnyPublisher()
        case .last: return up.last().eraseToAnyPublisher()
        case .firstWhere(let k): return up.first { $0 > k }.eraseToAnyPublisher()
        case .lastWhere(let k): return up.last { $0 < k }.eraseToAnyPublisher()
        case .contains(let k): return up.contains(k).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        case .allSatisfy(let k): return up.allSatisfy { $0 < k }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        case .prefix(let n): return up.prefix(n).eraseToAnyPublisher()
        case .dropFirst(let n): return up.dropFirst(n).eraseToAnyPublisher()
        case .prefixWhile(let k): return up.prefix { $0 < k }.eraseToAnyPublisher()
        case .dropWhile(let k): return up.drop { $0 < k }.eraseToAnyPublisher()
        case .outputAt(let i): return up.output(at: i).eraseToAnyPublisher()
        case .outputIn(let a, let b): return up.output(in: a..<b).eraseToAnyPublisher()
        case .replaceError(let v): return up.replaceError(with: v).setFailureType(to: ModelError.self).eraseToAnyPublisher()
        case .replaceEmpty(let v): return up.replaceEmpty(with: v).eraseToAnyPublisher()
        case .mapError: return up.mapError { ModelError(code: $0.code &+ 10) }.eraseToAnyPublisher()
        case .catchWith(let fallback):
            let publisher = makeSource(fallback)
            return up.catch { _ in publisher }.eraseToAnyPublisher()
        case .retry(let n): return up.retry(n).eraseToAnyPublisher()
        case .buffer(let size, let keepFull, let dropOldest):
            return up.buffer(size: size, prefetch: keepFull ? .keepFull : .byRequest,
                             whenFull: dropOldest ? .dropOldest : .dropNewest).eraseToAnyPublisher()
        case .handleEvents: return up.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher()
        case .prepend(let values): return up.prepend(values).eraseToAnyPublisher()
        case .append(let other): return up.append(makeSource(other)).eraseToAnyPublisher()
        case .merge(let other): return up.merge(with: makeSource(other)).eraseToAnyPublisher()
        case .prefixUntil(let trigger): return up.prefix(untilOutputFrom: makeSource(trigger)).eraseToAnyPublisher()
        case .dropUntil(let trigger): return up.drop(untilOutputFrom: makeSource(trigger)).eraseToAnyPublisher()
        case .zip(let other): return up.zip(makeSource(other)) { $0 &* 1000 &+ $1 }.eraseToAnyPublisher()
        case .combineLatest(let other): return up.combineLatest(makeSource(other)) { $0 &* 1000 &+ $1 }.eraseToAnyPublisher()
        case .flatMap(let max, let innerSpec):
            let innerPublisher = innerSpec.map(makeSource)
            return up.flatMap(maxPublishers: max.map { .max($0) } ?? .unlimited) { [self] v in inner(v, innerPublisher) }
                .eraseToAnyPublisher()
        case .switchToLatest(let innerSpec):
            let innerPublisher = innerSpec.map(makeSource)
            return up.map { [self] v in inner(v, innerPublisher) }.switchToLatest().eraseToAnyPublisher()
        case .receiveOn: return up.receive(on: scheduler).eraseToAnyPublisher()
        case .subscribeOn: return up.subscribe(on: scheduler).eraseToAnyPublisher()
        case .debounce(let d): return up.debounce(for: .milliseconds(d), scheduler: scheduler).eraseToAnyPublisher()
        case .delay(let d): return up.delay(for: .milliseconds(d), scheduler: scheduler).eraseToAnyPublisher()
        case .throttle(let d, let latest):
            return up.throttle(for: .milliseconds(d), scheduler: scheduler, latest: latest).eraseToAnyPublisher()
        case .timeout(let d, let fails):
            let customError: (() -> ModelError)? = fails ? { ModelError(code: 99) } : nil
            return up.timeout(.milliseconds(d), scheduler: scheduler, customError: customError).eraseToAnyPublisher()
        }
    }
}

/// The subscriber at the end of every pipeline: follows a demand and cancel plan and records
/// every event with its virtual time.
final class ProbeSubscriber: Subscriber, @unchecked Sendable {  // all mutable state guarded by `lock`
    typealias Input = Int
    typealias Failure = ModelError

    private let lock = Lock()
    private var subscription: (any Subscription)?
    private var _events: Trace = []
    private var _violations: [String] = []
    /// Everything asked for (requested and returned), saturating; `Int.max` is unlimited.
    private var requested = 0
    private var requestedAtTerminal = 0
    private var cancelled = false
    private weak var subscriptionObject: AnyObject?

    /// What the run gave, once it is over.
    var snapshot: (events: Trace, violations: [String], requested: Int, requestedAtTerminal: Int, cancelled: Bool) {
        lock.withLock { (_events, _violations, requested, requestedAtTerminal, cancelled) }
    }
    var weakSubscription: AnyObject? { lock.withLock { subscriptionObject } }
    private var valueCount = 0
    private var ended = false
    let plan: DemandPlan
    let cancelAfter: Int?
    let clock: @Sendable () -> Int

    init(plan: DemandPlan, cancelAfter: Int?, clock: @escaping @Sendable () -> Int) {
        self.plan = plan
        self.cancelAfter = cancelAfter
        self.clock = clock
    }


    private func add(_ n: Int?) {  // under `lock`
        guard let n else { requested = Int.max; return }
        requested = requested > Int.max - n ? Int.max : requested + n
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        if self.subscription != nil || ended || cancelled {
            _violations.append("a second subscription, or one after the end (S2)")
            lock.unlock()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        // The shared empty subscription (of a source that completes during the subscription) lives
        // forever: only a subscription of the pipeline's own is watched.
        if subscription as AnyObject !== Subscriptions.empty as AnyObject { subscriptionObject = subscription as AnyObject }
        let upFront = plan.upFront
        if upFront != 0 { add(upFront) }
        lock.unlock()
        if let upFront {
            if upFront > 0 { subscription.request(.max(upFront)) }
        } else {
            subscription.request(.unlimited)
        }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        let now = clock()
        lock.lock()
        if ended || cancelled {
            _violations.append("value \(input) after \(ended ? "the completion (S4)" : "cancel (S6)")")
            lock.unlock()
            return .none
        }
        if subscription == nil { _violations.append("value \(input) before the subscription (S2)") }
        valueCount += 1
        if requested != Int.max && valueCount > requested {
            _violations.append("value \(input) beyond the demand asked for, \(requested) (S1)")
        }
        _events.append(Timed(time: now, event: .value(input)))
        if let cancelAfter, valueCount == cancelAfter {
            cancelled = true
            let subscription = self.subscription
            self.subscription = nil
            lock.unlock()
            subscription?.cancel()
            return .none
        }
        let reentrant = plan.reentrant
        if reentrant > 0 { add(reentrant) }
        add(plan.returned)
        let subscription = self.subscription
        lock.unlock()
        if reentrant > 0 { subscription?.request(.max(reentrant)) }
        return .max(plan.returned)
    }

    func receive(completion: Subscribers.Completion<ModelError>) {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        if ended || cancelled {
            _violations.append("a completion after \(ended ? "the completion (S4)" : "cancel (S6)")")
            return
        }
        ended = true
        requestedAtTerminal = requested
        subscription = nil
        switch completion {
        case .finished: _events.append(Timed(time: now, event: .finished))
        case .failure(let error): _events.append(Timed(time: now, event: .failure(error.code)))
        }
    }

    func request(_ n: Int) {
        lock.lock()
        guard !ended, !cancelled, let subscription else { lock.unlock(); return }
        add(n)
        lock.unlock()
        subscription.request(.max(n))
    }

    func cancel() {
        lock.lock()
        guard !ended, !cancelled else { lock.unlock(); return }
        cancelled = true
        let subscription = self.subscription
        self.subscription = nil
        lock.unlock()
        subscription?.cancel()
    }
}

/// What a run of a case in Streams gave.
struct RunResult {
    var events: Trace
    var requested: Int
    var requestedAtTerminal: Int
    var cancelled: Bool
    var violations: [String]
    var leaks: [String]
}

/// `Never` as an `Int` (for `ignoreOutput()`, which sends no value).
func absurd(_ never: Never) -> Int {}

final class WeakBox { weak var object: AnyObject? }

/// Runs `c` in Streams and records its trace, then checks with weak references that the
/// subscriber and the subscription it was given are let go once the stream has ended or was
/// cancelled.
func runInStreams(_ c: PipelineCase) -> RunResult {
    let env = PipelineEnvironment()
    let probeRef = WeakBox(), subscriptionRef = WeakBox()
    var result = RunResult(events: [], requested: 0, requestedAtTerminal: 0, cancelled: false, violations: [], leaks: [])
    func body() {
        var publisher = env.makeSource(c.source)
        for op in c.ops { publisher = env.apply(op, publisher) }
        let scheduler = env.scheduler, start = env.start
        var cancelAfter: Int?
        if case .afterValues(let n) = c.cancel { cancelAfter = n }
        let probe = ProbeSubscriber(plan: c.demand, cancelAfter: cancelAfter) {
            PipelineEnvironment.milliseconds(scheduler, since: start)
        }
        probeRef.object = probe
        publisher.subscribe(probe)
        for (script, send) in env.scripts {
            for e in script { scheduler.schedule(after: env.at(e.time)) { send(e.event) } }
        }
        for (i, n) in c.demand.delayed.enumerated() {
            scheduler.schedule(after: env.at(25 + 100 * i)) { probe.request(n) }
        }
        if case .atTime(let t) = c.cancel {
            scheduler.schedule(after: env.at(t)) { probe.cancel() }
        }
        scheduler.run()
        let snapshot = probe.snapshot
        result.events = snapshot.events
        result.requested = snapshot.requested
        result.requestedAtTerminal = snapshot.requestedAtTerminal
        result.cancelled = snapshot.cancelled
        // Let go of everything: cancel what did not end, and run what that scheduled.
        probe.cancel()
        scheduler.run()
        result.violations = probe.snapshot.violations
        subscriptionRef.object = probe.weakSubscription
    }
    body()
    // The subjects (in `env.scripts`) are still alive: a subject that kept a cancelled
    // subscriber would show here.
    if probeRef.object != nil { result.leaks.append("the subscriber was not let go after the end") }
    if subscriptionRef.object != nil { result.leaks.append("the subscription was not let go after the end") }
    withExtendedLifetime(env) {}
    return result
}

// MARK: - The oracle

/// Compares a run with the model; returns what is wrong, or `nil`.
func compareWithModel(_ c: PipelineCase, _ run: RunResult) -> String? {
    if !run.violations.isEmpty { return "contract violations: \(run.violations.joined(separator: "; "))" }
    if !run.leaks.isEmpty { return "leaks: \(run.leaks.joined(separator: "; "))" }
    let expected = model(source: c.source, ops: c.ops)
    if c.isPull { return checkPull(c, expected: expected, run) }
    let truncated = expectedPush(c, expected)
    return truncated == run.events ? nil : "the trace differs from the model"
}

/// A push case's expected trace: the model's, up to the cancel.
func expectedPush(_ c: PipelineCase, _ expected: Trace) -> Trace {
    switch c.cancel {
    case .never: return expected
    case .atTime(let t): return expected.filter { $0.time < t }
    case .afterValues(let n):
        var count = 0
        var out: Trace = []
        for e in expected {
            out.append(e)
            if case .value = e.event { count += 1; if count == n { break } }
        }
        return out
    }
}

/// A pull case, compared without times: the values are a prefix of the model's; all of the
/// demand asked for is used unless the stream ended or was cancelled; a completion is the
/// model's, `.finished` only after every value, a failure early only when no demand was left.
func checkPull(_ c: PipelineCase, expected: Trace, _ run: RunResult) -> String? {
    let values = run.events.values, expectedValues = expected.values
    guard values.count <= expectedValues.count, Array(expectedValues.prefix(values.count)) == values else {
        return "the values are not a prefix of the model's"
    }
    if let terminal = run.events.terminal {
        guard terminal == expected.terminal else { return "the completion is not the model's" }
        if values.count < expectedValues.count {
            if terminal == .finished { return "finished before every value was delivered" }
            // `subscribe(on:)` delivers the subscriber's requests later, on the scheduler: until
            // then an operator may rightly drop values it holds when a failure comes.
            if run.requestedAtTerminal > values.count && !c.ops.contains(.subscribeOn) {
                return "failed early while there was demand for the values"
            }
        }
    } else if !run.cancelled && run.requested > values.count {
        return "the stream stopped with demand left (asked for \(run.requested == Int.max ? "unlimited" : "\(run.requested)"), got \(values.count))"
    }
    return nil
}

// MARK: - Shrinking and reporting

extension PipelineCase {
    /// Smaller cases to try, simplest changes first.
    var shrinkCandidates: [PipelineCase] {
        var result: [PipelineCase] = []
        for i in ops.indices where ops.count > 1 {
            var c = self; c.ops.remove(at: i); result.append(c)
        }
        if cancel != .never { var c = self; c.cancel = .never; result.append(c) }
        if demand != .unlimited && (isPull || demand.upFront == nil || demand.upFront == 1000) {
            var c = self; c.demand = .unlimited; result.append(c)
            if !demand.delayed.isEmpty { c = self; c.demand.delayed.removeLast(); result.append(c) }
            if demand.returned > 0 { c = self; c.demand.returned = 0; result.append(c) }
            if demand.reentrant > 0 { c = self; c.demand.reentrant = 0; result.append(c) }
        }
        for shrunk in source.shrinkCandidates { var c = self; c.source = shrunk; result.append(c) }
        for i in ops.indices {
            for shrunk in ops[i].shrinkCandidates { var c = self; c.ops[i] = shrunk; result.append(c) }
        }
        return result
    }

    /// Shrinks while the case still fails: fewer operators, shorter inputs, simpler demand.
    func shrunk(failing: (PipelineCase) -> Bool) -> PipelineCase {
        var current = self
        var steps = 0
        while steps < 500, let smaller = current.shrinkCandidates.first(where: failing) {
            current = smaller
            steps += 1
        }
        return current
    }

    /// The input, expected and actual traces as marble diagrams, one tick per distinct time.
    func marbles(actual: Trace) -> String {
        let expected = isPull ? model(source: source, ops: ops) : expectedPush(self, model(source: source, ops: ops))
        var lines: [(String, Trace)] = sources.enumerated().map { ("input \($0):", $1.seen(at: 0)) }
        lines.append(("expected:", expected))
        lines.append(("actual:", actual))
        let times = isPull ? [0] : Array(Set(lines.flatMap { $0.1.map(\.time) })).sorted()
        func ticks(_ trace: Trace) -> [[Marbles.Event]] {
            // Without times (pull), one event per tick.
            if isPull { return trace.map { [$0.event.marble] } }
            return times.map { t in trace.filter { $0.time == t }.map(\.event.marble) }
        }
        var text = lines.map { "\($0.0.padding(toLength: 10, withPad: " ", startingAt: 0))\(Marbles.render(ticks($0.1)))" }
        if !isPull { text.append("ticks at (ms): \(times.map(String.init).joined(separator: " "))") }
        text.append("expected events: \(expected)")
        text.append("actual events:   \(actual)")
        return text.joined(separator: "\n")
    }
}

extension SourceSpec {
    var shrinkCandidates: [SourceSpec] {
        switch self {
        case .sequence(let v): return v.indices.map { var w = v; w.remove(at: $0); return .sequence(w) }
        case .record(let v, let f):
            return (f != nil ? [.record(v, failure: nil)] : []) + v.indices.map { var w = v; w.remove(at: $0); return .record(w, failure: f) }
        case .subject(let s):
            return s.indices.map { var t = s; t.remove(at: $0); return .subject(t) }
        case .currentValue(let i, let s):
            return [.subject(s)] + s.indices.map { var t = s; t.remove(at: $0); return .currentValue(i, t) }
        default: return []
        }
    }
}

extension OpSpec {
    var shrinkCandidates: [OpSpec] {
        switch self {
        case .append(let s): s.shrinkCandidates.map { .append($0) }
        case .merge(let s): s.shrinkCandidates.map { .merge($0) }
        case .prefixUntil(let s): s.shrinkCandidates.map { .prefixUntil($0) }
        case .dropUntil(let s): s.shrinkCandidates.map { .dropUntil($0) }
        case .zip(let s): s.shrinkCandidates.map { .zip($0) }
        case .combineLatest(let s): s.shrinkCandidates.map { .combineLatest($0) }
        case .catchWith(let s): s.shrinkCandidates.map { .catchWith($0) }
        case .flatMap(let m, let s?): s.shrinkCandidates.map { .flatMap(max: m, inner: $0) }
        case .switchToLatest(let s?): s.shrinkCandidates.map { .switchToLatest(inner: $0) }
        default: []
        }
    }
}
