import Foundation

/// Writes the members of one generated struct's JSON object: what generated `encode(to:)` bodies
/// call (`try writer.encode(self.createdAt, "created_at")`), members named by their JSON names as
/// `StaticString` literals, then ``encode(undeclared:)`` for the members the struct does not
/// declare.
///
/// An optional member that is `nil` because the value received for it did not fit its type
/// (``SpecDeviations/Deviation/Kind/invalid(received:)``) is written as that value, and a constant
/// received with another value (``SpecDeviations/Deviation/Kind/unexpectedConstant(received:)``)
/// as the value received, so a value decoded and encoded again loses nothing the server sent.
///
/// Its methods are out of line and never specialized: each member is one call, where
/// `KeyedEncodingContainer.encode(_:forKey:)` with a `String` key was inlined and specialized for
/// every member of every generated type, about two thirds of what the optimizer spent on the
/// generated encoders (CONTRIBUTING.md, "Build cost"). Strings, integers, booleans and numbers have
/// overloads of their own. Under ``OrderedJSONEncoder`` (every request the SDK sends) members go
/// straight into the object being built; under another encoder, through its keyed container.
package struct ObjectWriter {
    private enum Target {
        case ordered(OrderedEncoding, EncodedObject)
        case keyed(KeyedEncodingContainer<AnyCodingKey>)
    }

    private var target: Target
    private let deviations: SpecDeviations

    /// Opens the object.
    ///
    /// - Parameter deviations: The struct's ``SpecDeviationReporting/specDeviations``, whose
    ///   invalid values are written for members that are `nil`.
    package init(_ encoder: any Encoder, _ deviations: SpecDeviations = SpecDeviations()) {
        if type(of: encoder) == OrderedEncoding.self {
            let encoding = encoder as! OrderedEncoding
            target = .ordered(encoding, encoding.object())
        } else {
            target = .keyed(encoder.container(keyedBy: AnyCodingKey.self))
        }
        self.deviations = deviations
    }

    /// Writes a member; an optional one that is `nil` is written as `null` (a required, nullable
    /// member).
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    package mutating func encode<T: Encodable>(_ value: T, _ name: StaticString) throws {
        if !deviations.isEmpty, case .invalid(let received)? = deviations[name.description], received != .null,
            Self.isNil(value)
        {
            // A required, nullable member that is `nil` because its value did not fit.
            return try write(received, name)
        }
        switch target {
        case .ordered(let encoding, let object):
            let key = AnyCodingKey(name)
            object.set(key.stringValue, try encoding.box(value, at: key))
        case .keyed(var container):
            try container.encode(value, forKey: AnyCodingKey(name))
        }
    }

    /// Writes a string member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encode(_ value: String, _ name: StaticString) throws {
        try write(.string(value), name)
    }

    /// Writes an integer member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encode(_ value: Int, _ name: StaticString) throws {
        try write(.int(value), name)
    }

    /// Writes a boolean member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encode(_ value: Bool, _ name: StaticString) throws {
        try write(.bool(value), name)
    }

    /// Writes a number member.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (not finite).
    package mutating func encode(_ value: Double, _ name: StaticString) throws {
        guard value.isFinite else {
            try encode(value as Double?, name)
            return
        }
        try write(.double(value), name)
    }

    /// Writes an optional string member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encodeIfPresent(_ value: String?, _ name: StaticString) throws {
        try writeIfPresent(value.map(JSONValue.string), name)
    }

    /// Writes an optional integer member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encodeIfPresent(_ value: Int?, _ name: StaticString) throws {
        try writeIfPresent(value.map(JSONValue.int), name)
    }

    /// Writes an optional boolean member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    package mutating func encodeIfPresent(_ value: Bool?, _ name: StaticString) throws {
        try writeIfPresent(value.map(JSONValue.bool), name)
    }

    /// Writes an optional number member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (not finite).
    package mutating func encodeIfPresent(_ value: Double?, _ name: StaticString) throws {
        guard let value else { return try writeIfPresent(nil, name) }
        try encode(value, name)
    }

    /// Writes an optional member, left out when `nil`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    package mutating func encodeIfPresent<T: Encodable>(_ value: T?, _ name: StaticString) throws {
        guard let value else { return try writeIfPresent(nil, name) }
        try encode(value, name)
    }

    /// Writes the members the struct does not declare, in their order; one that has a declared
    /// member's name replaces that member's value.
    ///
    /// - Throws: `EncodingError` when a value holds a number that is not finite.
    package mutating func encode(undeclared members: JSONObject) throws {
        guard !members.isEmpty else { return }
        switch target {
        case .ordered(_, let object):
            for (key, value) in members { object.set(key, .json(value)) }
        case .keyed(var container):
            for (key, value) in members { try container.encode(value, forKey: AnyCodingKey(key)) }
        }
    }

    /// Whether `value` is an `Optional` holding nothing.
    private static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    private mutating func write(_ value: JSONValue, _ name: StaticString) throws {
        var value = value
        if !deviations.isEmpty, case .unexpectedConstant(let received)? = deviations[name.description] {
            value = received
        }
        switch target {
        case .ordered(_, let object):
            object.set(name.description, .json(value))
        case .keyed(var container):
            // The container's own methods for the primitives, as before members were JSON values.
            let key = AnyCodingKey(name)
            switch value {
            case .string(let text): try container.encode(text, forKey: key)
            case .int(let number): try container.encode(number, forKey: key)
            case .bool(let flag): try container.encode(flag, forKey: key)
            case .double(let number): try container.encode(number, forKey: key)
            case .null: try container.encodeNil(forKey: key)
            case .array, .object: try container.encode(value, forKey: key)
            }
        }
    }

    /// Writes `value`; for `nil`, the value received for the member when it did not fit its type.
    private mutating func writeIfPresent(_ value: JSONValue?, _ name: StaticString) throws {
        if let value { return try write(value, name) }
        // `null` stands for a value the decoder could not read as JSON: nothing to write back.
        guard !deviations.isEmpty, case .invalid(let received)? = deviations[name.description], received != .null
        else { return }
        try write(received, name)
    }
}
