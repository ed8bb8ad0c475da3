import Foundation

/// The keyed container of ``OrderedEncoding``: members in the order they are encoded.
struct OrderedKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoding: OrderedEncoding
    let object: EncodedObject

    var codingPath: [any CodingKey] { encoding.codingPath }

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .json(.null)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .json(.bool(value))) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        object.set(key.stringValue, .json(.string(value)))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(key.stringValue, try encoding.boxDouble(value, at: key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(key.stringValue, try encoding.boxFloat(value, at: key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .json(.int(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        object.set(key.stringValue, OrderedEncoding.unsigned(UInt64(value)))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        object.set(key.stringValue, OrderedEncoding.unsigned(value))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try encoding.box(value, at: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: EncodedObject
        if case .object(let existing)? = object.value(key.stringValue) {
            nested = existing
        } else {
            nested = EncodedObject()
            object.set(key.stringValue, .object(nested))
        }
        let child = encoding.child(key)
        return KeyedEncodingContainer(OrderedKeyedEncodingContainer<NestedKey>(encoding: child, object: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: EncodedArray
        if case .array(let existing)? = object.value(key.stringValue) {
            nested = existing
        } else {
            nested = EncodedArray()
            object.set(key.stringValue, .array(nested))
        }
        let child = encoding.child(key)
        return OrderedUnkeyedEncodingContainer(encoding: child, array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        encoding.superEncoder(into: object, key: AnyCodingKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoding.superEncoder(into: object, key: key)
    }
}

/// The unkeyed container of ``OrderedEncoding``.
struct OrderedUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoding: OrderedEncoding
    let array: EncodedArray

    var codingPath: [any CodingKey] { encoding.codingPath }
    var count: Int { array.items.count }

    mutating func encodeNil() throws { array.items.append(.json(.null)) }
    mutating func encode(_ value: Bool) throws { array.items.append(.json(.bool(value))) }
    mutating func encode(_ value: String) throws { array.items.append(.json(.string(value))) }
    mutating func encode(_ value: Int) throws { array.items.append(.json(.int(value))) }
    mutating func encode(_ value: Double) throws {
        array.items.append(try encoding.boxDouble(value, at: OrderedIndexKey(count)))
    }
    mutating func encode(_ value: Float) throws {
        array.items.append(try encoding.boxFloat(value, at: OrderedIndexKey(count)))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try encoding.box(value, at: OrderedIndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        let child = encoding.child(OrderedIndexKey(count))
        array.items.append(.object(nested))
        return KeyedEncodingContainer(OrderedKeyedEncodingContainer<NestedKey>(encoding: child, object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let child = encoding.child(OrderedIndexKey(count))
        array.items.append(.array(nested))
        return OrderedUnkeyedEncodingContainer(encoding: child, array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        encoding.superEncoder(into: array, at: count)
    }
}
