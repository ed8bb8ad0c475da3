// Resolution of scalar text by the YAML 1.2 core schema (YAML 1.2.2 §10.3.2), working on UTF-8 bytes so that
// the common case (a string) costs one byte comparison.

extension YAMLScalar {
    /// The tag prefix of the YAML core types (`!!` expands to it).
    static let coreTagPrefix = "tag:yaml.org,2002:"

    /// Resolves a scalar's value.
    /// - Parameters:
    ///   - bytes: The scalar's UTF-8 text.
    ///   - text: The same text as a `String`.
    ///   - style: How it was written.
    ///   - tag: Its explicit tag, or `nil`.
    /// - Returns: The value, or `nil` when the text does not fit an explicit `!!null`, `!!bool`, `!!int` or
    ///   `!!float` tag.
    static func resolve(
        _ bytes: UnsafeBufferPointer<UInt8>,
        text: String,
        style: Style,
        tag: String?
    ) -> Resolved? {
        guard let tag else {
            return style == .plain ? resolvePlain(bytes, text: text) : .string(text)
        }
        guard tag.hasPrefix(coreTagPrefix) else { return .string(text) }
        switch tag.dropFirst(coreTagPrefix.count) {
        case "null":
            if case .null = resolvePlain(bytes, text: text) { return .null }
            return nil
        case "bool":
            if case .bool(let value) = resolvePlain(bytes, text: text) { return .bool(value) }
            return nil
        case "int":
            switch resolvePlain(bytes, text: text) {
            case .int(let value): return .int(value)
            case .float(let value) where isIntegerSyntax(bytes): return .float(value)
            default: return nil
            }
        case "float":
            switch resolvePlain(bytes, text: text) {
            case .int(let value): return .float(Double(value))
            case .float(let value): return .float(value)
            default: return nil
            }
        default:
            return .string(text)
        }
    }

    /// Resolves a plain untagged scalar by the core schema's regular expressions.
    /// - Parameters:
    ///   - b: The scalar's UTF-8 text.
    ///   - text: The same text as a `String`.
    /// - Returns: The value; `.string(text)` when no other type matches.
    static func resolvePlain(_ b: UnsafeBufferPointer<UInt8>, text: String) -> Resolved {
        let n = b.count
        if n == 0 { return .null }
        switch b[0] {
        case UInt8(ascii: "~"):
            return n == 1 ? .null : .string(text)
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            return n == 4 && (text == "null" || text == "Null" || text == "NULL") ? .null : .string(text)
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            return n == 4 && (text == "true" || text == "True" || text == "TRUE") ? .bool(true) : .string(text)
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return n == 5 && (text == "false" || text == "False" || text == "FALSE") ? .bool(false) : .string(text)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return resolveNumber(b, text: text) ?? .string(text)
        default:
            return .string(text)
        }
    }

    /// Whether the bytes match one of the core schema's integer forms.
    private static func isIntegerSyntax(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        if n > 2, b[0] == UInt8(ascii: "0"), b[1] == UInt8(ascii: "o") || b[1] == UInt8(ascii: "x") {
            return true  // resolveNumber has already checked the digits
        }
        var i = 0
        if i < n, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { return false }
        while i < n {
            guard isDecimalDigit(b[i]) else { return false }
            i += 1
        }
        return true
    }

    private static func isDecimalDigit(_ c: UInt8) -> Bool {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    /// The value of a hexadecimal digit, or `nil`.
    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// Resolves the numeric forms: decimal, `0o` and `0x` integers, floats, and `.inf`/`.nan` variants.
    /// - Returns: `.int` or `.float`, or `nil` when the text is not a number.
    private static func resolveNumber(_ b: UnsafeBufferPointer<UInt8>, text: String) -> Resolved? {
        let n = b.count
        // 0o17 and 0x1F (unsigned only in the core schema).
        if n > 2, b[0] == UInt8(ascii: "0"), b[1] == UInt8(ascii: "o") || b[1] == UInt8(ascii: "x") {
            let radix = b[1] == UInt8(ascii: "o") ? 8 : 16
            var value = 0
            var overflow = false
            var approximate = 0.0
            for i in 2..<n {
                guard let digit = hexValue(b[i]), digit < radix else { return nil }
                approximate = approximate * Double(radix) + Double(digit)
                if !overflow {
                    let (shifted, o1) = value.multipliedReportingOverflow(by: radix)
                    let (sum, o2) = shifted.addingReportingOverflow(digit)
                    overflow = o1 || o2
                    value = sum
                }
            }
            return overflow ? .float(approximate) : .int(value)
        }
        var i = 0
        let signed = b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-")
        if signed { i = 1 }
        guard i < n else { return nil }
        if b[i] == UInt8(ascii: "."), n - i == 4 {
            let word = signed ? text.dropFirst() : Substring(text)
            if word == ".inf" || word == ".Inf" || word == ".INF" {
                return .float(b[0] == UInt8(ascii: "-") ? -.infinity : .infinity)
            }
            if !signed, word == ".nan" || word == ".NaN" || word == ".NAN" {
                return .float(.nan)
            }
        }
        var j = i
        while j < n, isDecimalDigit(b[j]) { j += 1 }
        let integerDigits = j - i
        if j == n {
            // [-+]?[0-9]+
            if let value = Int(text) { return .int(value) }
            return Double(text).map { .float($0) }
        }
        var fractionDigits = 0
        if b[j] == UInt8(ascii: ".") {
            j += 1
            while j < n, isDecimalDigit(b[j]) {
                j += 1
                fractionDigits += 1
            }
        }
        guard integerDigits > 0 || fractionDigits > 0 else { return nil }
        if j < n, b[j] == UInt8(ascii: "e") || b[j] == UInt8(ascii: "E") {
            j += 1
            if j < n, b[j] == UInt8(ascii: "+") || b[j] == UInt8(ascii: "-") { j += 1 }
            let exponentStart = j
            while j < n, isDecimalDigit(b[j]) { j += 1 }
            guard j > exponentStart else { return nil }
        }
        guard j == n else { return nil }
        return Double(text).map { .float($0) }
    }
}
