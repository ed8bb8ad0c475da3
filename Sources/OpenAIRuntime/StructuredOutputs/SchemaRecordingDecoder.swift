import Foundation

/// A `Decoder` that hands a type's `init(from:)` placeholder values and records what it asks for:
/// the members of a keyed container (required for `decode`, optional for `decodeIfPresent`), the
/// value of a single-value container, the element of an unkeyed one.
final class SchemaRecordingDecoder: Decoder {
    /// What the type's `init(from:)` asked for.
    enum Recording {
        case none
        case object(ObjectRecording)
        case single(JSONSchema)
        case array(ArrayRecording)
    }

    /// The members of a keyed container, in the order decoded.
    final class ObjectRecording {
        var properties: [(name: String, value: Member)] = []
        /// Members the decoder asked `decodeNil(forKey:)` about: it takes `null` for them.
        var nullable: Set<String> = []

        enum Member {
            case schema(JSONSchema, required: Bool)
            case object(ObjectRecording, required: Bool)
            case array(ArrayRecording, required: Bool)
        }

        func add(_ name: String, _ member: Member) {
            guard !properties.contains(where: { $0.name == name }) else { return }
            properties.append((name, member))
        }

        func schema() -> JSONSchema {
            .object(
                properties.map { name, member in
                    var property: JSONSchema.Property
                    switch member {
                    case .schema(let schema, let required):
                        property = JSONSchema.Property(name, schema, isRequired: required)
                    case .object(let object, let required):
                        property = JSONSchema.Property(name, object.schema(), isRequired: required)
                    case .array(let array, let required):
                        property = JSONSchema.Property(name, array.schema(), isRequired: required)
                    }
                    if nullable.contains(name) { property.schema.isNullable = true }
                    return property
                })
        }
    }

    /// The element of an unkeyed container: the first one decoded.
    final class ArrayRecording {
        var element: JSONSchema?
        /// The first element, when it was read through a nested keyed container.
        var objectElement: ObjectRecording?
        /// Whether the decoder asked `decodeNil()` about an element.
        var nullableElements = false

        func schema() -> JSONSchema {
            var element = objectElement?.schema() ?? element ?? JSONSchema(.any)
            if nullableElements { element.isNullable = true }
            return .array(of: element)
        }
    }

    let builder: JSONSchemaBuilder
    let path: [String]
    private(set) var recording = Recording.none
    private var sawNil = false

    init(builder: JSONSchemaBuilder, path: [String]) {
        self.builder = builder
        self.path = path
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The schema of what was recorded for `type`: an object without members when `init(from:)`
    /// read nothing (a struct without stored properties, whose synthesized decoder asks for no
    /// container).
    func recorded(type: Any.Type) -> JSONSchema {
        var schema: JSONSchema
        switch recording {
        case .none: schema = .object([])
        case .object(let object): schema = object.schema()
        case .single(let value): schema = value
        case .array(let array): schema = array.schema()
        }
        if sawNil { schema.isNullable = true }
        return schema
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let object: ObjectRecording
        if case .object(let existing) = recording {
            object = existing
        } else {
            object = ObjectRecording()
            recording = .object(object)
        }
        return KeyedDecodingContainer(KeyedRecorder<Key>(decoder: self, object: object, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let array: ArrayRecording
        if case .array(let existing) = recording {
            array = existing
        } else {
            array = ArrayRecording()
            recording = .array(array)
        }
        return UnkeyedRecorder(decoder: self, array: array, path: path + ["[]"])
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueRecorder(decoder: self)
    }

    fileprivate func recordSingle(_ schema: JSONSchema) {
        if case .none = recording { recording = .single(schema) }
    }

    fileprivate func noteNil() {
        sawNil = true
    }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: SchemaRecordingDecoder
    let object: SchemaRecordingDecoder.ObjectRecording
    let path: [String]

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        object.nullable.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let memberPath = path + [key.stringValue]
        object.add(key.stringValue, .schema(try decoder.builder.schema(for: type, path: memberPath), required: true))
        return try decoder.builder.placeholder(type, path: memberPath)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        // `decodeIfPresent` takes an absent member and `null` alike.
        try optional(type, key)
    }

    // The protocol's own `decodeIfPresent` for these types asks `contains` and `decodeNil`, then
    // `decode`: the member would look required. Each is an optional member, as above.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let memberPath = path + [key.stringValue]
        object.add(
            key.stringValue, .schema(try decoder.builder.schema(for: type, path: memberPath).orNull, required: false))
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = SchemaRecordingDecoder.ObjectRecording()
        object.add(key.stringValue, .object(nested, required: true))
        return KeyedDecodingContainer(
            KeyedRecorder<NestedKey>(decoder: decoder, object: nested, path: path + [key.stringValue]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let nested = SchemaRecordingDecoder.ArrayRecording()
        object.add(key.stringValue, .array(nested, required: true))
        return UnkeyedRecorder(decoder: decoder, array: nested, path: path + [key.stringValue, "[]"])
    }

    func superDecoder() throws -> any Decoder {
        throw JSONSchemaError(
            path: JSONSchemaBuilder.describe(path),
            message: "superDecoder() (class inheritance) cannot be derived; adopt JSONSchemaConvertible")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder()
    }
}

/// Reports one element, then the end.
private struct UnkeyedRecorder: UnkeyedDecodingContainer {
    let decoder: SchemaRecordingDecoder
    let array: SchemaRecordingDecoder.ArrayRecording
    let path: [String]
    private(set) var currentIndex = 0

    init(decoder: SchemaRecordingDecoder, array: SchemaRecordingDecoder.ArrayRecording, path: [String]) {
        self.decoder = decoder
        self.array = array
        self.path = path
    }

    var codingPath: [any CodingKey] { [] }
    var count: Int? { nil }
    var isAtEnd: Bool { currentIndex > 0 }

    mutating func decodeNil() throws -> Bool {
        array.nullableElements = true
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        let schema = try decoder.builder.schema(for: type, path: path)
        if array.element == nil { array.element = schema }
        return try decoder.builder.placeholder(type, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        currentIndex += 1
        let nested = SchemaRecordingDecoder.ObjectRecording()
        if array.element == nil && array.objectElement == nil { array.objectElement = nested }
        return KeyedDecodingContainer(KeyedRecorder<NestedKey>(decoder: decoder, object: nested, path: path))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONSchemaError(
            path: JSONSchemaBuilder.describe(path),
            message: "nested unkeyed containers cannot be derived; adopt JSONSchemaConvertible")
    }

    mutating func superDecoder() throws -> any Decoder {
        throw JSONSchemaError(
            path: JSONSchemaBuilder.describe(path),
            message: "superDecoder() cannot be derived; adopt JSONSchemaConvertible")
    }
}

private struct SingleValueRecorder: SingleValueDecodingContainer {
    let decoder: SchemaRecordingDecoder

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        decoder.noteNil()
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        decoder.recordSingle(try decoder.builder.schema(for: type, path: decoder.path))
        return try decoder.builder.placeholder(type, path: decoder.path)
    }
}
