/// A coding key for any string or integer: used for dictionaries keyed by arbitrary names,
/// for `additionalProperties`, and for reading a union's discriminator.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public var intValue: Int?

    /// Creates a key for the JSON object member `name`.
    public init(_ name: String) {
        self.stringValue = name
        self.intValue = nil
    }

    /// Creates a key for the JSON object member `name`, a literal of generated code
    /// (``ObjectReader``, ``ObjectWriter``).
    package init(_ name: StaticString) {
        self.stringValue = name.description
        self.intValue = nil
    }

    public init(stringValue: String) {
        self.init(stringValue)
    }

    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// A member name written as a string literal (`forKey: "created_at"`), for code that keys a
/// container by JSON names. (Generated `init(from:)` and `encode(to:)` bodies pass `StaticString`
/// names to ``ObjectReader`` and ``ObjectWriter`` instead: cheaper to compile.)
extension AnyCodingKey: ExpressibleByStringLiteral {
    /// Creates a key for the JSON object member `name`, written as a string literal.
    public init(stringLiteral name: String) {
        self.init(name)
    }
}
