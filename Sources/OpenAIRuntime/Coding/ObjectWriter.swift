import Foundation

/// Writes the members of one generated struct's JSON object: what generated `encode(to:)` bodies
/// call (`try writer.encode(self.createdAt, "created_at")`), members named by their JSON names as
/// `StaticString` literals.
///
/// Its methods are out of line and never specialized: each member is one call, where
/// `KeyedEncodingContainer.encode(_:forKey:)` with a `String` key was inlined and specialized for
/// every member of every generated type, about two thirds of what the optimizer spent on the
/// generated encoders (CONTRIBUTING.md, "Build cost"). Strings, integers, booleans and numbers have
/// overloads of their own, which go to the container's own methods for them as before.
package struct ObjectWriter {
    private var container: KeyedEncodingContainer<AnyCodingKey>

    /// Opens the object.
    package init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: AnyCodingKey.self)
    }

    /// Writes a member; an optional one that is `nil` is written as `null` (a required, nullable
    /// member).
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    package mutating func encode<T: Encodable>(_ value: T, _ name: StaticString) throws {
        try container.encode(value, forKey: AnyCodingKey(name))
    }

    /// Writes a string member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encode(_ value: String, _ name: StaticString) throws {
        try container.encode(value, forKey: AnyCodingKey(name))
    }

    /// Writes an integer member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encode(_ value: Int, _ name: StaticString) throws {
        try container.encode(value, forKey: AnyCodingKey(name))
    }

    /// Writes a boolean member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encode(_ value: Bool, _ name: StaticString) throws {
        try container.encode(value, forKey: AnyCodingKey(name))
    }

    /// Writes a number member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (not finite, under the encoder's
    ///   default strategy).
    package mutating func encode(_ value: Double, _ name: StaticString) throws {
        try container.encode(value, forKey: AnyCodingKey(name))
    }

    /// Writes an optional string member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encodeIfPresent(_ value: String?, _ name: StaticString) throws {
        try container.encodeIfPresent(value, forKey: AnyCodingKey(name))
    }

    /// Writes an optional integer member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encodeIfPresent(_ value: Int?, _ name: StaticString) throws {
        try container.encodeIfPresent(value, forKey: AnyCodingKey(name))
    }

    /// Writes an optional boolean member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encodeIfPresent(_ value: Bool?, _ name: StaticString) throws {
        try container.encodeIfPresent(value, forKey: AnyCodingKey(name))
    }

    /// Writes an optional number member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (not finite, under the encoder's
    ///   default strategy).
    package mutating func encodeIfPresent(_ value: Double?, _ name: StaticString) throws {
        try container.encodeIfPresent(value, forKey: AnyCodingKey(name))
    }

    /// Writes an optional member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    package mutating func encodeIfPresent<T: Encodable>(_ value: T?, _ name: StaticString) throws {
        try container.encodeIfPresent(value, forKey: AnyCodingKey(name))
    }
}
