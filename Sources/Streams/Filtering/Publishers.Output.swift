// Engine: Engines/RelaySubscription.swift.

// MARK: - output(at:), output(in:), prefix(_:)

extension Publisher {
    /// Passes on only the value at a given position in the stream, then finishes.
    ///
    /// Positions count the upstream's values from 0. The values before `index` are dropped;
    /// the one at `index` is sent, the upstream is cancelled and the stream finishes. If the
    /// upstream completes sooner, its completion is passed on and no value is sent.
    ///
    /// <!-- marble outputAt: $0.output(at: 2) -->
    /// ```text
    /// upstream: -a-b-c-d-|
    ///           output(at: 2)
    /// output:   -----[c;|]
    /// ```
    ///
    /// ![Marble diagram of outputAt](marble-outputAt)
    ///
    /// ```swift
    /// let c = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].publisher.output(at: 5).sink { print($0) }
    /// // Prints: 6
    /// ```
    ///
    /// - Parameter index: The position of the value to pass on; must not be negative (a
    ///   negative index stops the program with a message saying so).
    /// - Returns: A publisher that sends the value at `index`, if the upstream gets that far, then
    ///   finishes.
    /// - Demand: passes through; each value before `index` gives back `.max(1)`.
    ///   `request(.none)` is ignored.
    /// - Completion: `.finished` right after the value; before it, the upstream's completion.
    /// - Cancellation: cancels the upstream as soon as the value has been sent ([S15]). The
    ///   subscriber gets a subscription of its own (`Output` in `print()`): `cancel()` cancels
    ///   the upstream once; after it, or after the end, requests and cancels are ignored and
    ///   nothing more is delivered ([S6]).
    /// - Combine compatibility: it is `output(in: index...index)`: as Combine, except that it
    ///   finishes right after the value (see ``output(in:)``).
    /// - Complexity: O(1) per value.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> {
        if index < 0 {
            fatalError(
                "output(at: \(index)): the index must not be negative; positions count the upstream's values from 0")
        }
        return Publishers.Output(upstream: self, range: index..<index + 1)
    }

    /// Passes on only the values whose positions in the stream fall in a range, then finishes.
    ///
    /// Positions count the upstream's values from 0. Values before the range are dropped;
    /// those inside it are sent; once the last position of the range has been sent, the
    /// upstream is cancelled and the stream finishes. An empty range finishes at the upstream's
    /// first event: its completion, or `.finished` (upstream cancelled) at its first value. A
    /// range with no upper end (`3...`) passes everything from its start on.
    ///
    /// <!-- marble outputIn: $0.output(in: 1...2) -->
    /// ```text
    /// upstream: -a-b-c-d-e-|
    ///           output(in: 1...2)
    /// output:   ---b-[c;|]
    /// ```
    ///
    /// ![Marble diagram of outputIn](marble-outputIn)
    ///
    /// ```swift
    /// let numbers = [1, 1, 2, 2, 2, 3, 4, 5, 6]
    /// let c = numbers.publisher.output(in: 3...5).sink { print($0) }
    /// // Prints: 2, 2, 3 (one per line)
    /// ```
    ///
    /// - Parameter range: The positions of the values to pass on, any range expression of
    ///   `Int` (`1..<3`, `1...2`, `..<3`, `2...`). A range that starts below 0, or ends below 0
    ///   like `..<(-1)`, is a programming error: it stops the program with a message saying so.
    /// - Returns: A publisher that sends the values at the positions in `range`, then finishes.
    /// - Demand: passes through; each value before the range gives back `.max(1)`.
    ///   `request(.none)` is ignored.
    /// - Completion: `.finished` right after the range's last value, or for an empty range at
    ///   the upstream's first value; before that, the upstream's completion.
    /// - Cancellation: cancels the upstream as soon as the range is done ([S15]); otherwise as
    ///   ``output(at:)``.
    /// - Combine compatibility: as Combine, and the range is resolved against `0..<Int.max`,
    ///   except for when a non-empty range ends: Combine sends `.finished` and cancels the
    ///   upstream only when the value *after* the range arrives; this finishes right after the
    ///   range's last value ([S15]), which ends the stream sooner with the same values.
    /// - Complexity: O(1) per value.
    ///
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        // Resolving `..<-1` against 0..<Int.max would trap in the standard library without a
        // useful message; check the upper end against an unbounded start first.
        if range.relative(to: Int.min..<Int.max).upperBound < 0 {
            fatalError("output(in:): the range ends below position 0; positions count the upstream's values from 0")
        }
        let positions = range.relative(to: 0..<Int.max)
        if positions.lowerBound < 0 {
            fatalError(
                "output(in:): the range starts at position \(positions.lowerBound); positions count the upstream's values from 0 and must not be negative"
            )
        }
        return Publishers.Output(upstream: self, range: positions)
    }

    /// Passes on at most the first `maxLength` values, then finishes.
    ///
    /// Once `maxLength` values have been sent, the upstream is cancelled and the stream
    /// finishes. `prefix(0)` ends at the upstream's first event, as in Combine: its completion
    /// is passed on (`Fail(error: e).prefix(0)` fails with `e`), and a first value is not sent
    /// but finishes the stream. If the upstream completes sooner, its completion is passed on.
    ///
    /// <!-- marble prefix: $0.prefix(2) -->
    /// ```text
    /// upstream: -a-b-c-d-|
    ///           prefix(2)
    /// output:   -a-[b;|]
    /// ```
    ///
    /// ![Marble diagram of prefix](marble-prefix)
    ///
    /// ```swift
    /// let c = (0...10).publisher.prefix(2).sink { print($0) }
    /// // Prints: 0, 1 (one per line)
    /// ```
    ///
    /// - Parameter maxLength: The most values to pass on; must not be negative (a negative
    ///   length stops the program with a message saying so).
    /// - Returns: A publisher that sends the upstream's first `maxLength` values, then finishes.
    /// - Demand: passes through unchanged; `request(.none)` is ignored.
    /// - Completion: `.finished` right after the last value (for `prefix(0)`, at the first
    ///   value); before that, the upstream's completion.
    /// - Cancellation: cancels the upstream as soon as `maxLength` values have been sent ([S15]);
    ///   otherwise as ``output(at:)``.
    /// - Combine compatibility: it is `output(in: 0..<maxLength)`: as Combine, except that it
    ///   finishes right after the last value (see ``output(in:)``). On a
    ///   ``Publishers/Sequence`` it is applied to the sequence itself and returns a
    ///   `Publishers.Sequence`.
    /// - Complexity: O(1) per value.
    ///
    /// [S15]: doc:/Contract/StreamContract#S15
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        if maxLength < 0 {
            fatalError("prefix(\(maxLength)): the maximum length must not be negative")
        }
        return Publishers.Output(upstream: self, range: 0..<maxLength)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/output(at:)``, ``Publisher/output(in:)`` and
    /// ``Publisher/prefix(_:)``: the upstream's values at the positions in a range.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are selected.
        public let upstream: Upstream
        /// The positions (counted from 0) of the values to pass on.
        public let range: CountableRange<Int>

        /// Creates a publisher of `upstream`'s values at the positions in `range`, which must
        /// not start below 0.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are counted.
        ///   - range: The positions, counted from 0, of the values to pass on; must not start below
        ///     0.
        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            if range.lowerBound < 0 {
                fatalError(
                    "Publishers.Output: the range \(range) starts at a negative position; positions count the upstream's values from 0"
                )
            }
            self.upstream = upstream
            self.range = range
        }

        /// Subscribes `subscriber` to the values in the range.
        ///
        /// - Parameter subscriber: The subscriber that receives the values in the range and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(subscriber, through: OutputStep(range: range), name: "Output")
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}
extension Publishers.Output: Sendable where Upstream: Sendable {}

// MARK: - Step

/// Drops the values before the range, each replaced by one more, and finishes with the last
/// value of the range.
@usableFromInline
struct OutputStep<Input>: RelayStep {
    /// Values still to drop before the range starts.
    @usableFromInline var toSkip: Int
    /// Values of the range still to send.
    @usableFromInline var toSend: Int

    @inlinable
    init(range: CountableRange<Int>) {
        toSkip = range.lowerBound
        toSend = range.count
    }

    @inlinable
    mutating func next(_ input: Input) -> RelayAction<Input> {
        // An empty range ends at the upstream's first event, as in Combine: here a value.
        guard toSend > 0 else { return .finish }
        if toSkip > 0 {
            toSkip -= 1
            return .drop
        }
        toSend -= 1
        return toSend == 0 ? .sendAndFinish(input) : .send(input)
    }
}
