/// The first-in first-out queue of the library: every value or event an operator holds back
/// waits in one of these. The queue of ``SerialDelivery`` (subjects, the combining operators,
/// `flatMap`, `switchToLatest`, `buffer`, `receive(on:)`, the time operators), merge's values
/// waiting for demand, zip's per-upstream values.
///
/// An array with a moving head. A slot is emptied as its value is taken, so a delivered value
/// is let go at once rather than when the queue is next compacted. Appending and taking are
/// amortized O(1); the delivered slots are dropped once they are at least half the array (and
/// 64 or more), so a queue that never runs empty stays within twice its length, and the storage
/// is reused once the queue runs empty.
///
/// Not thread-safe: its owner guards it with its lock. To let go of what it holds outside that
/// lock, take it with ``takeAll()`` under the lock and drop the result after unlocking.
@usableFromInline
struct FIFOQueue<Element> {
    @usableFromInline var slots: ContiguousArray<Element?> = []
    @usableFromInline var head = 0

    @inlinable
    init() {}

    @inlinable var isEmpty: Bool { head == slots.count }

    @inlinable var count: Int { slots.count - head }

    @inlinable
    mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Takes the oldest element out; `nil` when the queue is empty.
    @inlinable
    mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Empties the queue and returns what it held, to be let go after unlocking.
    @inlinable
    mutating func takeAll() -> FIFOQueue {
        let all = self
        self = FIFOQueue()
        return all
    }
}
