import Foundation
import Streams
import StreamsTesting

/// What to run: the rows, the operator chain, and what the subscriber asks for.
struct LabSetup {
    /// The main input row's diagram.
    var diagram: String
    /// The operator chain, as typed.
    var chain: String
    /// Other rows, by name, in order (`--input b='--x---y|'`).
    var inputs: [(name: String, diagram: String)] = []
    /// What the subscriber asks for, by tick; unlimited at tick 0 by default.
    var demand: [(tick: Int, demand: Subscribers.Demand)] = [(0, .unlimited)]
    /// The tick at which the subscriber cancels (every subscriber, with several), if any.
    var cancelAt: Int?
    /// With several subscribers, the tick at which each cancels (`--cancel-at 5,7`), instead of
    /// `cancelAt`.
    var cancelEach: [Int]?
    /// The ticks at which subscribers subscribe, one subscriber each (`--subscribe-at 0,4`).
    var subscribeAt: [Int] = [0]
    /// Whether every input row is cold (`--cold`): each subscription plays it from its start.
    var allRowsCold = false
    /// The rows that are cold (`--cold=upstream,b`), besides `allRowsCold`.
    var coldRows: Set<String> = []
    /// The tick at which the lab calls `connect()` on a `multicast` the chain makes (0 by
    /// default, after the subscribers of that tick).
    var connectAt: Int?
    /// Whether the demand and cancel rows are shown.
    var showsDemand = false
    /// Whether an input row sends a value only to a subscription that asked for it.
    var respectsDemand = true
    /// Whether a row the operator does not use is an error (in the one-shot form: likely a
    /// typo), or shown and left alone (in the interactive lab, where rows stay between runs).
    var requiresEveryRow = true

    /// Whether the row `name` is cold.
    func isCold(_ name: String) -> Bool { allRowsCold || coldRows.contains(name) }
}

/// One row of a result.
struct LabResultRow: Equatable {
    enum Kind: Equatable { case input, output, subscriberDemand, rowDemand, rowSubscriptions, dropped }
    let label: String
    let kind: Kind
    let ticks: [[Marbles.Event]]
    /// The first tick the row is about (a late subscriber's subscription): blank before it.
    var start = 0
    /// What the row's label does not say, written after it in the terminal: `subscribes at tick 4`.
    var comment: String?
    /// The row's name, for an input row (its label may say more: `b (cold)`).
    var name: String?
}

/// What a run did: the input rows, the operator line, the output row, and (when asked for)
/// the demand and cancel rows.
struct LabResult {
    let rows: [LabResultRow]
    let operatorLine: String
    let notes: [String]
    let showsDemand: Bool

    var output: [[Marbles.Event]] { rows.first { $0.kind == .output }?.ticks ?? [] }

    /// The output row in the docs' grammar, values longer than a character written `'text'`.
    var outputDiagram: String { Marbles.render(output) }
}

/// Names a row may not take: the formulas' own words.
let reservedRowNames: Set<String> = [
    "x", "y", "z", "w", "acc", "even", "odd", "true", "false", "unlimited", "none", "max", "upstream", "output",
]

enum LabRunner {
    /// The longest a run goes on after its last input tick, waiting for scheduled work.
    static let maximumExtraTicks = 30
    /// The longest diagram, and the latest tick of `--demand` and `--cancel-at`.
    static let longest = 1_000

    /// The values the other subscribers got before `subscriber` subscribed that it never got:
    /// what a late subscriber of a shared (or hot) publisher misses.
    static func missed(by subscriber: Int, from output: [[[Marbles.Event]]], subscribeAt: [Int]) -> [String] {
        let start = subscribeAt[subscriber]
        var earlier: [String] = []
        for (other, ticks) in output.enumerated() where other != subscriber {
            for case .value(let value) in ticks.prefix(start).joined() where !earlier.contains(value) {
                earlier.append(value)
            }
        }
        let got = Set(
            output[subscriber].joined().compactMap { event -> String? in
                if case .value(let value) = event { return value }
                return nil
            })
        return earlier.filter { !got.contains($0) }
    }

    static func run(_ setup: LabSetup) throws(LabError) -> LabResult {
        let mainTicks: [[Marbles.Event]]
        do {
            mainTicks = try LabDiagram.parse(setup.diagram)
        } catch {
            throw LabError("in the diagram: \(error.message)", in: error.source, at: error.column)
        }
        var inputTicks: [(name: String, ticks: [[Marbles.Event]])] = []
        for (name, diagram) in setup.inputs {
            guard name.first?.isLetter == true, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw LabError("--input \(name)=...: a row's name is a word of letters and digits, such as b or clicks")
            }
            guard !reservedRowNames.contains(name) else {
                throw LabError("--input \(name)=...: \(name) is a word of the formulas; name the row otherwise")
            }
            guard !inputTicks.contains(where: { $0.name == name }) else {
                throw LabError("--input \(name)=... is given twice")
            }
            do {
                inputTicks.append((name, try LabDiagram.parse(diagram)))
            } catch {
                throw LabError("in the diagram of \(name): \(error.message)", in: error.source, at: error.column)
            }
        }
        for (name, ticks) in [("the diagram", mainTicks)] + inputTicks.map({ ("the diagram of \($0.name)", $0.ticks) })
        where ticks.count > longest {
            throw LabError("\(name) has \(ticks.count) ticks; the lab runs \(longest) at most")
        }
        let rowNames = ["upstream"] + inputTicks.map(\.name)
        for name in setup.coldRows.sorted() where !rowNames.contains(name) {
            throw LabError("--cold=\(name): there is no row named \(name) (rows: \(rowNames.joined(separator: ", ")))")
        }
        let steps = try LabChain.parse(setup.chain)

        let subscribeAt = setup.subscribeAt.isEmpty ? [0] : setup.subscribeAt
        let log = LabLog(subscriberCount: subscribeAt.count)
        let scheduler = DispatchQueue.test
        let origin = scheduler.now
        func makeRow(_ name: String, _ ticks: [[Marbles.Event]]) -> LabRow {
            LabRow(
                name: name, log: log, respectsDemand: setup.respectsDemand,
                replay: setup.isCold(name) ? LabRow.Replay(ticks: ticks, scheduler: scheduler, origin: origin) : nil)
        }
        let upstream = makeRow("upstream", mainTicks)
        var rows: [String: LabRow] = [:]
        for (name, ticks) in inputTicks { rows[name] = makeRow(name, ticks) }
        var context = LabContext(scheduler: scheduler, rows: rows, log: log)
        var stream = upstream.eraseToAnyPublisher()
        for (index, step) in steps.enumerated() {
            context.stepIndex = index
            stream = try LabOperators.apply(step, to: stream, in: &context)
        }
        for name in context.unusedRows(inputTicks.map(\.name)) where setup.requiresEveryRow {
            throw LabError("the row \(name) is not used by the operator: name it, as in merge(\(name))")
        }
        if setup.connectAt != nil, context.connections.isEmpty {
            throw LabError("--connect-at is for a multicast the lab connects: the operator has none (multicast)")
        }

        // What each subscriber asks for: what is due by the tick it subscribes, then the rest at
        // their ticks.
        var initial = [Subscribers.Demand](repeating: .none, count: subscribeAt.count)
        var later: [Int: [(subscriber: Int, demand: Subscribers.Demand)]] = [:]
        for (subscriber, start) in subscribeAt.enumerated() {
            for (tick, demand) in setup.demand {
                if tick <= start {
                    initial[subscriber] += demand
                } else {
                    later[tick, default: []].append((subscriber, demand))
                }
            }
        }
        if let cancelEach = setup.cancelEach, cancelEach.count != subscribeAt.count {
            throw LabError(
                "--cancel-at: \(cancelEach.count) ticks for \(subscribeAt.count) subscriber\(subscribeAt.count == 1 ? "" : "s"): "
                    + "give one tick for all, or one for each subscriber")
        }
        let cancelTicks =
            setup.cancelEach ?? Array(repeating: setup.cancelAt, count: subscribeAt.count).compactMap { $0 }
        for (subscriber, tick) in cancelTicks.enumerated() where tick < subscribeAt[subscriber] {
            throw LabError(
                "--cancel-at: subscriber \(subscriber + 1) would cancel at tick \(tick), before it subscribes at tick "
                    + "\(subscribeAt[subscriber])")
        }
        let cold = rowNames.contains(where: setup.isCold)
        let connectAt = context.connections.isEmpty ? nil : (setup.connectAt ?? 0)
        let connections = context.connections
        let length = max(
            mainTicks.count,
            inputTicks.map(\.ticks.count).max() ?? 0,
            (later.keys.max() ?? 0) + 1,
            (cancelTicks.max() ?? 0) + 1,
            (subscribeAt.max() ?? 0) + 1,
            (connectAt ?? 0) + 1)
        let subscribers = subscribeAt.indices.map { LabSubscriber(log: log, initial: initial[$0], index: $0) }
        let tickLength = DispatchQueue.SchedulerTimeType.Stride.seconds(1)
        var times: [DispatchQueue.SchedulerTimeType] = []
        var time = scheduler.now
        // A cold row plays again for each subscription, after the diagrams' end too.
        for _ in 0..<(length + (cold ? longest : maximumExtraTicks)) {
            times.append(time)
            time = time.advanced(by: tickLength)
        }
        // At each tick, the subscriptions come first, then the connection, the subscribers'
        // requests and cancels, then the rows' events in order (all scheduled before the first
        // subscription), then the work the operators scheduled.
        let erased = LabLocked(stream)
        for index in 0..<length {
            for subscriber in subscribers where subscribeAt[subscriber.index] == index && index > 0 {
                scheduler.schedule(after: times[index]) { erased.value.subscribe(subscriber) }
            }
            if let connectAt, connectAt == index, index > 0 {
                scheduler.schedule(after: times[index]) { connections.connect() }
            }
            for (subscriber, more) in later[index] ?? [] {
                scheduler.schedule(after: times[index]) { subscribers[subscriber].request(more) }
            }
            for subscriber in subscribers where cancelTicks.indices.contains(subscriber.index) {
                if cancelTicks[subscriber.index] == index {
                    scheduler.schedule(after: times[index]) { subscriber.cancel() }
                }
            }
            for (row, ticks) in [(upstream, mainTicks)] + inputTicks.map({ (rows[$0.name]!, $0.ticks) })
            where index < ticks.count && row.replay == nil {
                let events = ticks[index]
                guard !events.isEmpty else { continue }
                scheduler.schedule(after: times[index]) { row.play(events) }
            }
        }
        for subscriber in subscribers where subscribeAt[subscriber.index] == 0 { stream.subscribe(subscriber) }
        if connectAt == 0 { connections.connect() }

        var output: [[[Marbles.Event]]] = Array(repeating: [], count: subscribers.count)
        var asked: [String: [[Marbles.Event]]] = [:]
        var dropped: [String: [[Marbles.Event]]] = [:]
        var subscribed: [String: [[Marbles.Event]]] = [:]
        var subscriberRows: [[[Marbles.Event]]] = Array(repeating: [], count: subscribers.count)
        var index = 0
        while index < times.count {
            // A cold row's replays go on after the diagrams' end; after the last, as after the
            // diagrams, the run waits for scheduled work a while at most.
            let end = max(length, log.lastReplayEnd)
            if index >= end
                && (subscribers.allSatisfy(\.isCompleted) || scheduler.pendingCount == 0
                    || (cancelTicks.count == subscribers.count && cancelTicks.allSatisfy { $0 < index })
                    || index >= end + maximumExtraTicks)
            {
                break
            }
            log.setTick(index)
            scheduler.advance(to: times[index])
            let tick = log.take()
            for subscriber in subscribers.indices {
                output[subscriber].append(tick.output[subscriber] ?? [])
                subscriberRows[subscriber].append(tick.subscriber[subscriber] ?? [])
            }
            for name in rowNames {
                asked[name, default: []].append(tick.asked[name] ?? [])
                dropped[name, default: []].append(tick.dropped[name] ?? [])
                subscribed[name, default: []].append(tick.subscriptions[name] ?? [])
            }
            index += 1
        }
        connections.disconnect()

        var resultRows: [LabResultRow] = []
        for (name, ticks) in [("upstream", mainTicks)] + inputTicks.map({ ($0.name, $0.ticks) }) {
            let label = setup.isCold(name) ? "\(name) (cold)" : name
            resultRows.append(LabResultRow(label: label, kind: .input, ticks: ticks, name: name))
        }
        let several = subscribers.count > 1
        for subscriber in subscribers.indices {
            let start = subscribeAt[subscriber]
            var comment = start > 0 ? "subscribes at tick \(start)" : nil
            let missed = Self.missed(by: subscriber, from: output, subscribeAt: subscribeAt)
            if !missed.isEmpty { comment? += "; missed \(missed.joined(separator: ", "))" }
            resultRows.append(
                LabResultRow(
                    label: several ? "subscriber \(subscriber + 1)" : "output", kind: .output,
                    ticks: output[subscriber], start: start, comment: comment))
        }
        let counts = log.subscriptionCountsByRow
        if setup.showsDemand {
            for subscriber in subscribers.indices {
                resultRows.append(
                    LabResultRow(
                        label: several ? "subscriber \(subscriber + 1) asked" : "you asked", kind: .subscriberDemand,
                        ticks: subscriberRows[subscriber], start: subscribeAt[subscriber]))
            }
            for name in rowNames where counts[name] != nil {
                resultRows.append(LabResultRow(label: "asked of \(name)", kind: .rowDemand, ticks: asked[name] ?? []))
                if setup.isCold(name) || (counts[name] ?? 0) > 1 {
                    resultRows.append(
                        LabResultRow(
                            label: "subscribed to \(name)", kind: .rowSubscriptions, ticks: subscribed[name] ?? []))
                }
            }
        }
        for name in rowNames where (dropped[name] ?? []).contains(where: { !$0.isEmpty }) {
            resultRows.append(LabResultRow(label: "\(name) dropped", kind: .dropped, ticks: dropped[name] ?? []))
        }
        return LabResult(
            rows: resultRows, operatorLine: setup.chain, notes: log.allNotes, showsDemand: setup.showsDemand)
    }
}
