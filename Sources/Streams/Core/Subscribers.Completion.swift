extension Subscribers {
    /// How a publisher ended: normally, or with an error.
    @frozen
    public enum Completion<Failure: Error> {
        /// The publisher finished normally; it sends nothing more.
        case finished
        /// The publisher stopped because of `Failure`; it sends nothing more.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable {}

extension Subscribers.Completion {
    /// Turns a failure into `.failure(transform(error))`; `.finished` stays `.finished`.
    @inlinable
    func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
        switch self {
        case .finished: .finished
        case .failure(let error): .failure(transform(error))
        }
    }
}

private enum CompletionCodingKeys: String, CodingKey { case success, error }

extension Subscribers.Completion: Encodable where Failure: Encodable {
    /// Encodes `.finished` as `{"success": true}` and `.failure(e)` as `{"success": false, "error": e}`.
    ///
    /// - Parameter encoder: The encoder to write the completion to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CompletionCodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
    /// Decodes what ``encode(to:)`` wrote.
    ///
    /// - Parameter decoder: The decoder to read the completion from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CompletionCodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }
}
