import Foundation

/// Why Foundation's `JSONDecoder` rejects text that is valid JSON (RFC 8259): it nests deeper
/// than 512 levels, or holds a number that no Swift number type reads (an integer of more digits
/// than 64 bits hold, a number beyond a `Double`'s range such as `1e400`). Foundation reports all
/// of them as "The given data was not valid JSON."; ``violation(in:)`` says which.
enum JSONLimits {
    /// The deepest nesting of objects and arrays Foundation's `JSONDecoder` reads.
    static let maxDepth = 512

    /// The first limit `data` goes past, in words, with its byte offset; `nil` when it goes past
    /// none (the text is then malformed, or fine). Reads the bytes once, without building values.
    static func violation(in data: Data) -> String? {
        var depth = 0
        var inString = false
        var escaped = false
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth {
                    return "objects and arrays nest deeper than \(maxDepth) levels at byte \(index - data.startIndex),"
                        + " the most Foundation's JSONDecoder reads"
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < data.endIndex, "+-.eE0123456789".utf8.contains(data[index]) { index += 1 }
                let token = String(decoding: data[start..<index], as: UTF8.self)
                let shown = token.count > 40 ? token.prefix(40) + "…" : Substring(token)
                let digits = token.drop { $0 == "-" }
                if digits.allSatisfy(\.isNumber), digits.count > 19, Int64(token) == nil, UInt64(token) == nil {
                    return "the integer \(shown) at byte \(start - data.startIndex) has more digits than a 64-bit"
                        + " integer holds"
                }
                if let value = Double(token), value.isInfinite {
                    return "the number \(shown) at byte \(start - data.startIndex) is beyond a Double's range"
                }
                continue
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
