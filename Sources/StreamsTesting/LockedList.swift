import Streams

/// A list that several threads append to, behind a lock: how the testing libraries collect what
/// is reported while a test's code runs (test failures, contract violations), wherever it is
/// reported from.
package final class LockedList<Element>: @unchecked Sendable {  // `elements` is guarded by `lock`
    private let lock = Lock()
    private var elements: [Element] = []

    /// Creates an empty list.
    package init() {}

    /// Adds `element` at the end.
    ///
    /// - Parameter element: The element to add.
    package func append(_ element: Element) {
        lock.withLock { elements.append(element) }
    }

    /// The elements so far, in the order they were appended.
    package var all: [Element] { lock.withLock { elements } }
}
