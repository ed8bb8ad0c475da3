import Foundation

/// A type that states the JSON Schema of its JSON form, instead of having it derived from its
/// `init(from:)` (see ``JSONSchemaDocument/init(for:)``): for a type whose decoder branches, validates
/// or reads dynamic keys, or an enum with associated values.
///
/// Name other types with ``JSONSchema/schema(of:description:)`` (itself too, for recursion). A macro can
/// later write this conformance from the declaration; the SDK does not depend on one.
public protocol JSONSchemaConvertible: Decodable {
    /// The schema of this type's JSON form.
    static var jsonSchema: JSONSchema { get }
}
