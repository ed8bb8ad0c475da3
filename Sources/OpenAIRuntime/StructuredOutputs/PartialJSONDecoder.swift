import Foundation

/// Reads JSON text as it arrives and gives, after every piece, the value so far: what a model's
/// structured output (or a tool call's arguments) holds while it streams.
///
/// ```swift
/// var partial = PartialJSONDecoder()
/// try partial.append(#"{"title": "Pasta", "steps": ["Boil wa"#)
/// partial.value  // {"title": "Pasta", "steps": ["Boil wa"]}
/// ```
///
/// The value so far holds every member and element that has begun, with these limits, so that
/// nothing in it is invented:
/// - a string that has begun is there with the characters received (a member's *name* counts
///   only once it is complete: `{"ti` is `{}`);
/// - a number, `true`, `false` or `null` is there once it is complete, that is once a character
///   after it arrived (`[1` is `[]`, `[12,` is `[12]`): `1` could still become `12`;
/// - a member whose value has not begun is not there (`{"a":` is `{}`);
/// - a member named twice keeps its first value (`{"a": 1, "a": 2}` is `{"a": 1}`), as
///   `JSONDecoder` reads it, so the last value so far is the value `JSONDecoder` decodes.
///
/// Parsing is incremental: each character is read once, and the value so far is built from the
/// values already complete plus the open path to the current one, so a snapshot after every
/// piece costs about the width of the open objects and arrays plus the length of an open string,
/// not the length of the whole text (`Scripts/bench/bench-partial-json.sh` measures it). Text that is
/// not JSON (RFC 8259) throws at the first character that cannot continue it (for a malformed
/// number, at the character after it); bytes that are not UTF-8 read as U+FFFD, as `String`
/// does, and a lone surrogate escape (`\ud83d` not followed by its low half) as U+FFFD. Objects and
/// arrays nest at most ``maxDepth`` deep (512, as Foundation's `JSONDecoder`): a deeper one throws
/// at its opening character, so no reply can build a value whose release or decoding would
/// exhaust the stack.
public struct PartialJSONDecoder: Sendable {
    /// The deepest nesting of objects and arrays read (512 levels, Foundation's `JSONDecoder`'s
    /// limit too); the opening `{` or `[` of level 513 throws ``PartialJSONError``.
    public static let maxDepth = 512

    /// An open object or array; mutated in place, so a value completing in it costs a copy of
    /// its storage only when a snapshot (``value``) shares it.
    private struct Frame: Sendable {
        var isObject: Bool
        var members = JSONObject()
        var elements: [JSONValue] = []
        /// The name of the member being read, once complete.
        var key: String?

        var snapshot: JSONValue { isObject ? .object(members) : .array(elements) }
    }

    private enum State: Sendable, Equatable {
        /// A value must come: the start, after `:`, after `[` or a `,` in an array.
        case value
        /// After `{`: a member name or `}`.
        case firstKey
        /// After a `,` in an object: a member name.
        case key
        /// After a member name: `:`.
        case colon
        /// After a value: `,`, the container's end, or the end of the text.
        case afterValue
        /// Inside a string (a member name when `isKey`); `escape` after `\`, `unicode` with the
        /// hex digits of `\u` so far.
        case string(isKey: Bool)
        case escape(isKey: Bool)
        case unicode(isKey: Bool)
        /// Inside a number.
        case number
        /// Inside `true`, `false` or `null` (``literal``).
        case literal
        /// The top-level value is complete.
        case done
    }

    private var stack: [Frame] = []
    /// The first error; every later append throws it again.
    private var error: PartialJSONError?
    private var state = State.value
    private var root: JSONValue?
    /// The bytes of the string or number being read.
    private var token: [UInt8] = []
    /// The hex digits of a `\u` escape so far, and how many.
    private var unicodeValue: UInt16 = 0
    private var unicodeDigits = 0
    /// The literal being read, how many of its characters have come, and its value.
    private var literal: (text: [UInt8], matched: Int, value: JSONValue) = ([], 0, .null)
    /// A high surrogate (`\uD83D`) waiting for its low half.
    private var pendingHighSurrogate: UInt16?
    /// Bytes read so far (for error offsets).
    public private(set) var byteCount = 0
    /// Grows each time ``value`` changes (a string gains characters, a value completes, an
    /// object or array opens), so a caller can tell a new value so far without comparing; it may
    /// also grow for bytes of a character split between two appends of UTF-8 bytes.
    public private(set) var revision = 0

    /// Creates a decoder that has read nothing.
    public init() {}

    /// Whether the top-level value is complete: an object or array closed, or a string or
    /// literal ended. A top-level number is complete once a character follows it, or at
    /// ``finish()``.
    public var isComplete: Bool { state == .done }

    /// Reads the next piece of the text.
    ///
    /// - Parameter text: The characters after those read so far.
    /// - Throws: ``PartialJSONError`` at the first character that cannot continue JSON text, or
    ///   that starts a second top-level value; every later call (``finish()`` too) throws the
    ///   same error, and ``value`` keeps what was read before it.
    public mutating func append(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in try append(bytes) }
    }

    /// Reads the next bytes of UTF-8 JSON text (a multi-byte character may be split between calls).
    ///
    /// - Throws: ``PartialJSONError`` as the `String` form does.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws {
        if let error { throw error }
        do {
            if try bytes.withContiguousStorageIfAvailable({ try read($0) }) == nil {
                try Array(bytes).withUnsafeBufferPointer { try read($0) }
            }
        } catch let failure as PartialJSONError {
            error = failure
            throw failure
        }
    }

    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var index = 0
        while index < bytes.count {
            if case .string(let isKey) = state {
                // The characters of a string up to its end or an escape, in one go.
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                    bytes[end] >= 0x20
                {
                    end += 1
                }
                if end > index {
                    if pendingHighSurrogate != nil { flushSurrogate() }
                    token.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    if !isKey { revision += 1 }
                    byteCount += end - index
                    index = end
                    continue
                }
            }
            try read(bytes[index])
            byteCount += 1
            index += 1
        }
    }

    /// The value so far (see the type's description), or `nil` before one has begun.
    public var value: JSONValue? {
        if state == .done { return root }
        var child: JSONValue?
        switch state {
        case .string(isKey: false), .escape(isKey: false), .unicode(isKey: false):
            child = .string(Self.completeCharacters(token))
        default:
            child = nil
        }
        for frame in stack.reversed() {
            guard let inner = child else {
                child = frame.snapshot
                continue
            }
            if frame.isObject {
                var members = frame.members
                if let key = frame.key, members[key] == nil { members[key] = inner }
                child = .object(members)
            } else {
                child = .array(frame.elements + [inner])
            }
        }
        return child
    }

    /// Whether ``value`` is not `nil`, without building it: a value has begun (an object, an
    /// array or a string opened, or a value completed).
    package var hasValue: Bool {
        if state == .done || !stack.isEmpty { return true }
        switch state {
        case .string(isKey: false), .escape(isKey: false), .unicode(isKey: false): return true
        default: return false
        }
    }

    /// Ends the text: a top-level number is then complete.
    ///
    /// - Returns: The complete value.
    /// - Throws: ``PartialJSONError`` when the text ended before the value did.
    public mutating func finish() throws -> JSONValue {
        if let error { throw error }
        do {
            if state == .number, stack.isEmpty {
                root = try numberValue()
                state = .done
            }
            guard state == .done, let root else {
                throw PartialJSONError(offset: byteCount, message: "the JSON text ends before its value does")
            }
            return root
        } catch let failure as PartialJSONError {
            error = failure
            throw failure
        }
    }

    /// The value so far decoded as `type`, or `nil` while it does not decode (a required member
    /// that has not arrived yet, a string cut short where `type` wants an enum case).
    ///
    /// A type whose members are all optional decodes from the first member on; decoding the
    /// value so far after each piece costs a full decode each time (the benchmark's ratio).
    public func decode<T: Decodable>(as type: T.Type = T.self) -> T? {
        guard let value else { return nil }
        return try? value.decode(as: type)
    }

    // MARK: Reading

    private mutating func read(_ byte: UInt8) throws {
        switch state {
        case .string(let isKey):
            switch byte {
            case UInt8(ascii: "\""): try endString(isKey: isKey)
            case UInt8(ascii: "\\"): state = .escape(isKey: isKey)
            case 0..<0x20: throw failure("a control character must be escaped in a string")
            default:
                if pendingHighSurrogate != nil { flushSurrogate() }
                token.append(byte)
                if !isKey { revision += 1 }
            }
        case .escape(let isKey):
            let replacement: UInt8? =
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
                case UInt8(ascii: "b"): 0x08
                case UInt8(ascii: "f"): 0x0C
                case UInt8(ascii: "n"): 0x0A
                case UInt8(ascii: "r"): 0x0D
                case UInt8(ascii: "t"): 0x09
                default: nil
                }
            if let replacement {
                if pendingHighSurrogate != nil { flushSurrogate() }
                token.append(replacement)
                if !isKey { revision += 1 }
                state = .string(isKey: isKey)
            } else if byte == UInt8(ascii: "u") {
                unicodeValue = 0
                unicodeDigits = 0
                state = .unicode(isKey: isKey)
            } else {
                throw failure("`\\\(Character(Unicode.Scalar(byte)))` is not an escape")
            }
        case .unicode(let isKey):
            guard let digit = Self.hexValue(byte) else { throw failure("`\\u` takes four hex digits") }
            unicodeValue = unicodeValue << 4 | UInt16(digit)
            unicodeDigits += 1
            if unicodeDigits == 4 {
                appendCodeUnit(unicodeValue)
                // A high surrogate waits for its low half: the value has not changed yet.
                if !isKey, pendingHighSurrogate == nil { revision += 1 }
                state = .string(isKey: isKey)
            }
        case .number:
            if Self.isNumberByte(byte) {
                token.append(byte)
            } else {
                try complete(numberValue())
                try read(byte)  // the character after the number
            }
        case .literal:
            guard byte == literal.text[literal.matched] else { throw failure("not a JSON literal") }
            literal.matched += 1
            if literal.matched == literal.text.count { try complete(literal.value) }
        default:
            if Self.isWhitespace(byte) { break }
            try readStructural(byte)
        }
    }

    private mutating func readStructural(_ byte: UInt8) throws {
        switch (state, byte) {
        case (.value, UInt8(ascii: "{")):
            try checkDepth()
            stack.append(Frame(isObject: true))
            revision += 1
            state = .firstKey
        case (.value, UInt8(ascii: "[")):
            try checkDepth()
            stack.append(Frame(isObject: false))
            revision += 1
            state = .value
        case (.value, UInt8(ascii: "]")):
            // `[]`: only right after `[` is an array still empty where a value must come (after a
            // `,` it has an element: `[1,]` is not JSON).
            guard let frame = stack.last, !frame.isObject, frame.elements.isEmpty else {
                throw failure("a value must come here")
            }
            stack.removeLast()
            try complete(.array([]))
        case (.value, UInt8(ascii: "\"")):
            token.removeAll(keepingCapacity: true)
            revision += 1
            state = .string(isKey: false)
        case (.value, UInt8(ascii: "-")), (.value, UInt8(ascii: "0")...UInt8(ascii: "9")):
            token = [byte]
            state = .number
        case (.value, UInt8(ascii: "t")): startLiteral(Self.trueText, .bool(true))
        case (.value, UInt8(ascii: "f")): startLiteral(Self.falseText, .bool(false))
        case (.value, UInt8(ascii: "n")): startLiteral(Self.nullText, .null)
        case (.firstKey, UInt8(ascii: "}")):
            stack.removeLast()
            try complete(.object([:]))
        case (.firstKey, UInt8(ascii: "\"")), (.key, UInt8(ascii: "\"")):
            token.removeAll(keepingCapacity: true)
            state = .string(isKey: true)
        case (.colon, UInt8(ascii: ":")):
            state = .value
        case (.afterValue, UInt8(ascii: ",")):
            guard let frame = stack.last else { throw failure("a second top-level value") }
            state = frame.isObject ? .key : .value
        case (.afterValue, UInt8(ascii: "}")):
            guard let frame = stack.popLast(), frame.isObject else { throw failure("`}` closes no object") }
            try complete(frame.snapshot)
        case (.afterValue, UInt8(ascii: "]")):
            guard let frame = stack.popLast(), !frame.isObject else { throw failure("`]` closes no array") }
            try complete(frame.snapshot)
        case (.done, _):
            throw failure("a second top-level value")
        default:
            throw failure("unexpected `\(Character(Unicode.Scalar(byte)))`")
        }
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)
    private static let nullText = Array("null".utf8)

    private mutating func startLiteral(_ text: [UInt8], _ value: JSONValue) {
        literal = (text, 1, value)
        state = .literal
    }

    private mutating func endString(isKey: Bool) throws {
        if pendingHighSurrogate != nil { flushSurrogate() }
        let text = String(decoding: token, as: UTF8.self)
        if isKey {
            stack[stack.count - 1].key = text
            state = .colon
        } else {
            try complete(.string(text))
        }
        token.removeAll(keepingCapacity: true)
    }

    /// Puts a complete value in its container (or makes it the top-level value).
    private mutating func complete(_ value: JSONValue) throws {
        revision += 1
        guard !stack.isEmpty else {
            root = value
            state = .done
            return
        }
        let top = stack.count - 1
        if stack[top].isObject {
            // A member named twice keeps its first value, as `JSONDecoder` does.
            if let key = stack[top].key, stack[top].members[key] == nil { stack[top].members[key] = value }
            stack[top].key = nil
        } else {
            stack[top].elements.append(value)
        }
        state = .afterValue
    }

    private func numberValue() throws -> JSONValue {
        let text = String(decoding: token, as: UTF8.self)
        guard Self.isJSONNumber(token) else { throw failure("`\(text)` is not a JSON number") }
        if let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            throw failure("`\(text)` is not a JSON number within the range of a Double")
        }
        if double.rounded() == double, let integer = Int(exactly: double) { return .int(integer) }
        return .double(double)
    }

    private mutating func appendCodeUnit(_ unit: UInt16) {
        if let high = pendingHighSurrogate {
            pendingHighSurrogate = nil
            if UTF16.isTrailSurrogate(unit) {
                let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00)
                appendScalar(Unicode.Scalar(scalar)!)
                return
            }
            appendScalar("\u{FFFD}")
        }
        if UTF16.isLeadSurrogate(unit) {
            pendingHighSurrogate = unit
        } else if let scalar = Unicode.Scalar(unit) {
            appendScalar(scalar)
        } else {
            appendScalar("\u{FFFD}")  // a lone low surrogate
        }
    }

    private mutating func flushSurrogate() {
        pendingHighSurrogate = nil
        appendScalar("\u{FFFD}")
    }

    private mutating func appendScalar(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { token.append($0) }
    }

    /// Throws when one more object or array would nest deeper than ``maxDepth``.
    private func checkDepth() throws {
        if stack.count >= Self.maxDepth {
            throw failure("objects and arrays nest deeper than \(Self.maxDepth) levels, the most this decoder reads")
        }
    }

    private func failure(_ message: String) -> PartialJSONError {
        PartialJSONError(offset: byteCount, message: message)
    }

    // MARK: Bytes

    /// The text of `bytes` without a multi-byte character cut off at its end (bytes appended
    /// as UTF-8 may split one).
    private static func completeCharacters(_ bytes: [UInt8]) -> String {
        var lead = bytes.count - 1
        var continuation = 0
        while lead >= 0, continuation < 3, bytes[lead] & 0xC0 == 0x80 {
            lead -= 1
            continuation += 1
        }
        guard lead >= 0 else { return String(decoding: bytes, as: UTF8.self) }
        let length = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : bytes[lead] >= 0xC0 ? 2 : 1
        let end = length > continuation + 1 ? lead : bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 8259 section 6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private static func isJSONNumber(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
