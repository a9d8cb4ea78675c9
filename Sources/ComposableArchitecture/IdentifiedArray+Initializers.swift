extension IdentifiedArray {
    /// The elements of `elements`, in order, identified by `id`; they must have unique ids.
    ///
    /// Two elements with the same id stop the program with a message naming the id.
    ///
    /// ```swift
    /// struct Tag { var name: String }
    /// let tags = IdentifiedArray(uniqueElements: [Tag(name: "swift"), Tag(name: "tca")], id: \.name)
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The elements, each with an id of its own.
    ///   - id: The key path of an element's id.
    /// - Complexity: O(n) on average, if `ID` hashes well.
    public init<S: Sequence<Element>>(uniqueElements elements: S, id: KeyPath<Element, ID> & Sendable) {
        if let same = elements as? Self, same.id == id {
            self = same
            return
        }
        self.init(id: id)
        reserveCapacity(elements.underestimatedCount)
        for element in elements {
            let elementID = element[keyPath: id]
            if let position = _positions[elementID] { preconditionFailure(duplicateMessage(elementID, at: position)) }
            appendNew(element, id: elementID)
        }
    }

    /// The elements of `elements`, in order, identified by `id`, when they are known to have
    /// unique ids.
    ///
    /// The package's version skips the check in optimized builds; this one cannot skip it (building
    /// the index finds a duplicate anyway), so two elements with the same id stop the program with
    /// a message naming the id in every build. It is the same as ``init(uniqueElements:id:)``.
    ///
    /// - Parameters:
    ///   - elements: The elements, each with an id of its own.
    ///   - id: The key path of an element's id.
    /// - Complexity: O(n) on average, if `ID` hashes well.
    public init(uncheckedUniqueElements elements: some Sequence<Element>, id: KeyPath<Element, ID> & Sendable) {
        self.init(uniqueElements: elements, id: id)
    }

    /// The elements of `elements`, in order, identified by `id`; two elements with the same id
    /// stop the program with a message naming the id.
    ///
    /// The same as ``init(uniqueElements:id:)`` (which the package renamed it to).
    ///
    /// - Parameters:
    ///   - elements: The elements, each with an id of its own.
    ///   - id: The key path of an element's id.
    /// - Complexity: O(n) on average, if `ID` hashes well.
    public init<S: Sequence>(_ elements: S, id: KeyPath<Element, ID> & Sendable) where S.Element == Element {
        self.init(uniqueElements: elements, id: id)
    }

    /// The elements of `elements`, identified by `id`, with those that share an id combined into
    /// one by `combine`.
    ///
    /// An id is where its first element was. For a later element with the same id, `combine` is
    /// called with the element so far and the later one, and returns the element to keep: either
    /// of them, or a new element with the same id (another id stops the program with a message
    /// naming both). An error it throws is rethrown.
    ///
    /// ```swift
    /// struct Score { var player: String; var points: Int }
    /// let scores = [Score(player: "a", points: 1), Score(player: "b", points: 2), Score(player: "a", points: 3)]
    /// let totals = IdentifiedArray(scores, id: \.player) { total, score in
    ///     Score(player: total.player, points: total.points + score.points)
    /// }
    /// // a: 4, b: 2
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The elements, which may share ids.
    ///   - id: The key path of an element's id.
    ///   - combine: Returns the element to keep for an id, given the element so far and a later
    ///     one with the same id.
    /// - Complexity: O(n) on average, if `ID` hashes well, plus the calls to `combine`.
    public init(
        _ elements: some Sequence<Element>,
        id: KeyPath<Element, ID> & Sendable,
        uniquingIDsWith combine: (Element, Element) throws -> Element
    ) rethrows {
        self.init(id: id)
        for element in elements {
            let elementID = element[keyPath: id]
            guard let position = _positions[elementID] else {
                appendNew(element, id: elementID)
                continue
            }
            let combined = try combine(_elements[position], element)
            let combinedID = combined[keyPath: id]
            if combinedID != elementID {
                preconditionFailure(
                    "IdentifiedArray(_:id:uniquingIDsWith:): combining two elements with id "
                        + "\(describeID(elementID)) gave an element with id \(describeID(combinedID)); it must keep the id"
                )
            }
            _elements[position] = combined
        }
    }

    /// A copy of `elements`.
    ///
    /// - Parameter elements: An identified array.
    /// - Complexity: O(1).
    public init(_ elements: Self) {
        self = elements
    }

    /// The elements of a slice of an identified array, in order, identified as they were there.
    ///
    /// - Parameter elements: A part of an identified array.
    /// - Complexity: O(k) on average, where k is the length of the slice, if `ID` hashes well.
    public init(_ elements: SubSequence) {
        self.init(id: elements.base.id)
        _elements = Array(elements.base._elements[elements.startIndex..<elements.endIndex])
        _ids = Array(elements.base._ids[elements.startIndex..<elements.endIndex])
        _positions.reserveCapacity(_ids.count)
        reindex(from: 0)
    }
}

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
    /// An empty collection of `Identifiable` elements.
    ///
    /// The same as an empty array literal.
    ///
    /// - Complexity: O(1).
    public init() {
        self.init(id: \Element.id)
    }

    /// The elements of `elements`, in order, identified by their `id`; they must have unique ids.
    ///
    /// Two elements with the same id stop the program with a message naming the id.
    ///
    /// ```swift
    /// let todos = IdentifiedArray(uniqueElements: [Todo(id: 1), Todo(id: 2)])
    /// ```
    ///
    /// - Parameter elements: The elements, each with an id of its own.
    /// - Complexity: O(n) on average, if `ID` hashes well.
    public init<S: Sequence<Element>>(uniqueElements elements: S) {
        self.init(uniqueElements: elements, id: \Element.id)
    }

    /// The elements of `elements`, in order, identified by their `id`, when they are known to
    /// have unique ids.
    ///
    /// Checked in every build, as ``init(uncheckedUniqueElements:id:)`` is: two elements with the
    /// same id stop the program with a message naming the id.
    ///
    /// - Parameter elements: The elements, each with an id of its own.
    /// - Complexity: O(n) on average, if `ID` hashes well.
    public init(uncheckedUniqueElements elements: some Sequence<Element>) {
        self.init(uniqueElements: elements, id: \Element.id)
    }

    /// The elements of `elements`, in order, identified by their `id`; two elements with the same
    /// id stop the program with a message naming the id.
    ///
    /// The same as ``init(uniqueElements:)`` (which the package renamed it to), and the
    /// `RangeReplaceableCollection` initializer.
    ///
    /// - Parameter elements: The elements, each with an id of its own.
    /// - Complexity: O(n) on average, if `ID` hashes well.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init(uniqueElements: elements, id: \Element.id)
    }

    /// The elements of `elements`, identified by their `id`, with those that share an id
    /// combined into one by `combine`, as ``init(_:id:uniquingIDsWith:)`` does.
    ///
    /// ```swift
    /// let latest = IdentifiedArray([Todo(id: 1, title: "a"), Todo(id: 1, title: "b")]) { _, later in later }
    /// // [Todo(id: 1, title: "b")]
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The elements, which may share ids.
    ///   - combine: Returns the element to keep for an id, given the element so far and a later
    ///     one with the same id.
    /// - Complexity: O(n) on average, if `ID` hashes well, plus the calls to `combine`.
    public init(
        _ elements: some Sequence<Element>,
        uniquingIDsWith combine: (Element, Element) throws -> Element
    ) rethrows {
        try self.init(elements, id: \Element.id, uniquingIDsWith: combine)
    }
}
