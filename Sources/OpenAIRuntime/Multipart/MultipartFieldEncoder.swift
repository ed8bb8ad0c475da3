import Foundation

/// One form field's value, before it is flattened into parts.
indirect enum FormValue {
    case absent
    case text(String)
    case file(FileUpload)
    case array([FormValue])
    /// Members in the order encoded.
    case object([(key: String, value: FormValue)])
}

/// Encodes any `Encodable` value into a ``FormValue`` tree, keeping every ``FileUpload`` (and
/// every `Data`, which becomes a file with a default name) as a file wherever it sits: in a
/// union, an array or an object.
///
/// Scalars become text the way the API reads them: booleans `true`/`false`, integers in decimal,
/// floating-point numbers in plain decimal (never scientific notation).
struct MultipartFieldEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Encodes `value` into a tree.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` for a non-finite
    ///   number; the value's own encoding errors.
    static func encode(_ value: some Encodable, codingPath: [any CodingKey] = []) throws -> FormValue {
        let node = Node()
        try encodeValue(value, into: node, codingPath: codingPath)
        return node.resolved()
    }

    static func encodeValue(_ value: some Encodable, into node: Node, codingPath: [any CodingKey]) throws {
        if let text = try Self.text(value) {
            node.kind = .value(.text(text))
        } else if let data = value as? Data {
            node.kind = .value(.file(FileUpload(data: data)))
        } else {
            try value.encode(to: MultipartFieldEncoder(node: node, codingPath: codingPath))
        }
    }

    /// Text for scalar values, `nil` for anything else.
    static func text(_ value: Any) throws -> String? {
        switch value {
        case let value as String: return value
        case let value as Bool: return value ? "true" : "false"
        case let value as Double: return try plainDecimal(value)
        case let value as Float: return try plainDecimal(Double(value.description) ?? Double(value))
        case let value as any BinaryInteger: return String(describing: value)
        case let value as Decimal: return value.description
        default: return nil
        }
    }

    /// `value` in plain decimal notation: `0.0000001`, `100000000000000000000`, `0.5`, `3`.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` for NaN or infinity.
    static func plainDecimal(_ value: Double) throws -> String {
        guard value.isFinite else {
            throw OpenAIError(kind: .invalidRequest, message: "\(value) cannot be sent in a form.")
        }
        let shortest = "\(value)"  // shortest round-trip form, e.g. "1e-07", "1.5e+20", "0.1"
        let negative = shortest.hasPrefix("-")
        let unsigned = negative ? String(shortest.dropFirst()) : shortest
        let parts = unsigned.lowercased().split(separator: "e", omittingEmptySubsequences: false)
        let mantissa = String(parts[0])
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let pointIndex = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
        var digits = mantissa.replacingOccurrences(of: ".", with: "")
        var point = (pointIndex ?? mantissa.count) + exponent
        // Drop leading zeros of the integer part, keeping one digit before the point.
        while digits.count > 1, digits.hasPrefix("0"), point > 1 {
            digits.removeFirst()
            point -= 1
        }
        var integer: String
        var fraction: String
        if point <= 0 {
            integer = "0"
            fraction = String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            integer = digits + String(repeating: "0", count: point - digits.count)
            fraction = ""
        } else {
            integer = String(digits.prefix(point))
            fraction = String(digits.dropFirst(point))
        }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if integer.isEmpty { integer = "0" }
        let body = fraction.isEmpty ? integer : integer + "." + fraction
        return negative && body != "0" ? "-" + body : body
    }

    /// Records `file` as this value (called by ``FileUpload/encode(to:)``).
    func recordFile(_ file: FileUpload) {
        node.kind = .value(.file(file))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

extension MultipartFieldEncoder {
    /// A mutable tree node the containers write into.
    final class Node {
        enum Kind {
            case empty
            case value(FormValue)
            case array([Node])
            case object([(key: String, node: Node)])
        }

        var kind = Kind.empty

        func becomeObject() {
            if case .object = kind { return }
            kind = .object([])
        }

        func becomeArray() {
            if case .array = kind { return }
            kind = .array([])
        }

        func child(forKey key: String) -> Node {
            let child = Node()
            if case .object(var members) = kind {
                members.removeAll { $0.key == key }
                members.append((key, child))
                kind = .object(members)
            }
            return child
        }

        func appendChild() -> Node {
            let child = Node()
            if case .array(var elements) = kind {
                elements.append(child)
                kind = .array(elements)
            }
            return child
        }

        var count: Int {
            switch kind {
            case .array(let elements): elements.count
            case .object(let members): members.count
            default: 0
            }
        }

        func resolved() -> FormValue {
            switch kind {
            case .empty: .absent
            case .value(let value): value
            case .array(let elements): .array(elements.map { $0.resolved() })
            case .object(let members): .object(members.map { ($0.key, $0.node.resolved()) })
            }
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).kind = .value(.absent) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try MultipartFieldEncoder.encodeValue(
                value, into: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = node.child(forKey: key.stringValue)
            child.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.child(forKey: key.stringValue)
            child.becomeArray()
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            MultipartFieldEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            MultipartFieldEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.count }

        mutating func encodeNil() throws { node.appendChild().kind = .value(.absent) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try MultipartFieldEncoder.encodeValue(
                value, into: node.appendChild(), codingPath: codingPath + [AnyCodingKey(intValue: count)])
        }

        /// `Data.encode(to:)` writes its bytes with this call: the bytes of a file.
        mutating func encode<T: Sequence>(contentsOf sequence: T) throws where T.Element == UInt8 {
            if node.count == 0 {
                node.kind = .value(.file(FileUpload(data: Data(sequence))))
            } else {
                for byte in sequence { try encode(byte) }
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = node.appendChild()
            child.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = node.appendChild()
            child.becomeArray()
            return UnkeyedContainer(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            MultipartFieldEncoder(node: node.appendChild(), codingPath: codingPath)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.kind = .value(.absent) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try MultipartFieldEncoder.encodeValue(value, into: node, codingPath: codingPath)
        }

        mutating func encode(_ value: Bool) throws { node.kind = .value(.text(value ? "true" : "false")) }
        mutating func encode(_ value: String) throws { node.kind = .value(.text(value)) }
        mutating func encode(_ value: Double) throws {
            node.kind = .value(.text(try MultipartFieldEncoder.plainDecimal(value)))
        }
        mutating func encode(_ value: Float) throws { try encode(Double(value.description) ?? Double(value)) }
        mutating func encode(_ value: Int) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: Int8) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: Int16) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: Int32) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: Int64) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: UInt) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: UInt8) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: UInt16) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: UInt32) throws { node.kind = .value(.text(String(value))) }
        mutating func encode(_ value: UInt64) throws { node.kind = .value(.text(String(value))) }
    }
}
