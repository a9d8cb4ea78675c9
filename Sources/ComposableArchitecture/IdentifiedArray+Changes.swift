// Adding, replacing, removing and moving elements.

extension IdentifiedArray {
    /// Adds `element` at the end, unless an element with its id is there already; then the
    /// array is left as it is.
    ///
    /// ```swift
    /// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2)]
    /// todos.append(Todo(id: 3))   // (inserted: true, index: 2)
    /// todos.append(Todo(id: 1))   // (inserted: false, index: 0); todos unchanged
    /// ```
    ///
    /// - Parameter element: The element to add.
    /// - Returns: Whether `element` was added, and the index of the element with its id (the new
    ///   one, or the one already there).
    /// - Complexity: Amortized O(1) on average, if `ID` hashes well.
    @discardableResult
    public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
        let elementID = element[keyPath: id]
        if let existing = _positions[elementID] { return (false, existing) }
        appendNew(element, id: elementID)
        return (true, _elements.count - 1)
    }

    /// Adds the elements of `newElements` at the end, in order, skipping each one whose id is
    /// already in the array (including one added earlier from `newElements`).
    ///
    /// - Parameter newElements: The elements to add.
    /// - Complexity: Amortized O(1) per element on average, if `ID` hashes well.
    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        reserveCapacity(_elements.count + newElements.underestimatedCount)
        for element in newElements { append(element) }
    }

    /// Inserts `element` at `position`, unless an element with its id is there already; then the
    /// array is left as it is.
    ///
    /// `position` may be ``endIndex`` (to append); one outside `0...count` stops the program,
    /// unless the id is already there (then it is not used).
    ///
    /// - Parameters:
    ///   - element: The element to insert.
    ///   - position: Where to insert it.
    /// - Returns: Whether `element` was inserted, and the index of the element with its id: the
    ///   new one (`position`), or the one already there.
    /// - Complexity: O(n).
    @discardableResult
    public mutating func insert(_ element: Element, at position: Int) -> (inserted: Bool, index: Int) {
        let elementID = element[keyPath: id]
        if let existing = _positions[elementID] { return (false, existing) }
        insertNew(element, id: elementID, at: position)
        return (true, position)
    }

    /// Replaces the element at `position` by `element`, which must have the same id.
    ///
    /// Another id stops the program with a message naming both ids (assign through the position
    /// subscript to replace an element by one with another id).
    ///
    /// - Parameters:
    ///   - element: The new element, with the id of the one it replaces.
    ///   - position: The index of the element to replace.
    /// - Returns: The element replaced.
    /// - Complexity: O(1).
    @discardableResult
    public mutating func update(_ element: Element, at position: Int) -> Element {
        let oldID = _ids[position]
        let newID = element[keyPath: id]
        if newID != oldID {
            preconditionFailure(
                "IdentifiedArray.update(_:at:): the element has id \(describeID(newID)), but the element "
                    + "at index \(position) has id \(describeID(oldID)); the replacement must have the same id")
        }
        let old = _elements[position]
        _elements[position] = element
        return old
    }

    /// Replaces the element with `element`'s id, where it is, or appends `element` if there is
    /// none.
    ///
    /// - Parameter element: The new element.
    /// - Returns: The element replaced, or `nil` if `element` was appended.
    /// - Complexity: Amortized O(1) on average, if `ID` hashes well.
    @discardableResult
    public mutating func updateOrAppend(_ element: Element) -> Element? {
        let elementID = element[keyPath: id]
        guard let position = _positions[elementID] else {
            appendNew(element, id: elementID)
            return nil
        }
        let old = _elements[position]
        _elements[position] = element
        return old
    }

    /// Replaces the element with `element`'s id, where it is, or inserts `element` at
    /// `position` if there is none.
    ///
    /// - Parameters:
    ///   - element: The new element.
    ///   - position: Where to insert `element` if no element has its id (it must then be in
    ///     `0...count`).
    /// - Returns: The element replaced (`nil` if `element` was inserted), and the index of
    ///   `element`.
    /// - Complexity: O(1) on average to replace, if `ID` hashes well; O(n) to insert.
    @discardableResult
    public mutating func updateOrInsert(_ element: Element, at position: Int) -> (originalMember: Element?, index: Int)
    {
        let elementID = element[keyPath: id]
        guard let existing = _positions[elementID] else {
            insertNew(element, id: elementID, at: position)
            return (nil, position)
        }
        let old = _elements[existing]
        _elements[existing] = element
        return (old, existing)
    }

    /// Removes the element with the same id as `element` (whatever else it holds).
    ///
    /// - Parameter element: An element with the id to remove.
    /// - Returns: The element removed, or `nil` if no element had that id.
    /// - Complexity: O(n).
    @discardableResult
    public mutating func remove(_ element: Element) -> Element? {
        remove(id: element[keyPath: id])
    }

    /// Removes the element with `id`.
    ///
    /// ```swift
    /// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2)]
    /// todos.remove(id: 2)   // Todo(id: 2)
    /// todos.remove(id: 3)   // nil
    /// ```
    ///
    /// - Parameter id: The id of the element to remove.
    /// - Returns: The element removed, or `nil` if there was none with `id`.
    /// - Complexity: O(n).
    @discardableResult
    public mutating func remove(id: ID) -> Element? {
        guard let position = _positions[id] else { return nil }
        return remove(at: position)
    }

    /// Removes the element at `position`; the elements after it move up.
    ///
    /// - Parameter position: A valid index, not ``endIndex``.
    /// - Returns: The element removed.
    /// - Complexity: O(n).
    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        let element = _elements.remove(at: position)
        _positions[_ids.remove(at: position)] = nil
        reindex(from: position)
        return element
    }

    /// Removes the elements at the positions in `bounds`; the elements after them move up.
    ///
    /// - Parameter bounds: Valid positions.
    /// - Complexity: O(n).
    public mutating func removeSubrange(_ bounds: Range<Int>) {
        guard !bounds.isEmpty else { return }
        for removedID in _ids[bounds] { _positions[removedID] = nil }
        _elements.removeSubrange(bounds)
        _ids.removeSubrange(bounds)
        reindex(from: bounds.lowerBound)
    }

    /// Removes the elements at the positions in `bounds` (a range expression such as `2...`);
    /// the elements after them move up.
    ///
    /// - Parameter bounds: Valid positions.
    /// - Complexity: O(n).
    public mutating func removeSubrange(_ bounds: some RangeExpression<Int>) {
        removeSubrange(bounds.relative(to: _elements))
    }

    /// Removes the first element, which must exist.
    ///
    /// - Returns: The element removed.
    /// - Complexity: O(n).
    @discardableResult
    public mutating func removeFirst() -> Element {
        precondition(!_elements.isEmpty, "IdentifiedArray.removeFirst(): the array is empty")
        return remove(at: 0)
    }

    /// Removes the first `k` elements; `k` must be in `0...count`.
    ///
    /// - Parameter k: How many elements to remove.
    /// - Complexity: O(n).
    public mutating func removeFirst(_ k: Int) {
        precondition(
            k >= 0 && k <= _elements.count,
            "IdentifiedArray.removeFirst(_:): cannot remove \(k) of \(_elements.count) elements")
        removeSubrange(0..<k)
    }

    /// Removes the last element, which must exist.
    ///
    /// - Returns: The element removed.
    /// - Complexity: O(1) on average, if `ID` hashes well.
    @discardableResult
    public mutating func removeLast() -> Element {
        precondition(!_elements.isEmpty, "IdentifiedArray.removeLast(): the array is empty")
        _positions[_ids.removeLast()] = nil
        return _elements.removeLast()
    }

    /// Removes the last `k` elements; `k` must be in `0...count`.
    ///
    /// - Parameter k: How many elements to remove.
    /// - Complexity: O(k) on average, if `ID` hashes well.
    public mutating func removeLast(_ k: Int) {
        precondition(
            k >= 0 && k <= _elements.count,
            "IdentifiedArray.removeLast(_:): cannot remove \(k) of \(_elements.count) elements")
        removeSubrange((_elements.count - k)..<_elements.count)
    }

    /// Removes the elements for which `shouldBeRemoved` returns `true`, keeping the others in
    /// order.
    ///
    /// `shouldBeRemoved` is asked about every element before any is removed, so an error it
    /// throws (which is rethrown) leaves the array as it was.
    ///
    /// - Parameter shouldBeRemoved: Whether to remove an element.
    /// - Complexity: O(n).
    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var isRemoved = [Bool](repeating: false, count: _elements.count)
        var any = false
        for position in _elements.indices where try shouldBeRemoved(_elements[position]) {
            isRemoved[position] = true
            any = true
        }
        if any { removeElements(at: isRemoved) }
    }

    /// Removes every element.
    ///
    /// - Parameter keepCapacity: Whether to keep the storage for as many elements (by default
    ///   it is released).
    /// - Complexity: O(n).
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        _elements.removeAll(keepingCapacity: keepCapacity)
        _ids.removeAll(keepingCapacity: keepCapacity)
        _positions.removeAll(keepingCapacity: keepCapacity)
    }

    /// Removes the elements at `offsets`, keeping the others in order. This is what SwiftUI's
    /// `onDelete` hands over, as an `IndexSet`; any sequence of offsets will do.
    ///
    /// ```swift
    /// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2), Todo(id: 3)]
    /// todos.remove(atOffsets: [0, 2])
    /// print(todos.ids)   // [2]
    /// ```
    ///
    /// Each offset must be a valid index (an offset outside the array stops the program, as in
    /// the package); an offset given twice is removed once.
    ///
    /// - Parameter offsets: The positions of the elements to remove.
    /// - Complexity: O(n + k), where k is the number of offsets.
    public mutating func remove(atOffsets offsets: some Sequence<Int>) {
        var isRemoved = [Bool](repeating: false, count: _elements.count)
        for offset in offsets {
            precondition(
                offset >= 0 && offset < _elements.count,
                "IdentifiedArray.remove(atOffsets:): offset \(offset) is out of bounds 0..<\(_elements.count)")
            isRemoved[offset] = true
        }
        removeElements(at: isRemoved)
    }

    /// Moves the elements at `source` (in their order) to just before the element that is at
    /// `destination` now, or to the end if `destination` is ``endIndex``. This is what SwiftUI's
    /// `onMove` hands over; any sequence of offsets will do.
    ///
    /// ```swift
    /// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2), Todo(id: 3)]
    /// todos.move(fromOffsets: [0, 2], toOffset: 2)
    /// print(todos.ids)   // [2, 1, 3]
    /// ```
    ///
    /// `destination` must be in `0...count`. Offsets outside the array are ignored, as in the
    /// package; an offset given twice counts once.
    ///
    /// - Parameters:
    ///   - source: The positions of the elements to move.
    ///   - destination: The position, in the array as it is before the move, to move them before.
    /// - Complexity: O(n + k), where k is the number of offsets.
    public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
        let count = _elements.count
        precondition(
            destination >= 0 && destination <= count,
            "IdentifiedArray.move(fromOffsets:toOffset:): destination \(destination) is out of bounds 0...\(count)")
        var isMoved = [Bool](repeating: false, count: count)
        var lowest = count
        var highest = -1
        for offset in source where offset >= 0 && offset < count {
            isMoved[offset] = true
            lowest = Swift.min(lowest, offset)
            highest = Swift.max(highest, offset)
        }
        guard highest >= 0 else { return }
        // Only the positions between the first moved element (or the destination) and the last
        // one (or the destination) change: the elements there are rebuilt in their new order.
        let start = Swift.min(lowest, destination)
        let end = Swift.max(highest + 1, destination)
        var order: [Int] = []
        order.reserveCapacity(end - start)
        for position in start..<destination where !isMoved[position] { order.append(position) }
        for position in start..<end where isMoved[position] { order.append(position) }
        for position in destination..<end where !isMoved[position] { order.append(position) }
        let movedElements = order.map { _elements[$0] }
        let movedIDs = order.map { _ids[$0] }
        _elements.replaceSubrange(start..<end, with: movedElements)
        _ids.replaceSubrange(start..<end, with: movedIDs)
        reindex(start..<end)
    }

    /// The elements for which `isIncluded` returns `true`, in order, as an identified array.
    ///
    /// - Parameter isIncluded: Whether to keep an element.
    /// - Returns: The elements kept.
    /// - Complexity: O(n).
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
        var result = Self(id: id)
        for position in _elements.indices where try isIncluded(_elements[position]) {
            result.appendNew(_elements[position], id: _ids[position])
        }
        return result
    }

    /// Makes room for at least `minimumCapacity` elements without reallocating.
    ///
    /// - Parameter minimumCapacity: The number of elements to make room for.
    /// - Complexity: O(n) when it reallocates.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        _elements.reserveCapacity(minimumCapacity)
        _ids.reserveCapacity(minimumCapacity)
        _positions.reserveCapacity(minimumCapacity)
    }
}
