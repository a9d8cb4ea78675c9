import ComposableArchitecture
import Foundation
import StreamsTesting
import Testing

// IdentifiedArray against a model: a plain array of (id, element) pairs.
//
// A random program of operations — every way to add, replace, remove, move and reorder elements,
// by position, by id, through the generic `RangeReplaceableCollection` and `MutableCollection`
// algorithms, by slices, by coding — runs on an `IdentifiedArray` and on `ArrayModel`, which does
// the same thing by linear search as swift-identified-collections 1.1.1 does it (the position
// setter and `replaceSubrange` are transcribed from the package's code). After every step they
// must agree on the result, the elements, the ids, and for every id in use the lookup by id
// (`index(id:)`, `subscript(id:)`, `contains(id:)`); a copy taken before the step must not have
// changed. Ids come from a small range, so operations meet ids already there all the time.
//
// Cases are seeded (SplitMix64); a failure names the seed, the step and the program so far, and
// `IDENTIFIED_ARRAY_SEED=<seed> IDENTIFIED_ARRAY_CASES=1` replays it. `IDENTIFIED_ARRAY_CASES`
// runs more cases; a run stops starting cases after 20 seconds, so it is bounded on a slow
// machine too.

@Suite("IdentifiedArray against a model")
struct IdentifiedArrayModelTests {
    @Test func randomProgramsAgreeWithAPlainArrayOfIDsAndElements() {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["IDENTIFIED_ARRAY_CASES"].flatMap(Int.init) ?? 400
        let baseSeed = environment["IDENTIFIED_ARRAY_SEED"].flatMap(UInt64.init) ?? 0x1D_A2_2A_15
        let deadline = ContinuousClock.now + .seconds(20)
        var kinds: Set<String> = []
        var failures = 0
        var ran = 0
        for index in 0..<cases where ContinuousClock.now < deadline {
            let seed = baseSeed &+ UInt64(index)
            ran += 1
            if let failure = ArrayModelRun.run(seed: seed, steps: 80, kinds: &kinds) {
                failures += 1
                Issue.record("""
                    IdentifiedArray and model disagree (seed \(seed); replay with \
                    IDENTIFIED_ARRAY_SEED=\(seed) IDENTIFIED_ARRAY_CASES=1): \(failure)
                    """)
                if failures == 3 { break }
            }
        }
        #expect(ran > 0)
        // Every kind of step ran at least once (with the default number of cases).
        if cases >= 400 && ran == cases {
            let missing = Set(ArrayModelStep.allKinds).subtracting(kinds)
            #expect(missing.isEmpty, "never ran: \(missing)")
        }
    }

    /// The checker notices a difference (so a passing run means something): an array one value
    /// off from its model, ids out of step, and a lookup by id that disagrees.
    @Test func theCheckerCatchesADifference() {
        let array: IdentifiedArrayOf<ArrayModelRow> = [ArrayModelRow(id: 1, value: 1), ArrayModelRow(id: 2, value: 2)]
        var model = ArrayModel(pairs: [(1, ArrayModelRow(id: 1, value: 1)), (2, ArrayModelRow(id: 2, value: 2))])
        #expect(ArrayModelRun.difference(array, model) == nil)
        model.pairs[1].element.value = 3
        #expect(ArrayModelRun.difference(array, model)?.contains("elements") == true)
        model.pairs = [(5, ArrayModelRow(id: 1, value: 1)), (2, ArrayModelRow(id: 2, value: 2))]
        #expect(ArrayModelRun.difference(array, model)?.contains("ids") == true)
    }

    /// A known program, so the model's own rules are pinned: the position setter with a new id
    /// and with another element's id, and `replaceSubrange` with ids outside the range and twice.
    @Test func aKnownProgramGivesTheExpectedElements() {
        var model = ArrayModel(pairs: [])
        var array = IdentifiedArrayOf<ArrayModelRow>()
        let program: [ArrayModelStep] = [
            .appendContentsOf([row(1, 0), row(2, 0), row(3, 0), row(1, 9)]),
            .setAt(1, row(4, 1)),              // [1, 4, 3]: id 2 is gone
            .setAt(0, row(3, 2)),              // [3, 4, 1]: 1 moved to where 3 was
            .replaceSubrange(1..<2, [row(5, 3), row(1, 4), row(5, 5)]),  // [3, 5, 1]: 1 replaced in place
        ]
        for step in program {
            #expect(step.apply(to: &array) == step.apply(to: &model))
        }
        #expect(array.ids == [3, 5, 1])
        #expect(array.map(\.value) == [2, 3, 4])
        #expect(ArrayModelRun.difference(array, model) == nil)
    }

    private func row(_ id: Int, _ value: Int) -> ArrayModelRow { ArrayModelRow(id: id, value: value) }
}

/// An element of the random programs.
struct ArrayModelRow: Identifiable, Hashable, Codable, Sendable, CustomStringConvertible {
    var id: Int
    var value: Int

    /// `id:value`.
    var description: String { "\(id):\(value)" }
}

/// The model: the pairs of an id and its element, in order, changed by linear search.
struct ArrayModel {
    var pairs: [(id: Int, element: ArrayModelRow)]

    func index(_ id: Int) -> Int? { pairs.firstIndex { $0.id == id } }

    mutating func append(_ row: ArrayModelRow) -> (inserted: Bool, index: Int) {
        if let existing = index(row.id) { return (false, existing) }
        pairs.append((row.id, row))
        return (true, pairs.count - 1)
    }

    mutating func insert(_ row: ArrayModelRow, at position: Int) -> (inserted: Bool, index: Int) {
        if let existing = index(row.id) { return (false, existing) }
        pairs.insert((row.id, row), at: position)
        return (true, position)
    }

    mutating func remove(id: Int) -> ArrayModelRow? {
        index(id).map { pairs.remove(at: $0).element }
    }

    /// The package's position setter: `swapAt` to where the id is, then the value; or remove and
    /// insert for a new id.
    mutating func set(_ row: ArrayModelRow, at position: Int) {
        if let existing = index(row.id) {
            pairs.swapAt(existing, position)
            pairs[position].element = row
        } else {
            pairs.remove(at: position)
            pairs.insert((row.id, row), at: position)
        }
    }

    /// The package's `replaceSubrange`: remove, then each new element from the last, either
    /// replacing the value with its id where it is or inserting at the start of the range.
    mutating func replaceSubrange(_ range: Range<Int>, with rows: [ArrayModelRow]) {
        pairs.removeSubrange(range)
        for row in rows.reversed() {
            if let existing = index(row.id) {
                pairs[existing].element = row
            } else {
                pairs.insert((row.id, row), at: range.lowerBound)
            }
        }
    }

    mutating func move(fromOffsets offsets: [Int], toOffset destination: Int) {
        let moved = Set(offsets.filter { pairs.indices.contains($0) })
        let before = pairs.indices.filter { $0 < destination && !moved.contains($0) }
        let after = pairs.indices.filter { $0 >= destination && !moved.contains($0) }
        pairs = (before + moved.sorted() + after).map { pairs[$0] }
    }
}

/// The order every sort uses: a total order, so every sorting algorithm gives the same result.
func arrayModelOrder(_ a: ArrayModelRow, _ b: ArrayModelRow) -> Bool {
    (a.value, a.id) < (b.value, b.id)
}

/// One operation of a program, applied the same way to the identified array and to the model.
enum ArrayModelStep {
    case append(ArrayModelRow)
    case insert(ArrayModelRow, at: Int)
    case appendContentsOf([ArrayModelRow])
    case plus([ArrayModelRow])
    case removeAt(Int)
    case removeID(Int)
    case removeElement(ArrayModelRow)
    case setByID(Int, ArrayModelRow?)
    case modifyByID(Int)
    case setAt(Int, ArrayModelRow)
    case modifyAt(Int)
    case update(ArrayModelRow, at: Int)
    case updateOrAppend(ArrayModelRow)
    case updateOrInsert(ArrayModelRow, at: Int)
    case move([Int], to: Int)
    case removeAtOffsets([Int])
    case sort
    case sortGenerically
    case sortSlice(Range<Int>)
    case shuffle(seed: UInt64)
    case reverse
    case swapAt(Int, Int)
    case partition(remainder: Int)
    case removeAllWhere(remainder: Int)
    case removeFirst(Int)
    case removeLast(Int)
    case removeFirstOne
    case removeLastOne
    case removeSubrange(Range<Int>)
    case replaceSubrange(Range<Int>, [ArrayModelRow])
    case genericAppend(ArrayModelRow)
    case genericInsert(ArrayModelRow, at: Int)
    case insertContentsOf([ArrayModelRow], at: Int)
    case filter(remainder: Int)
    case uniquing([ArrayModelRow], keepFirst: Bool)
    case codingRoundTrip
    case removeAll

    static let allKinds = [
        "append", "insert", "appendContentsOf", "plus", "removeAt", "removeID", "removeElement", "setByID",
        "modifyByID", "setAt", "modifyAt", "update", "updateOrAppend", "updateOrInsert", "move", "removeAtOffsets",
        "sort", "sortGenerically", "sortSlice", "shuffle", "reverse", "swapAt", "partition", "removeAllWhere",
        "removeFirst", "removeLast", "removeFirstOne", "removeLastOne", "removeSubrange", "replaceSubrange",
        "genericAppend", "genericInsert", "insertContentsOf", "filter", "uniquing", "codingRoundTrip", "removeAll",
    ]

    /// The name of the case.
    var kind: String { String(String(describing: self).prefix { $0 != "(" }) }

    /// A random step that makes sense for an array of `count` elements, with ids in `0..<12`.
    static func random(count: Int, using random: inout SplitMix64) -> ArrayModelStep {
        func value() -> Int { .random(in: 0..<100, using: &random) }
        func row() -> ArrayModelRow { ArrayModelRow(id: .random(in: 0..<12, using: &random), value: value()) }
        func rows() -> [ArrayModelRow] { (0..<Int.random(in: 0...4, using: &random)).map { _ in row() } }
        func position() -> Int { .random(in: 0..<count, using: &random) }
        func gap() -> Int { .random(in: 0...count, using: &random) }
        func range() -> Range<Int> {
            let a = gap(), b = gap()
            return Swift.min(a, b)..<Swift.max(a, b)
        }
        func offsets() -> [Int] {
            (0..<Int.random(in: 0...4, using: &random)).map { _ in .random(in: -1...count, using: &random) }
        }
        func id() -> Int { .random(in: 0..<12, using: &random) }
        // Steps that need an element are drawn only when there is one.
        let kinds = count == 0 ? 18 : 37
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .append(row())
        case 1: return .insert(row(), at: gap())
        case 2: return .appendContentsOf(rows())
        case 3: return .plus(rows())
        case 4: return .removeID(id())
        case 5: return .removeElement(row())
        case 6:
            let r = row()
            return .setByID(r.id, Bool.random(using: &random) ? r : nil)
        case 7: return .modifyByID(id())
        case 8: return .updateOrAppend(row())
        case 9: return .updateOrInsert(row(), at: gap())
        case 10: return .move(offsets(), to: gap())
        case 11: return .sort
        case 12: return .replaceSubrange(range(), rows())
        case 13: return .genericAppend(row())
        case 14: return .genericInsert(row(), at: gap())
        case 15: return .insertContentsOf(rows(), at: gap())
        case 16:
            let rows = (0..<Int.random(in: 0...10, using: &random)).map { _ in row() }
            return .uniquing(rows, keepFirst: .random(using: &random))
        case 17: return Bool.random(using: &random) ? .codingRoundTrip : .removeAll
        case 18: return .removeAt(position())
        case 19: return .setAt(position(), row())
        case 20: return .modifyAt(position())
        case 21:
            return .update(ArrayModelRow(id: -1, value: value()), at: position())  // the id is filled in on applying
        case 22: return .removeAtOffsets(offsets().filter { (0..<count).contains($0) })
        case 23: return .sortGenerically
        case 24: return .sortSlice(range())
        case 25: return .shuffle(seed: random.next())
        case 26: return .reverse
        case 27: return .swapAt(position(), position())
        case 28: return .partition(remainder: .random(in: 0..<2, using: &random))
        case 29: return .removeAllWhere(remainder: .random(in: 0..<3, using: &random))
        case 30: return .removeFirst(.random(in: 0...Swift.min(count, 3), using: &random))
        case 31: return .removeLast(.random(in: 0...Swift.min(count, 3), using: &random))
        case 32: return .removeFirstOne
        case 33: return .removeLastOne
        case 34: return .removeSubrange(range())
        case 35: return .filter(remainder: .random(in: 0..<3, using: &random))
        default: return .modifyAt(position())
        }
    }

    /// Applies the step to the identified array; returns its result, described.
    func apply(to array: inout IdentifiedArrayOf<ArrayModelRow>) -> String {
        switch self {
        case let .append(row): return "\(array.append(row))"
        case let .insert(row, at): return "\(array.insert(row, at: at))"
        case let .appendContentsOf(rows): array.append(contentsOf: rows)
        case let .plus(rows): array = array + rows
        case let .removeAt(position): return "\(array.remove(at: position))"
        case let .removeID(id): return "\(String(describing: array.remove(id: id)))"
        case let .removeElement(row): return "\(String(describing: array.remove(row)))"
        case let .setByID(id, row): array[id: id] = row
        case let .modifyByID(id): array[id: id]?.value += 1
        case let .setAt(position, row): array[position] = row
        case let .modifyAt(position): array[position].value += 1
        case let .update(row, at):
            return "\(array.update(ArrayModelRow(id: array[at].id, value: row.value), at: at))"
        case let .updateOrAppend(row): return "\(String(describing: array.updateOrAppend(row)))"
        case let .updateOrInsert(row, at):
            let result = array.updateOrInsert(row, at: at)
            return "\(String(describing: result.originalMember)) \(result.index)"
        case let .move(offsets, to): array.move(fromOffsets: offsets, toOffset: to)
        case let .removeAtOffsets(offsets): array.remove(atOffsets: offsets)
        case .sort: array.sort(by: arrayModelOrder)
        case .sortGenerically: sortAsAGenericCollection(&array)
        case let .sortSlice(range): array[range].sort(by: arrayModelOrder)
        case let .shuffle(seed):
            var generator = SplitMix64(seed: seed)
            array.shuffle(using: &generator)
        case .reverse: array.reverse()
        case let .swapAt(i, j): array.swapAt(i, j)
        case let .partition(remainder): return "\(array.partition { $0.value % 2 == remainder })"
        case let .removeAllWhere(remainder): array.removeAll { $0.value % 3 == remainder }
        case let .removeFirst(k): array.removeFirst(k)
        case let .removeLast(k): array.removeLast(k)
        case .removeFirstOne: return "\(array.removeFirst())"
        case .removeLastOne: return "\(array.removeLast())"
        case let .removeSubrange(range): array.removeSubrange(range)
        case let .replaceSubrange(range, rows): array.replaceSubrange(range, with: rows)
        case let .genericAppend(row): appendAsAGenericCollection(&array, row)
        case let .genericInsert(row, at): insertAsAGenericCollection(&array, row, at: at)
        case let .insertContentsOf(rows, at): array.insert(contentsOf: rows, at: at)
        case let .filter(remainder): array = array.filter { $0.value % 3 != remainder }
        case let .uniquing(rows, keepFirst): array = IdentifiedArray(rows) { first, later in keepFirst ? first : later }
        case .codingRoundTrip:
            do {
                array = try JSONDecoder().decode(IdentifiedArrayOf<ArrayModelRow>.self, from: JSONEncoder().encode(array))
            } catch {
                return "error: \(error)"
            }
        case .removeAll: array.removeAll(keepingCapacity: true)
        }
        return ""
    }

    /// Applies the step to the model; returns its result, described as `apply(to:)` describes
    /// the identified array's.
    func apply(to model: inout ArrayModel) -> String {
        switch self {
        case let .append(row): return "\(model.append(row))"
        case let .insert(row, at): return "\(model.insert(row, at: at))"
        case let .appendContentsOf(rows), let .plus(rows): for row in rows { _ = model.append(row) }
        case let .removeAt(position): return "\(model.pairs.remove(at: position).element)"
        case let .removeID(id): return "\(String(describing: model.remove(id: id)))"
        case let .removeElement(row): return "\(String(describing: model.remove(id: row.id)))"
        case let .setByID(id, row):
            if let row {
                if let existing = model.index(id) { model.pairs[existing].element = row } else { _ = model.append(row) }
            } else {
                _ = model.remove(id: id)
            }
        case let .modifyByID(id): if let existing = model.index(id) { model.pairs[existing].element.value += 1 }
        case let .setAt(position, row): model.set(row, at: position)
        case let .modifyAt(position): model.pairs[position].element.value += 1
        case let .update(row, at):
            let old = model.pairs[at].element
            model.pairs[at].element = ArrayModelRow(id: model.pairs[at].id, value: row.value)
            return "\(old)"
        case let .updateOrAppend(row):
            guard let existing = model.index(row.id) else {
                _ = model.append(row)
                return "nil"
            }
            let old = model.pairs[existing].element
            model.pairs[existing].element = row
            return "\(String(describing: Optional(old)))"
        case let .updateOrInsert(row, at):
            guard let existing = model.index(row.id) else {
                model.pairs.insert((row.id, row), at: at)
                return "nil \(at)"
            }
            let old = model.pairs[existing].element
            model.pairs[existing].element = row
            return "\(String(describing: Optional(old))) \(existing)"
        case let .move(offsets, to): model.move(fromOffsets: offsets, toOffset: to)
        case let .removeAtOffsets(offsets):
            for offset in Set(offsets).sorted(by: >) { model.pairs.remove(at: offset) }
        case .sort, .sortGenerically: model.pairs.sort { arrayModelOrder($0.element, $1.element) }
        case let .sortSlice(range): model.pairs[range].sort { arrayModelOrder($0.element, $1.element) }
        case let .shuffle(seed):
            var generator = SplitMix64(seed: seed)
            model.pairs.shuffle(using: &generator)
        case .reverse: model.pairs.reverse()
        case let .swapAt(i, j): model.pairs.swapAt(i, j)
        case let .partition(remainder): return "\(model.pairs.partition { $0.element.value % 2 == remainder })"
        case let .removeAllWhere(remainder): model.pairs.removeAll { $0.element.value % 3 == remainder }
        case let .removeFirst(k): model.pairs.removeFirst(k)
        case let .removeLast(k): model.pairs.removeLast(k)
        case .removeFirstOne: return "\(model.pairs.removeFirst().element)"
        case .removeLastOne: return "\(model.pairs.removeLast().element)"
        case let .removeSubrange(range): model.pairs.removeSubrange(range)
        case let .replaceSubrange(range, rows): model.replaceSubrange(range, with: rows)
        case let .genericAppend(row): model.replaceSubrange(model.pairs.count..<model.pairs.count, with: [row])
        case let .genericInsert(row, at): model.replaceSubrange(at..<at, with: [row])
        case let .insertContentsOf(rows, at): model.replaceSubrange(at..<at, with: rows)
        case let .filter(remainder): model.pairs.removeAll { $0.element.value % 3 == remainder }
        case let .uniquing(rows, keepFirst):
            model.pairs = []
            for row in rows {
                if let existing = model.index(row.id) {
                    if !keepFirst { model.pairs[existing].element = row }
                } else {
                    model.pairs.append((row.id, row))
                }
            }
        case .codingRoundTrip: break
        case .removeAll: model.pairs.removeAll()
        }
        return ""
    }
}

/// `sort(by:)` as a generic algorithm sees it: the standard library's, on the elements' storage.
private func sortAsAGenericCollection<C: MutableCollection & RandomAccessCollection>(_ collection: inout C)
where C.Element == ArrayModelRow {
    collection.sort(by: arrayModelOrder)
}

/// `append(_:)` as a generic algorithm sees it: `RangeReplaceableCollection`'s.
private func appendAsAGenericCollection<C: RangeReplaceableCollection>(_ collection: inout C, _ row: ArrayModelRow)
where C.Element == ArrayModelRow {
    collection.append(row)
}

/// `insert(_:at:)` as a generic algorithm sees it: `RangeReplaceableCollection`'s.
private func insertAsAGenericCollection<C: RangeReplaceableCollection>(
    _ collection: inout C, _ row: ArrayModelRow, at position: Int
) where C.Element == ArrayModelRow, C.Index == Int {
    collection.insert(row, at: position)
}

/// One random program on an identified array and its model.
enum ArrayModelRun {
    /// Runs `steps` random steps from `seed`; returns what went wrong, if anything. `kinds`
    /// collects the kinds of step that ran.
    static func run(seed: UInt64, steps: Int, kinds: inout Set<String>) -> String? {
        var random = SplitMix64(seed: seed)
        var array = IdentifiedArrayOf<ArrayModelRow>()
        var model = ArrayModel(pairs: [])
        var program: [String] = []
        for number in 0..<steps {
            let step = ArrayModelStep.random(count: model.pairs.count, using: &random)
            kinds.insert(step.kind)
            program.append(String(describing: step))
            let copy = array
            let modelBefore = model
            let result = step.apply(to: &array)
            let expected = step.apply(to: &model)
            var failure: String?
            if result != expected {
                failure = "result \(result), expected \(expected)"
            } else if let difference = difference(array, model) {
                failure = difference
            } else if let difference = difference(copy, modelBefore) {
                failure = "a copy taken before the step changed: \(difference)"
            }
            if let failure {
                return "step \(number) (\(step)): \(failure)\nprogram: \(program.joined(separator: "; "))"
            }
        }
        return nil
    }

    /// How `array` differs from `model`, or `nil` if it does not.
    static func difference(_ array: IdentifiedArrayOf<ArrayModelRow>, _ model: ArrayModel) -> String? {
        let ids = model.pairs.map(\.id)
        let elements = model.pairs.map(\.element)
        if array.count != elements.count { return "count \(array.count), expected \(elements.count)" }
        if array.elements != elements { return "elements \(array.elements), expected \(elements)" }
        if array.ids != ids { return "ids \(array.ids), expected \(ids)" }
        if array.map(\.id) != array.ids { return "ids \(array.ids) out of step with the elements \(array.elements)" }
        for id in -1...12 {
            let expected = model.index(id)
            if array.index(id: id) != expected {
                return "index(id: \(id)) \(String(describing: array.index(id: id))), expected \(String(describing: expected))"
            }
            if array[id: id] != expected.map({ elements[$0] }) {
                return "[id: \(id)] \(String(describing: array[id: id]))"
            }
            if array.contains(id: id) != (expected != nil) { return "contains(id: \(id)) \(array.contains(id: id))" }
        }
        return nil
    }
}
