/// A YAML scalar: its text, how it was written, its explicit tag, and its value under the YAML 1.2 core schema.
public struct YAMLScalar: Hashable, Sendable {
    /// How a scalar was written in the source (YAML 1.2.2 §7.3, §8.1).
    public enum Style: Hashable, Sendable {
        /// Unquoted, such as `name` or `42`.
        case plain
        /// In single quotes, such as `'42'`.
        case singleQuoted
        /// In double quotes, such as `"42"`.
        case doubleQuoted
        /// A literal block scalar introduced by `|`.
        case literal
        /// A folded block scalar introduced by `>`.
        case folded
    }

    /// A scalar's value resolved by the YAML 1.2 core schema (YAML 1.2.2 §10.3.2).
    public enum Resolved: Hashable, Sendable {
        /// `null`, `Null`, `NULL`, `~` or an empty plain scalar, or any scalar tagged `!!null`.
        case null
        /// `true`/`True`/`TRUE` or `false`/`False`/`FALSE`.
        case bool(Bool)
        /// A decimal integer with optional sign, `0o` octal or `0x` hexadecimal that fits in `Int`.
        case int(Int)
        /// A decimal number with a fraction or exponent, `.inf`/`-.inf`/`.nan` variants, or an integer too large
        /// for `Int`.
        case float(Double)
        /// Any other text, and every quoted, block or `!!str` scalar.
        case string(String)
    }

    /// The scalar's text after YAML unescaping, folding and chomping.
    public var text: String
    /// How the scalar was written.
    public var style: Style
    /// The explicit tag in full form, such as `tag:yaml.org,2002:str` for `!!str`, or `nil` when untagged.
    public var tag: String?
    /// The value by the YAML 1.2 core schema, computed once when the scalar is created.
    ///
    /// Only plain untagged scalars are resolved by their text; quoted and block scalars are strings; the tags
    /// `!!str`, `!!int`, `!!float`, `!!bool` and `!!null` are honoured whatever the style; other tags give strings.
    public var resolved: Resolved

    /// Creates a scalar with an explicit resolved value.
    /// - Parameters:
    ///   - text: The scalar's text.
    ///   - style: How it was written.
    ///   - tag: The explicit tag in full form, or `nil`.
    ///   - resolved: Its value.
    public init(text: String, style: Style, tag: String?, resolved: Resolved) {
        self.text = text
        self.style = style
        self.tag = tag
        self.resolved = resolved
    }

    /// Creates a scalar and resolves its value by the YAML 1.2 core schema.
    ///
    /// A tagged text that does not fit its tag (such as `!!int abc`) resolves to `.string`; the parser reports
    /// such input as an error instead.
    /// - Parameters:
    ///   - text: The scalar's text.
    ///   - style: How it was written; defaults to `.plain`.
    ///   - tag: The explicit tag in full form, or `nil` (the default).
    public init(text: String, style: Style = .plain, tag: String? = nil) {
        var utf8 = text
        let resolved = utf8.withUTF8 { bytes in
            YAMLScalar.resolve(bytes, text: text, style: style, tag: tag)
        }
        self.init(text: text, style: style, tag: tag, resolved: resolved ?? .string(text))
    }
}
