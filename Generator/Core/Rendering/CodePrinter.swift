/// Accumulates Swift source text with indentation. A value type: copy it to branch.
struct CodePrinter {
    private(set) var lines: [String] = []
    private var indentation = 0

    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: indentation) + text)
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

    /// Writes a `///` comment: `text` wrapped to its own lines, then an optional remark.
    mutating func documentation(_ text: String?, remark: String? = nil, extra: [String] = []) {
        var body = Self.commentLines(text)
        if !extra.isEmpty {
            if !body.isEmpty { body.append("") }
            body.append(contentsOf: extra)
        }
        if let remark {
            if !body.isEmpty { body.append("") }
            body.append("- Remark: \(remark)")
        }
        for text in body { line(text.isEmpty ? "///" : "/// " + text) }
    }

    /// Splits a description into comment lines, trimming trailing spaces and blank edges.
    static func commentLines(_ text: String?) -> [String] {
        guard let text else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var value = Substring(line)
            while value.last == " " || value.last == "\t" || value.last == "\r" { value = value.dropLast() }
            return String(value)
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
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
                if scalar.value < 0x20 {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
