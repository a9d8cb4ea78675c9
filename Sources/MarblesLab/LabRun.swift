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
    /// The tick at which the subscriber cancels, if any.
    var cancelAt: Int?
    /// Whether the demand and cancel rows are shown.
    var showsDemand = false
    /// Whether an input row sends a value only to a subscription that asked for it.
    var respectsDemand = true
    /// Whether a row the operator does not use is an error (in the one-shot form: likely a
    /// typo), or shown and left alone (in the interactive lab, where rows stay between runs).
    var requiresEveryRow = true
}

/// One row of a result.
struct LabResultRow: Equatable {
    enum Kind: Equatable { case input, output, subscriberDemand, rowDemand, dropped }
    let label: String
    let kind: Kind
    let ticks: [[Marbles.Event]]
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
    "x", "acc", "even", "odd", "true", "false", "unlimited", "none", "max", "upstream", "output",
]

enum LabRunner {
    /// The longest a run goes on after its last input tick, waiting for scheduled work.
    static let maximumExtraTicks = 30
    /// The longest diagram, and the latest tick of `--demand` and `--cancel-at`.
    static let longest = 1_000

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
        let steps = try LabChain.parse(setup.chain)

        let log = LabLog()
        let scheduler = DispatchQueue.test
        let upstream = LabRow(name: "upstream", log: log, respectsDemand: setup.respectsDemand)
        var rows: [String: LabRow] = [:]
        for (name, _) in inputTicks { rows[name] = LabRow(name: name, log: log, respectsDemand: setup.respectsDemand) }
        var context = LabContext(scheduler: scheduler, rows: rows, log: log)
        var stream = upstream.eraseToAnyPublisher()
        for step in steps {
            stream = try LabOperators.apply(step, to: stream, in: &context)
        }
        for name in context.unusedRows(inputTicks.map(\.name)) where setup.requiresEveryRow {
            throw LabError("the row \(name) is not used by the operator: name it, as in merge(\(name))")
        }

        var initial = Subscribers.Demand.none
        var later: [Int: Subscribers.Demand] = [:]
        for (tick, demand) in setup.demand {
            if tick == 0 { initial += demand } else { later[tick, default: .none] += demand }
        }
        let length = max(
            mainTicks.count,
            inputTicks.map(\.ticks.count).max() ?? 0,
            (later.keys.max() ?? 0) + 1,
            (setup.cancelAt ?? 0) + 1)
        let subscriber = LabSubscriber(log: log, initial: initial)
        let tickLength = DispatchQueue.SchedulerTimeType.Stride.seconds(1)
        var times: [DispatchQueue.SchedulerTimeType] = []
        var time = scheduler.now
        for _ in 0..<(length + maximumExtraTicks) {
            times.append(time)
            time = time.advanced(by: tickLength)
        }
        // At each tick, the subscriber's requests and cancel come first, then the rows' events in
        // order (all scheduled before the subscription), then the work the operators scheduled.
        for index in 0..<length {
            if let more = later[index] { scheduler.schedule(after: times[index]) { subscriber.request(more) } }
            if setup.cancelAt == index { scheduler.schedule(after: times[index]) { subscriber.cancel() } }
            for (row, ticks) in [(upstream, mainTicks)] + inputTicks.map({ (rows[$0.name]!, $0.ticks) })
            where index < ticks.count {
                let events = ticks[index]
                guard !events.isEmpty else { continue }
                scheduler.schedule(after: times[index]) { row.play(events) }
            }
        }
        stream.subscribe(subscriber)

        var output: [[Marbles.Event]] = []
        var asked: [String: [[Marbles.Event]]] = [:]
        var dropped: [String: [[Marbles.Event]]] = [:]
        var subscriberRow: [[Marbles.Event]] = []
        let rowNames = ["upstream"] + inputTicks.map(\.name)
        var index = 0
        while index < times.count {
            if index >= length
                && (subscriber.isCompleted || scheduler.pendingCount == 0 || setup.cancelAt.map { $0 < index } == true)
            {
                break
            }
            log.setTick(index)
            scheduler.advance(to: times[index])
            let tick = log.take()
            output.append(tick.output)
            subscriberRow.append(tick.subscriber)
            for name in rowNames {
                asked[name, default: []].append(tick.asked[name] ?? [])
                dropped[name, default: []].append(tick.dropped[name] ?? [])
            }
            index += 1
        }

        var resultRows: [LabResultRow] = [LabResultRow(label: "upstream", kind: .input, ticks: mainTicks)]
        resultRows += inputTicks.map { LabResultRow(label: $0.name, kind: .input, ticks: $0.ticks) }
        resultRows.append(LabResultRow(label: "output", kind: .output, ticks: output))
        if setup.showsDemand {
            resultRows.append(LabResultRow(label: "you asked", kind: .subscriberDemand, ticks: subscriberRow))
            let subscribed = log.subscribedRows
            for name in rowNames where subscribed.contains(name) {
                resultRows.append(LabResultRow(label: "asked of \(name)", kind: .rowDemand, ticks: asked[name] ?? []))
            }
        }
        for name in rowNames where (dropped[name] ?? []).contains(where: { !$0.isEmpty }) {
            resultRows.append(LabResultRow(label: "\(name) dropped", kind: .dropped, ticks: dropped[name] ?? []))
        }
        return LabResult(
            rows: resultRows, operatorLine: setup.chain, notes: log.allNotes, showsDemand: setup.showsDemand)
    }
}
