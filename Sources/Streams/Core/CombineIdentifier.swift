import Synchronization

/// A unique identity for a subscriber or subscription, used to tell them apart in logs and in
/// collections.
///
/// Made either from an object (two identifiers made from the same object are equal) or fresh
/// from a process-wide counter.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    @usableFromInline let rawValue: UInt64

    /// Creates a new identifier, different from every other one made this way.
    public init() {
        rawValue = combineIdentifierCounter.add(1, ordering: .relaxed).newValue
    }

    /// Creates the identifier of `object`: equal for the same object, different for different
    /// live objects.
    ///
    /// - Parameter object: The object to identify.
    public init(_ object: AnyObject) {
        // Fresh identifiers count up from 1; object addresses are far above any count reached.
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object)))
    }

    /// A hexadecimal rendering of the identifier.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

private let combineIdentifierCounter = Atomic<UInt64>(0)

/// A type that has a ``CombineIdentifier``. Classes get one from their object identity for free.
public protocol CustomCombineIdentifierConvertible {
    /// The identity of this subscriber or subscription.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The identity of this object.
    @inlinable
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
