import Foundation

/// Why a schema cannot be derived or does not fit OpenAI's strict mode, with where: a JSON
/// pointer into the schema document (`#/properties/tags/items`), or the Swift member path of a
/// failed derivation (`Order.items[]`).
public struct JSONSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is.
    public var path: String
    /// What the problem is.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
