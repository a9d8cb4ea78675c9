import ComposableArchitecture
import Foundation
import StreamsTesting
import Testing

@Suite("IdentifiedArray")
struct IdentifiedArrayTests {
    struct Todo: Identifiable, Equatable, Hashable, Codable, Sendable {
        var id: Int
        var title = ""
        var isDone = false
    }

    struct Tag: Equatable {
        var name: String
        var uses = 0
    }

    static let three: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b"), Todo(id: 3, title: "c")]

    /// Every id is where `index(id:)` says, and nothing else is found.
    static func lookupsAreRight<ID, Element>(_ array: IdentifiedArray<ID, Element>, absent: [ID] = []) -> Bool {
        array.ids.count == array.count
            && array.ids.enumerated().allSatisfy { position, id in
                array.index(id: id) == position && array.contains(id: id) && array[position][keyPath: array.id] == id
            }
            && absent.allSatisfy { array.index(id: $0) == nil && !array.contains(id: $0) }
    }

    // MARK: Order and lookup

    @Test func keepsTheOrderAndFindsByID() {
        let todos = Self.three
        #expect(todos.ids == [1, 2, 3])
        #expect(todos.map(\.title) == ["a", "b", "c"])
        #expect(todos.count == 3)
        #expect(todos[1].title == "b")
        #expect(todos[id: 3]?.title == "c")
        #expect(todos[id: 4] == nil)
        #expect(todos.index(id: 2) == 1)
        #expect(todos.index(id: 4) == nil)
        #expect(todos.contains(id: 1))
        #expect(!todos.contains(id: 4))
        #expect(Array(todos.reversed()).map(\.id) == [3, 2, 1])  // RandomAccessCollection
    }

    @Test func elementsAndIDsAreArraysInOrder() {
        let todos = Self.three
        #expect(todos.elements == [Todo(id: 1, title: "a"), Todo(id: 2, title: "b"), Todo(id: 3, title: "c")])
        #expect(todos.ids == todos.elements.map(\.id))
    }

    @Test func containsAnElementLooksOnlyAtItsID() {
        #expect(Self.three.contains(Todo(id: 2, title: "not b")))
        #expect(!Self.three.contains(Todo(id: 4, title: "a")))
    }

    @Test func identifiedByAKeyPathOfAnyHashableProperty() {
        var tags = IdentifiedArray([Tag(name: "swift"), Tag(name: "combine")], id: \Tag.name)
        tags[id: "swift"]?.uses += 1
        #expect(tags.ids == ["swift", "combine"])
        #expect(tags[id: "swift"]?.uses == 1)
        tags.append(Tag(name: "tca"))
        #expect(tags.index(id: "tca") == 2)
    }

    @Test func emptyAndFromASequence() {
        let empty = IdentifiedArrayOf<Todo>()
        #expect(empty.isEmpty)
        #expect(empty.ids.isEmpty)
        let fromSequence = IdentifiedArray((1...3).map { Todo(id: $0) })
        #expect(fromSequence.ids == [1, 2, 3])
    }

    // MARK: Initializers

    @Test func uniqueAndUncheckedUniqueElementsKeepTheOrder() {
        let tags = IdentifiedArray(uniqueElements: [Tag(name: "b"), Tag(name: "a")], id: \.name)
        #expect(tags.ids == ["b", "a"])
        let unchecked = IdentifiedArray(uncheckedUniqueElements: [Tag(name: "b"), Tag(name: "a")], id: \.name)
        #expect(unchecked == tags)
        #expect(IdentifiedArray(uniqueElements: Self.three.elements) == Self.three)
        #expect(IdentifiedArray(uncheckedUniqueElements: Self.three.elements) == Self.three)
        #expect(Self.lookupsAreRight(unchecked, absent: ["c"]))
    }

    @Test func uniquingIDsWithCombinesElementsThatShareAnIDWhereTheFirstWas() throws {
        let todos = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b"), Todo(id: 1, title: "c"), Todo(id: 1, title: "d")]
        let first = IdentifiedArray(todos) { first, _ in first }
        #expect(first.map(\.title) == ["a", "b"])
        let last = IdentifiedArray(todos) { _, later in later }
        #expect(last.map(\.title) == ["d", "b"])
        let joined = IdentifiedArray(todos, id: \.id) { Todo(id: $0.id, title: $0.title + $1.title) }
        #expect(joined.map(\.title) == ["acd", "b"])
        #expect(Self.lookupsAreRight(joined, absent: [3]))

        struct Clash: Error {}
        #expect(throws: Clash.self) {
            _ = try IdentifiedArray(todos) { _, _ in throw Clash() }
        }
    }

    @Test func aCopyOrASliceKeepsTheKeyPath() {
        let tags = IdentifiedArray(uniqueElements: [Tag(name: "a"), Tag(name: "b"), Tag(name: "c")], id: \.name)
        let copy = IdentifiedArray(tags)
        #expect(copy == tags)
        let slice = IdentifiedArray(tags[1...])
        #expect(slice.ids == ["b", "c"])
        #expect(slice.id == \Tag.name)
        #expect(Self.lookupsAreRight(slice, absent: ["a"]))
    }

    // MARK: Adding

    @Test func appendingAnIDAlreadyThereLeavesTheArrayAndSaysWhereItIs() {
        var todos = Self.three
        let added = todos.append(Todo(id: 4, title: "d"))
        #expect(added.inserted == true)
        #expect(added.index == 3)
        let refused = todos.append(Todo(id: 2, title: "other"))
        #expect(refused.inserted == false)
        #expect(refused.index == 1)
        #expect(todos.map(\.title) == ["a", "b", "c", "d"])
        #expect(Self.lookupsAreRight(todos))
    }

    @Test func insertingAnIDAlreadyThereLeavesTheArrayAndSaysWhereItIs() {
        var tags = IdentifiedArray([Tag(name: "swift")], id: \Tag.name)
        let inserted = tags.insert(Tag(name: "tca"), at: 0)
        #expect(inserted.inserted == true)
        #expect(inserted.index == 0)
        let refused = tags.insert(Tag(name: "swift", uses: 9), at: 0)
        #expect(refused.inserted == false)
        #expect(refused.index == 1)
        let ignored = tags.insert(Tag(name: "swift"), at: 99)  // the position is not used
        #expect(ignored.inserted == false)
        #expect(ignored.index == 1)
        #expect(tags == IdentifiedArray([Tag(name: "tca"), Tag(name: "swift")], id: \Tag.name))
        #expect(Self.lookupsAreRight(tags))
    }

    @Test func appendingContentsSkipsIDsAlreadyThereAndRepeatedOnes() {
        var todos = Self.three
        todos.append(contentsOf: [
            Todo(id: 2, title: "x"), Todo(id: 5, title: "e"), Todo(id: 4, title: "d"), Todo(id: 5, title: "y"),
        ])
        #expect(todos.ids == [1, 2, 3, 5, 4])
        #expect(todos.map(\.title) == ["a", "b", "c", "e", "d"])
        #expect(Self.lookupsAreRight(todos))
    }

    // MARK: Changing

    @Test func subscriptByIDChangesInPlaceAppendsAndRemoves() {
        var todos = Self.three
        todos[id: 2]?.isDone = true
        #expect(todos[1].isDone)
        todos[id: 4] = Todo(id: 4, title: "d")
        #expect(todos.ids == [1, 2, 3, 4])
        todos[id: 1] = Todo(id: 1, title: "A")
        #expect(todos.map(\.title) == ["A", "b", "c", "d"])
        todos[id: 2] = nil
        #expect(todos.ids == [1, 3, 4])
        #expect(todos.index(id: 4) == 2)  // the positions after a removal move
        todos[id: 9] = nil  // removing what is not there does nothing
        #expect(todos.ids == [1, 3, 4])
    }

    @Test func positionSubscriptChangesAnElementKeepingItsID() {
        var todos = Self.three
        todos[2].title = "C"
        todos[0] = Todo(id: 1, title: "A", isDone: true)
        #expect(todos.map(\.title) == ["A", "b", "C"])
        #expect(todos[id: 1]?.isDone == true)
    }

    @Test func assigningByPositionAnElementWithANewIDReplacesItAndItsID() {
        var todos = Self.three
        todos[1] = Todo(id: 4, title: "d")
        #expect(todos.ids == [1, 4, 3])
        #expect(todos.map(\.title) == ["a", "d", "c"])
        #expect(todos[id: 2] == nil)
        #expect(Self.lookupsAreRight(todos, absent: [2]))
    }

    @Test func assigningByPositionAnotherElementsIDReplacesThatElementAndMovesTheOneThere() {
        var todos = Self.three
        todos[0] = Todo(id: 3, title: "new c")
        // The element with id 3 is replaced and now at 0; the one that was at 0 takes its place.
        #expect(todos.ids == [3, 2, 1])
        #expect(todos.map(\.title) == ["new c", "b", "a"])
        #expect(todos.count == 3)
        #expect(Self.lookupsAreRight(todos))
    }

    @Test func updateAtReplacesTheElementWithTheSameIDAndReturnsTheOldOne() {
        var todos = Self.three
        #expect(todos.update(Todo(id: 2, title: "B"), at: 1) == Todo(id: 2, title: "b"))
        #expect(todos.map(\.title) == ["a", "B", "c"])
    }

    @Test func updateOrAppendReplacesInPlaceOrAppends() {
        var todos = Self.three
        #expect(todos.updateOrAppend(Todo(id: 2, title: "B")) == Todo(id: 2, title: "b"))
        #expect(todos.updateOrAppend(Todo(id: 4, title: "d")) == nil)
        #expect(todos.map(\.title) == ["a", "B", "c", "d"])
        #expect(Self.lookupsAreRight(todos))
    }

    @Test func updateOrInsertReplacesInPlaceOrInserts() {
        var todos = Self.three
        let replaced = todos.updateOrInsert(Todo(id: 3, title: "C"), at: 0)
        #expect(replaced.originalMember == Todo(id: 3, title: "c"))
        #expect(replaced.index == 2)
        let inserted = todos.updateOrInsert(Todo(id: 0, title: "z"), at: 0)
        #expect(inserted.originalMember == nil)
        #expect(inserted.index == 0)
        #expect(todos.map(\.title) == ["z", "a", "b", "C"])
        #expect(Self.lookupsAreRight(todos))
    }

    // MARK: Removing

    @Test func appendInsertAndRemoveKeepTheIndexByIDRight() {
        var todos = Self.three
        todos.append(Todo(id: 4))
        todos.insert(Todo(id: 0), at: 0)
        todos.insert(Todo(id: 5), at: todos.endIndex)
        #expect(todos.ids == [0, 1, 2, 3, 4, 5])
        #expect(Self.lookupsAreRight(todos))

        #expect(todos.remove(id: 2)?.title == "b")
        #expect(todos.remove(id: 2) == nil)
        #expect(todos.remove(at: 0).id == 0)
        #expect(todos.ids == [1, 3, 4, 5])
        #expect(Self.lookupsAreRight(todos, absent: [0, 2]))

        todos.removeAll { $0.id.isMultiple(of: 2) }
        #expect(todos.ids == [1, 3, 5])
        #expect(todos.index(id: 5) == 2)
        todos.append(contentsOf: [Todo(id: 2)])
        #expect(todos.ids == [1, 3, 5, 2])
        todos.removeAll()
        #expect(todos.isEmpty)
        #expect(todos.index(id: 1) == nil)
    }

    @Test func removingAnElementRemovesTheOneWithItsID() {
        var todos = Self.three
        #expect(todos.remove(Todo(id: 2, title: "not b")) == Todo(id: 2, title: "b"))
        #expect(todos.remove(Todo(id: 2)) == nil)
        #expect(todos.ids == [1, 3])
    }

    @Test func removeFirstLastAndSubrangesKeepTheIndexByIDRight() {
        var todos = IdentifiedArrayOf<Todo>(uniqueElements: (1...10).map { Todo(id: $0) })
        #expect(todos.removeFirst().id == 1)
        #expect(todos.removeLast().id == 10)
        todos.removeFirst(2)
        todos.removeLast(2)
        #expect(todos.ids == [4, 5, 6, 7])
        todos.removeSubrange(1..<3)
        #expect(todos.ids == [4, 7])
        todos.append(contentsOf: [Todo(id: 8), Todo(id: 9)])
        todos.removeSubrange(2...)
        #expect(todos.ids == [4, 7])
        #expect(Self.lookupsAreRight(todos, absent: [1, 5, 6, 8, 9, 10]))
        todos.removeAll(keepingCapacity: true)
        #expect(todos.isEmpty)
        #expect(Self.lookupsAreRight(todos, absent: [4, 7]))
    }

    @Test func removeAllWhereLeavesTheArrayAsItWasWhenThePredicateThrows() {
        struct Stop: Error {}
        var todos = Self.three
        #expect(throws: Stop.self) {
            try todos.removeAll { todo in
                if todo.id == 3 { throw Stop() }
                return true
            }
        }
        #expect(todos == Self.three)
    }

    @Test func removeAtOffsetsTakesAnIndexSetOrAnySequenceOfOffsets() {
        var todos = IdentifiedArrayOf<Todo>(uniqueElements: (0..<6).map { Todo(id: $0) })
        todos.remove(atOffsets: IndexSet([0, 2]))
        #expect(todos.ids == [1, 3, 4, 5])
        todos.remove(atOffsets: 2..<4)
        #expect(todos.ids == [1, 3])
        todos.remove(atOffsets: [1, 1])
        #expect(todos.ids == [1])
        #expect(Self.lookupsAreRight(todos, absent: [0, 2, 3, 4, 5]))
    }

    @Test func filterReturnsAnIdentifiedArray() {
        let done = Self.three.filter { $0.id != 2 }
        #expect(done.ids == [1, 3])
        #expect(done[id: 3]?.title == "c")
        #expect(Self.lookupsAreRight(done, absent: [2]))
    }

    // MARK: Moving and reordering

    @Test func moveFromOffsetsPutsTheElementsBeforeTheDestination() {
        var todos = IdentifiedArrayOf<Todo>(uniqueElements: (0..<6).map { Todo(id: $0) })
        todos.move(fromOffsets: IndexSet([1, 4]), toOffset: 0)
        #expect(todos.ids == [1, 4, 0, 2, 3, 5])
        todos.move(fromOffsets: [0], toOffset: 6)
        #expect(todos.ids == [4, 0, 2, 3, 5, 1])
        todos.move(fromOffsets: 1...2, toOffset: 4)
        #expect(todos.ids == [4, 3, 0, 2, 5, 1])
        todos.move(fromOffsets: [-1, 9], toOffset: 0)  // offsets outside the array are ignored, as in the package
        #expect(todos.ids == [4, 3, 0, 2, 5, 1])
        #expect(Self.lookupsAreRight(todos))
    }

    @Test func sortReverseAndSwapMoveIDsWithTheirElements() {
        var todos = Self.three
        todos.reverse()
        #expect(todos.ids == [3, 2, 1])
        #expect(todos.index(id: 3) == 0)
        todos.sort { $0.id < $1.id }
        #expect(todos.ids == [1, 2, 3])
        todos.swapAt(0, 2)
        #expect(todos.ids == [3, 2, 1])
        #expect(todos[id: 1]?.title == "a")
        #expect(todos.index(id: 1) == 2)
    }

    @Test func sortingComparableElementsAndWithAComparator() {
        var numbers = IdentifiedArray(uniqueElements: [3, 1, 2], id: \Int.self)
        numbers.sort()
        #expect(numbers.ids == [1, 2, 3])
        var todos = Self.three
        todos.sort(using: KeyPathComparator(\Todo.title, order: .reverse))
        #expect(todos.ids == [3, 2, 1])
        #expect(Self.lookupsAreRight(todos))
    }

    @Test func partitionAndShuffleKeepTheIndexByIDRight() {
        var todos = IdentifiedArrayOf<Todo>((1...20).map { Todo(id: $0) })
        let pivot = todos.partition { $0.id.isMultiple(of: 2) }
        #expect(todos[..<pivot].allSatisfy { !$0.id.isMultiple(of: 2) })
        #expect(todos[pivot...].allSatisfy { $0.id.isMultiple(of: 2) })
        var generator = SystemRandomNumberGenerator()
        todos.shuffle(using: &generator)
        todos.sort { $0.title.count < $1.title.count || $0.id > $1.id }
        #expect(Self.lookupsAreRight(todos))
        #expect(Set(todos.ids) == Set(1...20))
    }

    @Test func shuffleWithAGeneratorGivesTheOrderAnArrayWould() {
        var todos = IdentifiedArrayOf<Todo>(uniqueElements: (1...20).map { Todo(id: $0) })
        var array = todos.elements
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        todos.shuffle(using: &first)
        array.shuffle(using: &second)
        #expect(todos.elements == array)
        #expect(Self.lookupsAreRight(todos))
    }

    @Test func sortingASliceKeepsTheIndexByIDRight() {
        var todos = IdentifiedArrayOf<Todo>(uniqueElements: (1...6).map { Todo(id: $0) })
        todos[1..<5].sort { $0.id > $1.id }
        #expect(todos.ids == [1, 5, 4, 3, 2, 6])
        #expect(Self.lookupsAreRight(todos))
    }

    // MARK: RangeReplaceableCollection

    @Test func rangeReplaceableAlgorithmsKeepEveryIDUnique() {
        var todos = Self.three
        todos.insert(contentsOf: [Todo(id: 4, title: "d"), Todo(id: 1, title: "A")], at: 0)
        // An id already outside the range replaces that element where it is.
        #expect(todos.ids == [4, 1, 2, 3])
        #expect(todos.map(\.title) == ["d", "A", "b", "c"])
        let more = todos + [Todo(id: 5), Todo(id: 2, title: "x")]
        #expect(more.ids == [4, 1, 2, 3, 5])
        #expect(more[id: 2]?.title == "b")
        todos.replaceSubrange(1..<3, with: [Todo(id: 7, title: "g"), Todo(id: 2, title: "B"), Todo(id: 7, title: "h")])
        // Of two new elements with id 7, one goes in: at the last one's place, with the first one's value.
        #expect(todos.ids == [4, 2, 7, 3])
        #expect(todos.map(\.title) == ["d", "B", "g", "c"])
        #expect(Self.lookupsAreRight(todos, absent: [1]))
    }

    @Test func genericAppendOfAnIDAlreadyThereReplacesThatElementAsThePackageDoes() {
        func appendGenerically<C: RangeReplaceableCollection>(_ collection: inout C, _ element: C.Element) {
            collection.append(element)
        }
        var todos = Self.three
        appendGenerically(&todos, Todo(id: 2, title: "B"))
        appendGenerically(&todos, Todo(id: 4, title: "d"))
        #expect(todos.map(\.title) == ["a", "B", "c", "d"])
        #expect(Self.lookupsAreRight(todos))
    }

    @Test func copiesAreIndependent() {
        let original = Self.three
        var copy = original
        copy[id: 1]?.title = "changed"
        copy.remove(id: 3)
        copy[0] = Todo(id: 9)
        #expect(original == Self.three)
        #expect(copy.ids == [9, 2])
    }

    // MARK: Conformances

    @Test func equalAndHashableByTheElementsInOrder() {
        let reordered: IdentifiedArrayOf<Todo> = [Todo(id: 2, title: "b"), Todo(id: 1, title: "a"), Todo(id: 3, title: "c")]
        #expect(Self.three == IdentifiedArray(Self.three.map { $0 }))
        #expect(Self.three != reordered)
        #expect(Set([Self.three, Self.three, reordered]).count == 2)
    }

    @Test func codableAsAnArray() throws {
        let data = try JSONEncoder().encode(Self.three)
        let array = try JSONDecoder().decode([Todo].self, from: data)
        #expect(array == Array(Self.three))
        let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: data)
        #expect(decoded == Self.three)
        #expect(decoded.index(id: 3) == 2)
    }

    @Test func decodingADuplicateIDIsADecodingErrorWithThePackagesMessage() throws {
        struct List: Decodable { var todos: IdentifiedArrayOf<Todo> }
        let data = Data(#"{"todos": [{"id": 1, "title": "", "isDone": false}, {"id": 1, "title": "", "isDone": true}]}"#.utf8)
        let error = #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(List.self, from: data)
        }
        guard case let .dataCorrupted(context)? = error else {
            Issue.record("not dataCorrupted: \(String(describing: error))")
            return
        }
        #expect(context.debugDescription == "Duplicate element at offset 1")
        #expect(context.codingPath.map(\.stringValue) == ["todos"])
    }

    @Test func sendableWhenItsElementsAre() async {
        let todos = Self.three
        let titles = await Task.detached { todos.map(\.title) }.value
        #expect(titles == ["a", "b", "c"])
    }

    @Test func describesItselfAsAnArrayAndForDebuggingWithItsType() {
        let tags = IdentifiedArray([Tag(name: "x")], id: \Tag.name)
        #expect(tags.description == [Tag(name: "x")].description)
        let numbers = IdentifiedArray(uniqueElements: ["a", "b"], id: \String.self)
        #expect(numbers.debugDescription == #"IdentifiedArray<String>(["a", "b"])"#)
    }

    @Test func mirrorsItsElementsAsACollection() {
        let mirror = Mirror(reflecting: Self.three)
        #expect(mirror.displayStyle == .collection)
        #expect(mirror.children.map { $0.value as? Todo } == Self.three.elements)
        #expect(mirror.children.allSatisfy { $0.label == nil })
    }

    // MARK: Misuse stops the program with a message naming the id

    @Test func aDuplicateIDInALiteralStopsWithAMessageNamingTheID() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let todos: IdentifiedArrayOf<IdentifiedArrayTests.Todo> = [.init(id: 7), .init(id: 8), .init(id: 7)]
            _ = todos
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("IdentifiedArray: duplicate id `7`: the element at index 0 already has it"))
    }

    @Test func aDuplicateIDInUniqueOrUncheckedUniqueElementsStopsWithAMessageNamingTheID() async {
        let unique = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = IdentifiedArray(uniqueElements: [IdentifiedArrayTests.Tag(name: "a"), .init(name: "a")], id: \.name)
        }
        let uniqueText = String(decoding: unique?.standardErrorContent ?? [], as: UTF8.self)
        #expect(uniqueText.contains("IdentifiedArray: duplicate id `a`: the element at index 0 already has it"))
        let unchecked = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = IdentifiedArray(uncheckedUniqueElements: [IdentifiedArrayTests.Todo(id: 1), .init(id: 2), .init(id: 2)])
        }
        let uncheckedText = String(decoding: unchecked?.standardErrorContent ?? [], as: UTF8.self)
        #expect(uncheckedText.contains("IdentifiedArray: duplicate id `2`: the element at index 1 already has it"))
    }

    @Test func changingAnElementsIDThroughItsPositionStopsWithAMessageNamingBothIDs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var todos: IdentifiedArrayOf<IdentifiedArrayTests.Todo> = [.init(id: 1), .init(id: 2)]
            todos[1].id = 5
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("IdentifiedArray: the element at index 1 changed its id from `2` to `5`"))
    }

    @Test func settingAnElementForAnotherIDStopsWithAMessageNamingBothIDs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var todos: IdentifiedArrayOf<IdentifiedArrayTests.Todo> = [.init(id: 1)]
            todos[id: 1] = .init(id: 3)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("IdentifiedArray: an element with id `3` was set for id `1`"))
    }

    @Test func updateAtWithAnotherIDStopsWithAMessageNamingBothIDs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var todos: IdentifiedArrayOf<IdentifiedArrayTests.Todo> = [.init(id: 1), .init(id: 2)]
            todos.update(.init(id: 3), at: 1)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("IdentifiedArray.update(_:at:): the element has id `3`, but the element at index 1 has id `2`"))
    }

    @Test func combiningIntoAnotherIDStopsWithAMessageNamingBothIDs() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = IdentifiedArray([IdentifiedArrayTests.Todo(id: 1), .init(id: 1)]) { _, _ in .init(id: 4) }
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("combining two elements with id `1` gave an element with id `4`"))
    }

    @Test func changingAnIDThroughTheStorageStopsWithAMessageNamingTheID() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var todos: IdentifiedArrayOf<IdentifiedArrayTests.Todo> = [.init(id: 1), .init(id: 2)]
            _ = todos.withContiguousMutableStorageIfAvailable { $0[1].id = 6 }
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("IdentifiedArray: the elements' storage was changed so that the element at index 1 has id `6`"))
    }
}
