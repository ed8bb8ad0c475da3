import Foundation
import OpenAIRuntime

/// A JSON value (RFC 8259) as the `openai` tool reads and prints it: members keep their order and
/// numbers their text, so what it prints is what the server sent, reformatted.
package indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number's text as written (`1`, `0.5`, `1e-3`).
    case number(String)
    case string(String)
    case array([JSON])
    /// Members in order; a repeated key keeps each occurrence.
    case object([Member])

    /// One member of an object.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSON

        package init(_ key: String, _ value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the member `key` (its last occurrence), or `nil` when this is not an object or has no
    /// such member.
    package subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// This object with the member `key` set to `value`: replaced in place when present, else appended.
    package func setting(_ key: String, _ value: JSON) -> JSON {
        guard case .object(var members) = self else { return self }
        if let index = members.lastIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(Member(key, value))
        }
        return .object(members)
    }

    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var array: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The runtime's ``JSONValue`` of this value (for the multipart encoder).
    package var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text):
            if let int = Int(text) { return .int(int) }
            return .double(Double(text) ?? 0)
        case .string(let value): return .string(value)
        case .array(let values): return .array(values.map(\.jsonValue))
        case .object(let members):
            var object = JSONObject()
            for member in members { object[member.key] = member.value.jsonValue }
            return .object(object)
        }
    }
}

// MARK: Parsing

/// Text that is not JSON: what was expected and the byte offset.
package struct JSONSyntaxError: Error, CustomStringConvertible {
    package var message: String
    package var offset: Int
    package var description: String { "\(message) at byte \(offset)" }
}

extension JSON {
    /// The deepest nesting ``parse(_:)`` accepts, so that hostile input cannot exhaust the stack.
    package static let maxDepth = 512

    /// Parses one JSON text (RFC 8259; surrounding whitespace allowed).
    ///
    /// - Throws: ``JSONSyntaxError`` naming the byte offset of the first problem.
    package static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSON {
        var parser = Parser(bytes: Array(bytes))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    private struct Parser {
        var bytes: [UInt8]
        var position = 0

        func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, offset: position) }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSON {
            guard depth < JSON.maxDepth else { throw error("nested deeper than \(JSON.maxDepth) levels") }
            guard position < bytes.count else { throw error("unexpected end of text") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [Member] = []
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                while true {
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                        throw error("expected a member name")
                    }
                    let key = try string()
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                        throw error("expected `:`")
                    }
                    position += 1
                    skipWhitespace()
                    members.append(Member(key, try value(depth: depth + 1)))
                    skipWhitespace()
                    guard position < bytes.count else { throw error("unexpected end of text") }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                    } else if bytes[position] == UInt8(ascii: "}") {
                        position += 1
                        return .object(members)
                    } else {
                        throw error("expected `,` or `}`")
                    }
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [JSON] = []
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                while true {
                    skipWhitespace()
                    elements.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard position < bytes.count else { throw error("unexpected end of text") }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                    } else if bytes[position] == UInt8(ascii: "]") {
                        position += 1
                        return .array(elements)
                    } else {
                        throw error("expected `,` or `]`")
                    }
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                return try number()
            }
        }

        mutating func literal(_ word: String, _ value: JSON) throws(JSONSyntaxError) -> JSON {
            let utf8 = Array(word.utf8)
            guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
                throw error("unexpected character")
            }
            position += utf8.count
            return value
        }

        mutating func number() throws(JSONSyntaxError) -> JSON {
            let start = position
            func digits() -> Int {
                let first = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                    position += 1
                }
                return position - first
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integer = digits()
            guard integer > 0 else {
                position = start
                throw error("unexpected character")
            }
            if integer > 1, bytes[position - integer] == UInt8(ascii: "0") {
                throw error("a number with a leading zero")
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw error("expected digits after `.`") }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard digits() > 0 else { throw error("expected digits in the exponent") }
            }
            return .number(String(decoding: bytes[start..<position], as: UTF8.self))
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            position += 1  // the opening quote
            var result: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(decoding: result, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    position += 1
                    guard position < bytes.count else { throw error("unexpected end of text") }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""): result.append(0x22)
                    case UInt8(ascii: "\\"): result.append(0x5C)
                    case UInt8(ascii: "/"): result.append(0x2F)
                    case UInt8(ascii: "b"): result.append(0x08)
                    case UInt8(ascii: "f"): result.append(0x0C)
                    case UInt8(ascii: "n"): result.append(0x0A)
                    case UInt8(ascii: "r"): result.append(0x0D)
                    case UInt8(ascii: "t"): result.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar), position + 1 < bytes.count,
                            bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        {
                            let save = position
                            position += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                position = save
                            }
                        }
                        // A lone surrogate becomes U+FFFD, as Foundation's decoders read it.
                        let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                        result.append(contentsOf: Array(String(character).utf8))
                    default:
                        position -= 1
                        throw error("an unknown escape")
                    }
                case 0x00..<0x20:
                    throw error("a control character in a string")
                default:
                    result.append(byte)
                    position += 1
                }
            }
            throw error("a string without its closing quote")
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("a short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("a bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }
    }
}

// MARK: Printing

extension JSON {
    /// Compact JSON on one line (no spaces), for `jsonl` and request bodies.
    package var compact: String {
        var output = ""
        write(to: &output, indent: nil, level: 0, colors: nil)
        return output
    }

    /// Indented JSON (two spaces per level), colored with ANSI escapes when `colors` is true.
    package func pretty(colors: Bool = false) -> String {
        var output = ""
        write(to: &output, indent: "  ", level: 0, colors: colors ? Colors() : nil)
        return output
    }

    /// ANSI SGR sequences for keys, strings, numbers and literals.
    private struct Colors {
        let key = "\u{1B}[34;1m"
        let string = "\u{1B}[32m"
        let number = "\u{1B}[36m"
        let literal = "\u{1B}[33m"
        let reset = "\u{1B}[0m"
    }

    private func write(to output: inout String, indent: String?, level: Int, colors: Colors?) {
        func paint(_ text: String, _ color: KeyPath<Colors, String>) {
            if let colors { output += colors[keyPath: color] + text + colors.reset } else { output += text }
        }
        func newline(_ level: Int) {
            guard let indent else { return }
            output += "\n" + String(repeating: indent, count: level)
        }
        switch self {
        case .null: paint("null", \.literal)
        case .bool(let value): paint(value ? "true" : "false", \.literal)
        case .number(let text): paint(text, \.number)
        case .string(let value): paint(JSON.quoted(value), \.string)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(level + 1)
                element.write(to: &output, indent: indent, level: level + 1, colors: colors)
            }
            newline(level)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                newline(level + 1)
                paint(JSON.quoted(member.key), \.key)
                output += indent == nil ? ":" : ": "
                member.value.write(to: &output, indent: indent, level: level + 1, colors: colors)
            }
            newline(level)
            output += "}"
        }
    }

    /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t` or
    /// `\u00XX`, everything else as is (UTF-8).
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
