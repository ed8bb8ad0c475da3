import OpenAIGeneratorOpenAPI

/// A type being built, and the names used inside it: where inline schemas become nested types.
final class Scope {
    /// Swift path of the enclosing type, e.g. `Response.Output`; empty at the top level.
    let path: String
    /// Names of the enclosing types, which nested types must not repeat.
    let ancestors: Set<String>
    var nested: [Declaration] = []
    var usedNames: Set<String> = []

    init(path: String, ancestors: Set<String>) {
        self.path = path
        self.ancestors = ancestors
    }

    /// A scope for the members of the type `name` declared in this scope.
    func child(_ name: String) -> Scope {
        Scope(path: path.isEmpty ? name : "\(path).\(name)", ancestors: ancestors.union([name]))
    }

    /// The full Swift path of a type named `name` in this scope.
    func qualified(_ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }
}
