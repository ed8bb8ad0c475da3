/// A problem found while parsing YAML, with the file name and the 1-based position it concerns.
///
/// Thrown by ``YAMLParser/parse(_:file:)`` for malformed input, and also used for non-fatal findings in
/// ``YAMLDocument/warnings`` (for example a duplicate mapping key).
public struct YAMLError: Error, Sendable, CustomStringConvertible {
    /// The file name given to the parser, used only in messages.
    public var file: String
    /// The 1-based position of the problem.
    public var mark: Mark
    /// A human-readable explanation, including libyaml's context (such as "while parsing a block mapping at 3:1")
    /// when it has one.
    public var message: String
    /// The JSON pointer (RFC 6901) of the node the parser was inside, when known, e.g.
    /// `#/components/schemas/Deep/properties/a`.
    public var pointer: String?

    /// Creates an error.
    /// - Parameters:
    ///   - file: The file name used in messages.
    ///   - mark: The 1-based position of the problem.
    ///   - message: The explanation.
    ///   - pointer: The JSON pointer of the enclosing node, when known.
    public init(file: String, mark: Mark, message: String, pointer: String? = nil) {
        self.file = file
        self.mark = mark
        self.message = message
        self.pointer = pointer
    }

    /// The error as `<file>:<line>:<column>: <message>`, the format compilers use.
    public var description: String { "\(file):\(mark.line):\(mark.column): \(message)" }
}

/// Escapes one reference token of a JSON pointer (RFC 6901 section 3): `~` as `~0`, `/` as `~1`.
public func escapePointerToken(_ token: String) -> String {
    guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
    var result = ""
    for character in token {
        switch character {
        case "~": result += "~0"
        case "/": result += "~1"
        default: result.append(character)
        }
    }
    return result
}

/// Unescapes one reference token of a JSON pointer (RFC 6901 section 4): `~1` as `/`, then `~0`
/// as `~`.
public func unescapePointerToken<S: StringProtocol>(_ token: S) -> String {
    guard token.contains("~") else { return String(token) }
    var result = ""
    var escaping = false
    for character in token {
        if escaping {
            switch character {
            case "1": result.append("/")
            case "0": result.append("~")
            default: result += "~" + String(character)  // not an escape: kept as written
            }
            escaping = false
        } else if character == "~" {
            escaping = true
        } else {
            result.append(character)
        }
    }
    return escaping ? result + "~" : result
}
