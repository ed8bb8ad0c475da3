import Foundation

// Helpers the generated Codable conformances call. They are internal: generated code lives in
// this module.

extension KeyedDecodingContainer {
    /// Checks that the required member `key` holds the constant `expected` (an OpenAPI `const` or
    /// single-value `enum`, e.g. `"type": "function"`).
    ///
    /// - Throws: `DecodingError.keyNotFound` when absent, `DecodingError.dataCorrupted` naming the
    ///   coding path when the value differs.
    func decodeConstant(_ expected: String, forKey key: Key) throws {
        let value = try decode(String.self, forKey: key)
        guard value == expected else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "Expected \"\(expected)\", found \"\(value)\".")
        }
    }

    /// Checks that the optional member `key`, when present and not null, holds `expected`.
    func decodeConstantIfPresent(_ expected: String, forKey key: Key) throws {
        guard let value = try decodeIfPresent(String.self, forKey: key) else { return }
        guard value == expected else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "Expected \"\(expected)\", found \"\(value)\".")
        }
    }
}

extension Decoder {
    /// Reads the string member `name` of the current JSON object, for dispatching a union on its
    /// discriminator. Returns `nil` when the value is not an object or the member is absent or not
    /// a string.
    func discriminator(_ name: String) -> String? {
        guard let container = try? container(keyedBy: AnyCodingKey.self) else { return nil }
        return try? container.decodeIfPresent(String.self, forKey: AnyCodingKey(name))
    }

    /// Decodes the members of the current JSON object that are not in `known`, for schemas with
    /// both `properties` and `additionalProperties`.
    func decodeAdditionalProperties<Value: Decodable>(
        _ type: Value.Type, excluding known: Set<String>
    ) throws -> [String: Value] {
        let container = try container(keyedBy: AnyCodingKey.self)
        var result: [String: Value] = [:]
        for key in container.allKeys where !known.contains(key.stringValue) {
            result[key.stringValue] = try container.decode(Value.self, forKey: key)
        }
        return result
    }
}

extension Encoder {
    /// Encodes `values` as extra members of the current JSON object.
    func encodeAdditionalProperties<Value: Encodable>(_ values: [String: Value]) throws {
        var container = container(keyedBy: AnyCodingKey.self)
        for key in values.keys.sorted() {
            try container.encode(values[key]!, forKey: AnyCodingKey(key))
        }
    }
}

/// A heap box that lets a generated struct hold a value of its own type (a recursive schema).
/// Value semantics are kept: the box is immutable and replaced on every write.
final class Indirect<Value: Sendable & Hashable>: Sendable, Hashable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.value == rhs.value }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
