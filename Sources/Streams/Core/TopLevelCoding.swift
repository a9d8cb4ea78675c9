#if canImport(Foundation)
    import Foundation
#endif

/// A type that encodes a whole value at once into some output: `JSONEncoder` into `Data`, for
/// example. ``Publisher/encode(encoder:)`` takes one.
///
/// ```swift
/// struct Point: Codable { var x, y: Int }
/// let data = try JSONEncoder().encode(Point(x: 1, y: 2))   // through TopLevelEncoder
/// ```
///
/// - Combine compatibility: as Combine. `JSONEncoder` and `PropertyListEncoder` conform.
public protocol TopLevelEncoder {
    /// What the encoder produces (`Data` for `JSONEncoder`).
    associatedtype Output

    /// Encodes `value`, or throws if it cannot be encoded.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded form, such as `Data` for `JSONEncoder`.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that decodes a whole value at once from some input: `JSONDecoder` from `Data`, for
/// example. ``Publisher/decode(type:decoder:)`` takes one.
///
/// ```swift
/// struct Point: Codable { var x, y: Int }
/// let point = try JSONDecoder().decode(Point.self, from: Data(#"{"x":1,"y":2}"#.utf8))
/// ```
///
/// - Combine compatibility: as Combine. `JSONDecoder` and `PropertyListDecoder` conform.
public protocol TopLevelDecoder {
    /// What the decoder reads (`Data` for `JSONDecoder`).
    associatedtype Input

    /// Decodes a value of `type` from `input`, or throws if it cannot be decoded.
    ///
    /// - Parameters:
    ///   - type: The type to decode, such as `User.self`.
    ///   - input: The encoded form, such as `Data` for `JSONDecoder`.
    /// - Returns: The decoded value.
    func decode<T: Decodable>(_ type: T.Type, from input: Input) throws -> T
}

#if canImport(Foundation)
    /// `JSONEncoder` encodes into `Data`.
    extension JSONEncoder: TopLevelEncoder {}
    /// `JSONDecoder` decodes from `Data`.
    extension JSONDecoder: TopLevelDecoder {}
    /// `PropertyListEncoder` encodes into `Data`.
    extension PropertyListEncoder: TopLevelEncoder {}
    /// `PropertyListDecoder` decodes from `Data`.
    extension PropertyListDecoder: TopLevelDecoder {}
#endif
