import Foundation

// Helpers the generated Codable conformances call. They are internal: generated code lives in
// this module.

extension Decoder {
    /// Reads the string member `name` of the current JSON object, for dispatching a union on its
    /// discriminator. Returns `nil` when the value is not an object or the member is absent or not
    /// a string.
    package func discriminator(_ name: String) -> String? {
        if let decoding = OrderedDecoding.unwrapping(self) {
            let document = decoding.document
            guard document.nodes[decoding.node].kind == .object else { return nil }
            var text = name
            guard let member = text.withUTF8({ document.member(in: decoding.node, named: $0) }),
                document.nodes[member + 1].kind == .string
            else { return nil }
            return document.string(at: member + 1)
        }
        guard let container = try? container(keyedBy: AnyCodingKey.self) else { return nil }
        return try? container.decodeIfPresent(String.self, forKey: AnyCodingKey(name))
    }
}

extension Encoder {
    /// Encodes `values` as extra members of the current JSON object.
    package func encodeAdditionalProperties<Value: Encodable>(_ values: [String: Value]) throws {
        var container = container(keyedBy: AnyCodingKey.self)
        for key in values.keys.sorted() {
            try container.encode(values[key]!, forKey: AnyCodingKey(key))
        }
    }
}

/// A heap box that lets a generated struct hold a value of its own type (a recursive schema).
/// Value semantics are kept: the box is immutable and replaced on every write.
package final class Indirect<Value: Sendable & Equatable>: Sendable, Equatable {
    package let value: Value

    package init(_ value: Value) { self.value = value }

    package static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.value == rhs.value }
}

extension Indirect: Hashable where Value: Hashable {
    package func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
