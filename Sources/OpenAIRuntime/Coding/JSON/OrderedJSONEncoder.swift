import Foundation

/// Encodes `Encodable` values as JSON text whose bytes depend only on the value: object members
/// in the order they were encoded, the same in every process and on every platform. It writes
/// every request body the SDK sends.
///
/// Foundation's `JSONEncoder` writes an object's members in the order of a per-process hash seed
/// (or sorted, with `.sortedKeys`), so the same request gives other bytes in the next process:
/// prompt caching, a byte-prefix match, then misses; and a JSON Schema's `properties` reach the
/// model out of the order their author declared them in. Here:
/// - a generated type's members come in the spec's order, then its
///   `undeclaredMembers` in theirs;
/// - a `Codable` type's members come in its `encode(to:)` order, which for a synthesized
///   conformance is the Swift declaration order;
/// - a ``JSONValue`` or ``JSONObject`` keeps its members' order;
/// - a `Dictionary` is written sorted by key (it has no order of its own).
///
/// A member encoded twice keeps its first position and its last value. The text is compact (no
/// spaces or newlines); `/` is not escaped; strings are escaped as RFC 8259 section 7 requires
/// (`"`, `\`, and control characters, as `\n`, `\t`… or `\u001f`), all other characters are
/// written as UTF-8. As with `JSONEncoder`'s default strategies, `Data` is written as base64 text,
/// `URL` as its absolute string, `Date` as its `Double` seconds since 2001 (`Date`'s own
/// encoding), `Decimal` as a number; an integral `Double` or `Float` is written without a
/// fraction (`1`, not `1.0`), and other numbers in the shortest text that reads back to the same
/// value.
public struct OrderedJSONEncoder: Sendable {
    /// Values for the `Encodable` implementations to read, as `JSONEncoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder.
    public init() {}

    /// Encodes `value` as compact JSON text.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The UTF-8 bytes of the JSON text.
    /// - Throws: `EncodingError.invalidValue` for a number that is not finite (naming its coding
    ///   path), or what the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeBytes(value))
    }

    /// Encodes `value` as the bytes of compact JSON text.
    package func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        var writer = JSONTextWriter()
        try writer.write(try EncodedValueBuilder(userInfo: userInfo).encode(value))
        return writer.bytes
    }

    /// Encodes `value` as the ``JSONValue`` it encodes to, without writing text.
    package func encodeValue<T: Encodable>(_ value: T) throws -> JSONValue {
        try EncodedValueBuilder(userInfo: userInfo).encode(value).jsonValue()
    }
}

/// Builds the tree of one encoding.
private struct EncodedValueBuilder {
    let userInfo: [CodingUserInfoKey: any Sendable]

    func encode<T: Encodable>(_ value: T) throws -> EncodedValue {
        let root = OrderedEncoding(parent: nil, key: nil, userInfo: userInfo)
        return try root.box(value)
    }
}

/// A value being encoded: a finished JSON value, or an array or object that containers still add to.
enum EncodedValue {
    case json(JSONValue)
    /// A number written as this text (a `Decimal`, a `Float`, an integer beyond `Int`).
    case number(String)
    case array(EncodedArray)
    case object(EncodedObject)

    /// The value as a ``JSONValue`` (a number kept as text becomes `int` or `double`).
    func jsonValue() throws -> JSONValue {
        switch self {
        case .json(let value): return value
        case .number(let text):
            if let value = Int(text) { return .int(value) }
            return .double(Double(text) ?? .nan)
        case .array(let array): return .array(try array.items.map { try $0.jsonValue() })
        case .object(let object):
            let order = object.writtenOrder
            return .object(
                JSONObject(
                    uniqueKeys: order.map { object.keys[$0] },
                    values: try order.map { try object.items[$0].jsonValue() }))
        }
    }
}

final class EncodedArray {
    var items: [EncodedValue] = []
}

final class EncodedObject {
    private(set) var keys: [String] = []
    private(set) var items: [EncodedValue] = []
    private var positions: [String: Int]?
    /// Whether the members are written sorted by name (a `Dictionary`'s, which have no order).
    var sortsKeys = false

    /// The positions of the members in the order they are written.
    var writtenOrder: [Int] {
        sortsKeys ? keys.indices.sorted { keys[$0] < keys[$1] } : Array(keys.indices)
    }

    func set(_ key: String, _ value: EncodedValue) {
        if let position = position(of: key) {
            items[position] = value
            return
        }
        keys.append(key)
        items.append(value)
        if positions != nil {
            positions![key] = keys.count - 1
        } else if keys.count > 12 {
            var index: [String: Int] = [:]
            for (position, key) in keys.enumerated() { index[key] = position }
            positions = index
        }
    }

    func value(_ key: String) -> EncodedValue? { position(of: key).map { items[$0] } }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return keys.firstIndex(of: key)
    }
}

/// The `Encoder` of one value being encoded (the root, or a member or element that is not a
/// plain JSON value).
final class OrderedEncoding: Encoder {
    private let parent: OrderedEncoding?
    private let key: (any CodingKey)?
    private let options: [CodingUserInfoKey: any Sendable]
    /// What this value encoded to so far.
    var result: EncodedValue?

    init(parent: OrderedEncoding?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.parent = parent
        self.key = key
        self.options = userInfo
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: OrderedEncoding? = self
        while let current = node {
            if let key = current.key { path.append(key) }
            node = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { options }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object = object()
        if isProbe {
            probedKeyType = ObjectIdentifier(Key.self)
        } else if ObjectIdentifier(Key.self) == Self.dictionaryKeyType {
            // A `Dictionary` encodes its members in its hash order, which changes per process.
            object.sortsKeys = true
        }
        return KeyedEncodingContainer(OrderedKeyedEncodingContainer<Key>(encoding: self, object: object))
    }

    /// Whether this encoding only finds ``dictionaryKeyType``, and what it found.
    private var isProbe = false
    private var probedKeyType: ObjectIdentifier?

    /// The coding key type of the standard library's `Dictionary` with `String` or `Int` keys
    /// (a private type), found once by encoding one.
    private static let dictionaryKeyType: ObjectIdentifier? = {
        let probe = OrderedEncoding(parent: nil, key: nil, userInfo: [:])
        probe.isProbe = true
        try? ["key": 0].encode(to: probe)
        return probe.probedKeyType
    }()

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        OrderedUnkeyedEncodingContainer(encoding: self, array: array())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The object this value is, created on first use (a type may ask for its container twice).
    func object() -> EncodedObject {
        if case .object(let object)? = result { return object }
        let object = EncodedObject()
        result = .object(object)
        return object
    }

    func array() -> EncodedArray {
        if case .array(let array)? = result { return array }
        let array = EncodedArray()
        result = .array(array)
        return array
    }

    /// `value` as an encoded value: plain JSON values directly, others through their
    /// `encode(to:)` with an encoding of their own at `key`.
    func box<T: Encodable>(_ value: T, at key: (any CodingKey)? = nil) throws -> EncodedValue {
        // Metatype comparisons, not casts: a cast would also unwrap an `Optional` (which must
        // encode through its own `encode(to:)`, `nil` as `null`) and costs more.
        if T.self == String.self { return .json(.string(value as! String)) }
        if T.self == Int.self { return .json(.int(value as! Int)) }
        if T.self == Bool.self { return .json(.bool(value as! Bool)) }
        if T.self == Double.self { return try boxDouble(value as! Double, at: key) }
        if T.self == JSONValue.self { return .json(value as! JSONValue) }
        if T.self == JSONObject.self { return .json(.object(value as! JSONObject)) }
        if T.self == Float.self { return try boxFloat(value as! Float, at: key) }
        if T.self == Data.self { return .json(.string((value as! Data).base64EncodedString())) }
        if T.self == URL.self { return .json(.string((value as! URL).absoluteString)) }
        if T.self == Decimal.self {
            let decimal = value as! Decimal
            guard !decimal.isNaN else { throw nonFinite(decimal, at: key) }
            return .number(decimal.description)
        }
        let encoding = key == nil && parent == nil && result == nil ? self : child(key)
        try value.encode(to: encoding)
        return encoding.result ?? .object(EncodedObject())
    }

    /// The encoding of a member or element at `key`.
    func child(_ key: (any CodingKey)?) -> OrderedEncoding {
        OrderedEncoding(parent: self, key: key, userInfo: options)
    }

    func boxDouble(_ value: Double, at key: (any CodingKey)?) throws -> EncodedValue {
        guard value.isFinite else { throw nonFinite(value, at: key) }
        return .json(.double(value))
    }

    func boxFloat(_ value: Float, at key: (any CodingKey)?) throws -> EncodedValue {
        guard value.isFinite else { throw nonFinite(value, at: key) }
        return .number(JSONTextWriter.numberText(value.description))
    }

    private func nonFinite(_ value: Any, at key: (any CodingKey)?) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath + (key.map { [$0] } ?? []),
                debugDescription: "\(value) is not a finite number, which JSON cannot hold."))
    }

    /// An encoder whose value becomes the member `key` of `object` (or the element at `index`)
    /// when it is released: `superEncoder()`.
    func superEncoder(into object: EncodedObject, key: any CodingKey) -> any Encoder {
        SuperEncoding(parent: self, key: key) { object.set(key.stringValue, $0) }
    }

    func superEncoder(into array: EncodedArray, at index: Int) -> any Encoder {
        array.items.append(.json(.null))
        return SuperEncoding(parent: self, key: OrderedIndexKey(index)) { array.items[index] = $0 }
    }
}

extension OrderedEncoding: SingleValueEncodingContainer {
    func encodeNil() throws { result = .json(.null) }
    func encode(_ value: Bool) throws { result = .json(.bool(value)) }
    func encode(_ value: String) throws { result = .json(.string(value)) }
    func encode(_ value: Double) throws { result = try boxDouble(value, at: nil) }
    func encode(_ value: Float) throws { result = try boxFloat(value, at: nil) }
    func encode(_ value: Int) throws { result = .json(.int(value)) }
    func encode(_ value: Int8) throws { result = .json(.int(Int(value))) }
    func encode(_ value: Int16) throws { result = .json(.int(Int(value))) }
    func encode(_ value: Int32) throws { result = .json(.int(Int(value))) }
    func encode(_ value: Int64) throws { result = .json(.int(Int(value))) }
    func encode(_ value: UInt) throws { result = Self.unsigned(UInt64(value)) }
    func encode(_ value: UInt8) throws { result = .json(.int(Int(value))) }
    func encode(_ value: UInt16) throws { result = .json(.int(Int(value))) }
    func encode(_ value: UInt32) throws { result = .json(.int(Int(value))) }
    func encode(_ value: UInt64) throws { result = Self.unsigned(value) }

    func encode<T: Encodable>(_ value: T) throws {
        // The value encodes into this same encoding (a wrapper that encodes its payload).
        if T.self == String.self || T.self == Int.self || T.self == Bool.self || T.self == Double.self
            || T.self == JSONValue.self || T.self == JSONObject.self || T.self == Float.self || T.self == Data.self
            || T.self == URL.self || T.self == Decimal.self
        {
            result = try box(value)
        } else {
            try value.encode(to: self)
        }
    }

    static func unsigned(_ value: UInt64) -> EncodedValue {
        value <= UInt64(Int.max) ? .json(.int(Int(value))) : .number(String(value))
    }
}

/// The encoder of `superEncoder()`: it hands its value to its container when released.
private final class SuperEncoding: Encoder {
    private let encoding: OrderedEncoding
    private let store: (EncodedValue) -> Void

    init(parent: OrderedEncoding, key: any CodingKey, store: @escaping (EncodedValue) -> Void) {
        encoding = parent.child(key)
        self.store = store
    }

    deinit { store(encoding.result ?? .object(EncodedObject())) }

    var codingPath: [any CodingKey] { encoding.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { encoding.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        encoding.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { encoding.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { encoding }
}

/// The coding key of an array element.
struct OrderedIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
