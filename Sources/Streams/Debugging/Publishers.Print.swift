// Engine: Engines/ObservingSubscription.swift.

// MARK: - print

extension Publisher {
    /// Logs every event of the stream, one line each, to standard output or to a stream you
    /// give.
    ///
    /// The lines are Combine's: `receive subscription: (…)`, `request unlimited` or
    /// `request max: (n)`, `receive value: (…)`, `receive finished`, `receive error: (…)` and
    /// `receive cancel`, each after `prefix: ` when you give a prefix. Demand the downstream
    /// returns from `receive(_:)` is logged as `request max: (n) (synchronous)`. Put `print`
    /// anywhere in a chain to see what flows through that point, and in which order.
    ///
    /// <!-- marble print: $0.print("n", to: DiscardingStream()) -->
    /// ```text
    /// upstream: -1-2-|
    ///           print("n")
    /// output:   -1-2-|        (and the log below)
    /// ```
    ///
    /// ![Marble diagram of print](marble-print)
    ///
    /// ```swift
    /// let c = [1, 2].publisher.print("n").sink { _ in }
    /// // Prints: n: receive subscription: (Sequence)
    /// //         n: request unlimited
    /// //         n: receive value: (1)
    /// //         n: receive value: (2)
    /// //         n: receive finished
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: Written, followed by `: `, before every line; nothing when empty.
    ///   - stream: Where the lines go; standard output when `nil`. The stream is copied in, so
    ///     give a class (a value such as a `String` would collect the lines in a copy you
    ///     never see).
    /// - Returns: A publisher that passes everything on unchanged, logging each event.
    ///
    /// - Demand: passes through unchanged, and is logged. The downstream gets a subscription of
    ///   this operator, so that its requests and cancel can be logged, but each request goes on
    ///   to the upstream as it is: asking for `.none` does what the upstream does with it
    ///   (`Publishers.Sequence` ignores it, `Just` reports it, [S9]).
    /// - Completion: logged, then passed on; nothing the upstream sends afterwards is passed on
    ///   or logged ([S4]), and the stream is let go ([S7]). A value or completion that arrives
    ///   before the upstream's subscription is ignored and not logged, and a second
    ///   subscription is cancelled ([S2]).
    /// - Cancellation: `receive cancel` is logged once, then the upstream is cancelled ([S6], [S7]);
    ///   later requests and cancels do nothing and log nothing.
    /// - Threading: each line is written with three `write(_:)` calls, as Combine makes them
    ///   (`""`, the line, `"\n"`), on the thread of an event: a value's where the upstream delivers, a request's where the
    ///   downstream asks. Writes through one `print` publisher (all its subscriptions) never
    ///   overlap and keep the order of the events, so a stream used by only that publisher
    ///   needs no lock of its own; a stream shared with other code must be thread-safe. A line
    ///   that comes while another thread is writing is written by that thread, just after. All
    ///   `print`s to standard output share one such writer.
    /// - Combine compatibility: Combine's format. A subscription is shown by its description:
    ///   `(Sequence)` for a sequence's, where Combine shows the sequence's elements. Combine
    ///   also logs events that follow a completion or cancel, and passes on what a misbehaving
    ///   upstream sends out of order.
    /// - Complexity: O(1) per event besides formatting the value and writing the line.
    ///
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S4]: doc:/Contract/StreamContract#S4
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/print(_:to:)``: the upstream unchanged, with each event
    /// logged.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// Written, followed by `: `, before every line; nothing when empty.
        public let prefix: String
        /// The publisher whose events are logged.
        public let upstream: Upstream
        /// The stream given at creation; `nil` for standard output.
        public let stream: (any TextOutputStream)?
        /// Serializes the writes of every subscription made through this publisher.
        let writer: PrintWriter

        /// Creates a publisher that logs `upstream`'s events, each line after `prefix`, to
        /// `stream` (standard output when `nil`).
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose events are logged.
        ///   - prefix: The text to start each line with; none when empty.
        ///   - stream: Where to write the lines, or `nil` for standard output.
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
            self.writer = stream.map(PrintWriter.init) ?? PrintWriter.standardOutput
        }

        /// Subscribes `subscriber` through a subscription that logs each event.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and the completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ObservingSubscription(downstream: subscriber, hooks: hooks(), name: "Print"))
        }

        /// The log line of each event.
        @usableFromInline
        func hooks() -> EventHooks<Output, Failure> {
            let writer = self.writer
            let start = prefix.isEmpty ? "" : prefix + ": "
            func log(_ text: String) { writer.write(start + text) }
            func describe(_ demand: Subscribers.Demand) -> String {
                demand.max.map { "request max: (\($0))" } ?? "request unlimited"
            }
            return EventHooks(
                subscription: { log("receive subscription: (\($0))") },
                output: { log("receive value: (\($0))") },
                returnedDemand: { log(describe($0) + " (synchronous)") },
                completion: { completion in
                    switch completion {
                    case .finished: log("receive finished")
                    case .failure(let error): log("receive error: (\(error))")
                    }
                },
                cancel: { log("receive cancel") },
                request: { log(describe($0)) })
        }
    }
}

// MARK: - Writer

/// Writes lines to one text stream, one caller at a time and in order, without holding a lock
/// while the stream's code runs.
///
/// A caller that finds the writer idle becomes the writer: it writes its line and every line
/// that others queue meanwhile (from other threads, or from inside the stream's `write`), then
/// goes idle. Others only queue their line and return.
// `pending`, `isWriting` guarded by `lock`; `stream` used only by the caller that set `isWriting`
final class PrintWriter: @unchecked Sendable {
    private let lock = Lock()
    private var pending: [String] = []
    private var isWriting = false
    private var stream: any TextOutputStream

    init(_ stream: any TextOutputStream) {
        self.stream = stream
    }

    /// The writer of every `print` without a stream of its own.
    static let standardOutput = PrintWriter(StandardOutput())

    /// Writes `line` and a newline, now or, if another caller is writing, just after it: three
    /// calls of the stream's `write(_:)`, `""`, `line` and `"\n"`, as Combine makes them.
    func write(_ line: String) {
        lock.lock()
        pending.append(line)
        if isWriting {
            lock.unlock()
            return
        }
        isWriting = true
        while !pending.isEmpty {
            let lines = pending
            pending = []
            lock.unlock()
            // Three writes per line, as Combine's `print` makes them (it prints each line with
            // `Swift.print(_:to:)`): an empty separator, the line, the newline.
            for line in lines {
                stream.write("")
                stream.write(line)
                stream.write("\n")
            }
            lock.lock()
        }
        isWriting = false
        lock.unlock()
    }

    private struct StandardOutput: TextOutputStream {
        mutating func write(_ string: String) {
            Swift.print(string, terminator: "")
        }
    }
}
