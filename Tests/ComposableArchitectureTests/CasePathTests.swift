import ComposableArchitecture
import Testing

@Suite("CasePath")
struct CasePathTests {
    // MARK: One value

    @Test func oneValueEmbedsAndExtracts() {
        let setCount = /Action.setCount
        #expect(setCount.embed(3) == .setCount(3))
        #expect(setCount.extract(from: .setCount(3)) == 3)
        #expect(setCount.extract(from: .rename("3")) == nil)
        #expect(setCount.extract(from: .reset) == nil)
    }

    @Test func aCaseWithTheSamePayloadTypeIsNotExtracted() {
        // Both hold an Int: only the case itself may match.
        #expect((/Action.setCount).extract(from: .setLimit(3)) == nil)
        #expect((/Action.setLimit).extract(from: .setCount(3)) == nil)
        #expect((/Action.setLimit).extract(from: .setLimit(3)) == 3)
        // An Int also casts to `Int?`; `select` still does not match `setCount`.
        #expect((/Action.select).extract(from: .setCount(3)) == nil)
    }

    @Test func oneLabelledValue() {
        let search = /Action.search
        #expect(search.extract(from: .search(query: "swift")) == "swift")
        #expect(search.extract(from: .rename("swift")) == nil)
        #expect(search.embed("swift") == .search(query: "swift"))
    }

    @Test func aCaseOfAnotherEnum() {
        let child = /Action.child
        #expect(child.extract(from: .child(.value(2))) == .value(2))
        #expect(child.extract(from: .child(.tap)) == .tap)
        #expect(child.extract(from: .setCount(2)) == nil)
    }

    @Test func aPathWithoutTypeAnnotationIsAPathOfTheCase() {
        // A case's constructor is a `@Sendable` function in Swift 6; `/` must not make a
        // `CasePath<@Sendable (Int) -> Action, Void>` of the function itself.
        let setCount = /Action.setCount
        #expect(type(of: setCount) == CasePath<Action, Int>.self)
        #expect(type(of: /Action.move) == CasePath<Action, (Int, Int)>.self)
        #expect(type(of: /Action.increment) == CasePath<Action, Void>.self)
        #expect(type(of: /Expression.add) == CasePath<Expression, (Expression, Expression)>.self)
    }

    @Test func casesWithTheSameBaseNameAreToldApartByTheirLabels() {
        let scrollBy = /Action.scroll(by:)
        let scrollTo = /Action.scroll(to:)
        #expect(scrollBy.extract(from: .scroll(by: 3)) == 3)
        #expect(scrollBy.extract(from: .scroll(to: 3)) == nil)
        #expect(scrollTo.extract(from: .scroll(to: 3)) == 3)
        #expect(scrollTo.extract(from: .scroll(by: 3)) == nil)
        #expect(scrollBy.embed(4) == .scroll(by: 4))
        #expect(scrollTo.embed(4) == .scroll(to: 4))
    }

    // MARK: Several values

    @Test func severalLabelledValues() {
        let move: CasePath<Action, (from: Int, to: Int)> = /Action.move
        let extracted = move.extract(from: .move(from: 1, to: 2))
        #expect(extracted?.from == 1)
        #expect(extracted?.to == 2)
        #expect(move.extract(from: .pair(1, "2")) == nil)
        #expect(move.extract(from: .setCount(1)) == nil)
        #expect(move.embed((from: 3, to: 4)) == .move(from: 3, to: 4))
    }

    @Test func severalLabelledValuesReadAsAnUnlabelledTuple() {
        // `/Action.move` alone infers `(Int, Int)`: the case's labels are not part of the type.
        let move = /Action.move
        let extracted = move.extract(from: .move(from: 1, to: 2))
        #expect(extracted?.0 == 1)
        #expect(extracted?.1 == 2)
        #expect(move.embed((5, 6)) == .move(from: 5, to: 6))
    }

    @Test func severalUnlabelledValues() {
        let pair = /Action.pair
        let extracted = pair.extract(from: .pair(7, "seven"))
        #expect(extracted?.0 == 7)
        #expect(extracted?.1 == "seven")
        #expect(pair.extract(from: .move(from: 7, to: 8)) == nil)
        #expect(pair.embed((8, "eight")) == .pair(8, "eight"))
    }

    // MARK: No value

    @Test func noValue() {
        let increment = /Action.increment
        #expect(increment.extract(from: .increment) != nil)
        #expect(increment.extract(from: .reset) == nil)
        #expect(increment.extract(from: .setCount(0)) == nil)
        #expect(increment.extract(from: .child(.tap)) == nil)
        #expect(increment.embed(()) == .increment)
        // A case without a value inside another enum's case does not make the outer one match.
        #expect((/ChildAction.tap).extract(from: .value(0)) == nil)
        #expect((/ChildAction.tap).extract(from: .tap) != nil)
    }

    @Test func noValueInAnEnumWithACustomDescription() {
        // Every case describes itself as "Tab": the cases must still be told apart.
        let home = /Tab.home
        #expect(home.extract(from: .home) != nil)
        #expect(home.extract(from: .settings) == nil)
        #expect(home.extract(from: .profile(1)) == nil)
        #expect((/Tab.settings).extract(from: .home) == nil)
        #expect((/Tab.profile).extract(from: .profile(1)) == 1)
        #expect((/Tab.profile).extract(from: .settings) == nil)
    }

    // MARK: Generic enums

    @Test func casesOfAGenericEnum() {
        let loaded = /Loadable<[Int]>.loaded
        #expect(loaded.extract(from: .loaded([1, 2])) == [1, 2])
        #expect(loaded.extract(from: .failed("offline")) == nil)
        #expect(loaded.extract(from: .loading) == nil)
        #expect(loaded.embed([3]) == .loaded([3]))
        // `failed` holds a String; so does `Loadable<String>.loaded`: still two cases.
        #expect((/Loadable<String>.loaded).extract(from: .failed("offline")) == nil)
        #expect((/Loadable<String>.failed).extract(from: .failed("offline")) == "offline")
        #expect((/Loadable<String>.loading).extract(from: .loading) != nil)
        #expect((/Loadable<String>.loading).extract(from: .loaded("")) == nil)
    }

    // MARK: Optional payloads

    @Test func optionalPayloads() {
        let select = /Action.select
        let none = select.extract(from: .select(nil))
        #expect(none != nil)            // the case matched...
        #expect(none! == nil)           // ...and its value is nil
        #expect(select.extract(from: .select(4)) == .some(4))
        #expect(select.extract(from: .increment) == nil)
        #expect(select.extract(from: .setLimit(4)) == nil)
        #expect(select.embed(nil) == .select(nil))
        #expect(select.embed(4) == .select(4))
    }

    @Test func optionalsOwnCases() {
        let some = /Optional<Int>.some
        #expect(some.extract(from: 3) == 3)
        #expect(some.extract(from: nil) == nil)
        #expect(some.embed(3) == .some(3))
        let none = /Optional<Int>.none
        #expect(none.extract(from: nil) != nil)
        #expect(none.extract(from: 3) == nil)
    }

    // MARK: Indirect cases

    @Test func indirectCases() {
        let negate = /Expression.negate
        #expect(negate.extract(from: .negate(.number(1))) == .number(1))
        #expect(negate.extract(from: .number(1)) == nil)
        let add = /Expression.add
        let operands = add.extract(from: .add(.number(1), .negate(.number(2))))
        #expect(operands?.0 == .number(1))
        #expect(operands?.1 == .negate(.number(2)))
        #expect(add.extract(from: .negate(.number(1))) == nil)
        // `.negate(.number(1))` holds an Int one level down: `number` still does not match.
        #expect((/Expression.number).extract(from: .negate(.number(1))) == nil)
        #expect((/Expression.number).extract(from: .number(1)) == 1)
    }

    // MARK: appending(path:), self, hand-written

    @Test func appendingReachesIntoNestedEnums() {
        let childValue = (/Action.child).appending(path: /ChildAction.value)
        #expect(childValue.extract(from: .child(.value(3))) == 3)
        #expect(childValue.extract(from: .child(.tap)) == nil)
        #expect(childValue.extract(from: .setCount(3)) == nil)
        #expect(childValue.embed(5) == .child(.value(5)))

        let negatedNumber = (/Action.expression).appending(path: /Expression.negate).appending(path: /Expression.number)
        #expect(negatedNumber.extract(from: .expression(.negate(.number(9)))) == 9)
        #expect(negatedNumber.extract(from: .expression(.number(9))) == nil)
        #expect(negatedNumber.embed(9) == .expression(.negate(.number(9))))
    }

    @Test func selfIsTheIdentity() {
        let identity = CasePath<Action, Action>.`self`
        let spelled = /Action.self
        for action in Self.everyAction {
            #expect(identity.extract(from: action) == action)
            #expect(identity.embed(action) == action)
            #expect(spelled.extract(from: action) == action)
            #expect(spelled.embed(action) == action)
        }
        // Appending to `self` changes nothing.
        let child = identity.appending(path: /Action.child)
        #expect(child.extract(from: .child(.tap)) == .tap)
        #expect(child.extract(from: .reset) == nil)
    }

    @Test func handWrittenCasePath() {
        let even = CasePath<Int, Int>(embed: { $0 * 2 }, extract: { $0.isMultiple(of: 2) ? $0 / 2 : nil })
        #expect(even.embed(21) == 42)
        #expect(even.extract(from: 42) == 21)
        #expect(even.extract(from: 41) == nil)
    }

    // MARK: Round trips

    @Test func everyActionIsMatchedByItsOwnPathOnlyAndRoundTrips() {
        let probes = [
            Probe("increment", /Action.increment), Probe("reset", /Action.reset),
            Probe("setCount", /Action.setCount), Probe("setLimit", /Action.setLimit),
            Probe("select", /Action.select), Probe("rename", /Action.rename),
            Probe("search", /Action.search), Probe("move", /Action.move), Probe("pair", /Action.pair),
            Probe("scroll(by:)", /Action.scroll(by:)), Probe("scroll(to:)", /Action.scroll(to:)),
            Probe("child", /Action.child), Probe("expression", /Action.expression),
        ]
        for action in Self.everyAction {
            let matches = probes.filter { $0.roundTrip(action) != nil }
            #expect(matches.count == 1, "\(action) matched \(matches.map(\.name))")
            // Extracting, then embedding the value again, gives the action back.
            #expect(matches.first?.roundTrip(action) == action)
        }
    }

    @Test func embedThenExtractGivesTheValueBack() {
        for n in [-1, 0, 1, Int.max] {
            #expect((/Action.setCount).extract(from: (/Action.setCount).embed(n)) == n)
            #expect((/Action.select).extract(from: (/Action.select).embed(n)) == .some(n))
        }
        for text in ["", "a", "with \"quotes\""] {
            #expect((/Action.search).extract(from: (/Action.search).embed(text)) == text)
        }
        let tree = Expression.add(.negate(.number(1)), .add(.number(2), .number(3)))
        #expect((/Action.expression).extract(from: (/Action.expression).embed(tree)) == tree)
        let pair = (/Action.pair).extract(from: (/Action.pair).embed((4, "four")))
        #expect(pair?.0 == 4 && pair?.1 == "four")
    }
}

extension CasePathTests {
    /// An enum with every shape of case a case path has to handle.
    enum Action: Equatable, Sendable {
        case increment                      // no value
        case reset                          // no value
        case setCount(Int)                  // one value
        case setLimit(Int)                  // the same payload type as `setCount`
        case select(Int?)                   // an optional payload
        case rename(String)
        case search(query: String)          // one labelled value
        case move(from: Int, to: Int)       // several labelled values
        case pair(Int, String)              // several unlabelled values
        case scroll(by: Int)                // the same base name and payload type...
        case scroll(to: Int)                // ...as this one: only the labels differ
        case child(ChildAction)
        case expression(Expression)
    }

    enum ChildAction: Equatable, Sendable {
        case tap
        case value(Int)
    }

    indirect enum Expression: Equatable, Sendable {
        case number(Int)
        case negate(Expression)
        case add(Expression, Expression)
    }

    enum Tab: Equatable, CustomStringConvertible {
        case home
        case settings
        case profile(Int)

        var description: String { "Tab" }
    }

    enum Loadable<Value: Equatable>: Equatable {
        case loading
        case loaded(Value)
        case failed(String)
    }

    /// One of every case of `Action`.
    static let everyAction: [Action] = [
        .increment, .reset, .setCount(1), .setLimit(1), .select(nil), .select(1), .rename("a"),
        .search(query: "a"), .move(from: 1, to: 2), .pair(1, "a"), .scroll(by: 1), .scroll(to: 1),
        .child(.tap), .child(.value(1)),
        .expression(.negate(.number(1))),
    ]

    /// A case path with its value type erased: extract, then embed the extracted value again.
    struct Probe {
        let name: String
        /// `nil` when the path does not match; else the action rebuilt from the extracted value.
        let roundTrip: (Action) -> Action?

        init<Value>(_ name: String, _ path: CasePath<Action, Value>) {
            self.name = name
            roundTrip = { action in path.extract(from: action).map(path.embed) }
        }
    }
}
