// MARK: - zip

// Engine: Sources/Streams/Engines/ZipSubscription.swift (zip's rules, its state machine and
// delivery).
//
// The publisher types (`Zip`, `Zip3`, `Zip4`), their queues, and the `zip` operators for three
// and four publishers are in Publishers.Zip.generated.swift, made by Scripts/generate-sources
// from Scripts/templates/Publishers.Zip.generated.swift.template. This file has the two-publisher
// operators.

extension Publisher {
    /// Pairs this publisher's values with another publisher's, oldest with oldest, and sends the
    /// pairs as tuples.
    ///
    /// Zip keeps the values each publisher has sent and not yet paired, in order. As soon as both
    /// have one, the oldest of each go down together as a tuple: the first value of one with the
    /// first of the other, the second with the second, and so on. Like a zip fastener, it never
    /// skips or repeats a value; a value without a partner yet waits for one.
    ///
    /// <!-- marble zip: $0[0].zip($0[1]).map { "(\($0), \($1))" } -->
    /// ```text
    /// self:   -1-2-----3-|
    /// other:  ---a-b-c---|
    ///         zip(other)
    /// output: ---x-y---z-[;|]   (x = (1, a), y = (2, b), z = (3, c); `;`: other cancelled)
    /// ```
    ///
    /// ![Marble diagram of zip](marble-zip)
    ///
    /// ```swift
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let letters = PassthroughSubject<String, Never>()
    /// let c = numbers.zip(letters).sink { print($0) }
    /// numbers.send(1)
    /// numbers.send(2)
    /// letters.send("a")
    /// letters.send("b")
    /// // Prints: (1, "a")
    /// //         (2, "b")
    /// ```
    ///
    /// - Parameter other: The publisher to zip with this one.
    /// - Returns: A ``Publishers/Zip`` that sends a tuple of both publishers' oldest unpaired
    ///   values each time both have one.
    /// - Demand: each upstream is asked for exactly what the downstream asks for (requests and
    ///   demand returned from `receive(_:)` alike): `n` tuples need `n` values from each, so zip
    ///   never asks an upstream for a value it could not pair within the downstream's demand.
    ///   A tuple goes out only against demand ([S1]); an upstream that sends more than it was asked
    ///   for has its extra values kept for later pairs. Asking for `.none` does nothing and is not
    ///   passed on, as in Combine ([S9]).
    /// - Completion: `.finished` as soon as an upstream has finished and has no value left to
    ///   pair: at once, or right after the tuple that takes its last value. No more tuples can
    ///   come, so the other upstreams are cancelled then (before that last tuple goes down). The
    ///   first failure cancels the other upstreams and goes down at once; unpaired values are
    ///   dropped. What an upstream sends before its subscription or after its end is ignored, and a
    ///   second subscription is cancelled ([S2]).
    /// - Cancellation: cancels every upstream and lets go of the downstream ([S7]).
    /// - Threading: the upstreams may send from several threads at once; the downstream is
    ///   called one signal at a time ([S3]), by the thread that completes a tuple or the one
    ///   already delivering.
    /// - Combine compatibility: as Combine. Combine gives the downstream its subscription once
    ///   every upstream is subscribed; here the downstream has it first, and an upstream that
    ///   subscribes after a request is asked for everything requested so far.
    /// - Complexity: O(1) amortized per value; memory for the values waiting for a partner.
    ///
    /// [S1]: doc:/Contract/StreamContract#S1
    /// [S2]: doc:/Contract/StreamContract#S2
    /// [S3]: doc:/Contract/StreamContract#S3
    /// [S7]: doc:/Contract/StreamContract#S7
    /// [S9]: doc:/Contract/StreamContract#S9
    @inlinable
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Pairs this publisher's values with another publisher's, oldest with oldest, and sends
    /// what a closure makes of each pair.
    ///
    /// The same as `zip(_:)` followed by `map`: `transform` gets the two values of each pair.
    ///
    /// <!-- marble zip-transform: $0[0].zip($0[1]) { "\($0)\($1)" } -->
    /// ```text
    /// self:   -1-2---|
    /// other:  ---a-b-|
    ///         zip(other) { "\($0)\($1)" }
    /// output: ---x-y-[;|]   (x = "1a", y = "2b")
    /// ```
    ///
    /// ![Marble diagram of zip-transform](marble-zip-transform)
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher
    ///     .zip(["a", "b"].publisher) { String(repeating: $1, count: $0) }
    ///     .sink { print($0) }
    /// // Prints: a
    /// //         bb
    /// ```
    ///
    /// - Parameters:
    ///   - other: The publisher to zip with this one.
    ///   - transform: A closure that takes the two values of a pair and returns the value to send.
    /// - Returns: A publisher that sends what `transform` returns for each pair of the two
    ///   publishers' oldest unpaired values.
    /// - Demand, completion, cancellation, threading: as `zip(_:)`; `transform` runs on the
    ///   thread that delivers.
    /// - Combine compatibility: as Combine (a `Publishers.Map` of a `Publishers.Zip`).
    /// - Complexity: O(1) amortized per value.
    @inlinable
    public func zip<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        Publishers.Map(upstream: Publishers.Zip(self, other)) { transform($0.0, $0.1) }
    }
}
