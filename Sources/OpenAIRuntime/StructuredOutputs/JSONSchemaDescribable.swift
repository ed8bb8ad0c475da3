import Foundation

/// A type whose schema is derived from its `init(from:)` but that describes itself and its
/// members for the model.
public protocol JSONSchemaDescribable: Decodable {
    /// What the value is (the schema's `description`).
    static var jsonSchemaDescription: String? { get }
    /// Descriptions of members, by JSON name.
    static var jsonSchemaPropertyDescriptions: [String: String] { get }
}

extension JSONSchemaDescribable {
    public static var jsonSchemaDescription: String? { nil }
    public static var jsonSchemaPropertyDescriptions: [String: String] { [:] }
}
