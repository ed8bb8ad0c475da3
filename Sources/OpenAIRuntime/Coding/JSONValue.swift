import Foundation

/// Any JSON value: the type of free-form objects in the OpenAI spec, and the payload kept by the
/// `unknown` case of every generated union.
///
/// Numbers with an integral value that fits in `Int` (`42`, also `2e3`) are kept exactly as
/// ``int(_:)``; other numbers are ``double(_:)``.
/// Objects keep their members' order (``JSONObject``): the order received when the SDK decoded
/// them, the order written in code otherwise; equality ignores it (RFC 8259 section 4).
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number with an integral value that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object(JSONObject)
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the value is not JSON (for example a non-JSON
    ///   decoder's binary data).
    public init(from decoder: any Decoder) throws {
        if let decoding = OrderedDecoding.unwrapping(decoder) {
            self = decoding.value(at: decoding.node)
            return
        }
        // `Decoder` cannot say which JSON type is next, so each kind is tried in turn, and every
        // wrong guess costs a thrown `DecodingError` (with its coding path and message). The order
        // puts the most frequent kinds first: strings, then objects and numbers.
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            // A decoder that keeps no order: sorted, so the bytes written later are the same.
            var object = JSONObject()
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
        } else if let value = try? single.decode(Int.self) {
            self = .int(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if var container = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            if let count = container.count { array.reserveCapacity(count) }
            while !container.isAtEnd {
                array.append(try container.decode(JSONValue.self))
            }
            self = .array(array)
        } else {
            throw DecodingError.dataCorruptedError(
                in: single, debugDescription: "The value is not a JSON value.")
        }
    }

    /// Encodes the value as the JSON it holds, object members in order.
    ///
    /// - Throws: `EncodingError.invalidValue` for a number that is not finite.
    public func encode(to encoder: any Encoder) throws {
        if type(of: encoder) == OrderedEncoding.self {
            (encoder as! OrderedEncoding).result = .json(self)
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in object {
                try container.encode(value, forKey: AnyCodingKey(key))
            }
        }
    }
}

extension JSONValue {
    /// Converts any `Encodable` value to the JSON it encodes to (``OrderedJSONEncoder``: members
    /// in the order the value encodes them).
    ///
    /// - Parameter value: The value to encode.
    /// - Throws: `EncodingError` when the value cannot be encoded as JSON.
    public init(encoding value: some Encodable) throws {
        self = try OrderedJSONEncoder().encodeValue(value)
    }

    /// Parses JSON text.
    ///
    /// - Parameter data: The UTF-8 bytes of one JSON value.
    /// - Throws: `DecodingError.dataCorrupted` (underlying error ``JSONSyntaxError``) when `data`
    ///   is not JSON.
    public init(parsing data: Data) throws {
        self = try OrderedJSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes a `Decodable` type from this JSON value (``OrderedJSONDecoder``).
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError` naming the failing field's coding path; `EncodingError` when the
    ///   value holds a number that is not finite.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        var writer = JSONTextWriter()
        try writer.write(self)
        return try OrderedJSONDecoder().decode(T.self, fromBytes: writer.bytes)
    }

    /// The string when this is ``string(_:)``, else `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object when this is ``object(_:)``, else `nil`.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array when this is ``array(_:)``, else `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The number as a `Double` when this is ``int(_:)`` or ``double(_:)``, else `nil`.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index` when this is an array and has one there, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let values) = self, values.indices.contains(index) else { return nil }
        return values[index]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue {
    /// The value as compact JSON text (object members in order), cut to about `limit` characters
    /// with `…` for descriptions.
    func compactJSON(limit: Int) -> String {
        let text = jsonText
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
