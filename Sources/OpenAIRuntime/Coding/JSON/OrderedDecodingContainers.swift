import Foundation

/// The keyed container of ``OrderedDecoding``: an object's members, looked up by comparing bytes;
/// `allKeys` in the order received.
struct OrderedKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoding: OrderedDecoding
    /// The object's node.
    let object: Int
    /// The length of the object's coding path.
    let depth: Int

    var codingPath: [any CodingKey] { decoding.codingPath(depth: depth) }

    var allKeys: [Key] {
        let document = decoding.document
        var keys: [Key] = []
        var seen: Set<String> = []
        var name = object + 1
        for _ in 0..<document.nodes[object].length {
            let text = document.string(at: name)
            if seen.insert(text).inserted, let key = Key(stringValue: text) { keys.append(key) }
            name = document.after(name + 1)
        }
        return keys
    }

    /// The node of the member `key`'s name (its value is the next node), or `nil`.
    private func find(_ key: Key) -> Int? {
        var text = key.stringValue
        return text.withUTF8 { decoding.document.member(in: object, named: $0) }
    }

    private func member(_ key: Key) throws -> Int {
        guard let name = find(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key.stringValue) (\"\(key.stringValue)\")."))
        }
        return name
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { decoding.isNull(try member(key) + 1) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let name = try member(key)
        return try decoding.decode(T.self, at: name + 1, .member(name))
    }

    // One lookup for `decodeIfPresent` (the protocol's default looks the member up three times).
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try valueIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try valueIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try valueIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try valueIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try valueIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try valueIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try valueIfPresent(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try valueIfPresent(type, key)
    }

    private func valueIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let name = find(key), !decoding.isNull(name + 1) else { return nil }
        return try decoding.decode(T.self, at: name + 1, .member(name))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let name = try member(key)
        return try decoding.detached(at: name + 1, depth: depth, .member(name)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let name = try member(key)
        return try decoding.detached(at: name + 1, depth: depth, .member(name)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: AnyCodingKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key)
    }

    /// A decoder of the member `key`; a member that is absent reads as `null`.
    private func superDecoder(named key: some CodingKey) throws -> any Decoder {
        var text = key.stringValue
        guard let name = text.withUTF8({ decoding.document.member(in: object, named: $0) }) else {
            return AbsentValueDecoder(depth: 0, codingPath: codingPath + [key])
        }
        return decoding.detached(at: name + 1, depth: depth, .member(name))
    }
}

/// The unkeyed container of ``OrderedDecoding``: an array's elements in order.
struct OrderedUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoding: OrderedDecoding
    let array: Int
    let depth: Int
    /// The node of the element at ``currentIndex``.
    private var element: Int
    private(set) var currentIndex = 0
    let count: Int?

    init(decoding: OrderedDecoding, array: Int, depth: Int) {
        self.decoding = decoding
        self.array = array
        self.depth = depth
        element = array + 1
        count = Int(decoding.document.nodes[array].length)
    }

    var codingPath: [any CodingKey] { decoding.codingPath(depth: depth) }
    var isAtEnd: Bool { currentIndex >= count! }

    private func atEnd<T>(_ type: T.Type) -> DecodingError {
        .valueNotFound(
            type,
            DecodingError.Context(
                codingPath: codingPath + [OrderedIndexKey(currentIndex)],
                debugDescription: "Unkeyed container is at end."))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Any?.self) }
        guard decoding.isNull(element) else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw atEnd(type) }
        let value = try decoding.decode(T.self, at: element, .index(currentIndex))
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard !isAtEnd else { throw atEnd(type) }
        let container = try decoding.detached(at: element, depth: depth, .index(currentIndex)).container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard !isAtEnd else { throw atEnd((any UnkeyedDecodingContainer).self) }
        let container = try decoding.detached(at: element, depth: depth, .index(currentIndex)).unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        guard !isAtEnd else { throw atEnd((any Decoder).self) }
        let decoder = decoding.detached(at: element, depth: depth, .index(currentIndex))
        advance()
        return decoder
    }

    private mutating func advance() {
        element = decoding.document.after(element)
        currentIndex += 1
    }
}

extension OrderedDecoding {
    /// A decoding of its own for the value at `index`, with the first `depth` steps of this path
    /// and `step`: for containers and decoders that outlive the current step.
    func detached(at index: Int, depth: Int, _ step: PathComponent) -> OrderedDecoding {
        OrderedDecoding(
            document, userInfo: userInfo, isStrict: isStrict, node: index, path: path.prefix(depth) + [step])
    }
}

extension JSONDocument {
    /// The node of the first member of the object at `object` named `name`, or `nil`.
    func member(in object: Int, named name: UnsafeBufferPointer<UInt8>) -> Int? {
        var member = object + 1
        for _ in 0..<nodes[object].length {
            if self.name(at: member, equals: name) { return member }
            member = after(member + 1)
        }
        return nil
    }
}
