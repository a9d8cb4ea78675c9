// Engine: none. The whole operator is in this file.

/// A publisher that plays back a recorded list of values, then a recorded completion.
///
/// Useful in tests and previews: record once, replay to every subscriber.
///
/// <!-- marble record source: Record<String, DocError>(output: ["1", "2"], completion: .failure(DocError())) -->
/// ```text
/// Record(output: [1, 2], completion: .failure(e)):  [12^]
/// ```
///
/// ![Marble diagram of record](marble-record)
///
/// ```swift
/// let record = Record<Int, Never> { r in
///     r.receive(1)
///     r.receive(2)
///     r.receive(completion: .finished)
/// }
/// let c = record.sink { print($0) }
/// // Prints: 1, 2
/// ```
///
/// - Demand: values wait for demand; with no values, the completion is sent at once ([S5]).
/// - Coding: when its values and failure are `Codable`, so is a record, in Combine's form, so
///   either can read a recording the other wrote:
///   `{"recording": {"output": [1, 2], "completion": {"success": true}}}`.
/// - Combine compatibility: as Combine.
///
/// [S5]: doc:/Contract/StreamContract#S5
public struct Record<Output, Failure: Error>: Publisher {
    /// A list of values and the completion that ends them.
    public struct Recording {
        /// The values, in order.
        public private(set) var output: [Output]
        /// The completion; `.finished` until one is recorded.
        public private(set) var completion: Subscribers.Completion<Failure>
        private var isComplete = false

        /// An empty recording.
        public init() {
            output = []
            completion = .finished
        }

        /// A finished recording of `output` and `completion`.
        ///
        /// - Parameters:
        ///   - output: The values, in the order to play them back.
        ///   - completion: The completion that follows them; `.finished` by default.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            self.isComplete = true
        }

        /// Records a value. Recording after the completion is a programming error and stops the
        /// program with a message.
        ///
        /// - Parameter input: The value to add after those recorded so far.
        public mutating func receive(_ input: Output) {
            if isComplete { fatalError("Record.Recording: a value was recorded after the completion") }
            output.append(input)
        }

        /// Records the completion. Recording a second completion is a programming error and
        /// stops the program with a message.
        ///
        /// - Parameter completion: The completion that ends the recording.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            if isComplete { fatalError("Record.Recording: a second completion was recorded") }
            self.completion = completion
            isComplete = true
        }
    }

    /// The recording this publisher plays back.
    public let recording: Recording

    /// Creates a publisher that plays back what `record` records. An unfinished recording is
    /// finished with `.finished`.
    ///
    /// - Parameter record: A closure, called once now, that records values and a completion into
    ///   the recording it is given.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a publisher that plays back `recording`.
    ///
    /// - Parameter recording: The values and completion to play back to each subscriber.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a publisher that plays back `output`, then `completion`.
    ///
    /// - Parameters:
    ///   - output: The values, in the order to play them back.
    ///   - completion: The completion that follows them.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    /// Plays the recording to `subscriber`, as its demand allows.
    ///
    /// - Parameter subscriber: The subscriber that receives the recorded values and completion.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        publish(recording.output, then: recording.completion, to: subscriber, name: "Record")
    }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey { case output, completion }

    /// Decodes a recording in Combine's form: `{"output": [...], "completion": ...}`, the
    /// completion as `Subscribers.Completion` encodes it (`{"success": true}`, or
    /// `{"success": false, "error": ...}`).
    ///
    /// - Parameter decoder: The decoder to read the recording from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the values and the completion in Combine's form (see ``init(from:)``).
    ///
    /// - Parameter encoder: The encoder to write the recording to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording, as ``encode(to:)`` does (Combine has both spellings).
    ///
    /// - Parameter encoder: The encoder to write the recording to.
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey { case recording }

    /// Decodes a record in Combine's form: its recording under the key `"recording"`.
    ///
    /// - Parameter decoder: The decoder to read the record from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the record in Combine's form: `{"recording": {"output": [...], "completion": ...}}`.
    ///
    /// - Parameter encoder: The encoder to write the record to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
