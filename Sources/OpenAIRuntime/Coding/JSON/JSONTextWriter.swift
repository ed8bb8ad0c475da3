import Foundation

/// Writes JSON values as compact JSON text (RFC 8259): members in their order, strings escaped
/// as section 7 requires and otherwise written as UTF-8, `/` unescaped, numbers in the shortest
/// text that reads back to the same value.
struct JSONTextWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: EncodedValue) throws {
        switch value {
        case .json(let value): try write(value)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (position, index) in object.writtenOrder.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(object.keys[index])
                bytes.append(UInt8(ascii: ":"))
                try write(object.items[index])
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    mutating func write(_ value: JSONValue) throws {
        switch value {
        case .null: bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(true): bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        case .bool(false): bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .int(let value): bytes.append(contentsOf: String(value).utf8)
        case .double(let value):
            guard value.isFinite else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: [], debugDescription: "\(value) is not a finite number, which JSON cannot hold."))
            }
            bytes.append(contentsOf: Self.numberText(value.description).utf8)
        case .string(let value): writeString(value)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for index in object.indices {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(object.keys[index])
                bytes.append(UInt8(ascii: ":"))
                try write(object.values[index])
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `string` quoted, escaping `"`, `\` and the control characters U+0000 to U+001F.
    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex[Int(byte >> 4)],
                        Self.hex[Int(byte & 0xF)],
                    ])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A finite number's Swift description as JSON text: `1.0` as `1`; `1e-05` and `1e+20` are
    /// JSON already.
    static func numberText(_ description: String) -> String {
        description.hasSuffix(".0") ? String(description.dropLast(2)) : description
    }
}

extension JSONValue {
    /// The value as compact JSON text, object members in order (`"?"` for a number that is not
    /// finite, which JSON cannot hold).
    package var jsonText: String {
        var writer = JSONTextWriter()
        guard (try? writer.write(self)) != nil else { return "?" }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
