/// An ordered collection of elements with unique ids: an array that also finds an element by its
/// id in constant time. The state of a list of child features (rows, todos, tabs).
///
/// It keeps the elements in order, as an array does, and an index of where each id is. Reading
/// or writing an element by position is O(1), as is finding one by id (``subscript(id:)``,
/// ``index(id:)``, ``contains(id:)``); appending is amortized O(1); inserting or removing in the
/// middle is O(n), as it is for an array (the positions after it move).
///
/// ```swift
/// struct Todo: Identifiable, Equatable {
///     var id: Int
///     var title = ""
///     var isDone = false
/// }
///
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk"), Todo(id: 2, title: "Eggs")]
/// todos[id: 2]?.isDone = true           // by id
/// todos[0].title = "Oat milk"           // by position
/// todos.append(Todo(id: 2))             // (inserted: false, index: 1): id 2 is there already
/// todos[id: 1] = nil                    // removes the element with id 1
/// print(todos.ids)                      // [2]
/// ```
///
/// With `Reducer.forEach(state:action:environment:)` over an identified array, a reducer of one
/// element runs on the element whose id an action carries; with
/// ``Store/scope(id:state:action:fileID:line:)`` a view gets a store of one element.
///
/// ## The same as swift-identified-collections
///
/// This type stands in for `IdentifiedArray` of pointfreeco's swift-identified-collections 1.1.1,
/// so that code written for it compiles and behaves the same; that package's own tests pass
/// against it (`IdentifiedArrayPackageTests`). Every id appears once, and an operation that meets
/// an id already there does what the package does instead of stopping the program:
///
/// - ``append(_:)`` and ``insert(_:at:)`` return `(inserted: Bool, index: Int)` and leave the
///   array as it is for an id already there; ``append(contentsOf:)`` skips such elements.
/// - Setting an element through the position subscript with another id replaces the element
///   there (its old id goes). If the new id belongs to another element, that element is replaced
///   and the one that was at the position moves to its place.
/// - ``updateOrAppend(_:)`` and ``updateOrInsert(_:at:)`` replace an element with the same id;
///   ``update(_:at:)`` replaces the element at a position by one with the same id.
/// - As a `RangeReplaceableCollection` (when the elements are `Identifiable`), an element
///   replacing a range whose id is already outside the range replaces that element where it is.
/// - Decoding data with a duplicate id throws `DecodingError.dataCorrupted` with the package's
///   message, "Duplicate element at offset 1".
///
/// It also has the package's initializers (``init(uniqueElements:id:)``,
/// ``init(uncheckedUniqueElements:id:)``, ``init(_:id:uniquingIDsWith:)`` and their forms for
/// `Identifiable` elements), ``remove(_:)``, ``remove(id:)``, ``move(fromOffsets:toOffset:)``,
/// ``remove(atOffsets:)``, ``ids`` and ``elements``, sorting, shuffling, reversing and
/// partitioning in place, ``filter(_:)`` returning an identified array, `Equatable`, `Hashable`,
/// `Codable`, the descriptions, a mirror of the elements, and the ``IdentifiedArrayOf`` alias.
///
/// What stops the program where the package's does, with a message naming the ids involved:
/// ``init(uniqueElements:id:)`` (and an array literal) with a duplicate id, changing an element's
/// id in place through either subscript, setting ``subscript(id:)`` to an element with another
/// id, and ``update(_:at:)`` with another id.
///
/// ## Deliberate differences
///
/// - ``ids`` is an `[ID]` (the package's is an `OrderedSet<ID>`): reading it is O(1) as there,
///   but `ids.contains(_:)` is O(n); ask ``contains(id:)`` or ``index(id:)`` instead.
/// - The key path that identifies elements is `KeyPath<Element, ID> & Sendable`, so that the
///   array's `Sendable` conformance is checked by the compiler (the package's is unchecked). A key
///   path literal such as `\.name` is `Sendable`.
/// - ``init(uncheckedUniqueElements:id:)`` checks in every build and stops at a duplicate id,
///   naming it: building the index finds it at no extra cost (the package checks in debug builds
///   only and otherwise returns a corrupt array).
/// - ``init(_:id:uniquingIDsWith:)`` stops the program if the closure returns an element with
///   another id (the package would file it under the old id).
/// - ``move(fromOffsets:toOffset:)`` and ``remove(atOffsets:)`` take any sequence of offsets
///   (a `Foundation.IndexSet`, an array, a range), so `IdentifiedArray` needs no Foundation.
/// - `init(_:)` and `init(_:id:)`, which the package deprecates in favour of
///   ``init(uniqueElements:id:)``, are not deprecated here; they mean the same.
/// - ``contains(id:)`` is added, and ``withContiguousMutableStorageIfAvailable(_:)`` hands out
///   the elements' storage (so the standard library's algorithms run on it directly), checking
///   the ids afterwards.
/// - The package's underscored `_IdentifiedCollection` protocols are not provided.
public struct IdentifiedArray<ID: Hashable, Element> {
    /// The key path of an element's id.
    public let id: KeyPath<Element, ID> & Sendable
    /// The elements, in order.
    @usableFromInline var _elements: [Element]
    /// The elements' ids, in the same order: `_ids[i]` is `_elements[i]`'s id.
    @usableFromInline var _ids: [ID]
    /// Where each id is: `_positions[_ids[i]] == i`, and nothing else is in it.
    @usableFromInline var _positions: [ID: Int]

    /// An empty collection whose elements are identified by `id`.
    ///
    /// - Parameter id: The key path of an element's id.
    /// - Complexity: O(1).
    public init(id: KeyPath<Element, ID> & Sendable) {
        self.id = id
        _elements = []
        _ids = []
        _positions = [:]
    }

    /// The elements, in order, as an array.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var elements: [Element] { _elements }

    /// The ids of the elements, in order.
    ///
    /// - Complexity: O(1) (the array is kept up to date, not built on each read).
    @inlinable
    public var ids: [ID] { _ids }

    /// The position of the element with `id`, or `nil` if there is none.
    ///
    /// ```swift
    /// let todos: IdentifiedArrayOf<Todo> = [Todo(id: 42), Todo(id: 7)]
    /// let seven = todos.index(id: 7)   // 1
    /// let eight = todos.index(id: 8)   // nil
    /// ```
    ///
    /// - Parameter id: The id to look for.
    /// - Returns: The index of the element with `id`, or `nil`.
    /// - Complexity: O(1) on average, if `ID` hashes well.
    @inlinable
    public func index(id: ID) -> Int? {
        _positions[id]
    }

    /// Whether an element has `id`.
    ///
    /// - Parameter id: The id to look for.
    /// - Returns: `true` if an element has `id`.
    /// - Complexity: O(1) on average, if `ID` hashes well.
    @inlinable
    public func contains(id: ID) -> Bool {
        _positions[id] != nil
    }

    /// Whether an element has the same id as `element`, as the package's `contains(_:)`: the
    /// elements are not compared, only their ids.
    ///
    /// - Parameter element: The element whose id to look for.
    /// - Returns: `true` if an element has `element`'s id.
    /// - Complexity: O(1) on average, if `ID` hashes well.
    @inlinable
    public func contains(_ element: Element) -> Bool {
        _positions[element[keyPath: id]] != nil
    }

    /// The element with `id`, or `nil` if there is none.
    ///
    /// Setting a value replaces the element with that id where it is, or appends the value if
    /// there is none; setting `nil` removes the element. The value set must have the id it is set
    /// for, and a change made through the subscript must keep it: another id stops the program
    /// with a message naming both (as the package's subscript stops it).
    ///
    /// <!-- example context: todos -->
    /// ```swift
    /// todos[id: 2]?.isDone.toggle()   // changes the element in place
    /// todos[id: 3] = Todo(id: 3)      // appends it
    /// todos[id: 3] = nil              // removes it
    /// ```
    ///
    /// - Parameter id: The id of the element.
    /// - Returns: The element with `id`, or `nil`.
    /// - Complexity: Reading and changing are O(1) on average, if `ID` hashes well; appending is
    ///   amortized O(1); removing is O(n).
    public subscript(id id: ID) -> Element? {
        get {
            _positions[id].map { _elements[$0] }
        }
        set {
            if let newValue {
                let newID = newValue[keyPath: self.id]
                if newID != id { preconditionFailure(mismatchMessage(set: newID, for: id)) }
                if let position = _positions[id] {
                    _elements[position] = newValue
                } else {
                    appendNew(newValue, id: id)
                }
            } else if let position = _positions[id] {
                remove(at: position)
            }
        }
    }
}

// The key path is `Sendable`, so the compiler checks this conformance.
extension IdentifiedArray: Sendable where Element: Sendable, ID: Sendable {}

/// An ``IdentifiedArray`` of `Identifiable` elements, identified by their `id`.
///
/// ```swift
/// let todos: IdentifiedArrayOf<Todo> = []
/// ```
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

// MARK: - Keeping the ids and positions in step

extension IdentifiedArray {
    /// Appends `element`, whose id is `elementID` and is not in the array.
    @usableFromInline
    mutating func appendNew(_ element: Element, id elementID: ID) {
        _positions[elementID] = _elements.count
        _elements.append(element)
        _ids.append(elementID)
    }

    /// Inserts `element`, whose id is `elementID` and is not in the array, at `position`.
    mutating func insertNew(_ element: Element, id elementID: ID, at position: Int) {
        precondition(
            position >= 0 && position <= _elements.count,
            "IdentifiedArray: insertion index \(position) is out of bounds 0...\(_elements.count)")
        if position == _elements.count { return appendNew(element, id: elementID) }
        _elements.insert(element, at: position)
        _ids.insert(elementID, at: position)
        reindex(from: position)
    }

    /// Records where the ids in `range` are.
    mutating func reindex(_ range: Range<Int>) {
        for position in range { _positions[_ids[position]] = position }
    }

    /// Records where the ids from `start` on are.
    mutating func reindex(from start: Int) {
        reindex(start..<_ids.count)
    }

    /// Reads the ids from the elements again and records where they are, after the elements
    /// were reordered (not changed).
    mutating func reindexAfterReordering() {
        for position in _elements.indices {
            let elementID = _elements[position][keyPath: id]
            _ids[position] = elementID
            _positions[elementID] = position
        }
    }

    /// Removes the elements at the offsets for which `isRemoved` is `true` (it has one entry per
    /// element), keeping the others in order.
    mutating func removeElements(at isRemoved: [Bool]) {
        guard let first = isRemoved.firstIndex(of: true) else { return }
        var kept = first
        for position in first..<_elements.count {
            if isRemoved[position] {
                _positions[_ids[position]] = nil
            } else {
                _elements.swapAt(kept, position)
                _ids.swapAt(kept, position)
                _positions[_ids[kept]] = kept
                kept += 1
            }
        }
        _elements.removeSubrange(kept...)
        _ids.removeSubrange(kept...)
    }
}

// MARK: - Messages

extension IdentifiedArray {
    /// The message for an element with `elementID` among elements that must have unique ids,
    /// when the element at `position` has it already.
    func duplicateMessage(_ elementID: ID, at position: Int) -> String {
        "IdentifiedArray: duplicate id \(describeID(elementID)): the element at index \(position) already has it; "
            + "every element's id must be unique"
    }

    /// The message for setting an element whose id is `newID` at `id`.
    func mismatchMessage(set newID: ID, for id: ID) -> String {
        "IdentifiedArray: an element with id \(describeID(newID)) was set for id \(describeID(id)); "
            + "an element's id cannot change (remove it and add the new one)"
    }

    /// The message for changing, in place through the position subscript, the id of the element
    /// at `position` from `oldID` to `newID`.
    @usableFromInline
    func changedIDMessage(at position: Int, from oldID: ID, to newID: ID) -> String {
        "IdentifiedArray: the element at index \(position) changed its id from \(describeID(oldID)) to "
            + "\(describeID(newID)); an element's id cannot change in place (assign a new element to replace it)"
    }
}

/// An id as a message shows it: in backquotes.
func describeID<ID>(_ id: ID) -> String {
    "`\(String(describing: id))`"
}
