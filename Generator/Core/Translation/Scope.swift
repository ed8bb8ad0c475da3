import OpenAIGeneratorOpenAPI

/// A type being built, and the names used inside it: where inline schemas become nested types.
final class Scope {
    /// Swift path of the enclosing type, e.g. `Response.Output`; empty at the top level.
    let path: String
    /// Names of the enclosing types, which nested types must not repeat.
    let ancestors: Set<String>
    /// Whether this is the inside of a schema type, whose nested types may repeat a top-level name
    /// (``TypeNames/nestedName(_:used:ancestors:insideSchemaType:)``); not the top level, nor a
    /// resource type.
    let isSchemaType: Bool
    var nested: [Declaration] = []
    var usedNames: Set<String> = []

    init(path: String, ancestors: Set<String>, isSchemaType: Bool = false) {
        self.path = path
        self.ancestors = ancestors
        self.isSchemaType = isSchemaType
    }

    /// A scope for the members of the type `name` declared in this scope.
    func child(_ name: String) -> Scope {
        Scope(path: path.isEmpty ? name : "\(path).\(name)", ancestors: ancestors.union([name]), isSchemaType: true)
    }

    /// The full Swift path of a type named `name` in this scope.
    func qualified(_ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }
}
