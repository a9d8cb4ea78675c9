// The collection protocols, and reordering in place.

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
    /// The position of the first element (0).
    @inlinable
    public var startIndex: Int { 0 }

    /// The position after the last element (the count).
    @inlinable
    public var endIndex: Int { _elements.count }

    /// The number of elements.
    @inlinable
    public var count: Int { _elements.count }

    /// The element at `position`.
    ///
    /// Assigning an element replaces the one at `position`, as the package's subscript does:
    ///
    /// - with the same id, it takes its place;
    /// - with an id no element has, it takes its place and the old id is gone;
    /// - with the id of another element, that element is replaced, and the one that was at
    ///   `position` moves to where it was (the count stays the same).
    ///
    /// ```swift
    /// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2), Todo(id: 3)]
    /// todos[1] = Todo(id: 4)   // ids [1, 4, 3]
    /// todos[0] = Todo(id: 3)   // ids [3, 4, 1]
    /// ```
    ///
    /// Changing an element in place (`todos[0].title = "Milk"`) must keep its id: a change of
    /// id stops the program with a message naming both ids, as in the package.
    ///
    /// - Parameter position: A valid index, not ``endIndex``.
    /// - Returns: The element at `position`.
    /// - Complexity: O(1) on average, if `ID` hashes well.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            _elements[position]
        }
        set {
            replace(at: position, with: newValue)
        }
        _modify {
            let oldID = _ids[position]
            yield &_elements[position]
            let newID = _elements[position][keyPath: id]
            if newID != oldID { preconditionFailure(changedIDMessage(at: position, from: oldID, to: newID)) }
        }
    }

    /// Puts `element` at `position`, as the position subscript's setter describes.
    @usableFromInline
    mutating func replace(at position: Int, with element: Element) {
        let oldID = _ids[position]
        let newID = element[keyPath: id]
        if newID != oldID {
            if let other = _positions[newID] {
                // The element that had `newID` is replaced; the one at `position` takes its place.
                _elements[other] = _elements[position]
                _ids[other] = oldID
                _positions[oldID] = other
            } else {
                _positions[oldID] = nil
            }
            _ids[position] = newID
            _positions[newID] = position
        }
        _elements[position] = element
    }

    /// Swaps the elements at `i` and `j`, with their ids.
    ///
    /// - Parameters:
    ///   - i: A valid index.
    ///   - j: A valid index.
    /// - Complexity: O(1) on average, if `ID` hashes well.
    public mutating func swapAt(_ i: Int, _ j: Int) {
        guard i != j else { return }
        _elements.swapAt(i, j)
        _ids.swapAt(i, j)
        _positions[_ids[i]] = i
        _positions[_ids[j]] = j
    }

    /// Reorders the elements so that those for which `belongsInSecondPartition` returns `true`
    /// come after the others, and returns where they start.
    ///
    /// - Parameter belongsInSecondPartition: Whether an element goes in the second part.
    /// - Returns: The index of the first element of the second part (``endIndex`` if there is
    ///   none). An error `belongsInSecondPartition` throws is rethrown; the elements may then be
    ///   in another order, with their ids.
    /// - Complexity: O(n).
    public mutating func partition(by belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        defer { reindexAfterReordering() }
        return try _elements.partition(by: belongsInSecondPartition)
    }

    /// Sorts the elements in place, by `areInIncreasingOrder` (a strict weak ordering).
    ///
    /// As the standard library's sort, it is not guaranteed to be stable.
    ///
    /// <!-- example context: todos -->
    /// ```swift
    /// todos.sort { $0.title < $1.title }
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second. An
    ///   error it throws is rethrown; the elements may then be in another order, with their ids,
    ///   none lost.
    /// - Complexity: O(n log n).
    public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        defer { reindexAfterReordering() }
        try _elements.sort(by: areInIncreasingOrder)
    }

    /// Reverses the order of the elements in place.
    ///
    /// - Complexity: O(n).
    public mutating func reverse() {
        _elements.reverse()
        _ids.reverse()
        reindex(from: 0)
    }

    /// Shuffles the elements in place, with the system's random number generator.
    ///
    /// - Complexity: O(n).
    public mutating func shuffle() {
        var generator = SystemRandomNumberGenerator()
        shuffle(using: &generator)
    }

    /// Shuffles the elements in place, with `generator`: the same generator state gives the same
    /// order as shuffling an array of the elements.
    ///
    /// - Parameter generator: The random number generator to use.
    /// - Complexity: O(n).
    public mutating func shuffle<T: RandomNumberGenerator>(using generator: inout T) {
        _elements.shuffle(using: &generator)
        reindexAfterReordering()
    }

    /// Calls `body` with the elements' storage, then reads their ids again: what the standard
    /// library's `sort()` and other algorithms use, so they work on the elements directly.
    ///
    /// `body` may reorder the elements and change them, but afterwards they must have the ids
    /// there were before, each once: another id, or one twice, stops the program with a message
    /// naming it.
    ///
    /// - Parameter body: A closure given the elements' storage.
    /// - Returns: What `body` returns (never `nil`: the storage is always available).
    /// - Complexity: O(n) on top of `body`.
    public mutating func withContiguousMutableStorageIfAvailable<R>(
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R? {
        defer {
            var positions: [ID: Int] = [:]
            positions.reserveCapacity(_elements.count)
            for position in _elements.indices {
                let elementID = _elements[position][keyPath: id]
                if _positions[elementID] == nil || positions[elementID] != nil {
                    preconditionFailure(
                        "IdentifiedArray: the elements' storage was changed so that the element at index "
                            + "\(position) has id \(describeID(elementID)), which was not an id there before (or is twice); "
                            + "an element's id cannot change in place")
                }
                positions[elementID] = position
                _ids[position] = elementID
            }
            _positions = positions
        }
        return try _elements.withContiguousMutableStorageIfAvailable(body)
    }
}

extension IdentifiedArray where Element: Comparable {
    /// Sorts the elements in place, in increasing order.
    ///
    /// - Complexity: O(n log n).
    public mutating func sort() {
        sort(by: <)
    }
}

extension IdentifiedArray: RangeReplaceableCollection where Element: Identifiable, ID == Element.ID {
    /// Replaces the elements at `subrange` by `newElements`, as the package does, so that every
    /// id stays unique without stopping the program.
    ///
    /// The elements at `subrange` are removed first. Then an element of `newElements` whose id
    /// is now elsewhere in the array replaces that element where it is; the others go where
    /// `subrange` was, in order. Of elements of `newElements` that share an id, one goes in (at
    /// the last one's place) with the first one's value.
    ///
    /// The standard library's `RangeReplaceableCollection` algorithms (`insert(contentsOf:at:)`,
    /// `+`, and `append(_:)` and `insert(_:at:)` called on a generic collection) use it.
    ///
    /// ```swift
    /// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1), Todo(id: 2), Todo(id: 3)]
    /// todos.replaceSubrange(0..<1, with: [Todo(id: 4), Todo(id: 3, title: "new")])
    /// // ids [4, 2, 3]; the element with id 3 is the new one
    /// ```
    ///
    /// - Parameters:
    ///   - subrange: The positions to replace.
    ///   - newElements: The elements to put there.
    /// - Complexity: O(n + m) on average, where m is the number of new elements, if `ID` hashes
    ///   well.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        precondition(
            subrange.lowerBound >= 0 && subrange.upperBound <= _elements.count,
            "IdentifiedArray.replaceSubrange(_:with:): range \(subrange) is out of bounds 0..<\(_elements.count)")
        // For each id among the new elements: the first element with it (its value), and the
        // offset of the last one (its place).
        let new = Array(newElements)
        var first: [ID: Element] = [:]
        var last: [ID: Int] = [:]
        for (offset, element) in new.enumerated() {
            let elementID = element[keyPath: id]
            if first[elementID] == nil { first[elementID] = element }
            last[elementID] = offset
        }
        var insertedElements: [Element] = []
        var insertedIDs: [ID] = []
        for (offset, element) in new.enumerated() {
            let elementID = element[keyPath: id]
            guard last[elementID] == offset, let value = first[elementID] else { continue }
            if let existing = _positions[elementID], !subrange.contains(existing) {
                _elements[existing] = value
            } else {
                insertedElements.append(value)
                insertedIDs.append(elementID)
            }
        }
        for removedID in _ids[subrange] { _positions[removedID] = nil }
        _elements.replaceSubrange(subrange, with: insertedElements)
        _ids.replaceSubrange(subrange, with: insertedIDs)
        // Past the new elements, positions change only if the count did.
        let start = subrange.lowerBound
        reindex(insertedIDs.count == subrange.count ? start..<(start + insertedIDs.count) : start..<_ids.count)
    }
}
