import Foundation

/// One JSON text parsed into a flat list of nodes in document order: what ``OrderedJSONDecoder``
/// decodes from. A string or number node records where its text is, so a value is converted only
/// when a type asks for it, and a member name is compared as bytes, never turned into a `String`
/// to be looked up.
///
/// The parser follows RFC 8259: one value, surrounded by whitespace, a UTF-8 byte order mark
/// ignored at the start. It rejects what is not JSON (naming the byte offset, line and column),
/// text that is not UTF-8 in a string, and nesting deeper than ``maxDepth``. It accepts control
/// characters inside strings unescaped (servers that forget to escape a tab still decode), a `\u`
/// escape of half a surrogate pair, which decodes as U+FFFD, and a comma before the end of an array
/// or object (`[1, 2,]`), as Foundation's `JSONDecoder` does.
final class JSONDocument {
    /// The deepest nesting of objects and arrays read, as Foundation's `JSONDecoder` (512).
    static let maxDepth = 512

    /// One value, or one member name.
    struct Node {
        enum Kind: UInt8 {
            case null, `true`, `false`, number, string, array, object
        }

        var kind: Kind
        /// Strings: whether the text holds an escape. Numbers: whether the text is an integer
        /// (no fraction, no exponent).
        var flag: Bool
        /// Strings: the offset of the first byte after the opening quote. Numbers: of the first byte.
        var start: UInt32
        /// Strings and numbers: the text's length in bytes. Arrays: the element count. Objects:
        /// the member count.
        var length: UInt32
        /// The index of the node after this value and everything inside it.
        var end: UInt32
    }

    /// The JSON text.
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The nodes: an object's members are its name node then its value's nodes, in order.
    let nodes: UnsafeMutableBufferPointer<Node>

    /// Parses `data`.
    ///
    /// - Throws: ``JSONSyntaxError`` when `data` is not one JSON value.
    init(_ data: some Collection<UInt8>) throws {
        let count = data.count
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
        let copied: Bool? = data.withContiguousStorageIfAvailable { source in
            if let base = source.baseAddress, count > 0 { storage.baseAddress!.initialize(from: base, count: count) }
            return true
        }
        if copied == nil { _ = storage.initialize(from: data) }
        let parsed: [Node]
        do {
            var parser = JSONParser(UnsafeBufferPointer(storage))
            parsed = try parser.parse()
        } catch {
            // Thrown before every member is set: `deinit` does not run, the storage is freed here.
            storage.deallocate()
            throw error
        }
        bytes = storage
        nodes = .allocate(capacity: parsed.count)
        _ = nodes.initialize(from: parsed)
    }

    deinit {
        bytes.deallocate()
        nodes.deallocate()
    }

    /// The text of a string or number node, as bytes.
    @inline(__always)
    func text(_ node: Node) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.start) + Int(node.length)])
    }

    /// The value of the string node at `index`, escapes resolved.
    func string(at index: Int) -> String {
        let node = nodes[index]
        let text = text(node)
        guard node.flag else { return String(decoding: text, as: UTF8.self) }
        return Self.unescape(text)
    }

    /// Whether the member name at `index` is `name`.
    @inline(__always)
    func name(at index: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[index]
        guard !node.flag else { return Array(string(at: index).utf8).elementsEqual(name) }
        guard Int(node.length) == name.count else { return false }
        guard let base = name.baseAddress, name.count > 0 else { return true }
        return memcmp(bytes.baseAddress! + Int(node.start), base, name.count) == 0
    }

    /// The node after the value at `index` (the next member's name, the next element, or past
    /// the container).
    @inline(__always)
    func after(_ index: Int) -> Int { Int(nodes[index].end) }

    /// Resolves the escapes of a string's text (checked by the parser).
    private static func unescape(_ text: UnsafeBufferPointer<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = 0
        var pendingHigh: UInt16?
        func appendScalar(_ value: UInt32) {
            UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { result.append($0) }
        }
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\") else {
                if pendingHigh != nil {
                    appendScalar(0xFFFD)
                    pendingHigh = nil
                }
                result.append(byte)
                index += 1
                continue
            }
            let escape = text[index + 1]
            index += 2
            if escape == UInt8(ascii: "u") {
                var unit: UInt16 = 0
                for offset in 0..<4 { unit = unit << 4 | UInt16(JSONParser.hexValue(text[index + offset])!) }
                index += 4
                switch unit {
                case 0xD800...0xDBFF:
                    if pendingHigh != nil { appendScalar(0xFFFD) }
                    pendingHigh = unit
                case 0xDC00...0xDFFF:
                    if let high = pendingHigh {
                        appendScalar(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00))
                        pendingHigh = nil
                    } else {
                        appendScalar(0xFFFD)
                    }
                default:
                    if pendingHigh != nil {
                        appendScalar(0xFFFD)
                        pendingHigh = nil
                    }
                    appendScalar(UInt32(unit))
                }
                continue
            }
            if pendingHigh != nil {
                appendScalar(0xFFFD)
                pendingHigh = nil
            }
            switch escape {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            default: result.append(escape)  // `"`, `\`, `/`
            }
        }
        if pendingHigh != nil { appendScalar(0xFFFD) }
        return String(decoding: result, as: UTF8.self)
    }
}

/// Why a text cannot be read: it is not JSON, or it is JSON beyond what the decoder reads
/// (``exceedsLimit``); what was found, at which byte offset, line and column (1-based).
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. "the text ends inside a string".
    public var reason: String
    /// The offset of the byte where the text stops being JSON.
    public var offset: Int
    /// The line of that byte (1-based; lines end at LF).
    public var line: Int
    /// The column of that byte (1-based, in bytes).
    public var column: Int
    /// Whether the text is valid JSON (RFC 8259) beyond the decoder's limits: nesting deeper than
    /// 512 levels, or a number beyond a `Double`'s range (`1e400`).
    public var exceedsLimit = false

    /// `reason at line L, column C (byte B)`.
    public var description: String { "\(reason) at line \(line), column \(column) (byte \(offset))" }
}

/// The parser behind ``JSONDocument``: one pass over the bytes, no recursion (nesting is a stack
/// of open containers, bounded by ``JSONDocument/maxDepth``).
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var nodes: [JSONDocument.Node] = []
    /// The open containers: their node index and how many values they hold so far.
    private var open: [(node: Int, count: UInt32)] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        nodes.reserveCapacity(max(16, bytes.count / 8))
    }

    mutating func parse() throws -> [JSONDocument.Node] {
        guard bytes.count < Int(UInt32.max) else {
            throw error("the text is longer than 4 GiB, the most this decoder reads", at: 0)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        parsing: while true {
            // A container that opened with a value to come: read it.
            guard try value() else { continue parsing }
            // After a value: close containers, or go on after a comma.
            while true {
                skipWhitespace()
                guard !open.isEmpty else { break parsing }
                open[open.count - 1].count += 1
                let container = open[open.count - 1]
                let isObject = nodes[container.node].kind == .object
                guard position < bytes.count else {
                    throw error("the text ends inside \(isObject ? "an object" : "an array")", at: position)
                }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    // A comma before the end (`[1, 2,]`), as Foundation's JSONDecoder reads it.
                    if position < bytes.count, bytes[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        close()
                        continue
                    }
                    if isObject { try memberName() }
                    continue parsing
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw unexpected(expecting: isObject ? "`,` or `}`" : "`,` or `]`")
                }
                position += 1
                close()
            }
        }
        guard position == bytes.count else { throw unexpected(expecting: "the end of the text") }
        return nodes
    }

    /// Reads one value, or opens a container and reads up to its first value.
    ///
    /// - Returns: Whether a value is complete; `false` when a container opened and its first
    ///   value comes next.
    private mutating func value() throws -> Bool {
        guard position < bytes.count else { throw error("the text ends where a value should be", at: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = bytes[position] == UInt8(ascii: "{")
            guard open.count < JSONDocument.maxDepth else {
                var error = error(
                    "objects and arrays nest deeper than \(JSONDocument.maxDepth) levels, the most this decoder reads",
                    at: position)
                error.exceedsLimit = true
                throw error
            }
            open.append((nodes.count, 0))
            nodes.append(.init(kind: isObject ? .object : .array, flag: false, start: 0, length: 0, end: 0))
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                position += 1
                close()
                return true
            }
            if isObject { try memberName() }
            return false
        case UInt8(ascii: "\""):
            try string()
        case UInt8(ascii: "t"):
            try literal("true", .true)
        case UInt8(ascii: "f"):
            try literal("false", .false)
        case UInt8(ascii: "n"):
            try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        default:
            throw unexpected(expecting: "a value")
        }
        return true
    }

    /// Closes the innermost open container.
    private mutating func close() {
        let container = open.removeLast()
        nodes[container.node].length = container.count
        nodes[container.node].end = UInt32(nodes.count)
    }

    /// Reads a member name and its `:`.
    private mutating func memberName() throws {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw position < bytes.count
                ? unexpected(expecting: "a member name") : error("the text ends inside an object", at: position)
        }
        try string()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw position < bytes.count
                ? unexpected(expecting: "`:`") : error("the text ends inside an object", at: position)
        }
        position += 1
        skipWhitespace()
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func literal(_ text: StaticString, _ kind: JSONDocument.Node.Kind) throws {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count,
            memcmp(bytes.baseAddress! + position, text.utf8Start, count) == 0
        else { throw unexpected(expecting: "a value") }
        nodes.append(.init(kind: kind, flag: false, start: UInt32(position), length: UInt32(count), end: 0))
        nodes[nodes.count - 1].end = UInt32(nodes.count)
        position += count
    }

    private mutating func string() throws {
        let opening = position
        position += 1
        let start = position
        var escaped = false
        while true {
            // The common bytes, plain ASCII, in a tight loop.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte >= 0x80 { break }
                position += 1
            }
            guard position < bytes.count else { throw error("the text ends inside a string", at: opening) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try escape()
            } else {
                try utf8Sequence()
            }
        }
        nodes.append(
            .init(kind: .string, flag: escaped, start: UInt32(start), length: UInt32(position - start), end: 0))
        nodes[nodes.count - 1].end = UInt32(nodes.count)
        position += 1
    }

    private mutating func escape() throws {
        guard position + 1 < bytes.count else { throw error("the text ends inside a string", at: position) }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            guard position + 6 <= bytes.count,
                (2..<6).allSatisfy({ Self.hexValue(bytes[position + $0]) != nil })
            else { throw error("a \\u escape needs four hexadecimal digits", at: position) }
            position += 6
        default:
            throw error("invalid escape `\\\(Self.shown(bytes[position + 1]))` in a string", at: position)
        }
    }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, at
    /// most U+10FFFF).
    private mutating func utf8Sequence() throws {
        let lead = bytes[position]
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0:
            count = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED:
            count = 3
            high = 0x9F
        case 0xF0:
            count = 4
            low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4:
            count = 4
            high = 0x8F
        default: throw error("a string holds bytes that are not UTF-8", at: position)
        }
        guard position + count <= bytes.count else {
            throw error("a string holds bytes that are not UTF-8", at: position)
        }
        let second = bytes[position + 1]
        guard second >= low, second <= high else {
            throw error("a string holds bytes that are not UTF-8", at: position)
        }
        for offset in 2..<count where bytes[position + offset] & 0xC0 != 0x80 {
            throw error("a string holds bytes that are not UTF-8", at: position)
        }
        position += count
    }

    private mutating func number() throws {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, Self.isDigit(bytes[position]) else {
            throw error("a number needs a digit after `-`", at: start)
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, Self.isDigit(bytes[position]) else {
                throw error("a number needs a digit after `.`", at: start)
            }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        var hasExponent = false
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            hasExponent = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, Self.isDigit(bytes[position]) else {
                throw error("a number needs a digit in its exponent", at: start)
            }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        // Only a number with an exponent or of 300 characters can be beyond a Double's range.
        if hasExponent || position - start > 300 {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if let value = Double(text), !value.isFinite {
                let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
                var error = error("the number \(shown) is beyond a Double's range", at: start)
                error.exceedsLimit = true
                throw error
            }
        }
        nodes.append(
            .init(kind: .number, flag: isInteger, start: UInt32(start), length: UInt32(position - start), end: 0))
        nodes[nodes.count - 1].end = UInt32(nodes.count)
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "0x%02X", byte)
    }

    private func unexpected(expecting expected: String) -> JSONSyntaxError {
        guard position < bytes.count else { return error("the text ends where \(expected) should be", at: position) }
        return error("unexpected `\(Self.shown(bytes[position]))` where \(expected) should be", at: position)
    }

    private func error(_ reason: String, at offset: Int) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONSyntaxError(reason: reason, offset: offset, line: line, column: offset - lineStart + 1)
    }
}
