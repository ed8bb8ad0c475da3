import Foundation

/// Decodes `Decodable` values from JSON text, keeping the order of every object's members: the
/// decoder of every reply and stream event the SDK receives.
///
/// What differs from Foundation's `JSONDecoder`:
/// - a keyed container's `allKeys` are in the order the members arrived, so a generated type's
///   `undeclaredMembers` and a ``JSONValue``'s objects keep the server's
///   order, and encoding them again (``OrderedJSONEncoder``) gives the same order back;
/// - members are looked up by comparing bytes, without building a `String` per name;
/// - a syntax error is a `DecodingError.dataCorrupted` whose underlying error is a
///   ``JSONSyntaxError`` naming the byte offset, line and column;
/// - control characters inside strings are accepted unescaped, and a `\u` escape of half a
///   surrogate pair reads as U+FFFD.
///
/// What is the same: the error cases and coding paths (`keyNotFound`, `valueNotFound` for `null`,
/// `typeMismatch`, `dataCorrupted` for a number that does not fit its type), a member named twice
/// read as its first value, integers read from `1e3` or `2.0` when the value is exact, `Data` read
/// from base64 text, `URL` from a string, `Date` from its own encoding (seconds since 2001), nesting
/// limited to 512 levels, a comma before the end of an array or object accepted, and text that is not
/// UTF-8 rejected.
public struct OrderedJSONDecoder: Sendable {
    /// Values for the `Decodable` implementations to read, as `JSONDecoder.userInfo`; set
    /// `.openAIDecodingMode` to ``DecodingMode/strict`` for strict decoding.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder.
    public init() {}

    /// Decodes a value of `type` from JSON text.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The UTF-8 bytes of one JSON value.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError.dataCorrupted` (underlying error ``JSONSyntaxError``) when `data`
    ///   is not JSON; otherwise the `DecodingError` the type throws, with its coding path.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, fromBytes: data)
    }

    /// Decodes a value of `type` from the bytes of JSON text.
    ///
    /// - Throws: As ``decode(_:from:)``.
    package func decode<T: Decodable>(_ type: T.Type, fromBytes bytes: some Collection<UInt8>) throws -> T {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes)
        } catch let error as JSONSyntaxError {
            let what = error.exceedsLimit ? "is valid JSON beyond what this decoder reads" : "was not valid JSON"
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data \(what): \(error).", underlyingError: error))
        }
        return try OrderedDecoding(document, userInfo: userInfo).decodeHere(T.self, at: 0)
    }
}

/// The `Decoder` of one document: one instance serves every value inside it, moving to the value
/// being decoded and back (the containers keep the node they read).
final class OrderedDecoding: Decoder {
    /// One step of a coding path: a member (by its name's node), an element, or a key given by
    /// the caller (`superDecoder(forKey:)`).
    enum PathComponent {
        case member(Int)
        case index(Int)
        case key(any CodingKey)
    }

    let document: JSONDocument
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether `userInfo` asks for ``DecodingMode/strict``: read once, not per object.
    let isStrict: Bool
    /// The node being decoded.
    var node: Int
    /// The coding path of the node being decoded.
    private(set) var path: [PathComponent]

    convenience init(_ document: JSONDocument, userInfo: [CodingUserInfoKey: any Sendable]) {
        var options: [CodingUserInfoKey: Any] = [:]
        for (key, value) in userInfo { options[key] = value }
        self.init(
            document, userInfo: options, isStrict: (userInfo[.openAIDecodingMode] as? DecodingMode) == .strict,
            node: 0, path: [])
    }

    init(
        _ document: JSONDocument, userInfo: [CodingUserInfoKey: Any], isStrict: Bool, node: Int,
        path: [PathComponent]
    ) {
        self.document = document
        self.userInfo = userInfo
        self.isStrict = isStrict
        self.node = node
        self.path = path
        self.path.reserveCapacity(16)
    }

    var codingPath: [any CodingKey] { codingPath(depth: path.count) }

    /// The coding path of the first `depth` steps.
    func codingPath(depth: Int) -> [any CodingKey] {
        path.prefix(depth).map { component -> any CodingKey in
            switch component {
            case .member(let name): AnyCodingKey(document.string(at: name))
            case .index(let index): OrderedIndexKey(index)
            case .key(let key): key
            }
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try expect(.object, KeyedDecodingContainer<Key>.self)
        return KeyedDecodingContainer(
            OrderedKeyedDecodingContainer<Key>(decoding: self, object: node, depth: path.count))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try expect(.array, (any UnkeyedDecodingContainer).self)
        return OrderedUnkeyedDecodingContainer(decoding: self, array: node, depth: path.count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Throws unless the current node is of `kind`: `valueNotFound` for `null`, `typeMismatch`
    /// otherwise.
    func expect<T>(_ kind: JSONDocument.Node.Kind, _ type: T.Type) throws {
        let found = document.nodes[node].kind
        guard found != kind else { return }
        if found == .null {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription:
                        "Cannot get \(kind == .object ? "keyed" : "unkeyed") decoding container -- found null value instead"
                ))
        }
        throw mismatch(kind == .object ? [String: Any].self : [Any].self, at: node)
    }

    // MARK: Values

    /// Decodes the value at `index`, a step below the current path.
    @inline(__always)
    func decode<T: Decodable>(_ type: T.Type, at index: Int, _ component: PathComponent) throws -> T {
        path.append(component)
        defer { path.removeLast() }
        return try decodeHere(T.self, at: index)
    }

    /// Decodes the value at `index` at the current path.
    func decodeHere<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if T.self == String.self { return try string(at: index) as! T }
        if T.self == Int.self { return try integer(Int.self, at: index) as! T }
        if T.self == Double.self { return try double(at: index) as! T }
        if T.self == Bool.self { return try bool(at: index) as! T }
        if T.self == JSONValue.self { return value(at: index) as! T }
        if T.self == Float.self { return try float(at: index) as! T }
        if T.self == JSONObject.self, document.nodes[index].kind == .object { return object(at: index) as! T }
        if T.self == Data.self { return try data(at: index) as! T }
        if T.self == URL.self { return try url(at: index) as! T }
        if T.self == Decimal.self { return try decimal(at: index) as! T }
        let saved = node
        node = index
        defer { node = saved }
        return try T(from: self)
    }

    func isNull(_ index: Int) -> Bool { document.nodes[index].kind == .null }

    func string(at index: Int) throws -> String {
        guard document.nodes[index].kind == .string else { throw mismatch(String.self, at: index) }
        return document.string(at: index)
    }

    func bool(at index: Int) throws -> Bool {
        switch document.nodes[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: index)
        }
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int) throws -> T {
        let node = document.nodes[index]
        guard node.kind == .number else { throw mismatch(T.self, at: index) }
        let text = document.text(node)
        if node.flag, let value = Self.parseInteger(T.self, text) { return value }
        // A fraction or an exponent: exact values only, in decimal (through `Double`,
        // `1000000000000000.1e+1` would read as 10000000000000000).
        if !node.flag, let value = Self.parseExactInteger(T.self, text) { return value }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "Parsed JSON number <\(String(decoding: text, as: UTF8.self))> does not fit in \(T.self)."))
    }

    /// The integer of an integer's text (`-?[0-9]+`), or `nil` when it overflows `T`.
    @inline(__always)
    static func parseInteger<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafeBufferPointer<UInt8>) -> T? {
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative {
            guard T.isSigned else { return text.count == 2 && text[1] == UInt8(ascii: "0") ? 0 : nil }
            index = 1
        }
        var value: T = 0
        while index < text.count {
            let digit = T(text[index] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The integer a number's text (`-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?`) denotes exactly, or `nil`
    /// when it has a fraction left or overflows `T`.
    static func parseExactInteger<T: FixedWidthInteger>(_ type: T.Type, _ text: UnsafeBufferPointer<UInt8>) -> T? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while index < text.count, text[index] != UInt8(ascii: "e"), text[index] != UInt8(ascii: "E") {
            if text[index] == UInt8(ascii: ".") {
                inFraction = true
            } else {
                digits.append(text[index] &- UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        var exponent = 0
        if index < text.count {
            index += 1
            let negativeExponent = index < text.count && text[index] == UInt8(ascii: "-")
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
            while index < text.count {
                // Past a million, only a value of zero can fit: the exact figure no longer matters.
                exponent = min(exponent * 10 + Int(text[index] &- UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        // value = digits × 10^scale; trailing zeros move into the scale.
        var scale = exponent - fractionDigits
        while let last = digits.last, last == 0, scale < 0 {
            digits.removeLast()
            scale += 1
        }
        if digits.allSatisfy({ $0 == 0 }) { return 0 }
        guard scale >= 0 else { return nil }
        var value: T = 0
        for digit in digits + Array(repeating: 0, count: min(scale, T.bitWidth)) {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    func double(at index: Int) throws -> Double {
        let node = document.nodes[index]
        guard node.kind == .number else { throw mismatch(Double.self, at: index) }
        let text = document.text(node)
        if node.flag, text.count <= 15, let value = Self.parseInteger(Int.self, text) { return Double(value) }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Number <\(String(decoding: text, as: UTF8.self))> is beyond a Double's range."))
        }
        return value
    }

    func float(at index: Int) throws -> Float {
        let value = try double(at: index)
        let narrowed = Float(value)
        guard narrowed.isFinite else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Number <\(value)> does not fit in Float."))
        }
        return narrowed
    }

    private func data(at index: Int) throws -> Data {
        guard let data = Data(base64Encoded: try string(at: index)) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64.")
            )
        }
        return data
    }

    private func url(at index: Int) throws -> URL {
        guard let url = URL(string: try string(at: index)) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "Invalid URL string."))
        }
        return url
    }

    private func decimal(at index: Int) throws -> Decimal {
        let node = document.nodes[index]
        guard node.kind == .number, let value = Decimal(string: String(decoding: document.text(node), as: UTF8.self))
        else { throw mismatch(Decimal.self, at: index) }
        return value
    }

    /// The value at `index` as a ``JSONValue``, objects in the order received.
    func value(at index: Int) -> JSONValue {
        let node = document.nodes[index]
        switch node.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .string: return .string(document.string(at: index))
        case .number:
            let text = document.text(node)
            if node.flag, let value = Self.parseInteger(Int.self, text) { return .int(value) }
            // An integer written with a fraction or an exponent (`2.0`, `1e3`), exactly, in decimal.
            if !node.flag, let value = Self.parseExactInteger(Int.self, text) { return .int(value) }
            let value = Double(String(decoding: text, as: UTF8.self)) ?? .infinity
            // A double whose value is integral (`1e-400`, `4.9999999999999999999e17`) is that integer, so that
            // writing it again gives the same text.
            if let integer = Int(exactly: value) { return .int(integer) }
            return .double(value)
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(node.length))
            var element = index + 1
            for _ in 0..<node.length {
                elements.append(value(at: element))
                element = document.after(element)
            }
            return .array(elements)
        case .object:
            return .object(object(at: index))
        }
    }

    /// The object at `index`; a member named twice keeps its first value.
    func object(at index: Int) -> JSONObject {
        let node = document.nodes[index]
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(Int(node.length))
        values.reserveCapacity(Int(node.length))
        var seen: Set<String>? = node.length > 12 ? Set(minimumCapacity: Int(node.length)) : nil
        var name = index + 1
        for _ in 0..<node.length {
            let key = document.string(at: name)
            let isFirst = seen != nil ? seen!.insert(key).inserted : !keys.contains(key)
            if isFirst {
                keys.append(key)
                values.append(value(at: name + 1))
            }
            name = document.after(name + 1)
        }
        return JSONObject(uniqueKeys: keys, values: values)
    }

    func mismatch(_ type: Any.Type, at index: Int) -> DecodingError {
        let found: String
        switch document.nodes[index].kind {
        case .null: found = "null"
        case .true, .false: found = "a boolean"
        case .number: found = "a number"
        case .string: found = "a string"
        case .array: found = "an array"
        case .object: found = "a dictionary"
        }
        if document.nodes[index].kind == .null {
            return .valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }
}

extension OrderedDecoding: SingleValueDecodingContainer {
    func decodeNil() -> Bool { isNull(node) }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: node) }
    func decode(_ type: String.Type) throws -> String { try string(at: node) }
    func decode(_ type: Double.Type) throws -> Double { try double(at: node) }
    func decode(_ type: Float.Type) throws -> Float { try float(at: node) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self, at: node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self, at: node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self, at: node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self, at: node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self, at: node) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self, at: node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self, at: node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self, at: node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self, at: node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self, at: node) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeHere(T.self, at: node) }
}

extension OrderedDecoding {
    /// `decoder` as an ``OrderedDecoding``, looking through the decoder a union hands its cases.
    @inline(__always)
    static func unwrapping(_ decoder: any Decoder) -> OrderedDecoding? {
        // Metatype comparisons first: a failed cast of an existential is not cheap.
        let type = type(of: decoder)
        if type == OrderedDecoding.self { return decoder as? OrderedDecoding }
        guard type == UnionCaseDecoder.self else { return nil }
        return (decoder as? UnionCaseDecoder)?.base as? OrderedDecoding
    }
}
