import StreamsTesting

// Reference models: each operator's semantics as a small, synchronous, list-based function over
// an event list, written to be obviously correct rather than fast. `ModelTests.swift` runs random
// pipelines through Streams and compares the traces with what these functions say.
//
// A trace is a list of values, then at most one completion, each at a virtual time in
// milliseconds. Sources driven by hand send at multiples of 100 ms; every interval the generator
// gives a timing operator is 1 more than a multiple of 10 ms, so an operator's timer never fires
// at the same instant as a source event (ties would depend on the order work was scheduled in,
// not on the operator's rules).
//
// Arithmetic on values wraps (`&+`, `&*`) in the models and in the pipelines alike: `collect`'s
// encoded values are large, and a `zip` or an inner `map` multiplies them by 1000.

/// The failure type of every pipeline in the models: an error with a code.
struct ModelError: Error, Equatable, CustomStringConvertible {
    let code: Int
    var description: String { "E\(code)" }
}

/// One event of a stream in the models.
enum ModelEvent: Equatable, Sendable, CustomStringConvertible {
    case value(Int)
    case finished
    case failure(Int)

    var isTerminal: Bool {
        if case .value = self { return false }
        return true
    }

    var description: String {
        switch self {
        case .value(let v): "\(v)"
        case .finished: "|"
        case .failure(let code): "^\(code)"
        }
    }

    /// The event as a marble (the failure's code is lost: `^`).
    var marble: Marbles.Event {
        switch self {
        case .value(let v): .value("\(v)")
        case .finished: .finished
        case .failure: .failure
        }
    }
}

/// An event at a virtual time (milliseconds after the subscription).
struct Timed: Equatable, Sendable, CustomStringConvertible {
    var time: Int
    var event: ModelEvent
    var description: String { "\(event)@\(time)" }
}

typealias Trace = [Timed]

extension Array where Element == Timed {
    var values: [Int] { compactMap { if case .value(let v) = $0.event { v } else { nil } } }
    var terminal: ModelEvent? { last.flatMap { $0.event.isTerminal ? $0.event : nil } }
    /// The same events, all at `time` (a synchronous source subscribed at `time`).
    func at(_ time: Int) -> Trace { map { Timed(time: time, event: $0.event) } }
}

/// A source of a random pipeline.
enum SourceSpec: Equatable, Sendable, CustomStringConvertible {
    /// `[...].publisher` (pull: sends only what is asked for, then finishes).
    case sequence([Int])
    /// `Record(output:completion:)` (pull), failing with the code if there is one.
    case record([Int], failure: Int?)
    /// `Just(v)`, `Empty()`, `Fail(code)`: complete during the subscription.
    case just(Int)
    case empty
    case fail(Int)
    /// A `PassthroughSubject` the test sends to at the given times (push: drops what nobody asked for).
    case subject(Trace)
    /// A `CurrentValueSubject` with an initial value, then sends at the given times.
    case currentValue(Int, Trace)
    /// A `PassthroughSubject` that completed before anyone subscribed.
    case completedSubject(failure: Int?)

    var isPull: Bool {
        switch self {
        case .subject, .currentValue, .completedSubject: false
        default: true
        }
    }

    /// The timed events the test sends to a subject source.
    var script: Trace {
        switch self {
        case .subject(let t), .currentValue(_, let t): t
        default: []
        }
    }

    /// What a subscriber that subscribes at virtual time `t` receives (with enough demand).
    func seen(at t: Int) -> Trace {
        switch self {
        case .sequence(let values):
            return values.map { Timed(time: t, event: .value($0)) } + [Timed(time: t, event: .finished)]
        case .record(let values, let failure):
            return values.map { Timed(time: t, event: .value($0)) }
                + [Timed(time: t, event: failure.map { .failure($0) } ?? .finished)]
        case .just(let v): return [Timed(time: t, event: .value(v)), Timed(time: t, event: .finished)]
        case .empty: return [Timed(time: t, event: .finished)]
        case .fail(let code): return [Timed(time: t, event: .failure(code))]
        case .completedSubject(let failure):
            return [Timed(time: t, event: failure.map { .failure($0) } ?? .finished)]
        case .subject(let script):
            // A subject that already completed gives a late subscriber its completion (S5).
            if let end = script.first(where: { $0.event.isTerminal && $0.time <= t }) {
                return [Timed(time: t, event: end.event)]
            }
            return script.filter { $0.time > t }
        case .currentValue(let initial, let script):
            if let end = script.first(where: { $0.event.isTerminal && $0.time <= t }) {
                return [Timed(time: t, event: end.event)]
            }
            let current = script.filter { $0.time <= t }.values.last ?? initial
            return [Timed(time: t, event: .value(current))] + script.filter { $0.time > t }
        }
    }

    var description: String {
        switch self {
        case .sequence(let v): "\(v).publisher"
        case .record(let v, let f): "Record(\(v), \(f.map { "failure: E\($0)" } ?? "finished"))"
        case .just(let v): "Just(\(v))"
        case .empty: "Empty()"
        case .fail(let c): "Fail(E\(c))"
        case .subject(let s): "PassthroughSubject \(s)"
        case .currentValue(let i, let s): "CurrentValueSubject(\(i)) \(s)"
        case .completedSubject(let f): "PassthroughSubject completed with \(f.map { "E\($0)" } ?? "finished")"
        }
    }
}

/// One operator of a random pipeline (all take and give `Int` values failing with `ModelError`;
/// operators whose output is not an `Int` are followed by a `map` that encodes it).
enum OpSpec: Equatable, Sendable, CustomStringConvertible {
    case map(Int)                 // map { $0 + k }
    case modulo(Int)              // map { $0 % k }: makes duplicates
    case filterEven(Bool)         // filter { $0.isMultiple(of: 2) == keep }
    case compactMap               // compactMap { $0 % 3 == 0 ? nil : $0 + 1 }
    case scan                     // scan(0, +)
    case tryMap(throwOn: Int)     // tryMap, throwing E<k> on k; then mapError back
    case tryFilter(throwOn: Int)  // tryFilter { odd }, throwing on k
    case removeDuplicates
    case reduce                   // reduce(0, +)
    case count
    case ignoreOutput
    case min, max
    case collect                  // collect().map(encode)
    case collectBy(Int)           // collect(n).map(encode)
    case first, last
    case firstWhere(Int)          // first { $0 > k }
    case lastWhere(Int)           // last { $0 < k }
    case contains(Int)            // contains(k).map { $0 ? 1 : 0 }
    case allSatisfy(Int)          // allSatisfy { $0 < k }.map { $0 ? 1 : 0 }
    case prefix(Int), dropFirst(Int)
    case prefixWhile(Int), dropWhile(Int)   // { $0 < k }
    case outputAt(Int), outputIn(Int, Int)
    case replaceError(Int)
    case replaceEmpty(Int)
    case mapError                 // code + 10
    case catchWith(SourceSpec)    // catch { _ in fallback } (a pull source)
    case retry(Int)
    case buffer(Int, keepFull: Bool, dropOldest: Bool)
    case handleEvents
    case prepend([Int])
    case append(SourceSpec)
    case merge(SourceSpec)
    case prefixUntil(SourceSpec)  // prefix(untilOutputFrom:)
    case dropUntil(SourceSpec)    // drop(untilOutputFrom:)
    case zip(SourceSpec)          // zip { $0 * 1000 + $1 }
    case combineLatest(SourceSpec)
    case flatMap(max: Int?, inner: SourceSpec?)   // inner nil: v -> v % 4 == 3 ? Fail(E(30+v)) : [v, v + 100]
    case switchToLatest(inner: SourceSpec?)       // map to the same inners, then switchToLatest()
    case receiveOn, subscribeOn
    case debounce(Int), delay(Int)
    case throttle(Int, latest: Bool)
    case timeout(Int, fails: Bool)

    var description: String {
        switch self {
        case .map(let k): "map { $0 + \(k) }"
        case .modulo(let k): "map { $0 % \(k) }"
        case .filterEven(let keep): "filter { $0 is \(keep ? "even" : "odd") }"
        case .compactMap: "compactMap { $0 % 3 == 0 ? nil : $0 + 1 }"
        case .scan: "scan(0, +)"
        case .tryMap(let k): "tryMap { throws E\(k) on \(k) }"
        case .tryFilter(let k): "tryFilter { odd; throws E\(k) on \(k) }"
        case .removeDuplicates: "removeDuplicates()"
        case .reduce: "reduce(0, +)"
        case .count: "count()"
        case .ignoreOutput: "ignoreOutput()"
        case .min: "min()"
        case .max: "max()"
        case .collect: "collect()"
        case .collectBy(let n): "collect(\(n))"
        case .first: "first()"
        case .last: "last()"
        case .firstWhere(let k): "first { $0 > \(k) }"
        case .lastWhere(let k): "last { $0 < \(k) }"
        case .contains(let k): "contains(\(k))"
        case .allSatisfy(let k): "allSatisfy { $0 < \(k) }"
        case .prefix(let n): "prefix(\(n))"
        case .dropFirst(let n): "dropFirst(\(n))"
        case .prefixWhile(let k): "prefix { $0 < \(k) }"
        case .dropWhile(let k): "drop { $0 < \(k) }"
        case .outputAt(let i): "output(at: \(i))"
        case .outputIn(let a, let b): "output(in: \(a)..<\(b))"
        case .replaceError(let v): "replaceError(with: \(v))"
        case .replaceEmpty(let v): "replaceEmpty(with: \(v))"
        case .mapError: "mapError { code + 10 }"
        case .catchWith(let s): "catch { _ in \(s) }"
        case .retry(let n): "retry(\(n))"
        case .buffer(let n, let keepFull, let dropOldest):
            "buffer(size: \(n), prefetch: \(keepFull ? ".keepFull" : ".byRequest"), whenFull: \(dropOldest ? ".dropOldest" : ".dropNewest"))"
        case .handleEvents: "handleEvents()"
        case .prepend(let v): "prepend(\(v))"
        case .append(let s): "append(\(s))"
        case .merge(let s): "merge(with: \(s))"
        case .prefixUntil(let s): "prefix(untilOutputFrom: \(s))"
        case .dropUntil(let s): "drop(untilOutputFrom: \(s))"
        case .zip(let s): "zip(\(s)) { $0 * 1000 + $1 }"
        case .combineLatest(let s): "combineLatest(\(s)) { $0 * 1000 + $1 }"
        case .flatMap(let m, let inner):
            "flatMap(maxPublishers: \(m.map { ".max(\($0))" } ?? ".unlimited")) { \(innerDescription(inner)) }"
        case .switchToLatest(let inner): "map { \(innerDescription(inner)) }.switchToLatest()"
        case .receiveOn: "receive(on: scheduler)"
        case .subscribeOn: "subscribe(on: scheduler)"
        case .debounce(let d): "debounce(for: \(d)ms)"
        case .delay(let d): "delay(for: \(d)ms)"
            case .throttle(let d, let latest): "throttle(for: \(d)ms, latest: \(latest))"
    case .timeout(let d, let fails): "timeout(\(d)ms\(fails ? ", customError: E99" : ""))"
        }
    }

    private func innerDescription(_ inner: SourceSpec?) -> String {
        if let inner { return "v in (\(inner)).map { v * 1000 + $0 }" }
        return "v in v % 4 == 3 ? Fail(E(30 + v)) : [v, v + 100].publisher"
    }

    /// Operators that need virtual time and a source driven at set times.
    var isTimed: Bool {
        switch self {
        case .debounce, .delay, .throttle, .timeout: true
        default: false
        }
    }

    /// Operators whose output under limited demand depends on how demand is shared out (several
    /// inner publishers waiting at once), which the list models do not track: pipelines with one
    /// are run with ample demand only.
    var needsAmpleDemand: Bool {
        switch self {
        // `flatMap`: also with one inner publisher at a time, a value an inner publisher sends
        // re-entrantly while `flatMap` delivers waits, and a failure that follows drops it
        // (its documented rule, as Combine buffers such values too).
        case .flatMap: true
        case .switchToLatest: true
        // `replaceEmpty` asks its upstream for `.unlimited` and passes on values nobody asked
        // for (as Combine does; its documentation says so): the S1 check downstream of it
        // would flag what is the documented rule.
        case .replaceEmpty: true
        default: false
        }
    }
}

/// What a `collect` sends, encoded as one `Int`: the count, then the values as digits.
func encodeCollected(_ values: [Int]) -> Int {
    values.reduce(values.count) { ($0 &* 31) &+ $1 }
}

// MARK: - The models

/// Applies `value` to each value and `end` to the completion, each giving the events to send at
/// that event's time; stops at the first completion given.
private func transform(
    _ input: Trace, value: (Int) -> [ModelEvent], end: (ModelEvent) -> [ModelEvent] = { [$0] }
) -> Trace {
    var out: Trace = []
    for e in input {
        let produced: [ModelEvent]
        if case .value(let v) = e.event { produced = value(v) } else { produced = end(e.event) }
        for p in produced {
            out.append(Timed(time: e.time, event: p))
            if p.isTerminal { return out }
        }
    }
    return out
}

/// An operator that sends one answer with `.finished` (S5 holds it until there is demand: the
/// harness accounts for that). A failure is passed on at once.
private func answerAtEnd(_ input: Trace, _ answer: ([Int]) -> Int?) -> Trace {
    var seen: [Int] = []
    return transform(input, value: { seen.append($0); return [] }, end: { end in
        guard end == .finished else { return [end] }
        return (answer(seen).map { [.value($0)] } ?? []) + [.finished]
    })
}

/// Events of two streams in time order; at the same time, `a`'s first (it is subscribed first).
private func interleave(_ a: Trace, _ b: Trace) -> [(side: Int, event: Timed)] {
    var result: [(side: Int, event: Timed)] = []
    var i = 0, j = 0
    while i < a.count || j < b.count {
        if j >= b.count || (i < a.count && a[i].time <= b[j].time) {
            result.append((0, a[i])); i += 1
        } else {
            result.append((1, b[j])); j += 1
        }
    }
    return result
}

/// The model of one operator: what it sends, given what its upstream sends (with enough demand).
/// `upstream` re-runs the model of everything upstream of this operator for a new subscription
/// made at a given time (for `retry`).
///
/// `onSource`: the operator is the first, right on the source.
func model(_ op: OpSpec, _ input: Trace, subscribedAt start: Int, onSource: Bool = false,
           resubscribe upstream: (Int) -> Trace) -> Trace {
    switch op {
    case .map(let k): return transform(input, value: { [.value($0 &+ k)] })
    case .modulo(let k): return transform(input, value: { [.value($0 % k)] })
    case .filterEven(let keep): return transform(input, value: { $0.isMultiple(of: 2) == keep ? [.value($0)] : [] })
    case .compactMap: return transform(input, value: { $0 % 3 == 0 ? [] : [.value($0 &+ 1)] })
    case .scan:
        var sum = 0
        return transform(input, value: { sum &+= $0; return [.value(sum)] })
    case .tryMap(let k): return transform(input, value: { $0 == k ? [.failure(k)] : [.value($0)] })
    case .tryFilter(let k):
        return transform(input, value: { $0 == k ? [.failure(k)] : ($0 % 2 != 0 ? [.value($0)] : []) })
    case .removeDuplicates:
        var previous: Int?
        return transform(input, value: { v in
            defer { previous = v }
            return v == previous ? [] : [.value(v)]
        })
    case .reduce: return answerAtEnd(input) { $0.reduce(0, &+) }
    case .count: return answerAtEnd(input) { $0.count }
    case .ignoreOutput: return answerAtEnd(input) { _ in nil }
    case .min: return answerAtEnd(input) { $0.min() }
    case .max: return answerAtEnd(input) { $0.max() }
    case .collect: return answerAtEnd(input) { encodeCollected($0) }
    case .last: return answerAtEnd(input) { $0.last }
    case .lastWhere(let k): return answerAtEnd(input) { $0.last { $0 < k } }
    case .collectBy(let n):
        var group: [Int] = []
        return transform(input, value: { v in
            group.append(v)
            guard group.count == n else { return [] }
            defer { group = [] }
            return [.value(encodeCollected(group))]
        }, end: { end in
            end == .finished && !group.isEmpty ? [.value(encodeCollected(group)), .finished] : [end]
        })
    case .first: return transform(input, value: { [.value($0), .finished] })
    case .firstWhere(let k): return transform(input, value: { $0 > k ? [.value($0), .finished] : [] })
    case .contains(let k):
        return transform(input, value: { $0 == k ? [.value(1), .finished] : [] },
                         end: { $0 == .finished ? [.value(0), .finished] : [$0] })
    case .allSatisfy(let k):
        return transform(input, value: { $0 < k ? [] : [.value(0), .finished] },
                         end: { $0 == .finished ? [.value(1), .finished] : [$0] })
    case .prefix(let n):
        // An empty range ends at the upstream's first event (as in Combine): `.finished` at
        // its first value, or its own completion.
        if n == 0 { return transform(input, value: { _ in [.finished] }) }
        var count = 0
        return transform(input, value: { count += 1; return count == n ? [.value($0), .finished] : [.value($0)] })
    case .dropFirst(let n):
        var count = 0
        return transform(input, value: { count += 1; return count > n ? [.value($0)] : [] })
    case .prefixWhile(let k): return transform(input, value: { $0 < k ? [.value($0)] : [.finished] })
    case .dropWhile(let k):
        var dropping = true
        return transform(input, value: { v in
            if dropping && v < k { return [] }
            dropping = false
            return [.value(v)]
        })
    case .outputAt(let i): return model(.outputIn(i, i + 1), input, subscribedAt: start, resubscribe: upstream)
    case .outputIn(let a, let b):
        var index = -1
        return transform(input, value: { v in
            index += 1
            if index < a { return [] }
            return index == b - 1 ? [.value(v), .finished] : [.value(v)]
        })
    case .replaceError(let v):
        return transform(input, value: { [.value($0)] }, end: { $0 == .finished ? [.finished] : [.value(v), .finished] })
    case .replaceEmpty(let v):
        var any = false
        return transform(input, value: { any = true; return [.value($0)] },
                         end: { $0 == .finished && !any ? [.value(v), .finished] : [$0] })
    case .mapError:
        return transform(input, value: { [.value($0)] }, end: { if case .failure(let c) = $0 { [.failure(c &+ 10)] } else { [$0] } })
    case .catchWith(let fallback):
        guard let last = input.last, case .failure = last.event else { return input }
        return Array(input.dropLast()) + fallback.seen(at: last.time)
    case .retry(let n):
        // Each failure resubscribes the upstream (a new run of it, from the failure's time),
        // `n` times at most.
        var out: Trace = []
        var attempt = input
        var left = n
        while true {
            guard left > 0, let last = attempt.last, case .failure = last.event else { return out + attempt }
            out += attempt.dropLast()
            left -= 1
            attempt = upstream(last.time)
        }
    case .buffer(let size, let keepFull, let dropOldest):
        // `.keepFull` asks for `size` and then for what the downstream takes: a pull upstream
        // never overflows it. `.byRequest` asks for `.unlimited` before the downstream has its
        // subscription (as Combine does): what a synchronous source right above it sends during
        // the subscription fills the buffer (and overflows it, as `whenFull` says; a failure
        // follows the values kept). After that, with enough demand, it passes everything. Above
        // other operators, when the flood arrives depends on when each hands its subscription
        // down, so the generator gives those a buffer too large to overflow. The S5 hold and the
        // early failure under limited demand are accounted for by the harness.
        if keepFull || !onSource { return input }
        let during = Array(input.prefix { $0.time == start })
        let kept = dropOldest ? Array(during.values.suffix(size)) : Array(during.values.prefix(size))
        return kept.map { Timed(time: start, event: .value($0)) } + during.filter(\.event.isTerminal)
            + input.dropFirst(during.count)
    case .handleEvents, .receiveOn, .subscribeOn:
        return input
    case .prepend(let values):
        return values.map { Timed(time: start, event: .value($0)) } + input
    case .append(let other):
        guard let last = input.last, last.event == .finished else { return input }
        return Array(input.dropLast()) + other.seen(at: last.time)
    case .merge(let other):
        var finished = 0
        var out: Trace = []
        for (_, e) in interleave(input, other.seen(at: start)) {
            switch e.event {
            case .value: out.append(e)
            case .finished:
                finished += 1
                if finished == 2 { out.append(e); return out }
            case .failure: out.append(e); return out
            }
        }
        return out
    case .prefixUntil(let trigger):
        // `.finished` at the trigger's first value; the trigger's completion is ignored. The
        // trigger is subscribed first (as in Combine): at the same instant its events come first.
        var out: Trace = []
        for (side, e) in interleave(trigger.seen(at: start), input) {
            if side == 0 {
                if case .value = e.event { out.append(Timed(time: e.time, event: .finished)); return out }
                continue
            }
            out.append(e)
            if e.event.isTerminal { return out }
        }
        return out
    case .dropUntil(let trigger):
        // Values pass once the trigger (subscribed first) has sent one; its completion before
        // that ends the stream.
        var open = false
        var out: Trace = []
        for (side, e) in interleave(trigger.seen(at: start), input) {
            if side == 0 {
                if open { continue }
                if case .value = e.event { open = true; continue }
                out.append(e); return out
            }
            if case .value = e.event, !open { continue }
            out.append(e)
            if e.event.isTerminal { return out }
        }
        return out
    case .zip(let other):
        var queues: [[Int]] = [[], []]
        var done = [false, false]
        var out: Trace = []
        for (side, e) in interleave(input, other.seen(at: start)) {
            switch e.event {
            case .value(let v):
                queues[side].append(v)
                if !queues[0].isEmpty && !queues[1].isEmpty {
                    out.append(Timed(time: e.time, event: .value(queues[0].removeFirst() &* 1000 &+ queues[1].removeFirst())))
                }
            case .finished: done[side] = true
            case .failure: out.append(e); return out
            }
            if (done[0] && queues[0].isEmpty) || (done[1] && queues[1].isEmpty) {
                out.append(Timed(time: e.time, event: .finished))
                return out
            }
        }
        return out
    case .combineLatest(let other):
        var latest: [Int?] = [nil, nil]
        var finished = 0
        var out: Trace = []
        for (side, e) in interleave(input, other.seen(at: start)) {
            switch e.event {
            case .value(let v):
                latest[side] = v
                if let a = latest[0], let b = latest[1] { out.append(Timed(time: e.time, event: .value(a &* 1000 &+ b))) }
            case .finished:
                finished += 1
                if finished == 2 { out.append(e); return out }
            case .failure: out.append(e); return out
            }
        }
        return out
    case .flatMap(let max, let inner):
        return flatMapModel(input, max: max, inner: inner)
    case .switchToLatest(let inner):
        return switchModel(input, inner: inner)
    case .debounce(let d):
        var out: Trace = []
        var pending: Timed?
        for e in input {
            if let p = pending, p.time + d < e.time { out.append(Timed(time: p.time + d, event: p.event)) }
            pending = nil
            if e.event.isTerminal { out.append(e); return out }
            pending = e
        }
        if let p = pending { out.append(Timed(time: p.time + d, event: p.event)) }
        return out
    case .delay(let d):
        return input.map { Timed(time: $0.time + d, event: $0.event) }
    case .throttle(let d, let latest):
        // A value that finds nothing waiting is scheduled: at once (on the scheduler, so at the
        // same instant) if nothing was sent for `interval`, else `interval` after the last one
        // sent. Until it goes out it is the waiting value, which later values replace
        // (`latest`) or are dropped against; the completion follows the waiting value.
        var out: Trace = []
        var lastSent: Int?
        var pending: Timed?   // the waiting value, at the time it goes out
        for e in input {
            if let p = pending, p.time < e.time {
                out.append(p); lastSent = p.time; pending = nil
            }
            if e.event.isTerminal {
                if let p = pending { out.append(p); out.append(Timed(time: p.time, event: e.event)) } else { out.append(e) }
                return out
            }
            if pending != nil {
                if latest { pending!.event = e.event }
            } else if let sent = lastSent, e.time - sent < d {
                pending = Timed(time: sent + d, event: e.event)
            } else {
                pending = e
            }
        }
        if let p = pending { out.append(p) }
        return out
    case .timeout(let d, let fails):
        var out: Trace = []
        var deadline = start + d
        for e in input {
            if e.time > deadline { break }
            out.append(e)
            if e.event.isTerminal { return out }
            deadline = e.time + d
        }
        out.append(Timed(time: deadline, event: fails ? .failure(99) : .finished))
        return out
    }
}

/// The inner publisher `flatMap` and `switchToLatest` make for value `v` subscribed at `t`.
func innerTrace(_ v: Int, _ inner: SourceSpec?, at t: Int) -> Trace {
    guard let inner else {
        if v % 4 == 3 { return [Timed(time: t, event: .failure(30 &+ v))] }
        return [Timed(time: t, event: .value(v)), Timed(time: t, event: .value(v &+ 100)), Timed(time: t, event: .finished)]
    }
    return transform(inner.seen(at: t), value: { [.value(v &* 1000 &+ $0)] })
}

/// `flatMap(maxPublishers:)`: the upstream is asked for `max` values and one more each time an
/// inner publisher finishes; a push upstream drops the values sent while it has no demand.
private func flatMapModel(_ input: Trace, max: Int?, inner: SourceSpec?) -> Trace {
    var out: Trace = []
    var outerDemand = max ?? Int.max
    var outerDone = false
    // Active inner publishers: their remaining events.
    var inners: [Trace] = []
    var index = 0
    while true {
        // The next event: an inner publisher's, if it is due no later than the outer's next (a
        // synchronous inner publisher runs to its end before the outer sends again; at the same
        // time, inner publishers in the order they were subscribed); else the outer's.
        var which = -1
        var bestTime = index < input.count ? input[index].time : Int.max
        for (i, t) in inners.enumerated() where !t.isEmpty && (t[0].time < bestTime || (which == -1 && t[0].time == bestTime)) {
            which = i
            bestTime = t[0].time
        }
        if which == -1 {
            guard index < input.count else { return out }
            let e = input[index]; index += 1
            switch e.event {
            case .value(let v):
                if outerDemand == 0 { continue }   // a subject drops it: nobody asked
                if outerDemand != Int.max { outerDemand -= 1 }
                inners.append(innerTrace(v, inner, at: e.time))
            case .finished:
                outerDone = true
                if inners.isEmpty { out.append(e); return out }
            case .failure: out.append(e); return out
            }
        } else {
            let first = inners[which].removeFirst()
            switch first.event {
            case .value: out.append(first)
            case .finished:
                inners.remove(at: which)
                if outerDemand != Int.max { outerDemand += 1 }
                if outerDone && inners.isEmpty { out.append(first); return out }
            case .failure: out.append(first); return out
            }
        }
    }
}

/// `map(inner).switchToLatest()`: each new value cancels the current inner publisher.
private func switchModel(_ input: Trace, inner: SourceSpec?) -> Trace {
    var out: Trace = []
    var current: Trace?
    var outerDone = false
    var index = 0
    /// Delivers an inner event; returns the finished trace when the stream ends.
    func step(_ e: Timed) -> Trace? {
        switch e.event {
        case .value: out.append(e); return nil
        case .finished:
            current = nil
            if outerDone { out.append(e); return out }
            return nil
        case .failure: out.append(e); return out
        }
    }
    while true {
        let nextInner = current?.first
        let nextOuter = index < input.count ? input[index] : nil
        if let o = nextOuter, nextInner == nil || o.time <= nextInner!.time {
            index += 1
            switch o.event {
            case .value(let v): current = innerTrace(v, inner, at: o.time)
            case .finished:
                outerDone = true
                if current == nil { out.append(o); return out }
            case .failure: out.append(o); return out
            }
            // A synchronous inner publisher runs now, before the next outer event.
            while let e = current?.first, e.time == o.time {
                current!.removeFirst()
                if let done = step(e) { return done }
            }
            continue
        }
        guard let e = nextInner else { return out }
        current!.removeFirst()
        if let done = step(e) { return done }
    }

}

/// The whole pipeline's model: the source as a subscriber at time 0 sees it, then each operator.
func model(source: SourceSpec, ops: [OpSpec]) -> Trace {
    modelPrefix(source: source, ops: ops[...], subscribedAt: 0)
}

private func modelPrefix(source: SourceSpec, ops: ArraySlice<OpSpec>, subscribedAt t: Int) -> Trace {
    guard let op = ops.last else { return source.seen(at: t) }
    let upstream = ops.dropLast()
    let input = modelPrefix(source: source, ops: upstream, subscribedAt: t)
    return model(op, input, subscribedAt: t, onSource: upstream.isEmpty, resubscribe: { modelPrefix(source: source, ops: upstream, subscribedAt: $0) })
}
