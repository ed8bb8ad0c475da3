import OpenAIGeneratorOpenAPI

/// Cycles among type aliases, which Swift cannot compile (`typealias A = B; typealias B = A`,
/// `typealias A = [A]`): a component that is only a `$ref` chain back to itself says nothing and
/// is an error; one that holds itself through arrays or dictionaries is decoded as JSON, with a
/// diagnostic.
enum AliasCycles {
    /// The first alias that names itself through other aliases only, with its chain.
    static func pureCycle(_ declarations: [TopLevelDeclaration]) -> (TopLevelDeclaration, [String])? {
        let aliases = aliasTargets(declarations)
        for top in declarations {
            guard case .alias(let alias) = top.declaration else { continue }
            var chain = [alias.name]
            var current = alias.target
            while case .named(let next) = current, let target = aliases[next] {
                chain.append(next)
                if next == alias.name { return (top, chain) }
                if chain.count > aliases.count + 1 { break }
                current = target
            }
        }
        return nil
    }

    /// Replaces the target of every alias that holds itself through arrays or dictionaries by
    /// `JSONValue`, reporting each.
    static func breakCollectionCycles(
        _ declarations: [TopLevelDeclaration], document: OpenAPIDocument, diagnostics: inout [Diagnostic]
    ) -> [TopLevelDeclaration] {
        let aliases = aliasTargets(declarations)
        /// Whether `type` leads back to `name` through aliases with at least one collection on the way.
        func reaches(_ name: String, from type: TypeRef, throughCollection: Bool, visited: inout Set<String>) -> Bool {
            switch type {
            case .array(let element), .dictionary(let element):
                return reaches(name, from: element, throughCollection: true, visited: &visited)
            case .named(let other):
                if other == name { return throughCollection }
                guard let target = aliases[other], visited.insert(other).inserted else { return false }
                return reaches(name, from: target, throughCollection: throughCollection, visited: &visited)
            default:
                return false
            }
        }
        return declarations.map { top in
            guard case .alias(var alias) = top.declaration else { return top }
            var visited: Set<String> = []
            guard reaches(alias.name, from: alias.target, throughCollection: false, visited: &visited) else {
                return top
            }
            diagnostics.append(
                Diagnostic(
                    .recursiveAlias,
                    message:
                        "\(alias.name) holds itself through arrays or dictionaries only, which a Swift type alias cannot; decoded as JSONValue",
                    location: location(of: top, in: document)))
            alias.target = .json
            var copy = top
            copy.declaration = .alias(alias)
            return copy
        }
    }

    /// Where the alias's schema is in the spec (the document's start for one without a schema).
    static func location(of top: TopLevelDeclaration, in document: OpenAPIDocument) -> SourceLocation {
        top.schemaName.flatMap { document.schema(named: $0)?.location }
            ?? SourceLocation(file: document.file, mark: .init(line: 1, column: 1), pointer: "#")
    }

    private static func aliasTargets(_ declarations: [TopLevelDeclaration]) -> [String: TypeRef] {
        var result: [String: TypeRef] = [:]
        for top in declarations where top.resourceType == nil {
            if case .alias(let alias) = top.declaration { result[alias.name] = alias.target }
        }
        return result
    }
}
