// Literals, equality, hashing, coding, descriptions and the mirror.

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
    /// The listed elements, in order, identified by their `id`.
    ///
    /// Two elements with the same id stop the program with a message naming the id, as
    /// ``init(uniqueElements:)`` does.
    ///
    /// - Parameter elements: The elements, each with an id of its own.
    /// - Complexity: O(n) on average, if `ID` hashes well.
    public init(arrayLiteral elements: Element...) {
        self.init(uniqueElements: elements)
    }
}

extension IdentifiedArray: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order.
    ///
    /// - Parameters:
    ///   - lhs: An identified array.
    ///   - rhs: Another.
    /// - Returns: `true` if their elements are equal, in order.
    /// - Complexity: O(n).
    public static func == (lhs: IdentifiedArray, rhs: IdentifiedArray) -> Bool {
        lhs._elements == rhs._elements
    }
}

extension IdentifiedArray: Hashable where Element: Hashable {
    /// Hashes the elements, in order.
    ///
    /// - Parameter hasher: The hasher to feed.
    /// - Complexity: O(n).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_elements)
    }
}

extension IdentifiedArray: Encodable where Element: Encodable {
    /// Encodes the elements as an array, in order.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What encoding an element throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(_elements)
    }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
    /// Decodes an array of elements, identified by their `id`.
    ///
    /// Two elements with the same id are a decoding error, not a crash (the data is at fault,
    /// not the program): `DecodingError.dataCorrupted`, with the package's message
    /// "Duplicate element at offset 1" giving the second one's offset.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` for a duplicate id, and what decoding the array
    ///   or an element throws.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        while !container.isAtEnd {
            let element = try container.decode(Element.self)
            guard append(element).inserted else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath,
                        debugDescription: "Duplicate element at offset \(container.currentIndex - 1)"))
            }
        }
    }
}

extension IdentifiedArray: CustomStringConvertible {
    /// The elements, as an array shows them: `[1, 2, 3]`.
    public var description: String {
        _elements.description
    }
}

extension IdentifiedArray: CustomDebugStringConvertible {
    /// The type of the elements and the elements, as the package shows them:
    /// `IdentifiedArray<Int>([1, 2, 3])`.
    public var debugDescription: String {
        "IdentifiedArray<\(Element.self)>(\(_elements.debugDescription))"
    }
}

extension IdentifiedArray: CustomReflectable {
    /// A mirror of the elements, as an array's: a collection with one unlabelled child per
    /// element (the index by id is not shown).
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: _elements, displayStyle: .collection)
    }
}
