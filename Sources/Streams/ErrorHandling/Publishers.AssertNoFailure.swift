// Engine: none. The whole operator is in this file.

// MARK: - assertNoFailure

extension Publisher {
    /// Stops the program if the upstream fails; otherwise passes everything on unchanged.
    ///
    /// Use it where a failure would be a bug: it turns the failure type into `Never`, so the
    /// rest of the chain needs no error handling, and a failure that does happen stops the
    /// program at once with a message that starts with `prefix` and names the file and line of
    /// the `assertNoFailure` call. Like `fatalError`, it is active in every build, release
    /// builds included.
    ///
    /// <!-- marble assertNoFailure: $0.assertNoFailure() -->
    /// ```text
    /// upstream: -1-2-|
    ///           assertNoFailure()
    /// output:   -1-2-|      (a failure in the upstream stops the program)
    /// ```
    ///
    /// ![Marble diagram of assertNoFailure](marble-assertNoFailure)
    ///
    /// ```swift
    /// struct Oops: Error {}
    /// let c = [1, 2].publisher
    ///     .setFailureType(to: Oops.self)
    ///     .assertNoFailure("numbers")
    ///     .sink { print($0) }
    /// // Prints: 1
    /// //         2
    /// // Had the upstream failed, the program would have stopped with the message
    /// // "numbers: assertNoFailure() at File.swift:4 received a failure: Oops()"
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: The start of the message; empty by default.
    ///   - file: The file named in the message; the caller's by default.
    ///   - line: The line named in the message; the caller's by default.
    /// - Returns: A publisher that cannot fail, with the upstream's values and `.finished`.
    /// - Demand: passes through unchanged.
    /// - Completion: `.finished` passes through; a failure stops the program.
    /// - Cancellation: goes straight to the upstream subscription.
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value.
    @inlinable
    public func assertNoFailure(
        _ prefix: String = "", file: StaticString = #file, line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/assertNoFailure(_:file:line:)``: the upstream's values and
    /// `.finished`; a failure stops the program.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// This publisher never fails: a failure stops the program instead.
        public typealias Failure = Never

        /// The publisher that must not fail.
        public let upstream: Upstream
        /// The start of the message printed on failure.
        public let prefix: String
        /// The file named in the message.
        public let file: StaticString
        /// The line named in the message.
        public let line: UInt

        /// Creates a publisher that stops the program with a message naming `prefix`, `file`
        /// and `line` if `upstream` fails.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that must not fail.
        ///   - prefix: The start of the message if it fails.
        ///   - file: The file to name in the message.
        ///   - line: The line to name in the message.
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Subscribes `subscriber` to the upstream's values.
        ///
        /// - Parameter subscriber: The subscriber that receives the values and `.finished`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(
                subscriber: AssertNoFailureSubscriber<Upstream.Failure, S>(
                    downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publishers.AssertNoFailure: Sendable where Upstream: Sendable {}

// MARK: - Subscriber

@usableFromInline
struct AssertNoFailureSubscriber<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Failure == Never {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = UpstreamFailure
    @usableFromInline let downstream: Downstream
    @usableFromInline let prefix: String
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    @inlinable
    init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
        self.downstream = downstream
        self.prefix = prefix
        self.file = file
        self.line = line
    }

    @inlinable var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }
    @usableFromInline var description: String { "AssertNoFailure" }

    @inlinable func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            stop(error)
        }
    }

    /// Stops the program; kept out of line so the per-value path stays small.
    @usableFromInline
    func stop(_ error: UpstreamFailure) -> Never {
        let start = prefix.isEmpty ? "" : "\(prefix): "
        fatalError("\(start)assertNoFailure() at \(file):\(line) received a failure: \(error)", file: file, line: line)
    }
}
