import Foundation
import OpenAIYAML

/// YAML (1.2) in and out: flag values and bodies on standard input are read with libyaml (through
/// the YAML module the generator also reads specs with, core schema), replies printed as block YAML
/// for `--format yaml`.
package enum YAMLText {
    /// Parses YAML text (JSON is YAML, so JSON text parses too) into JSON.
    ///
    /// Nothing is changed without a word: what libyaml reports as a warning (a second document, a
    /// duplicate key) is an error here, and so is an integer beyond 64 bits written in hex or octal
    /// (a decimal one is kept digit for digit).
    ///
    /// - Parameter source: What the text is, for messages (`--expires-after`, `standard input`).
    /// - Throws: ``CLIError/usage(_:)`` with the line and column of a syntax error, a second
    ///   document or a duplicate key, or of a value JSON cannot hold (`.inf`, `.nan`, a hex or octal
    ///   integer beyond 64 bits).
    package static func parse(_ text: String, source: String) throws -> JSON {
        let document: YAMLDocument
        do {
            document = try YAMLParser(limits: .init(maxDepth: 128, maxNodes: 1_000_000, maxBytes: 64 << 20))
                .parse(text, file: source)
        } catch {
            throw CLIError.usage("\(source) is not valid YAML or JSON: \(error)")
        }
        if let warning = document.warnings.first {
            throw CLIError.usage("\(source) is not taken as written: \(warning)")
        }
        return try json(document.root, source: source)
    }

    private static func json(_ node: YAMLNode, source: String) throws -> JSON {
        switch node.kind {
        case .scalar(let scalar):
            switch scalar.resolved {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .int(let value): return .number(String(value))
            case .float(let value):
                if scalar.style == .plain, Self.isIntegerText(scalar.text) {
                    // Past Int64: a decimal integer stays exact as JSON text; hex or octal would be
                    // rounded to a Double.
                    let digits = scalar.text.hasPrefix("+") ? String(scalar.text.dropFirst()) : scalar.text
                    if (try? JSON.parse(Array(digits.utf8))) == .number(digits) { return .number(digits) }
                    throw CLIError.usage(
                        "\(source): the integer \(scalar.text) at \(node.mark) does not fit 64 bits; write it in "
                            + "decimal to send it digit for digit")
                }
                guard value.isFinite else {
                    throw CLIError.usage("\(source): \(scalar.text) at \(node.mark) is not a number JSON can hold")
                }
                // Keep the written form when it is already JSON (`0.5`, `1e-3`).
                if (try? JSON.parse(Array(scalar.text.utf8))) == .number(scalar.text) { return .number(scalar.text) }
                return .number(String(value))
            case .string(let value): return .string(value)
            }
        case .sequence(let nodes):
            return .array(try nodes.map { try json($0, source: source) })
        case .mapping(let pairs):
            return .object(try pairs.map { JSON.Member($0.key, try json($0.value, source: source)) })
        }
    }

    /// Whether `text` is a YAML 1.2 core-schema integer: decimal with an optional sign, `0x` hex or
    /// `0o` octal.
    static func isIntegerText(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        if body.hasPrefix("0x") { return body.count > 2 && body.dropFirst(2).allSatisfy(\.isHexDigit) }
        if body.hasPrefix("0o") { return body.count > 2 && body.dropFirst(2).allSatisfy { ("0"..."7").contains($0) } }
        return !body.isEmpty && body.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `value` as a block YAML document (two-space indentation), strings quoted when YAML would
    /// read them as something else.
    package static func print(_ value: JSON) -> String {
        var lines: [String] = []
        write(value, indent: 0, into: &lines, prefix: nil)
        return lines.joined(separator: "\n")
    }

    private static func write(_ value: JSON, indent: Int, into lines: inout [String], prefix: String?) {
        let pad = String(repeating: " ", count: indent)
        func emit(_ text: String) {
            if let prefix { lines.append(prefix + " " + text) } else { lines.append(pad + text) }
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            if let prefix { lines.append(prefix) }
            let inner = prefix == nil ? indent : indent + 2
            let innerPad = String(repeating: " ", count: inner)
            for element in elements {
                if case .object(let members) = element, !members.isEmpty {
                    // `- key: value` with the further members under the first.
                    var nested: [String] = []
                    write(element, indent: inner + 2, into: &nested, prefix: nil)
                    if let first = nested.first {
                        lines.append(innerPad + "- " + first.dropFirst(inner + 2))
                        lines.append(contentsOf: nested.dropFirst())
                    }
                } else {
                    write(element, indent: inner + 2, into: &lines, prefix: innerPad + "-")
                }
            }
        case .object(let members) where !members.isEmpty:
            if let prefix { lines.append(prefix) }
            let inner = prefix == nil ? indent : indent + 2
            let innerPad = String(repeating: " ", count: inner)
            for member in members {
                write(member.value, indent: inner, into: &lines, prefix: innerPad + scalar(member.key) + ":")
            }
        case .array: emit("[]")
        case .object: emit("{}")
        case .null: emit("null")
        case .bool(let value): emit(value ? "true" : "false")
        case .number(let text): emit(text)
        case .string(let text):
            if text.contains("\n"), !text.hasPrefix(" "),
                text.unicodeScalars.allSatisfy({ $0 == "\n" || $0.value >= 0x20 })
            {
                // A literal block keeps multi-line text readable.
                let chomp = text.hasSuffix("\n") ? "" : "-"
                emit("|" + chomp)
                let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
                for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append(line.isEmpty ? "" : pad + "  " + line)
                }
            } else {
                emit(scalar(text))
            }
        }
    }

    /// A string as a YAML scalar: plain when YAML reads it back as the same string, else in
    /// double quotes with JSON's escapes (a subset of YAML's).
    static func scalar(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        let reserved = CharacterSet(charactersIn: "-?:,[]{}#&*!|>'\"%@`")
        let first = text.unicodeScalars.first!
        let plainSafe =
            !reserved.contains(first) && first != " " && text.last != " "
            && !text.contains(": ") && !text.contains(" #") && !text.hasSuffix(":")
            && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        // Quoted too: what YAML 1.1 readers (PyYAML, Ruby's) take for booleans, dates or numbers.
        let yaml11 =
            ["y", "n", "yes", "no", "on", "off"].contains(text.lowercased()) || first.properties.numericType != nil
            || first == "." || first == "+"
        if plainSafe, !yaml11, case .string = YAMLScalar(text: text).resolved { return text }
        return JSON.quoted(text)
    }
}
