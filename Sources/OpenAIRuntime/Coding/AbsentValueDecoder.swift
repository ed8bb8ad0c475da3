/// A `Decoder` for a value that is not there: every keyed container is empty, every unkeyed
/// container is at its end and every single value is `null`.
///
/// Decoding a generated struct from it gives the struct's placeholder (see ``MissingValue``):
/// each member takes its own placeholder and is recorded as missing in the struct's
/// ``SpecDeviations``.
struct AbsentValueDecoder: Decoder {
    /// How deep placeholder structs may nest (a schema that requires itself stops here).
    static let maximumDepth = 32

    /// How many placeholder structs enclose this one, counting itself.
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(depth: Int, codingPath: [any CodingKey]) {
        self.depth = depth
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(AbsentKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        AbsentUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        AbsentSingleValueContainer(codingPath: codingPath)
    }

    fileprivate func notFound<T>(_ type: T.Type, _ key: (any CodingKey)?) -> DecodingError {
        if let key {
            return .keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "Absent."))
        }
        return absent(type, codingPath)
    }
}

/// The error of a value that is not there.
private func absent<T>(_ type: T.Type, _ codingPath: [any CodingKey]) -> DecodingError {
    .valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "Absent."))
}

private struct AbsentKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: AbsentValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw decoder.notFound(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { throw decoder.notFound(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw decoder.notFound(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw decoder.notFound(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { throw decoder.notFound(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw decoder.notFound(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw decoder.notFound(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw decoder.notFound(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw decoder.notFound(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw decoder.notFound(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw decoder.notFound(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw decoder.notFound(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw decoder.notFound(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw decoder.notFound(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw decoder.notFound(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw decoder.notFound(type, key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw decoder.notFound(Any.self, key)
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

private struct AbsentUnkeyedContainer: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private func atEnd<T>(_ type: T.Type) -> DecodingError { absent(type, codingPath) }

    mutating func decodeNil() throws -> Bool { throw atEnd(Any.self) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw atEnd(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw atEnd(type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw atEnd(Any.self) }
    mutating func superDecoder() throws -> any Decoder { throw atEnd(Any.self) }
}

private struct AbsentSingleValueContainer: SingleValueDecodingContainer {
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { throw absent(type, codingPath) }
}
