/// A string enumeration that stays open: a value the SDK does not know decodes, compares and
/// re-encodes unchanged.
///
/// Generated string enums (OpenAPI `enum` on a `string` schema, and `anyOf` of a string and an
/// enum such as model ids) conform to this protocol. Use the static members for known values and
/// a string literal for any other:
///
/// ```swift
/// let model: ChatModel = .gpt4o
/// let other: ChatModel = "ft:gpt-4o:my-org:custom:abc123"
/// ```
///
/// Match with `switch` and a `default` branch: new values appear whenever the API adds them.
public protocol OpenEnum: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension OpenEnum {
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The raw wire value.
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
