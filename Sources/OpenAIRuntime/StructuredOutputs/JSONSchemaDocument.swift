import Foundation

/// A root schema and the schemas of the named types it refers to: the `schema` of a structured
/// output or the `parameters` of a function tool.
///
/// The root is written inline; every named type it reaches (a struct, a class, or a
/// ``JSONSchemaConvertible`` type with an object schema) is one entry of `$defs`, referred to as
/// `{"$ref": "#/$defs/<Name>"}` (the root type itself as `{"$ref": "#"}`), so a recursive type can
/// be written at all. (In strict mode a reference with a description is written out in place.)
public struct JSONSchemaDocument: Sendable, Equatable {
    /// One entry of `$defs`.
    public struct Definition: Sendable, Equatable {
        /// The entry's name: the Swift type's name, with a number when two types share it.
        public var name: String
        /// The type's schema.
        public var schema: JSONSchema
        /// The Swift type, when the entry stands for one.
        public var type: JSONSchema.Reference?
    }

    /// The root schema.
    public var root: JSONSchema
    /// The named types' schemas, in the order they were first reached.
    public var definitions: [Definition]
    /// The root's own Swift type, which refers to itself as `#`.
    public var rootType: JSONSchema.Reference?

    /// A document for a hand-written root schema, resolving each ``JSONSchema/schema(of:description:)``
    /// in it to an entry of `$defs`.
    ///
    /// - Throws: ``JSONSchemaError`` when a referenced type's schema cannot be derived.
    public init(root: JSONSchema) throws {
        let builder = JSONSchemaBuilder()
        self.root = try builder.resolve(root)
        self.definitions = builder.definitions()
        self.rootType = nil
    }

    /// The schema of `type`'s JSON form: ``JSONSchemaConvertible/jsonSchema`` when the type states
    /// it, else derived from its `Decodable` conformance.
    ///
    /// Derivation runs `init(from:)` against a recording decoder that hands out placeholder values
    /// (`""`, `0`, `false`, empty arrays, the first case of an enum) and notes what was asked for:
    /// each `decode(_:forKey:)` is a required member, each `decodeIfPresent(_:forKey:)` an optional
    /// one, in the order decoded, so synthesized `Codable` conformances come out exactly.
    /// `String`, `Bool`, the integer and floating-point types, `URL` (a plain string: strict mode
    /// has no `uri` format), `UUID` (`format: uuid`), `Optional` (nullable), arrays and sets,
    /// `[String: V]` and `[Int: V]` dictionaries, ``JSONValue`` (any value) and `CaseIterable` enums
    /// with `String` or `Int` raw values are known; a type whose `init(from:)` reads nothing is an
    /// object without members. ``JSONSchemaDescribable`` adds descriptions.
    ///
    /// It is not sound, and the type must adopt ``JSONSchemaConvertible`` instead, when
    /// `init(from:)`:
    /// - branches on what it reads (a union trying one shape then another: only the first path
    ///   is seen), or validates values (the placeholders may be rejected: an error);
    /// - reads dynamic keys (`allKeys` is empty while recording);
    /// - decodes `Date` or `Data`, whose JSON form depends on the `JSONDecoder`'s strategies, a
    ///   non-`CaseIterable` enum (its other cases are unknown), or a dictionary whose keys are
    ///   neither `String` nor `Int`: each an error.
    ///
    /// - Throws: ``JSONSchemaError`` naming the type and the member path where derivation failed.
    public init<T: Decodable>(for type: T.Type) throws {
        let builder = JSONSchemaBuilder()
        let schema = try builder.schema(for: type, path: [String(describing: type)])
        if case .reference(let reference) = schema.kind, let own = builder.take(reference) {
            self.root = own.described(schema.description ?? own.description)
        } else {
            self.root = schema
        }
        self.definitions = builder.definitions()
        self.rootType = JSONSchema.Reference(type)
    }

    /// The definition `reference` stands for.
    func definition(_ reference: JSONSchema.Reference) -> Definition? {
        definitions.first { $0.type == reference }
    }
}
