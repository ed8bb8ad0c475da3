import Foundation

/// An embedding vector as the API sends it: a JSON array of numbers (`encoding_format: "float"`,
/// the default) or a base64 string of little-endian IEEE 754 float32 values
/// (`encoding_format: "base64"`).
///
/// Spec correction: `#/components/schemas/Embedding/properties/embedding` declares only the
/// array form (see `Spec/overrides.json`).
public enum EmbeddingVector: Codable, Hashable, Sendable {
    /// The vector as a JSON array of numbers.
    case floats([Float])
    /// The vector as base64 text, decoded lazily by ``floats``.
    case base64(String)

    /// The vector's values, decoding the base64 form; `nil` when the base64 text is invalid or
    /// its length is not a multiple of 4 bytes.
    public var floats: [Float]? {
        switch self {
        case .floats(let values):
            return values
        case .base64(let text):
            guard let data = Data(base64Encoded: text), data.count % 4 == 0 else { return nil }
            return data.withUnsafeBytes { buffer in
                stride(from: 0, to: buffer.count, by: 4).map { offset in
                    Float(
                        bitPattern: UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                }
            }
        }
    }

    /// Decodes either form.
    ///
    /// - Throws: `DecodingError.typeMismatch` when the value is neither an array of numbers nor
    ///   a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .base64(text)
        } else {
            self = .floats(try container.decode([Float].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .floats(let values): try container.encode(values)
        case .base64(let text): try container.encode(text)
        }
    }
}
