/// A JSON object whose members keep their order: the order they arrived in when the SDK decoded
/// it (``OrderedJSONDecoder``), the order they were added in when built in code, and the order
/// the SDK writes them in (``OrderedJSONEncoder``).
///
/// It reads like a dictionary (`object["citations"]`, `object["n"] = 2`, `keys`, `values`) and
/// iterates as `(key, value)` pairs in order. Setting a member that is there replaces its value in
/// place; a new member goes last. Two objects are equal when they hold the same members with equal
/// values, whatever their order (RFC 8259 section 4: a JSON object is unordered); the order is
/// what the SDK writes, so the same object always gives the same bytes.
///
/// ```swift
/// var extra: JSONObject = ["top_k": 40, "min_p": 0.05]
/// extra["repetition_penalty"] = 1.1
/// extra.keys  // ["top_k", "min_p", "repetition_penalty"]
/// ```
public struct JSONObject: Sendable {
    /// The members, shared between copies until one of them changes (copy-on-write). `nil` for an
    /// empty object: every generated struct holds one, and most are empty, so it costs one word and
    /// no allocation.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        // `@unchecked Sendable`: mutated only through a `JSONObject` that holds the only reference
        // (`isKnownUniquelyReferenced`), as the standard library's collections are.
        var keys: [String]
        var values: [JSONValue]
        /// Positions by name, kept once the object outgrows a linear search.
        var positions: [String: Int]?

        init(keys: [String], values: [JSONValue], positions: [String: Int]?) {
            self.keys = keys
            self.values = values
            self.positions = positions
        }
    }

    @usableFromInline
    var storage: Storage?

    /// Objects with more members than this look names up in a dictionary.
    private static let linearSearchLimit = 12

    /// An empty object.
    public init() {}

    /// An object of `members`, in their order; a name given twice keeps its first position and
    /// its last value.
    ///
    /// - Parameter members: The members as `(name, value)` pairs.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        for (key, value) in members { self[key] = value }
    }

    /// An object of the members of `dictionary`, sorted by name: a dictionary has no order of its
    /// own, and sorting makes the bytes the same in every process.
    ///
    /// - Parameter dictionary: The members.
    public init(_ dictionary: [String: JSONValue]) {
        let keys = dictionary.keys.sorted()
        self.init(uniqueKeys: keys, values: keys.map { dictionary[$0]! })
    }

    /// An object from members known to have distinct names (the decoder's, whose objects were
    /// checked for repeated names).
    init(uniqueKeys keys: [String], values: [JSONValue]) {
        guard !keys.isEmpty else { return }
        storage = Storage(
            keys: keys, values: values, positions: keys.count > Self.linearSearchLimit ? Self.index(keys) : nil)
    }

    /// The members' names, in order.
    public var keys: [String] { storage?.keys ?? [] }

    /// The members' values, in the order of ``keys``.
    public var values: [JSONValue] { storage?.values ?? [] }

    /// The value of the member `key`, or `nil` when there is none. Setting a value replaces the
    /// member's value in place, or appends a new member; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { storage!.values[$0] } }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The value of the member `key`, or `defaultValue` when there is none; modifying it through
    /// this subscript adds the member.
    public subscript(key: String, default defaultValue: @autoclosure () -> JSONValue) -> JSONValue {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    /// Whether the object has a member named `key`.
    public func contains(key: String) -> Bool { position(of: key) != nil }

    /// The position of the member `key` in ``keys``, or `nil`.
    public func index(forKey key: String) -> Int? { position(of: key) }

    /// Sets the member `key` to `value` (in place, or last when it is new).
    ///
    /// - Returns: The value it replaced, or `nil` when the member is new.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let position = position(of: key) {
            let storage = uniqueStorage()
            let old = storage.values[position]
            storage.values[position] = value
            return old
        }
        append(key, value)
        return nil
    }

    /// Removes the member `key`; the others keep their order.
    ///
    /// - Returns: Its value, or `nil` when there was no such member.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let storage = uniqueStorage()
        storage.keys.remove(at: position)
        let value = storage.values.remove(at: position)
        storage.positions = storage.keys.count > Self.linearSearchLimit ? Self.index(storage.keys) : nil
        return value
    }

    /// Removes every member.
    public mutating func removeAll() {
        storage = nil
    }

    /// The object with each value transformed, in the same order.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        JSONObject(uniqueKeys: keys, values: try values.map(transform))
    }

    /// The object without the members for which `isIncluded` is `false`, in the same order.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> JSONObject {
        var result = JSONObject()
        for member in self where try isIncluded(member) { result.append(member.key, member.value) }
        return result
    }

    /// Adds or replaces the members of `other`, in its order.
    public mutating func merge(_ other: JSONObject) {
        for (key, value) in other { self[key] = value }
    }

    /// The members as a dictionary (their order is lost).
    public var dictionary: [String: JSONValue] {
        Dictionary(zip(keys, values), uniquingKeysWith: { first, _ in first })
    }

    /// Replaces the value at `position` through `body`, with the object's reference to it dropped
    /// meanwhile, so that a string or array in it grows in place (stream accumulation).
    mutating func modifyValue(at position: Int, _ body: (inout JSONValue) -> Void) {
        let storage = uniqueStorage()
        var value = storage.values[position]
        storage.values[position] = .null
        body(&value)
        storage.values[position] = value
    }

    private func position(of key: String) -> Int? {
        guard let storage else { return nil }
        if let positions = storage.positions { return positions[key] }
        return storage.keys.firstIndex(of: key)
    }

    /// The storage, made first or copied when it is shared.
    private mutating func uniqueStorage() -> Storage {
        if storage == nil {
            storage = Storage(keys: [], values: [], positions: nil)
        } else if !isKnownUniquelyReferenced(&storage!) {
            storage = Storage(keys: storage!.keys, values: storage!.values, positions: storage!.positions)
        }
        return storage!
    }

    private mutating func append(_ key: String, _ value: JSONValue) {
        let storage = uniqueStorage()
        storage.keys.append(key)
        storage.values.append(value)
        if storage.positions != nil {
            storage.positions![key] = storage.keys.count - 1
        } else if storage.keys.count > Self.linearSearchLimit {
            storage.positions = Self.index(storage.keys)
        }
    }

    private static func index(_ keys: [String]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() where positions[key] == nil { positions[key] = position }
        return positions
    }
}

extension JSONObject: RandomAccessCollection {
    /// A member: its name and value.
    public typealias Element = (key: String, value: JSONValue)

    /// The position of the first member.
    public var startIndex: Int { 0 }
    /// The position after the last member.
    public var endIndex: Int { storage?.keys.count ?? 0 }
    /// The member at `position`.
    public subscript(position: Int) -> Element { (storage!.keys[position], storage!.values[position]) }
}

extension JSONObject: Hashable {
    /// Whether both objects hold the same members with equal values, in any order.
    @inlinable
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        // Inlined for the common case, two empty objects: every generated struct compares one.
        if lhs.storage == nil && rhs.storage == nil { return true }
        return haveEqualMembers(lhs, rhs)
    }

    @usableFromInline
    static func haveEqualMembers(_ lhs: JSONObject, _ rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.storage === rhs.storage { return true }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for (key, value) in lhs {
            guard rhs[key] == value else { return false }
        }
        return true
    }

    /// Hashes the members whatever their order, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, value) in self {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object of the literal's members, in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Codable {
    /// Decodes a JSON object: in the order received from ``OrderedJSONDecoder``, sorted by name
    /// from a decoder that keeps no order (Foundation's `JSONDecoder`).
    ///
    /// - Throws: `DecodingError` when the value is not a JSON object.
    public init(from decoder: any Decoder) throws {
        guard case .object(let object) = try JSONValue(from: decoder) else {
            throw DecodingError.typeMismatch(
                JSONObject.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Expected a JSON object."))
        }
        self = object
    }

    /// Encodes the members in order.
    ///
    /// - Throws: `EncodingError` when a value cannot be encoded (a number that is not finite).
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(self).encode(to: encoder)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text, members in order.
    public var description: String { JSONValue.object(self).jsonText }
}
