import Foundation

/// JSON as the tests read it themselves, independently of the SDK's decoder: a small RFC 8259
/// parser whose objects keep their members in order. The expected values of the real-traffic
/// tests come from here, never from the SDK.
indirect enum RawJSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([RawJSON])
    case object([(key: String, value: RawJSON)])

    static func == (lhs: RawJSON, rhs: RawJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    subscript(key: String) -> RawJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var array: [RawJSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var int: Int? {
        if case .number(let value) = self, let int = Int(exactly: value) { return int }
        return nil
    }

    var isNull: Bool { self == .null }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let text): "\"\(text.prefix(60))\""
        case .array(let items): "[\(items.count) items]"
        case .object(let members): "{\(members.map(\.key).joined(separator: ", "))}"
        }
    }

    // MARK: Parsing

    struct SyntaxError: Error { var offset: Int }

    static func parse(_ data: Data) throws -> RawJSON {
        var parser = Parser(bytes: Array(data))
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw SyntaxError(offset: parser.index) }
        return value
    }

    static func parse(_ text: String) throws -> RawJSON { try parse(Data(text.utf8)) }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws -> RawJSON {
            skipWhitespace()
            guard index < bytes.count else { throw SyntaxError(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: RawJSON)] = []
                skipWhitespace()
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipWhitespace()
                    guard case .string(let key) = try value() else { throw SyntaxError(offset: index) }
                    skipWhitespace()
                    guard bytes[index] == UInt8(ascii: ":") else { throw SyntaxError(offset: index) }
                    index += 1
                    members.append((key, try value()))
                    skipWhitespace()
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw SyntaxError(offset: index) }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [RawJSON] = []
                skipWhitespace()
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                while true {
                    items.append(try value())
                    skipWhitespace()
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw SyntaxError(offset: index) }
                    index += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"):
                index += 4
                return .bool(true)
            case UInt8(ascii: "f"):
                index += 5
                return .bool(false)
            case UInt8(ascii: "n"):
                index += 4
                return .null
            default:
                let start = index
                while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                    throw SyntaxError(offset: start)
                }
                return .number(number)
            }
        }

        mutating func string() throws -> String {
            index += 1
            var units: [UInt8] = []
            var pendingHigh: UInt32?
            while bytes[index] != UInt8(ascii: "\"") {
                guard bytes[index] == UInt8(ascii: "\\") else {
                    units.append(bytes[index])
                    index += 1
                    continue
                }
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "n"): units.append(0x0A)
                case UInt8(ascii: "t"): units.append(0x09)
                case UInt8(ascii: "r"): units.append(0x0D)
                case UInt8(ascii: "b"): units.append(0x08)
                case UInt8(ascii: "f"): units.append(0x0C)
                case UInt8(ascii: "u"):
                    let hex = String(decoding: bytes[index..<index + 4], as: UTF8.self)
                    index += 4
                    var code = UInt32(hex, radix: 16)!
                    if (0xD800...0xDBFF).contains(code) {
                        pendingHigh = code
                        continue
                    }
                    if let high = pendingHigh, (0xDC00...0xDFFF).contains(code) {
                        code = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    }
                    pendingHigh = nil
                    units.append(contentsOf: String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
                default: units.append(escape)
                }
            }
            index += 1
            return String(decoding: units, as: UTF8.self)
        }
    }
}

extension RawJSON {
    /// The members of `self` (raw JSON a server sent) that `encoded` (what the SDK wrote after
    /// decoding it) lacks or holds with another value, by path. A member whose value is `null` may
    /// be left out (an optional member that is `nil`); numbers compare by value (`1.0` is `1`).
    func missingMembers(in encoded: RawJSON?, at path: String = "") -> [String] {
        switch self {
        case .null:
            return []
        case .object(let members):
            guard case .object(let others)? = encoded else {
                return ["\(path.isEmpty ? "(top)" : path): not an object"]
            }
            var missing: [String] = []
            for (key, value) in members {
                let other = others.first { $0.key == key }?.value
                if other == nil && value != .null {
                    missing.append(path.isEmpty ? key : "\(path).\(key)")
                } else {
                    missing += value.missingMembers(in: other, at: path.isEmpty ? key : "\(path).\(key)")
                }
            }
            return missing
        case .array(let items):
            guard case .array(let others)? = encoded, others.count == items.count else {
                return ["\(path): array of \(items.count) became \(encoded?.description ?? "nothing")"]
            }
            return zip(items, others).enumerated().flatMap { index, pair in
                pair.0.missingMembers(in: pair.1, at: "\(path)[\(index)]")
            }
        default:
            return self == encoded ? [] : ["\(path): \(self) became \(encoded?.description ?? "nothing")"]
        }
    }
}
