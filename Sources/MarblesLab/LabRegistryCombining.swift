import Foundation
import Streams
import StreamsTesting

// The operators that combine rows, handle failures, use time, or buffer: the rest of
// `LabOperators` (LabRegistry.swift has the ones that transform, filter and reduce).
extension LabOperators {
    // MARK: Combining

    /// The rows `step` names (at most `most`), the first argument labelled `label`.
    static func others(
        _ step: LabStep, _ context: inout LabContext, usage: String, label: String? = nil, most: Int = 3,
        arguments: ArraySlice<LabArgument>? = nil
    ) throws(LabError) -> [LabStream] {
        let arguments = arguments ?? step.arguments[...]
        guard (1...most).contains(arguments.count) else {
            throw step.error("\(step.name) takes 1 to \(most) rows: \(usage)")
        }
        var rows: [LabStream] = []
        for (index, argument) in arguments.enumerated() {
            let expected = index == 0 ? label : nil
            guard argument.label == expected else {
                throw LabError(
                    "expected \(expected.map { "'\($0):'" } ?? "no label") here: \(usage)", in: step.source,
                    at: argument.column)
            }
            rows.append(try context.row(argument))
        }
        return rows
    }

    /// The rows of `zip(b, c, x+y+z)` and its transform of the values of every row, the upstream's first.
    static func othersAndTransform(_ step: LabStep, _ context: inout LabContext, usage: String) throws(LabError)
        -> (rows: [LabStream], transform: LabFormula)
    {
        let rows = try others(step, &context, usage: usage, arguments: step.arguments.dropLast())
        let transform = try LabFormula.combination(step.arguments[step.arguments.count - 1], count: rows.count + 1)
        return (rows, transform)
    }

    /// The most rows `merge(with:)` takes besides the upstream: `Publishers.Merge8`'s.
    static let mergeArity = 7

    static func merge(_ step: LabStep, _ up: LabStream, _ context: inout LabContext, label: String?) throws(LabError)
        -> LabStream
    {
        let usage = "merge(ROW, ...), as merge(b) or merge(b, c, d, e) (up to \(mergeArity) rows)"
        let r = try others(step, &context, usage: usage, label: label, most: mergeArity)
        switch r.count {
        case 1: return up.merge(with: r[0]).lab()
        case 2: return up.merge(with: r[0], r[1]).lab()
        case 3: return up.merge(with: r[0], r[1], r[2]).lab()
        case 4: return up.merge(with: r[0], r[1], r[2], r[3]).lab()
        case 5: return up.merge(with: r[0], r[1], r[2], r[3], r[4]).lab()
        case 6: return up.merge(with: r[0], r[1], r[2], r[3], r[4], r[5]).lab()
        default: return up.merge(with: r[0], r[1], r[2], r[3], r[4], r[5], r[6]).lab()
        }
    }

    static let combining: [LabOperator] = [
        op(
            "merge(_:)", "merge(ROW, ...)", "the values of every row (up to 8 in all), as they come", .combining,
            LabExample("-1---3-|", "merge(other)", inputs: [("other", "---2---|")], doc: "merge")
        ) { step, up, context throws(LabError) in
            try merge(step, up, &context, label: nil)
        },
        op(
            "merge(with:)", "merge(with: ROW, ...)", "the values of every row (up to 8 in all), as they come",
            .combining,
            LabExample("-1---3-|", "merge(with: b)", inputs: [("b", "---2---|")])
        ) { step, up, context throws(LabError) in
            try merge(step, up, &context, label: "with")
        },
        op(
            "zip(_:)", "zip(ROW, ...)", "a tuple of each row's next value, when every row has one", .combining,
            LabExample("-1-2-----3-|", "zip(other)", inputs: [("other", "---a-b-c---|")], doc: "zip")
        ) { step, up, context throws(LabError) in
            let rows = try others(step, &context, usage: "zip(ROW, ...), as zip(b)")
            switch rows.count {
            case 1: return up.zip(rows[0]) { LabValues.tuple($0, $1) }.lab()
            case 2: return up.zip(rows[0], rows[1]) { LabValues.tuple($0, $1, $2) }.lab()
            default: return up.zip(rows[0], rows[1], rows[2]) { LabValues.tuple($0, $1, $2, $3) }.lab()
            }
        },
        op(
            "combineLatest(_:)", "combineLatest(ROW, ...)", "a tuple of each row's latest value, whenever one sends",
            .combining,
            LabExample("-1---2---|", "combineLatest(other)", inputs: [("other", "---a---b-|")], doc: "combineLatest")
        ) { step, up, context throws(LabError) in
            let rows = try others(step, &context, usage: "combineLatest(ROW, ...), as combineLatest(b)")
            switch rows.count {
            case 1: return up.combineLatest(rows[0]) { LabValues.tuple($0, $1) }.lab()
            case 2: return up.combineLatest(rows[0], rows[1]) { LabValues.tuple($0, $1, $2) }.lab()
            default: return up.combineLatest(rows[0], rows[1], rows[2]) { LabValues.tuple($0, $1, $2, $3) }.lab()
            }
        },
        op(
            "zip(_:transform:)", "zip(ROW, ..., TRANSFORM)",
            "each row's next value, combined by TRANSFORM of x, y, z, w (x+y)", .combining,
            LabExample("-1-2---|", "zip(other, x+y)", inputs: [("other", "---a-b-|")], doc: "zip-transform")
        ) { step, up, context throws(LabError) in
            let usage = "zip(ROW, ..., TRANSFORM), as zip(b, x+y) or zip(b, c, x+y+z)"
            let (rows, formula) = try othersAndTransform(step, &context, usage: usage)
            let log = context.log
            let name = "zip(\(formula))"
            switch rows.count {
            case 1: return up.zip(rows[0]) { formula.combining([$0, $1], in: name, log: log) }.lab()
            case 2: return up.zip(rows[0], rows[1]) { formula.combining([$0, $1, $2], in: name, log: log) }.lab()
            default:
                return up.zip(rows[0], rows[1], rows[2]) { formula.combining([$0, $1, $2, $3], in: name, log: log) }
                    .lab()
            }
        },
        op(
            "combineLatest(_:transform:)", "combineLatest(ROW, ..., TRANSFORM)",
            "each row's latest value, combined by TRANSFORM of x, y, z, w (x*y)", .combining,
            LabExample(
                "-1---2---|", "combineLatest(other, x*y)", inputs: [("other", "---3---4-|")],
                doc: "combineLatest-transform")
        ) { step, up, context throws(LabError) in
            let usage = "combineLatest(ROW, ..., TRANSFORM), as combineLatest(b, x*y)"
            let (rows, formula) = try othersAndTransform(step, &context, usage: usage)
            let log = context.log
            let name = "combineLatest(\(formula))"
            switch rows.count {
            case 1: return up.combineLatest(rows[0]) { formula.combining([$0, $1], in: name, log: log) }.lab()
            case 2:
                return up.combineLatest(rows[0], rows[1]) { formula.combining([$0, $1, $2], in: name, log: log) }
                    .lab()
            default:
                return up.combineLatest(rows[0], rows[1], rows[2]) {
                    formula.combining([$0, $1, $2, $3], in: name, log: log)
                }
                .lab()
            }
        },
        op(
            "append(_:)", "append(VALUE, ...) or append(ROW)", "after the upstream finishes: the values, or the row",
            .combining,
            LabExample("-1-2-|", "append(3, 4)", doc: "append-values")
        ) { step, up, context throws(LabError) in
            if step.arguments.count == 1, let name = step.arguments[0].identifier, context.rows[name] != nil {
                return up.append(try context.row(step.arguments[0])).lab()
            }
            var values: [String] = []
            for argument in step.arguments {
                guard argument.label == nil else {
                    throw argument.error("append takes values or a row, without a label")
                }
                values.append(try argument.value())
            }
            return up.append(values).lab()
        },
        op(
            "prepend(_:)", "prepend(VALUE, ...) or prepend(ROW)",
            "the values, or the row until it finishes, then the upstream", .combining,
            LabExample("---3-4-|", "prepend(1, 2)", doc: "prepend-values")
        ) { step, up, context throws(LabError) in
            if step.arguments.count == 1, let name = step.arguments[0].identifier, context.rows[name] != nil {
                return up.prepend(try context.row(step.arguments[0])).lab()
            }
            var values: [String] = []
            for argument in step.arguments {
                guard argument.label == nil else {
                    throw argument.error("prepend takes values or a row, without a label")
                }
                values.append(try argument.value())
            }
            return up.prepend(values).lab()
        },
        op(
            "switchToLatest", "switchToLatest", "each value names a row: the latest named row's values", .combining,
            LabExample(
                "-a----b------|", "switchToLatest", inputs: [("a", "--1-2---3-|"), ("b", "-------7-8-|")],
                doc: "switchToLatest")
        ) { step, up, context throws(LabError) in
            try step.noArguments(usage: "switchToLatest (the upstream's values name rows)")
            context.useAllRows()
            let rows = context
            return up.map { rows.row(named: $0, by: "switchToLatest") }.switchToLatest().lab()
        },
        op(
            "flatMap", "flatMap", "each value names a row: every named row's values, merged", .combining,
            LabExample(
                "-a---b-------|", "flatMap", inputs: [("a", "--1---2-|"), ("b", "------7---8-|")], doc: "flatMap")
        ) { step, up, context throws(LabError) in
            try step.noArguments(usage: "flatMap, or flatMap(maxPublishers: 1) (the upstream's values name rows)")
            context.useAllRows()
            let rows = context
            return up.flatMap { rows.row(named: $0, by: "flatMap") }.lab()
        },
        op(
            "flatMap(maxPublishers:)", "flatMap(maxPublishers: DEMAND)",
            "as flatMap, with at most DEMAND rows at a time", .combining,
            LabExample(
                "-ab---------|", "flatMap(maxPublishers: 1)", inputs: [("a", "--1---2-|"), ("b", "------7---8-|")])
        ) { step, up, context throws(LabError) in
            let argument = try step.arguments(
                ["maxPublishers"], usage: "flatMap(maxPublishers: DEMAND), as flatMap(maxPublishers: max(1))")[0]!
            let demand = try argument.demand()
            guard demand > .none else {
                throw argument.error("flatMap needs room for one row at least: max(1) or more, or unlimited")
            }
            context.useAllRows()
            let rows = context
            return up.flatMap(maxPublishers: demand) { rows.row(named: $0, by: "flatMap") }.lab()
        },
    ]

    // MARK: Failures

    static let failures: [LabOperator] = [
        op(
            "replaceError(with:)", "replaceError(with: VALUE)", "VALUE and finished, instead of a failure", .failures,
            LabExample("-1-2-#", "replaceError(with: 0)", doc: "replaceError")
        ) { step, up, _ throws(LabError) in
            let value = try step.arguments(["with"], usage: "replaceError(with: VALUE)")[0]!.value()
            return up.replaceError(with: value).setFailureType(to: MarbleFailure.self).lab()
        },
        op(
            "catch(_:)", "catch(ROW)", "the upstream, and on a failure the row instead", .failures,
            LabExample("-1-2-#", "catch(replacement)", inputs: [("replacement", "------8-9-|")], doc: "catch")
        ) { step, up, context throws(LabError) in
            let other = try context.row(step.arguments([nil], usage: "catch(ROW)")[0]!)
            return up.catch { _ in other }.lab()
        },
        op(
            "retry(_:)", "retry(COUNT)",
            "subscribes again after a failure, COUNT times: a cold row (--cold) plays again from its start",
            .failures, LabExample("-1-2-#", "retry(2)", options: ["--cold"])
        ) { step, up, _ throws(LabError) in
            let count = try step.arguments([nil], usage: "retry(COUNT)")[0]!.integer()
            return up.retry(count).lab()
        },
    ]

    // MARK: Timing

    static let timing: [LabOperator] = [
        op(
            "debounce(_:)", "debounce(TICKS)", "a value once TICKS pass without another", .timing,
            LabExample("-a-b-----|", "debounce(2)", doc: "debounce")
        ) { step, up, context throws(LabError) in
            let ticks = try step.arguments([nil], usage: "debounce(TICKS)")[0]!.integer()
            return up.debounce(for: context.stride(ticks), scheduler: context.scheduler).lab()
        },
        op(
            "throttle(_:)", "throttle(TICKS, latest: BOOL)",
            "at most one value per TICKS: the first, or with latest: true the last",
            .timing, LabExample("-abcd-----f|", "throttle(3, latest: true)", doc: "throttle-latest")
        ) { step, up, context throws(LabError) in
            let arguments = try step.arguments([nil, "latest"], optional: 1, usage: "throttle(TICKS, latest: BOOL)")
            let ticks = try arguments[0]!.integer(atLeast: 1)
            let latest = try arguments[1]?.boolean() ?? false
            return up.throttle(for: context.stride(ticks), scheduler: context.scheduler, latest: latest).lab()
        },
        op(
            "delay(_:)", "delay(TICKS)", "every event, TICKS later", .timing,
            LabExample("-a-b-|", "delay(2)", doc: "delay")
        ) { step, up, context throws(LabError) in
            let ticks = try step.arguments([nil], usage: "delay(TICKS)")[0]!.integer()
            return up.delay(for: context.stride(ticks), scheduler: context.scheduler).lab()
        },
        op(
            "timeout(_:)", "timeout(TICKS)", "finished if TICKS pass without an event", .timing,
            LabExample("-a-b-----c-|", "timeout(3)", doc: "timeout")
        ) { step, up, context throws(LabError) in
            let ticks = try step.arguments([nil], usage: "timeout(TICKS)")[0]!.integer(atLeast: 1)
            return up.timeout(context.stride(ticks), scheduler: context.scheduler).lab()
        },
        op(
            "measureInterval", "measureInterval", "the ticks since the previous value", .timing,
            LabExample("-a--b-c|", "measureInterval", doc: "measureInterval")
        ) { step, up, context throws(LabError) in
            try step.noArguments(usage: "measureInterval")
            return up.measureInterval(using: context.scheduler).map { String($0.magnitude / 1_000_000_000) }.lab()
        },
        op(
            "receive(on:)", "receive(on: scheduler)", "every event, delivered by the test scheduler", .timing,
            LabExample("-a-b-|", "receive(on: scheduler)", doc: "receiveOn")
        ) { step, up, context throws(LabError) in
            _ = try step.arguments(["on"], usage: "receive(on: scheduler)")[0]!.word(["scheduler"])
            return up.receive(on: context.scheduler).lab()
        },
        op(
            "subscribe(on:)", "subscribe(on: scheduler)", "the subscription made by the test scheduler", .timing,
            LabExample("-a-b-|", "subscribe(on: scheduler)", doc: "subscribeOn")
        ) { step, up, context throws(LabError) in
            _ = try step.arguments(["on"], usage: "subscribe(on: scheduler)")[0]!.word(["scheduler"])
            return up.subscribe(on: context.scheduler).lab()
        },
    ]

    // MARK: Demand

    static let demand: [LabOperator] = [
        op(
            "buffer(size:)", "buffer(size: N, prefetch: keepFull|byRequest, whenFull: dropOldest|dropNewest|fail)",
            "up to N values kept for a subscriber that has not asked yet", .demand,
            LabExample(
                "-1-2-3-4-|", "buffer(size: 2, prefetch: byRequest, whenFull: dropOldest)", demand: "max(1)",
                doc: "buffer")
        ) { step, up, _ throws(LabError) in
            let usage = "buffer(size: N, prefetch: keepFull|byRequest, whenFull: dropOldest|dropNewest|fail)"
            let arguments = try step.arguments(["size", "prefetch", "whenFull"], optional: 2, usage: usage)
            let size = try arguments[0]!.integer(atLeast: 1)
            let prefetch: Publishers.PrefetchStrategy =
                try arguments[1]?.word(["keepFull", "byRequest"]) == "keepFull" ? .keepFull : .byRequest
            let whenFull: Publishers.BufferingStrategy<MarbleFailure> =
                switch try arguments[2]?.word(["dropOldest", "dropNewest", "fail"]) {
                case "dropNewest": .dropNewest
                case "fail": .customError { MarbleFailure() }
                default: .dropOldest
                }
            return up.buffer(size: size, prefetch: prefetch, whenFull: whenFull).lab()
        }
    ]
}
