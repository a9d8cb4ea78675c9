@testable import Streams
import Testing

/// The queue every serializing operator keeps its waiting values in: a ring buffer, so these
/// pin its order across wrap-arounds and growth, and that it lets go of what it delivered.
@Suite("FIFO queue")
struct FIFOQueueTests {
    final class Token {}

    @Test func keepsOrderAcrossWrapAroundAndGrowth() {
        var queue = FIFOQueue<Int>()
        var expected: [Int] = []
        var taken: [Int] = []
        var next = 0
        // Uneven bursts in and out, so the head wraps around rings of several lengths and the
        // ring grows while it is wrapped.
        for round in 0..<200 {
            for _ in 0..<(round % 7 + 1) {
                queue.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) {
                if let value = queue.popFirst() { taken.append(value) }
            }
            #expect(queue.count == expected.count - taken.count)
        }
        while let value = queue.popFirst() { taken.append(value) }
        #expect(taken == expected)
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }

    @Test func oneInOneOutReusesTheStorage() {
        var queue = FIFOQueue<Int>()
        for value in 0..<100 {
            queue.append(value)
            #expect(queue.popFirst() == value)
        }
        #expect(queue.slots.count == 4)
    }

    @Test func aTakenElementIsLetGoAtOnce() {
        var queue = FIFOQueue<Token>()
        weak var first: Token?
        do {
            let token = Token()
            first = token
            queue.append(token)
            queue.append(Token())
        }
        _ = queue.popFirst()
        #expect(first == nil)
        #expect(queue.count == 1)
    }

    @Test func takeAllEmptiesTheQueueAndReturnsItsElements() {
        var queue = FIFOQueue<Int>()
        for value in 0..<6 { queue.append(value) }
        _ = queue.popFirst()
        var all = queue.takeAll()
        #expect(queue.isEmpty)
        var drained: [Int] = []
        while let value = all.popFirst() { drained.append(value) }
        #expect(drained == [1, 2, 3, 4, 5])
        queue.append(9)
        #expect(queue.popFirst() == 9)
    }
}
