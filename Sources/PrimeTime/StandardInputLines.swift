import Foundation

/// Standard input's lines, read on a thread of their own so that the main actor (and the main
/// queue, where the app's effects deliver) never waits for input.
struct StandardInputLines: AsyncSequence {
    typealias Element = String

    func makeAsyncIterator() -> AsyncStream<String>.Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        thread.start()
        return stream.makeAsyncIterator()
    }
}
