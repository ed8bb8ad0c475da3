import Foundation

/// Doc-comment text from the spec's descriptions, as a person writes it: a summary is the first
/// sentence of the first paragraph with hard-wrapped lines joined, and links point somewhere
/// from Xcode and DocC.
enum DocText {
    /// Where the spec's root-relative links (`/docs/guides/...`) live.
    static let documentationHost = "https://platform.openai.com"

    /// The first sentence of the first paragraph of `text`, its wrapped lines joined with
    /// spaces; nil when there is no text. A sentence ends at `.`, `!` or `?` followed by a space
    /// and a capital letter, a digit, a backtick or a bracket, outside backticks, parentheses
    /// and brackets, and not after a common abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`).
    static func summary(_ text: String?) -> String? {
        var paragraph: [String] = []
        for line in CodePrinter.commentLines(text) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty {
                if paragraph.isEmpty { continue }
                break
            }
            // A list or a heading starts another block.
            if !paragraph.isEmpty, startsBlock(trimmed) { break }
            paragraph.append(String(trimmed))
        }
        guard !paragraph.isEmpty else { return nil }
        return firstSentence(paragraph.joined(separator: " "))
    }

    private static func startsBlock(_ line: Substring) -> Bool {
        line.hasPrefix("- ") || line.hasPrefix("* ") || line.hasPrefix("#") || line.hasPrefix("|")
            || line.hasPrefix("```")
    }

    private static let abbreviations: Set<String> = ["e.g.", "i.e.", "etc.", "vs.", "approx.", "incl."]

    /// `text` up to and including its first sentence end (see ``summary(_:)``), or all of it.
    static func firstSentence(_ text: String) -> String {
        let characters = Array(text)
        var inCode = false
        var depth = 0
        var wordStart = 0
        for index in characters.indices {
            let character = characters[index]
            if character == "`" {
                inCode.toggle()
            } else if !inCode, character == "(" || character == "[" {
                depth += 1
            } else if !inCode, character == ")" || character == "]" {
                depth = max(0, depth - 1)
            } else if character == " " {
                wordStart = index + 1
            }
            guard !inCode, depth == 0, ".!?".contains(character), index + 2 < characters.count,
                characters[index + 1] == " "
            else { continue }
            let next = characters[index + 2]
            guard next.isUppercase || next.isNumber || next == "`" || next == "[" else { continue }
            let word = String(characters[wordStart...index]).lowercased()
            if character == ".", abbreviations.contains(word) { continue }
            return String(characters[...index])
        }
        return text
    }

    /// `text` with markdown links to root-relative paths (`](/docs/...)`) made absolute on
    /// ``documentationHost``, and links up from an API reference page (`](../admin-api-keys)`, which
    /// the spec writes for operations under `/docs/api-reference/<area>/`) into the API reference.
    static func absoluteLinks(_ text: String) -> String {
        guard text.contains("](/") || text.contains("](../") else { return text }
        return text.replacingOccurrences(of: "](/", with: "](\(documentationHost)/")
            .replacingOccurrences(of: "](../", with: "](\(documentationHost)/docs/api-reference/")
    }

    /// A summary for a variant of an operation: the operation's summary sentence, then what the
    /// variant does as a sentence of its own; `fallback` when the spec has no summary.
    static func variantSummary(_ operationSummary: String?, adding sentence: String, fallback: String)
        -> String
    {
        guard let first = summary(operationSummary) else { return fallback }
        return self.sentence(first) + " " + sentence
    }

    /// An operation's text with what describes the operation first: leading paragraphs that are
    /// asides, which open with bold text (OpenAI's "**Starting a new project?** We recommend
    /// trying Responses…" banner, "**NOTE:** This endpoint requires an admin API key."), and the
    /// thematic break (`---`) after them, are moved to the end as `- Note:` callouts, so that the
    /// summary Quick Help and DocC show is the first sentence about the operation. Text that is
    /// all asides, or has none, is unchanged.
    static func asidesLast(_ text: String) -> String {
        let paragraphs = text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .newlines) }
        var asides: [String] = []
        var index = 0
        while index < paragraphs.count {
            let paragraph = paragraphs[index].trimmingCharacters(in: .whitespaces)
            if paragraph.isEmpty || ["---", "***", "___"].contains(paragraph) {
                index += 1
            } else if paragraph.hasPrefix("**") {
                asides.append(paragraph)
                index += 1
            } else {
                break
            }
        }
        guard !asides.isEmpty, index < paragraphs.count else { return text }
        let notes = asides.map { aside -> String in
            var line = aside.split(whereSeparator: \.isNewline).joined(separator: " ")
            for label in ["**NOTE:**", "**Note:**", "**Note**:"] where line.hasPrefix(label) {
                line = line.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
            }
            return "- Note: " + line
        }
        let body = paragraphs[index...].joined(separator: "\n\n")
        return (body + "\n\n" + notes.joined(separator: "\n")).trimmingCharacters(in: .newlines)
    }

    /// The descriptions an enumeration's text gives its values, in the bullet list the spec uses
    /// (`- `user`: Indicates the message is sent by an actual user.`): raw value → the text after
    /// the colon, on one line, ending as a sentence. Values the text does not list are absent.
    static func valueDescriptions(_ text: String?, values: [String]) -> [String: String] {
        guard let text, text.contains("`") else { return [:] }
        let wanted = Set(values)
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            var rest = line.drop { $0 == " " }
            guard rest.first == "-" || rest.first == "*" else { continue }
            rest = rest.dropFirst().drop { $0 == " " }
            guard rest.first == "`", let close = rest.dropFirst().firstIndex(of: "`") else { continue }
            let value = String(rest[rest.index(after: rest.startIndex)..<close])
            var after = rest[rest.index(after: close)...].drop { $0 == " " }
            guard wanted.contains(value), result[value] == nil, let mark = after.first, ":-—".contains(mark)
            else { continue }
            after = after.dropFirst().drop { $0 == " " }
            let description = after.trimmingCharacters(in: .whitespaces)
            if !description.isEmpty { result[value] = sentence(description) }
        }
        return result
    }

    /// The message of a deprecated declaration's `@available(*, deprecated, message:)`: the first sentence of the
    /// spec's description that speaks of the deprecation (`Deprecated in favor of `tools`.`), else
    /// ``defaultDeprecationMessage``; one line, at most 200 characters.
    static func deprecationMessage(_ text: String?) -> String {
        var rest = CodePrinter.commentLines(text).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
        while !rest.isEmpty {
            let sentence = firstSentence(rest)
            rest = String(rest.dropFirst(sentence.count)).trimmingCharacters(in: .whitespaces)
            let words = sentence.lowercased()
            guard words.contains("deprecat"), sentence.count <= 200 else { continue }
            // "Deprecated." alone says no more than the attribute does.
            return words.count > "deprecated.".count ? self.sentence(linkTexts(sentence)) : defaultDeprecationMessage
        }
        return defaultDeprecationMessage
    }

    static let defaultDeprecationMessage = "Deprecated in the OpenAI API."

    /// `[words](target)`, the words captured. A constant pattern: it compiles (`DocTextTests` uses it).
    private static let markdownLink = try! NSRegularExpression(pattern: #"\[([^\]\n]*)\]\([^)\s]*\)"#)

    /// `text` with each markdown link `[words](target)` reduced to its words (a compiler message renders no markdown).
    static func linkTexts(_ text: String) -> String {
        markdownLink.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1")
    }

    /// `@available(*, deprecated, message: "…")` with ``deprecationMessage(_:)`` as a Swift string literal.
    static func deprecatedAttribute(_ text: String?) -> String {
        let message = deprecationMessage(text).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
        return "@available(*, deprecated, message: \"\(message)\")"
    }

    /// A `- Parameters:` line: the first sentence (as a sentence), then the facts; the facts alone without one.
    static func withFacts(_ first: String?, _ facts: [String]) -> String {
        ([first.map(sentence)].compactMap { $0 } + facts).joined(separator: " ")
    }

    /// `text` ending as a sentence does (`.`, `!` or `?`; a full stop is added otherwise).
    static func sentence(_ text: String) -> String {
        guard let last = text.last, !".!?".contains(last) else { return text }
        return text + "."
    }
}
