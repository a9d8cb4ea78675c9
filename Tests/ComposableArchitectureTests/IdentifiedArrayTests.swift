import ComposableArchitecture
import Foundation
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

    @Test func appendInsertAndRemoveKeepTheIndexByIDRight() {
        var todos = Self.three
        todos.append(Todo(id: 4))
        todos.insert(Todo(id: 0), at: 0)
        todos.insert(Todo(id: 5), at: todos.endIndex)
        #expect(todos.ids == [0, 1, 2, 3, 4, 5])
        for (position, id) in todos.ids.enumerated() { #expect(todos.index(id: id) == position) }

        #expect(todos.remove(id: 2)?.title == "b")
        #expect(todos.remove(id: 2) == nil)
        #expect(todos.remove(at: 0).id == 0)
        #expect(todos.ids == [1, 3, 4, 5])
        for (position, id) in todos.ids.enumerated() { #expect(todos.index(id: id) == position) }
        #expect(todos[id: 0] == nil)

        todos.removeAll { $0.id.isMultiple(of: 2) }
        #expect(todos.ids == [1, 3, 5])
        #expect(todos.index(id: 5) == 2)
        todos.append(contentsOf: [Todo(id: 2)])
        #expect(todos.ids == [1, 3, 5, 2])
        todos.removeAll()
        #expect(todos.isEmpty)
        #expect(todos.index(id: 1) == nil)
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

    @Test func partitionAndShuffleKeepTheIndexByIDRight() {
        var todos = IdentifiedArrayOf<Todo>((1...20).map { Todo(id: $0) })
        let pivot = todos.partition { $0.id.isMultiple(of: 2) }
        #expect(todos[..<pivot].allSatisfy { !$0.id.isMultiple(of: 2) })
        #expect(todos[pivot...].allSatisfy { $0.id.isMultiple(of: 2) })
        var generator = SystemRandomNumberGenerator()
        todos.shuffle(using: &generator)
        todos.sort { $0.title.count < $1.title.count || $0.id > $1.id }
        for (position, todo) in todos.enumerated() { #expect(todos.index(id: todo.id) == position) }
        #expect(Set(todos.ids) == Set(1...20))
    }

    @Test func copiesAreIndependent() {
        let original = Self.three
        var copy = original
        copy[id: 1]?.title = "changed"
        copy.remove(id: 3)
        #expect(original == Self.three)
        #expect(copy.ids == [1, 2])
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

    @Test func decodingADuplicateIDIsADecodingErrorNamingTheID() throws {
        let data = Data(#"[{"id": 1, "title": "", "isDone": false}, {"id": 1, "title": "", "isDone": true}]"#.utf8)
        var message = ""
        do {
            _ = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            message = context.debugDescription
        }
        #expect(message == "IdentifiedArray: duplicate id `1`: the element at index 0 already has it; every element's id must be unique")
    }

    @Test func sendableWhenItsElementsAre() async {
        let todos = Self.three
        let titles = await Task.detached { todos.map(\.title) }.value
        #expect(titles == ["a", "b", "c"])
    }

    @Test func describesItselfAsAnArray() {
        let tags = IdentifiedArray([Tag(name: "x")], id: \Tag.name)
        #expect(tags.description == [Tag(name: "x")].description)
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

    @Test func appendingOrInsertingADuplicateIDStopsWithAMessageNamingTheID() async {
        let append = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var todos: IdentifiedArrayOf<IdentifiedArrayTests.Todo> = [.init(id: 1), .init(id: 2)]
            todos.append(.init(id: 2))
        }
        let appendText = String(decoding: append?.standardErrorContent ?? [], as: UTF8.self)
        #expect(appendText.contains("IdentifiedArray: duplicate id `2`: the element at index 1 already has it"))
        let insert = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var tags = IdentifiedArray([IdentifiedArrayTests.Tag(name: "swift")], id: \IdentifiedArrayTests.Tag.name)
            tags.insert(.init(name: "swift"), at: 0)
        }
        let insertText = String(decoding: insert?.standardErrorContent ?? [], as: UTF8.self)
        #expect(insertText.contains("IdentifiedArray: duplicate id `swift`: the element at index 0 already has it"))
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

    @Test func changingAnIDThroughTheStorageStopsWithAMessageNamingTheID() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var todos: IdentifiedArrayOf<IdentifiedArrayTests.Todo> = [.init(id: 1), .init(id: 2)]
            _ = todos.withContiguousMutableStorageIfAvailable { $0[1].id = 6 }
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("IdentifiedArray: reordering the elements changed the id at index 1 to `6`"))
    }
}
