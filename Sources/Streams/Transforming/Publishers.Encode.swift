// Engine: Engines/RelaySubscription.swift.

// MARK: - encode, decode

extension Publisher where Output: Encodable {
    /// Encodes each value with an encoder (`JSONEncoder`, ...); an encoding error fails the
    /// stream.
    ///
    /// Each value goes through `encoder.encode(_:)` and the result (`Data` for `JSONEncoder`)
    /// is sent on. When encoding throws, the upstream is cancelled and the stream fails with the
    /// error ([S14]); the failure type becomes `any Error`.
    ///
    /// <!-- marble encode: $0.map { legendValue($0, as: Point.self) }.encode(encoder: sortedKeysEncoder).map(utf8) -->
    /// ```text
    /// upstream: -a-b-|        (a = Point(x: 1, y: 2), b = Point(x: 3, y: 4))
    ///           encode(encoder: JSONEncoder())     (A, B: the JSON data, shown as text)
    /// output:   -A-B-|        (A = {"x":1,"y":2}, B = {"x":3,"y":4})
    /// ```
    ///
    /// ```swift
    /// struct Point: Codable { var x, y: Int }
    /// let encoder = JSONEncoder()
    /// encoder.outputFormatting = .sortedKeys
    /// let c = [Point(x: 1, y: 2)].publisher
    ///     .encode(encoder: encoder)
    ///     .sink(receiveCompletion: { print($0) },
    ///           receiveValue: { print(String(decoding: $0, as: UTF8.self)) })
    /// // Prints: {"x":1,"y":2}
    /// //         finished
    /// ```
    ///
    /// - Parameter encoder: Encodes each value; any ``TopLevelEncoder``.
    /// - Returns: A publisher that sends the encoded form of each upstream value, and fails with
    ///   the error encoding throws.
    /// - Demand: passes through unchanged; `request(.none)` is ignored.
    /// - Completion: the upstream's, or a failure with the encoding error (upstream cancelled).
    /// - Cancellation: the subscriber gets a subscription of its own (`Encode` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the encoding.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publisher {
    /// Decodes each value into `type` with a decoder (`JSONDecoder`, ...); a decoding error fails
    /// the stream.
    ///
    /// Each value (`Data` for `JSONDecoder`) goes through `decoder.decode(_:from:)` and the
    /// decoded value is sent on. When decoding throws, the upstream is cancelled and the stream
    /// fails with the error ([S14]); the failure type becomes `any Error`.
    ///
    /// <!-- marble decode: $0.map { Data($0.utf8) }.decode(type: Point.self, decoder: JSONDecoder()) -->
    /// ```text
    /// upstream: -A-B-|        (A = {"x":1,"y":2}, B = {"x":3,"y":4})
    ///           decode(type: Point.self, decoder: JSONDecoder())     (A, B: JSON data, shown as text)
    /// output:   -a-b-|        (a = Point(x: 1, y: 2), b = Point(x: 3, y: 4))
    /// ```
    ///
    /// ```swift
    /// struct Point: Codable { var x, y: Int }
    /// let c = [Data(#"{"x":1,"y":2}"#.utf8), Data("oops".utf8)].publisher
    ///     .decode(type: Point.self, decoder: JSONDecoder())
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: Point(x: 1, y: 2)
    /// //         failure(...)          (the decoder's error for "oops")
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode each value into.
    ///   - decoder: Decodes each value; any ``TopLevelDecoder`` whose input is this publisher's
    ///     output.
    /// - Returns: A publisher that sends the value decoded from each upstream value, and fails with
    ///   the error decoding throws.
    /// - Demand: passes through unchanged; `request(.none)` is ignored.
    /// - Completion: the upstream's, or a failure with the decoding error (upstream cancelled).
    /// - Cancellation: the subscriber gets a subscription of its own (`Decode` in `print()`):
    ///   `cancel()` cancels the upstream once; after it, or after the end, requests and cancels
    ///   are ignored and nothing more is delivered ([S6]).
    /// - Combine compatibility: as Combine.
    /// - Complexity: O(1) per value plus the decoding.
    ///
    /// [S6]: doc:/Contract/StreamContract#S6
    /// [S14]: doc:/Contract/StreamContract#S14
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// The publisher of ``Publisher/encode(encoder:)``: each value encoded by a
    /// ``TopLevelEncoder``.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
    where Upstream.Output: Encodable {
        /// What the encoder produces.
        public typealias Output = Coder.Output
        /// Any error: the upstream's or the encoder's.
        public typealias Failure = any Error

        /// The publisher whose values are encoded.
        public let upstream: Upstream
        /// The encoder.
        @usableFromInline let encoder: Coder

        /// Creates a publisher that encodes `upstream`'s values with `encoder`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are encoded.
        ///   - encoder: The encoder each value goes through.
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Subscribes `subscriber` through the encoder.
        ///
        /// - Parameter subscriber: The subscriber that receives the encoded values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(
                subscriber, through: EncodeStep<Upstream.Output, Coder>(encoder: encoder), name: "Encode")
        }
    }

    /// The publisher of ``Publisher/decode(type:decoder:)``: each value decoded by a
    /// ``TopLevelDecoder``.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Any error: the upstream's or the decoder's.
        public typealias Failure = any Error

        /// The publisher whose values are decoded.
        public let upstream: Upstream
        /// The decoder.
        @usableFromInline let decoder: Coder

        /// Creates a publisher that decodes `upstream`'s values with `decoder`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are decoded.
        ///   - decoder: The decoder each value goes through.
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Subscribes `subscriber` through the decoder.
        ///
        /// - Parameter subscriber: The subscriber that receives the decoded values and the
        ///   completion.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.subscribe(subscriber, through: DecodeStep<Output, Coder>(decoder: decoder), name: "Decode")
        }
    }
}

// MARK: - Steps

/// `encode`'s step: each value encoded; an encoding error fails the stream.
@usableFromInline
struct EncodeStep<Input: Encodable, Coder: TopLevelEncoder>: RelayStep {
    @usableFromInline let encoder: Coder

    @inlinable
    init(encoder: Coder) {
        self.encoder = encoder
    }

    @inlinable
    func next(_ input: Input) throws -> RelayAction<Coder.Output> {
        .send(try encoder.encode(input))
    }
}

/// `decode`'s step: each value decoded; a decoding error fails the stream.
@usableFromInline
struct DecodeStep<Output: Decodable, Coder: TopLevelDecoder>: RelayStep {
    @usableFromInline let decoder: Coder

    @inlinable
    init(decoder: Coder) {
        self.decoder = decoder
    }

    @inlinable
    func next(_ input: Coder.Input) throws -> RelayAction<Output> {
        .send(try decoder.decode(Output.self, from: input))
    }
}
