/// A first-in first-out queue of values an operator holds back: values waiting for demand
/// (`flatMap`) or for the thread that is delivering to finish (`flatMap`, `switchToLatest`).
///
/// An array with a moving head. A slot is emptied as its value is taken, so a delivered value
/// is let go at once rather than when the queue is next compacted. Appending and taking are
/// amortized O(1); the storage is reused once the queue runs empty.
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
