/// Accumulates Swift source text with indentation. A value type: copy it to branch.
struct CodePrinter {
    private(set) var lines: [String] = []
    private var indentation = 0

    mutating func line(_ text: String = "") {
        // A line never holds a line terminator: text from the spec that reached a line without
        // passing the comment or literal escaping cannot start a line of code.
        let text = Self.withoutLineTerminators(text)
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: indentation) + text)
    }

    /// Whether `scalar` ends a line for the Swift lexer or for a reader of the source (CR, LF,
    /// VT, FF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR).
    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        // Comparisons, not range patterns: a debug build matches a range pattern through generic
        // calls.
        let value = scalar.value
        return (value >= 0x0A && value <= 0x0D) || value == 0x85 || value == 0x2028 || value == 0x2029
    }

    /// Whether `scalar` is a control character that is not a line terminator or a tab, or a
    /// bidirectional formatting character (which can make source read differently from what it
    /// is, CVE-2021-42574).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0xA0 {
            // C0 controls but tab and the line terminators; DEL and the C1 controls but NEL.
            return value <= 0x08 || (value >= 0x0E && value <= 0x1F) || (value >= 0x7F && value != 0x85)
        }
        return value == 0x200E || value == 0x200F || (value >= 0x202A && value <= 0x202E)
            || (value >= 0x2066 && value <= 0x2069)
    }

    /// Whether `text` certainly holds no line terminator and no hidden character (with
    /// `allowingLineFeeds`, none but LF), read from its UTF-8 bytes. Every non-ASCII line
    /// terminator and hidden character starts with the byte 0xC2 or 0xE2, so text with either
    /// byte is not called plain, and its callers read it scalar by scalar. The generator asks this
    /// of every line and description it writes: the scalar-by-scalar pass was a third of a debug
    /// generator's time.
    static func isPlain(_ text: String, allowingLineFeeds: Bool = false) -> Bool {
        for byte in text.utf8 {
            if byte >= 0x20 {
                if byte == 0x7F || byte == 0xC2 || byte == 0xE2 { return false }
            } else if byte != 0x09, !allowingLineFeeds || byte != 0x0A {
                return false
            }
        }
        return true
    }

    /// `text` with line terminators as spaces and hidden characters as U+FFFD.
    static func withoutLineTerminators(_ text: String) -> String {
        if isPlain(text) { return text }
        guard text.unicodeScalars.contains(where: { isLineTerminator($0) || isHidden($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isLineTerminator(scalar) {
                result.append(" ")
            } else if isHidden(scalar) {
                result.append("\u{FFFD}")
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    mutating func block(_ opening: String, _ body: (inout CodePrinter) -> Void) {
        line(opening + " {")
        indentation += 1
        body(&self)
        indentation -= 1
        line("}")
    }

    /// A `switch` statement: its `case` labels at the level of `switch`, as swift-format writes
    /// them; the body indents the statements under a label itself.
    mutating func switchBlock(_ opening: String, _ body: (inout CodePrinter) -> Void) {
        line(opening + " {")
        body(&self)
        line("}")
    }

    /// Appends another printer's lines at the current indentation.
    mutating func append(_ other: CodePrinter) {
        let prefix = String(repeating: "    ", count: indentation)
        for text in other.lines { lines.append(text.isEmpty ? "" : prefix + text) }
    }

    /// Writes a `///` comment: `text` wrapped to its own lines, then `extra` lines, then an
    /// optional remark. Every piece is split at every kind of line break, so no text ends the
    /// comment; root-relative links become absolute (``DocText/absoluteLinks(_:)``).
    mutating func documentation(_ text: String?, remark: String? = nil, extra: [String] = []) {
        var body = Self.commentLines(text.map(DocText.absoluteLinks))
        if !extra.isEmpty {
            if !body.isEmpty { body.append("") }
            for entry in extra {
                body.append(contentsOf: Self.commentLines(DocText.absoluteLinks(entry), keepingBlankEdges: true))
            }
        }
        if let remark {
            if !body.isEmpty { body.append("") }
            body.append(contentsOf: Self.commentLines("- Remark: \(remark)"))
        }
        for text in body { line(text.isEmpty ? "///" : "/// " + text) }
    }

    /// Splits a description into comment lines at every line terminator (CR LF, CR, LF, VT, FF,
    /// NEL, U+2028, U+2029), hides control and bidirectional formatting characters (U+FFFD), and
    /// trims trailing spaces and blank edges.
    static func commentLines(_ text: String?, keepingBlankEdges: Bool = false) -> [String] {
        guard let text else { return [] }
        var lines: [String] = []
        if isPlain(text, allowingLineFeeds: true) {
            // LF the only line terminator and nothing to hide: cut at each LF byte.
            var start = text.startIndex
            var index = text.utf8.startIndex
            while index != text.utf8.endIndex {
                let next = text.utf8.index(after: index)
                if text.utf8[index] == 0x0A {
                    lines.append(withoutTrailingBlanks(text[start..<index]))
                    start = next
                }
                index = next
            }
            lines.append(withoutTrailingBlanks(text[start...]))
        } else {
            var current = String.UnicodeScalarView()
            var previousWasCR = false
            for scalar in text.unicodeScalars {
                if scalar == "\n" && previousWasCR {
                    previousWasCR = false
                    continue
                }
                previousWasCR = scalar == "\r"
                if isLineTerminator(scalar) {
                    lines.append(withoutTrailingBlanks(String(current)[...]))
                    current = String.UnicodeScalarView()
                } else {
                    current.append(isHidden(scalar) ? "\u{FFFD}" : scalar)
                }
            }
            lines.append(withoutTrailingBlanks(String(current)[...]))
        }
        if !keepingBlankEdges {
            while lines.first?.isEmpty == true { lines.removeFirst() }
            while lines.last?.isEmpty == true { lines.removeLast() }
        }
        return lines
    }

    /// `line` without the spaces and tabs it ends with.
    private static func withoutTrailingBlanks(_ line: Substring) -> String {
        var end = line.utf8.endIndex
        while end != line.utf8.startIndex {
            let before = line.utf8.index(before: end)
            let byte = line.utf8[before]
            guard byte == 0x20 || byte == 0x09 else { break }
            end = before
        }
        return String(line[..<end])
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}

extension String {
    /// A Swift string literal for the text.
    var swiftLiteral: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || CodePrinter.isLineTerminator(scalar) || CodePrinter.isHidden(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
