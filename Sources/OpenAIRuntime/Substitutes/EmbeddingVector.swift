import Foundation

/// An embedding vector as the API sends it: a JSON array of numbers (`encoding_format: "float"`)
/// or a base64 string of little-endian IEEE 754 float32 values (`encoding_format: "base64"`).
///
/// When the caller leaves `encoding_format` unset, `client.embeddings.create` asks for base64 (a
/// quarter of the bytes, faster to decode) and this type decodes it into ``floats(_:)``, as
/// openai-python and openai-node do; ``base64(_:)`` is what a caller who asked for base64 gets.
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
            return Self.decodeBase64(text)
        }
    }

    /// The float32 values of base64 text, or `nil` when it is not base64 of whole float32s.
    static func decodeBase64(_ text: String) -> [Float]? {
        guard let data = Data(base64Encoded: text), data.count % 4 == 0 else { return nil }
        return data.withUnsafeBytes { buffer in
            [Float](unsafeUninitializedCapacity: buffer.count / 4) { values, count in
                for index in 0..<buffer.count / 4 {
                    values[index] = Float(
                        bitPattern: UInt32(
                            littleEndian: buffer.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
                }
                count = buffer.count / 4
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
            let sdkChoseBase64 =
                (decoder.userInfo[.openAIDefaultedRequestMembers] as? Set<String>)?.contains("encoding_format") ?? false
            if sdkChoseBase64, let values = Self.decodeBase64(text) {
                self = .floats(values)
            } else {
                self = .base64(text)
            }
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
