/// An ordered collection of elements with unique ids: an array that also finds an element by its
/// id in constant time. The state of a list of child features (rows, todos, tabs).
///
/// It keeps the elements in order, as an array does, and an index of where each id is. Reading
/// or writing an element by position is O(1), as is finding one by id (``subscript(id:)``,
/// ``index(id:)``); appending is amortized O(1); inserting or removing in the middle is O(n),
/// as it is for an array (the positions after it move).
///
/// Every id appears once: adding an element whose id is already there stops the program with a
/// message naming the id, and so does changing an element's id through the position subscript
/// (an element keeps its id for life; remove it and add another instead).
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]
/// todos[id: 2]?.isDone = true          // by id
/// todos[0].title = "Oat milk"           // by position
/// todos[id: 1] = nil                    // removes the element with id 1
/// print(todos.ids)                      // [2]
/// ```
///
/// With `Reducer.forEach(state:action:environment:)` over an identified array, a reducer of one
/// element runs on the element whose id an action carries; with
/// ``Store/scope(id:state:action:fileID:line:)`` a view gets a store of one element.
public struct IdentifiedArray<ID: Hashable, Element> {
    /// The key path of an element's id.
    public let id: KeyPath<Element, ID> & Sendable
    /// The elements, in order.
    @usableFromInline var elements: [Element]
    /// Where each id is in `elements`.
    @usableFromInline var positions: [ID: Int]

    /// An empty collection whose elements are identified by `id`.
    public init(id: KeyPath<Element, ID> & Sendable) {
        self.id = id
        elements = []
        positions = [:]
    }

    /// The elements of `elements`, in order, identified by `id`.
    ///
    /// Two elements with the same id stop the program with a message naming the id.
    public init<S: Sequence>(_ elements: S, id: KeyPath<Element, ID> & Sendable) where S.Element == Element {
        self.init(id: id)
        for element in elements { append(element) }
    }

    /// The ids of the elements, in order.
    public var ids: [ID] {
        elements.map { $0[keyPath: id] }
    }

    /// The position of the element with `id`, or `nil` if there is none. O(1).
    @inlinable
    public func index(id: ID) -> Int? {
        positions[id]
    }

    /// Whether an element has `id`. O(1).
    @inlinable
    public func contains(id: ID) -> Bool {
        positions[id] != nil
    }

    /// The element with `id`, or `nil` if there is none. O(1).
    ///
    /// Setting a value replaces the element with that id, or appends the value if there is none;
    /// setting `nil` removes the element. The value set must have the id it is set for (checked:
    /// a different id stops the program).
    ///
    /// <!-- example context: todos -->
    /// ```swift
    /// todos[id: 2]?.isDone.toggle()   // changes the element in place
    /// todos[id: 3] = Todo(id: 3)      // appends it
    /// todos[id: 3] = nil              // removes it
    /// ```
    public subscript(id id: ID) -> Element? {
        get {
            positions[id].map { elements[$0] }
        }
        _modify {
            if let position = positions[id] {
                var element: Element? = elements[position]
                yield &element
                if let element {
                    precondition(element[keyPath: self.id] == id, mismatchMessage(set: element[keyPath: self.id], for: id))
                    elements[position] = element
                } else {
                    remove(at: position)
                }
            } else {
                var element: Element? = nil
                yield &element
                if let element {
                    precondition(element[keyPath: self.id] == id, mismatchMessage(set: element[keyPath: self.id], for: id))
                    append(element)
                }
            }
        }
    }

    /// Adds `element` at the end. Amortized O(1).
    ///
    /// An element whose id is already in the collection stops the program with a message naming
    /// the id.
    public mutating func append(_ element: Element) {
        let elementID = element[keyPath: id]
        if let message = duplicateMessage(elementID) { preconditionFailure(message) }
        positions[elementID] = elements.count
        elements.append(element)
    }

    /// Adds the elements of `newElements` at the end, in order.
    ///
    /// An element whose id is already in the collection stops the program with a message naming
    /// the id.
    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        for element in newElements { append(element) }
    }

    /// Inserts `element` at `position` (which may be `endIndex`). O(n).
    ///
    /// An element whose id is already in the collection stops the program with a message naming
    /// the id.
    public mutating func insert(_ element: Element, at position: Int) {
        let elementID = element[keyPath: id]
        if let message = duplicateMessage(elementID) { preconditionFailure(message) }
        precondition(position >= 0 && position <= elements.count,
                     "IdentifiedArray.insert(_:at:): position \(position) is out of bounds 0...\(elements.count)")
        elements.insert(element, at: position)
        reindex(from: position)
    }

    /// Removes and returns the element with `id`, or returns `nil` if there is none. O(n).
    @discardableResult
    public mutating func remove(id: ID) -> Element? {
        guard let position = positions[id] else { return nil }
        return remove(at: position)
    }

    /// Removes and returns the element at `position`. O(n).
    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        let element = elements.remove(at: position)
        positions[element[keyPath: id]] = nil
        reindex(from: position)
        return element
    }

    /// Removes the elements for which `shouldBeRemoved` returns `true`, keeping the others in
    /// order. O(n).
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        try elements.removeAll(where: shouldBeRemoved)
        positions.removeAll(keepingCapacity: true)
        reindex(from: 0)
    }

    /// Removes every element.
    public mutating func removeAll() {
        elements.removeAll()
        positions.removeAll()
    }

    /// Records the positions of the elements from `start` on.
    mutating func reindex(from start: Int) {
        for position in start..<elements.count {
            positions[elements[position][keyPath: id]] = position
        }
    }

    /// The message for adding an element with `elementID` when one is there already; `nil` when
    /// the id is new.
    func duplicateMessage(_ elementID: ID) -> String? {
        guard let position = positions[elementID] else { return nil }
        return "IdentifiedArray: duplicate id \(describeID(elementID)): the element at index \(position) already has it; "
            + "every element's id must be unique"
    }

    /// The message for setting an element whose id is `newID` at `id`.
    func mismatchMessage(set newID: ID, for id: ID) -> String {
        "IdentifiedArray: an element with id \(describeID(newID)) was set for id \(describeID(id)); "
            + "an element's id cannot change (remove it and add the new one)"
    }

    /// The message for changing, through the position subscript, the id of the element at
    /// `position` from `oldID` to `newID`.
    @usableFromInline
    func changedIDMessage(at position: Int, from oldID: ID, to newID: ID) -> String {
        "IdentifiedArray: the element at index \(position) changed its id from \(describeID(oldID)) to "
            + "\(describeID(newID)); an element's id cannot change (remove it and add the new one)"
    }
}

/// An id as a message shows it: in backquotes.
private func describeID<ID>(_ id: ID) -> String {
    "`\(String(describing: id))`"
}

/// An ``IdentifiedArray`` of `Identifiable` elements, identified by their `id`.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
    /// An empty collection of `Identifiable` elements.
    public init() {
        self.init(id: \Element.id)
    }

    /// The elements of `elements`, in order, identified by their `id`.
    ///
    /// Two elements with the same id stop the program with a message naming the id.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init(elements, id: \Element.id)
    }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
    /// The listed elements, in order, identified by their `id`.
    ///
    /// Two elements with the same id stop the program with a message naming the id.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
    /// The position of the first element (0).
    @inlinable
    public var startIndex: Int { 0 }

    /// The position after the last element (the count).
    @inlinable
    public var endIndex: Int { elements.count }

    /// The number of elements.
    @inlinable
    public var count: Int { elements.count }

    /// The element at `position`. O(1).
    ///
    /// An element set or changed here must keep its id: a change of id stops the program with a
    /// message naming both ids (use ``remove(at:)`` and ``insert(_:at:)`` to replace an element
    /// by another).
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            elements[position]
        }
        _modify {
            let oldID = elements[position][keyPath: id]
            yield &elements[position]
            let newID = elements[position][keyPath: id]
            if newID != oldID { preconditionFailure(changedIDMessage(at: position, from: oldID, to: newID)) }
        }
    }

    /// Swaps the elements at `i` and `j` (with their ids): what `reverse` and `shuffle` use, so
    /// they work on an identified array.
    public mutating func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        elements.swapAt(i, j)
        positions[elements[i][keyPath: id]] = i
        positions[elements[j][keyPath: id]] = j
    }

    /// Calls `body` with the elements' storage, then indexes the elements again: what `sort` and
    /// `partition` use, so they work on an identified array. O(n) on top of `body`.
    ///
    /// `body` may reorder the elements but not change their ids: afterwards the ids must be the
    /// ones that were there before (checked: another id stops the program with a message naming it).
    public mutating func withContiguousMutableStorageIfAvailable<R>(
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R? {
        let before = positions
        defer {
            positions.removeAll(keepingCapacity: true)
            for (position, element) in elements.enumerated() {
                let elementID = element[keyPath: id]
                if before[elementID] == nil || positions[elementID] != nil {
                    preconditionFailure("IdentifiedArray: reordering the elements changed the id at index \(position) "
                        + "to \(describeID(elementID)); an element's id cannot change")
                }
                positions[elementID] = position
            }
        }
        return try elements.withContiguousMutableStorageIfAvailable(body)
    }
}

extension IdentifiedArray: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order.
    public static func == (lhs: IdentifiedArray, rhs: IdentifiedArray) -> Bool {
        lhs.elements == rhs.elements
    }
}

extension IdentifiedArray: Hashable where Element: Hashable {
    /// Hashes the elements, in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(elements)
    }
}

extension IdentifiedArray: Sendable where Element: Sendable, ID: Sendable {}

extension IdentifiedArray: Encodable where Element: Encodable {
    /// Encodes the elements as an array, in order.
    public func encode(to encoder: any Encoder) throws {
        try elements.encode(to: encoder)
    }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
    /// Decodes an array of elements, identified by their `id`.
    ///
    /// Two elements with the same id are a decoding error (`DecodingError.dataCorrupted`) naming
    /// the id, not a crash: the data is at fault, not the program.
    public init(from decoder: any Decoder) throws {
        let elements = try [Element](from: decoder)
        self.init()
        for element in elements {
            if let message = duplicateMessage(element.id) {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
            }
            append(element)
        }
    }
}

extension IdentifiedArray: CustomStringConvertible {
    /// The elements, as an array shows them.
    public var description: String {
        elements.description
    }
}
