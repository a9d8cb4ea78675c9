import Foundation
import Streams
import StreamsTesting

typealias LabBuild = @Sendable (LabStep, LabStream, inout LabContext) throws(LabError) -> LabStream

func op(
    _ key: String, _ usage: String, _ summary: String, _ category: LabOperator.Category,
    _ example: LabExample, _ build: @escaping LabBuild
) -> LabOperator {
    LabOperator(key: key, usage: usage, summary: summary, category: category, example: example, build: build)
}

/// Every operator the lab runs, in the order `--list` shows them.
enum LabOperators {
    static let all: [LabOperator] =
        transforming + filtering + reducing + combining + failures + sharing + timing + demand

    static let byKey: [String: LabOperator] = Dictionary(
        all.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    /// The operators named `name`, whatever their labels.
    static func named(_ name: String) -> [LabOperator] { all.filter { $0.name == name } }

    /// Applies `step` to `upstream`.
    static func apply(_ step: LabStep, to upstream: LabStream, in context: inout LabContext) throws(LabError)
        -> LabStream
    {
        if let found = byKey[key(of: step)] { return try found.build(step, upstream, &context) }
        let sameName = named(step.name)
        if !sameName.isEmpty {
            throw step.error("\(step.name) is written \(sameName.map(\.usage).joined(separator: " or "))")
        }
        var message = "unknown operator '\(step.name)'"
        if let near = nearest(step.name) { message += ": did you mean \(near)?" }
        throw step.error(message + " (:list or --list names them all)")
    }

    /// The registry key of `step`: its own, except for a `zip` or `combineLatest` whose last argument
    /// is a formula rather than a row (`zip(b, x+y)`): `zip(_:transform:)`.
    static func key(of step: LabStep) -> String {
        guard ["zip", "combineLatest"].contains(step.name), step.arguments.count >= 2, let last = step.arguments.last,
            last.label == nil
        else { return step.key }
        if let name = last.identifier, !LabFormula.valueNames.contains(name) { return step.key }
        return "\(step.name)(_:transform:)"
    }

    /// The operator name closest to `name`, if one is close.
    static func nearest(_ name: String) -> String? {
        let names = Set(all.map(\.name))
        let scored = names.map { ($0, distance($0.lowercased(), name.lowercased())) }.sorted {
            ($0.1, $0.0) < ($1.1, $1.0)
        }
        guard let best = scored.first, best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    // MARK: Transforming

    static let transforming: [LabOperator] = [
        op(
            "map(_:)", "map(TRANSFORM)", "each value, transformed", .transforming,
            LabExample("-1-2-3-|", "map(x*10)", doc: "map")
        ) { step, up, context throws(LabError) in
            let usage = "map(TRANSFORM), as map(x*10)"
            let formula = try LabFormula.transform(step.arguments([nil], usage: usage)[0]!)
            let log = context.log
            let name = "map(\(formula))"
            return up.map { formula.transforming($0, in: name, log: log) }.lab()
        },
        op(
            "tryMap(_:)", "tryMap(TRANSFORM)", "each value, transformed; fails where the transform does not apply",
            .transforming, LabExample("-1-2-a-3-|", "tryMap(x*10)")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.transform(step.arguments([nil], usage: "tryMap(TRANSFORM)")[0]!)
            return up.tryMap { try formula.throwingTransform($0) }.lab()
        },
        op(
            "compactMap", "compactMap", "the values that are numbers", .transforming,
            LabExample("-1-a-2-|", "compactMap", doc: "compactMap")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "compactMap")
            return up.compactMap { Int($0) }.map { String($0) }.lab()
        },
        op(
            "compactMap(_:)", "compactMap(TRANSFORM)",
            "each value, transformed; dropped where the transform does not apply",
            .transforming, LabExample("-1-a-2-|", "compactMap(x+1)")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.transform(step.arguments([nil], usage: "compactMap(TRANSFORM)")[0]!)
            return up.compactMap { try? formula.throwingTransform($0) }.lab()
        },
        op(
            "tryCompactMap(_:)", "tryCompactMap(TRANSFORM)",
            "each value, transformed; fails where the transform does not apply",
            .transforming, LabExample("-1-a-2-|", "tryCompactMap(x+1)")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.transform(step.arguments([nil], usage: "tryCompactMap(TRANSFORM)")[0]!)
            return up.tryCompactMap { try formula.throwingTransform($0) }.lab()
        },
        op(
            "scan(_:)", "scan(INITIAL, ACCUMULATOR)", "each running total, as scan(0, +) or scan(0, acc*10+x)",
            .transforming,
            LabExample("-1-2-3-|", "scan(0, +)", doc: "scan")
        ) { step, up, context throws(LabError) in
            let arguments = try step.arguments([nil, nil], usage: "scan(INITIAL, ACCUMULATOR), as scan(0, +)")
            let initial = try arguments[0]!.value()
            let formula = try LabFormula.accumulator(arguments[1]!)
            let log = context.log
            return up.scan(initial) { formula.accumulating($0, $1, in: "scan", log: log) }.lab()
        },
        op(
            "tryScan(_:)", "tryScan(INITIAL, ACCUMULATOR)",
            "each running total; fails where the accumulator does not apply",
            .transforming, LabExample("-1-2-a-3-|", "tryScan(0, +)")
        ) { step, up, _ throws(LabError) in
            let arguments = try step.arguments([nil, nil], usage: "tryScan(INITIAL, ACCUMULATOR)")
            let initial = try arguments[0]!.value()
            let formula = try LabFormula.accumulator(arguments[1]!)
            return up.tryScan(initial) { try formula.throwingAccumulate($0, $1) }.lab()
        },
        op(
            "collect", "collect", "every value in one array, when the upstream finishes", .transforming,
            LabExample("-1-2-3-|", "collect", doc: "collect")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "collect")
            return up.collect().map(LabValues.array).lab()
        },
        op(
            "collect(_:)", "collect(COUNT)", "the values in arrays of COUNT", .transforming,
            LabExample("-1-2-3-4-5-|", "collect(2)", doc: "collectCount")
        ) { step, up, _ throws(LabError) in
            let count = try step.arguments([nil], usage: "collect(COUNT)")[0]!.integer(atLeast: 1)
            return up.collect(count).map(LabValues.array).lab()
        },
        op(
            "collect(byTime:)", "collect(byTime: TICKS)", "the values of each window of TICKS", .transforming,
            LabExample("-1-2-3----4|", "collect(byTime: 3)", doc: "collectByTime")
        ) { step, up, context throws(LabError) in
            let ticks = try step.arguments(["byTime"], usage: "collect(byTime: TICKS)")[0]!.integer(atLeast: 1)
            return up.collect(.byTime(context.scheduler, context.stride(ticks))).map(LabValues.array).lab()
        },
        op(
            "collect(byTimeOrCount:)", "collect(byTimeOrCount: TICKS, COUNT)",
            "the values of each window of TICKS, or of COUNT values",
            .transforming, LabExample("-123-----4|", "collect(byTimeOrCount: 3, 2)", doc: "collectByTimeOrCount")
        ) { step, up, context throws(LabError) in
            let arguments = try step.arguments(["byTimeOrCount", nil], usage: "collect(byTimeOrCount: TICKS, COUNT)")
            let ticks = try arguments[0]!.integer(atLeast: 1)
            let count = try arguments[1]!.integer(atLeast: 1)
            return up.collect(.byTimeOrCount(context.scheduler, context.stride(ticks), count)).map(LabValues.array)
                .lab()
        },
        op(
            "replaceEmpty(with:)", "replaceEmpty(with: VALUE)", "VALUE when the upstream finishes without a value",
            .transforming,
            LabExample("----|", "replaceEmpty(with: 0)", doc: "replaceEmpty")
        ) { step, up, _ throws(LabError) in
            let value = try step.arguments(["with"], usage: "replaceEmpty(with: VALUE)")[0]!.value()
            return up.replaceEmpty(with: value).lab()
        },
        op(
            "eraseToAnyPublisher", "eraseToAnyPublisher", "the same events, behind AnyPublisher", .transforming,
            LabExample("-1-2-|", "eraseToAnyPublisher")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "eraseToAnyPublisher")
            return up.eraseToAnyPublisher()
        },
    ]

    // MARK: Filtering

    static let filtering: [LabOperator] = [
        op(
            "filter(_:)", "filter(PREDICATE)", "the values that pass", .filtering,
            LabExample("-1-2-3-4-|", "filter(even)", doc: "filter")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.predicate(
                step.arguments([nil], usage: "filter(PREDICATE), as filter(even)")[0]!)
            let log = context.log
            return up.filter { formula.testing($0, in: "filter", log: log) }.lab()
        },
        op(
            "tryFilter(_:)", "tryFilter(PREDICATE)", "the values that pass; fails where the predicate does not apply",
            .filtering, LabExample("-1-2-x-4-|", "tryFilter(even)", doc: "tryFilter")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments([nil], usage: "tryFilter(PREDICATE)")[0]!)
            return up.tryFilter { try formula.throwingTest($0) }.lab()
        },
        op(
            "removeDuplicates", "removeDuplicates", "each value that differs from the one before", .filtering,
            LabExample("-a-a-b-a-|", "removeDuplicates", doc: "removeDuplicates")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "removeDuplicates")
            return up.removeDuplicates().lab()
        },
        op(
            "removeDuplicates(by:)", "removeDuplicates(by: COMPARISON)",
            "each value the comparison of x (the last passed on) and y (the new) calls no duplicate", .filtering,
            LabExample("-1-3-2-4-5-|", "removeDuplicates(by: x%2==y%2)")
        ) { step, up, context throws(LabError) in
            let usage = "removeDuplicates(by: COMPARISON), as removeDuplicates(by: x==y)"
            let formula = try LabFormula.comparison(step.arguments(["by"], usage: usage)[0]!)
            let log = context.log
            return up.removeDuplicates { formula.comparing($0, $1, in: "removeDuplicates(by:)", log: log) }.lab()
        },
        op(
            "tryRemoveDuplicates(by:)", "tryRemoveDuplicates(by: COMPARISON)",
            "as removeDuplicates(by:); fails where the comparison does not apply", .filtering,
            LabExample("-1-1-2-x-3-|", "tryRemoveDuplicates(by: x-y==0)", doc: "tryRemoveDuplicates")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.comparison(
                step.arguments(["by"], usage: "tryRemoveDuplicates(by: COMPARISON)")[0]!)
            return up.tryRemoveDuplicates { try formula.throwingCompare($0, $1) }.lab()
        },
        op(
            "dropFirst", "dropFirst", "all but the first value", .filtering,
            LabExample("-1-2-3-|", "dropFirst")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "dropFirst")
            return up.dropFirst().lab()
        },
        op(
            "dropFirst(_:)", "dropFirst(COUNT)", "all but the first COUNT values", .filtering,
            LabExample("-1-2-3-4-|", "dropFirst(2)", doc: "dropFirst")
        ) { step, up, _ throws(LabError) in
            let count = try step.arguments([nil], usage: "dropFirst(COUNT)")[0]!.integer()
            return up.dropFirst(count).lab()
        },
        op(
            "drop(while:)", "drop(while: PREDICATE)", "the values from the first that fails the predicate on",
            .filtering,
            LabExample("-1-2-3-1-|", "drop(while: x<3)", doc: "dropWhile")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["while"], usage: "drop(while: PREDICATE)")[0]!)
            let log = context.log
            return up.drop { formula.testing($0, in: "drop(while:)", log: log) }.lab()
        },
        op(
            "tryDrop(while:)", "tryDrop(while: PREDICATE)", "as drop(while:); fails where the predicate does not apply",
            .filtering, LabExample("-1-x-5-|", "tryDrop(while: x<3)", doc: "tryDropWhile")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["while"], usage: "tryDrop(while: PREDICATE)")[0]!)
            return up.tryDrop { try formula.throwingTest($0) }.lab()
        },
        op(
            "drop(untilOutputFrom:)", "drop(untilOutputFrom: ROW)", "the values after ROW's first value", .filtering,
            LabExample(
                "-1-2-3-4-|", "drop(untilOutputFrom: trigger)", inputs: [("trigger", "----x----")],
                doc: "dropUntilOutput")
        ) { step, up, context throws(LabError) in
            let other = try context.row(step.arguments(["untilOutputFrom"], usage: "drop(untilOutputFrom: ROW)")[0]!)
            return up.drop(untilOutputFrom: other).lab()
        },
        op(
            "prefix(_:)", "prefix(COUNT)", "the first COUNT values, then finished", .filtering,
            LabExample("-1-2-3-4-|", "prefix(2)", doc: "prefix")
        ) { step, up, _ throws(LabError) in
            let count = try step.arguments([nil], usage: "prefix(COUNT)")[0]!.integer()
            return up.prefix(count).lab()
        },
        op(
            "prefix(while:)", "prefix(while: PREDICATE)", "the values up to the first that fails the predicate",
            .filtering,
            LabExample("-1-2-3-1-|", "prefix(while: x<3)", doc: "prefixWhile")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["while"], usage: "prefix(while: PREDICATE)")[0]!)
            let log = context.log
            return up.prefix { formula.testing($0, in: "prefix(while:)", log: log) }.lab()
        },
        op(
            "tryPrefix(while:)", "tryPrefix(while: PREDICATE)",
            "as prefix(while:); fails where the predicate does not apply",
            .filtering, LabExample("-1-2-x-3-|", "tryPrefix(while: x<3)", doc: "tryPrefixWhile")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["while"], usage: "tryPrefix(while: PREDICATE)")[0]!)
            return up.tryPrefix { try formula.throwingTest($0) }.lab()
        },
        op(
            "prefix(untilOutputFrom:)", "prefix(untilOutputFrom: ROW)", "the values until ROW's first value",
            .filtering,
            LabExample(
                "-1-2-3-4-|", "prefix(untilOutputFrom: trigger)", inputs: [("trigger", "----x----")],
                doc: "prefixUntilOutput")
        ) { step, up, context throws(LabError) in
            let other = try context.row(step.arguments(["untilOutputFrom"], usage: "prefix(untilOutputFrom: ROW)")[0]!)
            return up.prefix(untilOutputFrom: other).lab()
        },
        op(
            "first", "first", "the first value, then finished", .filtering,
            LabExample("-a-b-c-|", "first", doc: "first")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "first")
            return up.first().lab()
        },
        op(
            "first(where:)", "first(where: PREDICATE)", "the first value that passes, then finished", .filtering,
            LabExample("-1-2-3-4-|", "first(where: even)", doc: "firstWhere")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["where"], usage: "first(where: PREDICATE)")[0]!)
            let log = context.log
            return up.first { formula.testing($0, in: "first(where:)", log: log) }.lab()
        },
        op(
            "tryFirst(where:)", "tryFirst(where: PREDICATE)",
            "as first(where:); fails where the predicate does not apply",
            .filtering, LabExample("-1-x-2-|", "tryFirst(where: even)", doc: "tryFirstWhere")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["where"], usage: "tryFirst(where: PREDICATE)")[0]!)
            return up.tryFirst { try formula.throwingTest($0) }.lab()
        },
        op(
            "last", "last", "the last value, when the upstream finishes", .filtering,
            LabExample("-a-b-c-|", "last", doc: "last")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "last")
            return up.last().lab()
        },
        op(
            "last(where:)", "last(where: PREDICATE)", "the last value that passes, when the upstream finishes",
            .filtering,
            LabExample("-1-2-3-4-|", "last(where: x<3)", doc: "lastWhere")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["where"], usage: "last(where: PREDICATE)")[0]!)
            let log = context.log
            return up.last { formula.testing($0, in: "last(where:)", log: log) }.lab()
        },
        op(
            "tryLast(where:)", "tryLast(where: PREDICATE)", "as last(where:); fails where the predicate does not apply",
            .filtering, LabExample("-1-2-x-3-|", "tryLast(where: x<3)", doc: "tryLastWhere")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["where"], usage: "tryLast(where: PREDICATE)")[0]!)
            return up.tryLast { try formula.throwingTest($0) }.lab()
        },
        op(
            "output(at:)", "output(at: INDEX)", "the value at INDEX (from 0), then finished", .filtering,
            LabExample("-a-b-c-d-|", "output(at: 2)", doc: "outputAt")
        ) { step, up, _ throws(LabError) in
            let index = try step.arguments(["at"], usage: "output(at: INDEX)")[0]!.integer()
            return up.output(at: index).lab()
        },
        op(
            "output(in:)", "output(in: FROM...TO)", "the values at FROM through TO (from 0)", .filtering,
            LabExample("-a-b-c-d-|", "output(in: 1...2)", doc: "outputIn")
        ) { step, up, _ throws(LabError) in
            let argument = try step.arguments(["in"], usage: "output(in: FROM...TO), as output(in: 1...2)")[0]!
            let kinds = argument.tokens.map(\.kind)
            guard kinds.count == 3, case .integer(let from) = kinds[0], case .integer(let to) = kinds[2],
                kinds[1] == .symbol("...") || kinds[1] == .symbol("..<")
            else { throw argument.error("expected a range such as 1...2 or 1..<3, found '\(argument.text)'") }
            if kinds[1] == .symbol("...") {
                guard from <= to else {
                    throw argument.error("the range \(from)...\(to) is empty backwards: write the smaller number first")
                }
                return up.output(in: from...to).lab()
            }
            guard from <= to else {
                throw argument.error("the range \(from)..<\(to) is backwards: write the smaller number first")
            }
            return up.output(in: from..<to).lab()
        },
        op(
            "ignoreOutput", "ignoreOutput", "no values: only how it ends", .filtering,
            LabExample("-a-b-c-|", "ignoreOutput", doc: "ignoreOutput")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "ignoreOutput")
            return up.ignoreOutput().map(LabValues.never).lab()
        },
    ]

    // MARK: Reducing and matching

    static let reducing: [LabOperator] = [
        op(
            "count", "count", "how many values, when the upstream finishes", .reducing,
            LabExample("-a-b-c-|", "count", doc: "count")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "count")
            return up.count().map { String($0) }.lab()
        },
        op(
            "min", "min", "the smallest value (numbers by value), when the upstream finishes", .reducing,
            LabExample("-3-1-2-|", "min", doc: "min")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "min")
            return up.min(by: LabValues.ascending).lab()
        },
        op(
            "max", "max", "the largest value (numbers by value), when the upstream finishes", .reducing,
            LabExample("-3-1-2-|", "max", doc: "max")
        ) { step, up, _ throws(LabError) in
            try step.noArguments(usage: "max")
            return up.max(by: LabValues.ascending).lab()
        },
        op(
            "min(by:)", "min(by: COMPARISON)",
            "the smallest value, x<y meaning x comes first, when the upstream finishes",
            .reducing, LabExample("-'25'-'13'-'41'-|", "min(by: x%10<y%10)")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.comparison(
                step.arguments(["by"], usage: "min(by: COMPARISON), as min(by: x<y) or min(by: <)")[0]!)
            let log = context.log
            return up.min { formula.comparing($0, $1, in: "min(by:)", log: log) }.lab()
        },
        op(
            "max(by:)", "max(by: COMPARISON)",
            "the largest value, x<y meaning x comes first, when the upstream finishes",
            .reducing, LabExample("-'25'-'13'-'41'-|", "max(by: x%10<y%10)")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.comparison(
                step.arguments(["by"], usage: "max(by: COMPARISON), as max(by: x<y) or max(by: <)")[0]!)
            let log = context.log
            return up.max { formula.comparing($0, $1, in: "max(by:)", log: log) }.lab()
        },
        op(
            "tryMin(by:)", "tryMin(by: COMPARISON)", "as min(by:); fails where the comparison does not apply",
            .reducing, LabExample("-1-2-x-3-|", "tryMin(by: x<y)", doc: "tryMinBy")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.comparison(step.arguments(["by"], usage: "tryMin(by: COMPARISON)")[0]!)
            return up.tryMin { try formula.throwingCompare($0, $1) }.lab()
        },
        op(
            "tryMax(by:)", "tryMax(by: COMPARISON)", "as max(by:); fails where the comparison does not apply",
            .reducing, LabExample("-1-2-x-3-|", "tryMax(by: x<y)", doc: "tryMaxBy")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.comparison(step.arguments(["by"], usage: "tryMax(by: COMPARISON)")[0]!)
            return up.tryMax { try formula.throwingCompare($0, $1) }.lab()
        },
        op(
            "reduce(_:)", "reduce(INITIAL, ACCUMULATOR)", "the total, when the upstream finishes, as reduce(0, +)",
            .reducing,
            LabExample("-1-2-3-|", "reduce(0, +)", doc: "reduce")
        ) { step, up, context throws(LabError) in
            let arguments = try step.arguments([nil, nil], usage: "reduce(INITIAL, ACCUMULATOR), as reduce(0, +)")
            let initial = try arguments[0]!.value()
            let formula = try LabFormula.accumulator(arguments[1]!)
            let log = context.log
            return up.reduce(initial) { formula.accumulating($0, $1, in: "reduce", log: log) }.lab()
        },
        op(
            "tryReduce(_:)", "tryReduce(INITIAL, ACCUMULATOR)", "as reduce; fails where the accumulator does not apply",
            .reducing, LabExample("-1-x-3-|", "tryReduce(0, +)", doc: "tryReduce")
        ) { step, up, _ throws(LabError) in
            let arguments = try step.arguments([nil, nil], usage: "tryReduce(INITIAL, ACCUMULATOR)")
            let initial = try arguments[0]!.value()
            let formula = try LabFormula.accumulator(arguments[1]!)
            return up.tryReduce(initial) { try formula.throwingAccumulate($0, $1) }.lab()
        },
        op(
            "contains(_:)", "contains(VALUE)", "true as soon as VALUE comes, false if it never does", .reducing,
            LabExample("-1-2-3-|", "contains(2)", doc: "contains")
        ) { step, up, _ throws(LabError) in
            let value = try step.arguments([nil], usage: "contains(VALUE)")[0]!.value()
            return up.contains(value).map { String($0) }.lab()
        },
        op(
            "contains(where:)", "contains(where: PREDICATE)", "true as soon as a value passes", .reducing,
            LabExample("-1-2-3-|", "contains(where: x>1)", doc: "containsWhere")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments(["where"], usage: "contains(where: PREDICATE)")[0]!)
            let log = context.log
            return up.contains { formula.testing($0, in: "contains(where:)", log: log) }.map { String($0) }.lab()
        },
        op(
            "tryContains(where:)", "tryContains(where: PREDICATE)",
            "as contains(where:); fails where the predicate does not apply",
            .reducing, LabExample("-1-x-3-|", "tryContains(where: x>1)", doc: "tryContainsWhere")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.predicate(
                step.arguments(["where"], usage: "tryContains(where: PREDICATE)")[0]!)
            return up.tryContains { try formula.throwingTest($0) }.map { String($0) }.lab()
        },
        op(
            "allSatisfy(_:)", "allSatisfy(PREDICATE)", "false as soon as a value fails, true if none does", .reducing,
            LabExample("-2-4-5-|", "allSatisfy(even)", doc: "allSatisfy")
        ) { step, up, context throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments([nil], usage: "allSatisfy(PREDICATE)")[0]!)
            let log = context.log
            return up.allSatisfy { formula.testing($0, in: "allSatisfy", log: log) }.map { String($0) }.lab()
        },
        op(
            "tryAllSatisfy(_:)", "tryAllSatisfy(PREDICATE)", "as allSatisfy; fails where the predicate does not apply",
            .reducing, LabExample("-2-x-4-|", "tryAllSatisfy(even)", doc: "tryAllSatisfy")
        ) { step, up, _ throws(LabError) in
            let formula = try LabFormula.predicate(step.arguments([nil], usage: "tryAllSatisfy(PREDICATE)")[0]!)
            return up.tryAllSatisfy { try formula.throwingTest($0) }.map { String($0) }.lab()
        },
    ]

}
