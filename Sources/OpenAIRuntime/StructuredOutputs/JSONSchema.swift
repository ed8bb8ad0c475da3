import Foundation

/// A JSON Schema (draft 2020-12) for one JSON value, in the subset that OpenAI's structured
/// outputs (`response_format` / `text.format` of type `json_schema`) and function tools accept.
///
/// Build one by hand (`.object([...])`, `.string()`, `.array(of:)`, …), or let the SDK derive it
/// from a Swift type (``JSONSchemaDocument/init(for:)``). A named Swift type inside a schema is a
/// ``Kind/reference(_:)``; the document that holds the schema lists each such type once, in
/// `$defs`, which is how recursive types are written.
public struct JSONSchema: Sendable, Equatable {
    /// What kind of value the schema describes.
    public indirect enum Kind: Sendable, Equatable {
        /// A JSON string; `format` is one of the JSON Schema formats strict mode accepts
        /// (`date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`).
        case string(format: String? = nil)
        /// A JSON number without a fractional part.
        case integer
        /// Any JSON number.
        case number
        /// `true` or `false`.
        case boolean
        /// Only `null`.
        case null
        /// One of these values (`enum`); all strings or all integers.
        case enumeration([JSONValue])
        /// A JSON array whose items all match the schema.
        case array(JSONSchema)
        /// A JSON object with these members. Their order is kept here and in `required`; the
        /// request's JSON, written by Foundation's `JSONEncoder`, does not keep it.
        case object([Property])
        /// A JSON object whose member names are free and whose values match the schema
        /// (`additionalProperties`). Strict mode does not accept it.
        case dictionary(JSONSchema)
        /// A value that matches at least one of the schemas (`anyOf`).
        case anyOf([JSONSchema])
        /// The schema of a named Swift type, written as a `$ref` to its entry in `$defs`.
        case reference(Reference)
        /// Any JSON value (`{}`). Strict mode does not accept it.
        case any
    }

    /// A member of an object schema.
    public struct Property: Sendable, Equatable {
        /// The member's JSON name.
        public var name: String
        /// Its value's schema.
        public var schema: JSONSchema
        /// Whether the member must be present (`required`). Strict mode makes every member
        /// required and an optional one nullable instead.
        public var isRequired: Bool

        /// Creates a member named `name`.
        public init(_ name: String, _ schema: JSONSchema, isRequired: Bool = true) {
            self.name = name
            self.schema = schema
            self.isRequired = isRequired
        }
    }

    /// A named Swift type used inside a schema: the document resolves it to its schema once and
    /// refers to it as `#/$defs/<name>`.
    ///
    /// Sendable by hand: it holds only a metatype, which is immutable; the type's conformances are
    /// used, never its isolated state.
    public struct Reference: @unchecked Sendable, Equatable {
        /// The Swift type.
        public let type: any Decodable.Type

        /// A reference to `type`'s schema (``JSONSchemaConvertible/jsonSchema``, else derived).
        public init(_ type: any Decodable.Type) {
            self.type = type
        }

        public static func == (lhs: Reference, rhs: Reference) -> Bool {
            ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
        }
    }

    /// What kind of value.
    public var kind: Kind
    /// Tells the model what the value is for (`description`).
    public var description: String?
    /// Whether `null` is valid too: written as `"type": [<type>, "null"]`, or an `anyOf` with
    /// `{"type": "null"}` for a reference or an `anyOf`.
    public var isNullable: Bool

    /// Creates a schema of `kind`.
    public init(_ kind: Kind, description: String? = nil, isNullable: Bool = false) {
        self.kind = kind
        self.description = description
        self.isNullable = isNullable
    }

    // MARK: Building schemas

    /// A string schema (`format` such as `date-time`, `email`, `uuid`).
    public static func string(description: String? = nil, format: String? = nil) -> JSONSchema {
        JSONSchema(.string(format: format), description: description)
    }

    /// An integer schema.
    public static func integer(description: String? = nil) -> JSONSchema {
        JSONSchema(.integer, description: description)
    }

    /// A number schema.
    public static func number(description: String? = nil) -> JSONSchema {
        JSONSchema(.number, description: description)
    }

    /// A boolean schema.
    public static func boolean(description: String? = nil) -> JSONSchema {
        JSONSchema(.boolean, description: description)
    }

    /// A string enumeration (`"enum": [...]`).
    public static func enumeration(_ values: [String], description: String? = nil) -> JSONSchema {
        JSONSchema(.enumeration(values.map(JSONValue.string)), description: description)
    }

    /// A string enumeration of every case of a `CaseIterable` string enum, in declaration order.
    public static func enumeration<E: CaseIterable & RawRepresentable>(
        _ type: E.Type, description: String? = nil
    ) -> JSONSchema where E.RawValue == String {
        enumeration(E.allCases.map(\.rawValue), description: description)
    }

    /// An array of `items`.
    public static func array(of items: JSONSchema, description: String? = nil) -> JSONSchema {
        JSONSchema(.array(items), description: description)
    }

    /// An object with `properties`, in order.
    public static func object(_ properties: [Property], description: String? = nil) -> JSONSchema {
        JSONSchema(.object(properties), description: description)
    }

    /// A dictionary from free member names to `values`.
    public static func dictionary(of values: JSONSchema, description: String? = nil) -> JSONSchema {
        JSONSchema(.dictionary(values), description: description)
    }

    /// A value matching at least one of `schemas`.
    public static func anyOf(_ schemas: [JSONSchema], description: String? = nil) -> JSONSchema {
        JSONSchema(.anyOf(schemas), description: description)
    }

    /// The schema of the Swift type `type`, as a `$ref` to its entry in the document's `$defs`;
    /// how a hand-written schema names another type, or itself.
    public static func schema(of type: any Decodable.Type, description: String? = nil) -> JSONSchema {
        JSONSchema(.reference(Reference(type)), description: description)
    }

    /// This schema, also accepting `null`.
    public var orNull: JSONSchema {
        var copy = self
        copy.isNullable = true
        return copy
    }

    /// This schema with `description`.
    public func described(_ description: String?) -> JSONSchema {
        var copy = self
        copy.description = description
        return copy
    }
}
