/// The first-in first-out queue of the library: every value or event an operator holds back
/// waits in one of these. The queue of ``SerialDelivery`` (subjects, the combining operators,
/// `flatMap`, `switchToLatest`, `buffer`, `receive(on:)`), the time operators' outbox and waiting
/// events, merge's values waiting for demand, zip's per-upstream values.
///
/// A ring buffer: `count` elements starting at `head` in an array whose length is zero or a
/// power of two, wrapping around its end. A slot is emptied as its value is taken, so a
/// delivered value is let go at once. Appending and taking are O(1) (appending amortized: a
/// full ring is copied, in order, into one twice its length); the storage is kept and reused,
/// so a queue that keeps running empty (one value in, one value out, the common case) does no
/// bookkeeping beyond two indices.
///
/// Not thread-safe: its owner guards it with its lock. To let go of what it holds outside that
/// lock, take it with ``takeAll()`` under the lock and drop the result after unlocking.
@usableFromInline
struct FIFOQueue<Element> {
    /// The ring; empty, or a power of two long.
    @usableFromInline var slots: ContiguousArray<Element?> = []
    /// Where the oldest element is.
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @inlinable
    init() {}

    @inlinable var isEmpty: Bool { count == 0 }

    @inlinable
    mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head &+ count) & (slots.count &- 1)] = element
        count &+= 1
    }

    /// Takes the oldest element out; `nil` when the queue is empty.
    @inlinable
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = (head &+ 1) & (slots.count &- 1)
        count &-= 1
        return element
    }

    /// Copies the elements, oldest first, into a ring twice as long (4 to start with).
    /// Specialized for the element type like the rest of the queue (generic, it cost hundreds of
    /// instructions per element copied), but kept out of line: `append` stays small.
    @inlinable @inline(never)
    mutating func grow() {
        let length = Swift.max(4, slots.count &* 2)
        var larger = ContiguousArray<Element?>(repeating: nil, count: length)
        let (head, count, mask) = (self.head, self.count, slots.count &- 1)
        // Through buffer pointers: no bounds or uniqueness check per element.
        larger.withUnsafeMutableBufferPointer { larger in
            slots.withUnsafeMutableBufferPointer { slots in
                for offset in 0..<count {
                    larger[offset] = slots[(head &+ offset) & mask].take()
                }
            }
        }
        slots = larger
        self.head = 0
    }

    /// Empties the queue and returns what it held, to be let go after unlocking.
    @inlinable
    mutating func takeAll() -> FIFOQueue {
        let all = self
        self = FIFOQueue()
        return all
    }
}
