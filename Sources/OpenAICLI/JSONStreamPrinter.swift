import Foundation

/// Prints a JSON reply as its bytes arrive, without building the value: the same text
/// ``JSON/pretty(colors:)`` or ``JSON/compact`` would print for it (strings decoded and quoted by
/// ``JSON/quoted(_:)``, numbers as written), in bounded memory whatever the reply's size: a 300 MB
/// reply, or a 300 MB string in one, is printed through buffers of ``flushBytes``.
///
/// The text is checked as it is read (RFC 8259, nesting up to ``JSON/maxDepth``); a syntax error
/// throws ``JSONSyntaxError`` with the byte offset, after what came before it was printed.
struct JSONStreamPrinter {
    /// Where output goes, in pieces of about ``flushBytes``.
    var write: (Data) throws -> Void
    /// Two-space indentation (`json`, `pretty`), or one compact line (`jsonl`).
    var indented: Bool
    /// ANSI colors (`pretty` on a terminal).
    var colors: Bool

    static let flushBytes = 1 << 16

    private enum Container { case object, array }
    /// Where the reader is between tokens.
    private enum Expect { case value, firstValueOrClose, key, firstKeyOrClose, colon, commaOrClose, end }
    /// The token being read.
    private enum Token { case none, string, escape, unicode(digits: Int, value: UInt32), literal, number }

    private var stack: [Container] = []
    private var expect = Expect.value
    private var token = Token.none
    /// A literal's or a number's bytes so far.
    private var word: [UInt8] = []
    /// A string's bytes so far (escapes decoded), not yet quoted into ``output``.
    private var text: [UInt8] = []
    /// A high surrogate waiting for its low half (`\uD83D\uDE00`).
    private var highSurrogate: UInt32?
    /// Whether the string being read is a member name.
    private var stringIsKey = false
    private var output = ""
    private var offset = 0

    init(indented: Bool, colors: Bool, write: @escaping (Data) throws -> Void) {
        self.indented = indented
        self.colors = colors
        self.write = write
    }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, offset: offset) }

    /// Takes the next bytes of the reply.
    ///
    /// - Throws: ``JSONSyntaxError``; what `write` throws.
    mutating func consume(_ chunk: Data) throws {
        try chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                // A string's plain bytes are taken as a run: most of a large reply is strings.
                if case .string = token, highSurrogate == nil {
                    var end = index
                    let limit = min(bytes.count, index + max(1, Self.flushBytes - text.count))
                    while end < limit, bytes[end] >= 0x20, bytes[end] != 0x22, bytes[end] != 0x5C { end += 1 }
                    if end > index {
                        text.append(contentsOf: bytes[index..<end])
                        offset += end - index
                        index = end
                        if text.count >= Self.flushBytes {
                            quoteText(all: false)
                            try flush(atLeast: Self.flushBytes)
                        }
                        continue
                    }
                }
                try take(bytes[index])
                offset += 1
                index += 1
            }
        }
        try flush(atLeast: Self.flushBytes)
    }

    /// Ends the reply: its value must be whole. Prints the last newline.
    ///
    /// - Throws: ``JSONSyntaxError`` for a reply that ends early or is empty; what `write` throws.
    mutating func finish() throws {
        if case .literal = token { try endWord() } else if case .number = token { try endWord() }
        guard expect == .end, case .none = token else {
            throw error(offset == 0 ? "empty" : "unexpected end of text")
        }
        output += "\n"
        try flush(atLeast: 0)
    }

    private mutating func flush(atLeast count: Int) throws {
        guard output.utf8.count >= max(1, count) else { return }
        try write(Data(output.utf8))
        output = ""
    }

    private mutating func take(_ byte: UInt8) throws {
        switch token {
        case .string: return try stringByte(byte)
        case .escape: return try escapeByte(byte)
        case .unicode(let digits, let value): return try unicodeByte(byte, digits: digits, value: value)
        case .literal, .number:
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") || Self.isNumberByte(byte) {
                guard word.count < 4096 else { throw error("a number or literal longer than 4096 bytes") }
                word.append(byte)
                return
            }
            try endWord()
        case .none: break
        }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return }
        switch expect {
        case .end: throw error("unexpected text after the value")
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw error("expected `:`") }
            output += indented ? ": " : ":"
            expect = .value
        case .commaOrClose:
            if byte == UInt8(ascii: ",") {
                output += ","
                newline(stack.count)
                expect = stack.last == .object ? .key : .value
            } else {
                try close(byte)
            }
        case .key, .firstKeyOrClose:
            if expect == .firstKeyOrClose, byte == UInt8(ascii: "}") { return try close(byte, empty: true) }
            guard byte == UInt8(ascii: "\"") else { throw error("expected a member name") }
            if expect == .firstKeyOrClose { newline(stack.count) }
            startString(isKey: true)
        case .value, .firstValueOrClose:
            if expect == .firstValueOrClose, byte == UInt8(ascii: "]") { return try close(byte, empty: true) }
            if expect == .firstValueOrClose { newline(stack.count) }
            try startValue(byte)
        }
    }

    private mutating func startValue(_ byte: UInt8) throws {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < JSON.maxDepth else { throw error("nested deeper than \(JSON.maxDepth) levels") }
            let isObject = byte == UInt8(ascii: "{")
            stack.append(isObject ? .object : .array)
            output += isObject ? "{" : "["
            expect = isObject ? .firstKeyOrClose : .firstValueOrClose
        case UInt8(ascii: "\""):
            startString(isKey: false)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            token = .literal
            word = [byte]
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            token = .number
            word = [byte]
        default:
            throw error("unexpected character")
        }
    }

    private mutating func close(_ byte: UInt8, empty: Bool = false) throws {
        let object = stack.last == .object
        guard byte == UInt8(ascii: object ? "}" : "]") else {
            throw error(object ? "expected `,` or `}`" : "expected `,` or `]`")
        }
        stack.removeLast()
        if !empty { newline(stack.count) }
        output += object ? "}" : "]"
        endValue()
    }

    private mutating func endValue() {
        expect = stack.isEmpty ? .end : .commaOrClose
    }

    private mutating func newline(_ level: Int) {
        guard indented else { return }
        output += "\n" + String(repeating: "  ", count: level)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "E")
    }

    /// Ends a literal or a number: checked by the tree parser (it is short), painted.
    private mutating func endWord() throws {
        let isNumber = if case .number = token { true } else { false }
        token = .none
        offset -= word.count
        defer { offset += word.count }
        do {
            _ = try JSON.parse(word)
        } catch {
            throw self.error(isNumber ? "a malformed number" : "unexpected character")
        }
        paint(String(decoding: word, as: UTF8.self), isNumber ? "\u{1B}[36m" : "\u{1B}[33m")
        endValue()
    }

    private mutating func paint(_ text: String, _ color: String) {
        output += colors ? color + text + "\u{1B}[0m" : text
    }

    // MARK: Strings

    private mutating func startString(isKey: Bool) {
        token = .string
        stringIsKey = isKey
        if colors { output += isKey ? "\u{1B}[34;1m" : "\u{1B}[32m" }
        output += "\""
    }

    private mutating func stringByte(_ byte: UInt8) throws {
        switch byte {
        case UInt8(ascii: "\""):
            endSurrogate()
            quoteText(all: true)
            output += "\""
            if colors { output += "\u{1B}[0m" }
            token = .none
            if stringIsKey { expect = .colon } else { endValue() }
        case UInt8(ascii: "\\"):
            token = .escape
        case 0x00..<0x20:
            throw error("a control character in a string")
        default:
            endSurrogate()
            text.append(byte)
            if text.count >= Self.flushBytes { quoteText(all: false) }
        }
    }

    private mutating func escapeByte(_ byte: UInt8) throws {
        if byte == UInt8(ascii: "u") {
            token = .unicode(digits: 0, value: 0)
            return
        }
        endSurrogate()
        let decoded: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = byte
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        default: throw error("an unknown escape")
        }
        text.append(decoded)
        token = .string
    }

    private mutating func unicodeByte(_ byte: UInt8, digits: Int, value: UInt32) throws {
        let digit: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
        default: throw error("a bad \\u escape")
        }
        let scalar = value << 4 | digit
        guard digits == 3 else {
            token = .unicode(digits: digits + 1, value: scalar)
            return
        }
        token = .string
        if let high = highSurrogate, (0xDC00..<0xE000).contains(scalar) {
            highSurrogate = nil
            append(0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00))
            return
        }
        endSurrogate()
        if (0xD800..<0xDC00).contains(scalar) {
            highSurrogate = scalar
        } else {
            append(scalar)
        }
    }

    /// A high surrogate not followed by its low half: U+FFFD, as the tree parser reads it.
    private mutating func endSurrogate() {
        guard highSurrogate != nil else { return }
        highSurrogate = nil
        append(0xFFFD)
    }

    private mutating func append(_ scalar: UInt32) {
        text.append(contentsOf: Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8))
    }

    /// Quotes the string's bytes read so far into ``output``: all of them at its end, else up to
    /// the last byte that starts a UTF-8 sequence (a sequence, valid or not, is never split, so the
    /// text decodes as it would whole).
    private mutating func quoteText(all: Bool) {
        var end = text.count
        if !all {
            while end > 0, text[end - 1] & 0xC0 == 0x80 { end -= 1 }
            end = max(0, end - 1)
            guard end > 0 else { return }
        }
        var quoted = JSON.quoted(String(decoding: text[..<end], as: UTF8.self))
        quoted.removeFirst()
        quoted.removeLast()
        output += quoted
        text.removeFirst(end)
    }
}
