import OpenAIGeneratorOpenAPI

/// Cycles among type aliases, which Swift cannot compile (`typealias A = B; typealias B = A`,
/// `typealias A = [A]`): a component that is only a `$ref` chain back to itself says nothing and
/// is an error; one that holds itself through arrays or dictionaries is decoded as JSON, with a
/// diagnostic.
enum AliasCycles {
    /// A cycle of aliases: its members in chain order, from the first declared, and whether a
    /// step of it goes through an array or a dictionary.
    struct Cycle {
        var members: [String]
        var throughCollection: Bool
    }

    /// The first alias that names itself through other aliases only, with its chain.
    static func pureCycle(_ declarations: [TopLevelDeclaration]) -> (TopLevelDeclaration, [String])? {
        let graph = AliasGraph(declarations)
        guard
            let cycle = graph.cycles().filter({ !$0.throughCollection }).min(by: {
                graph.order[$0.members[0]]! < graph.order[$1.members[0]]!
            }),
            let top = declarations.first(where: {
                if case .alias(let alias) = $0.declaration, $0.resourceType == nil {
                    return alias.name == cycle.members[0]
                }
                return false
            })
        else { return nil }
        return (top, cycle.members + [cycle.members[0]])
    }

    /// Fails on a component that is a `$ref` chain back to itself (`A: {$ref: B}`,
    /// `B: {$ref: A}`): it describes nothing, and Swift cannot declare it.
    ///
    /// - Throws: ``OpenAPIError`` at the first component of the cycle.
    static func rejectPureCycles(_ declarations: [TopLevelDeclaration], document: OpenAPIDocument) throws {
        guard let (top, chain) = pureCycle(declarations) else { return }
        // A long cycle is named by its ends: the message stays one readable line.
        let shown =
            chain.count <= 12
            ? chain.joined(separator: " → ")
            : (chain.prefix(5) + ["…"] + chain.suffix(2)).joined(separator: " → ")
                + " (a cycle of \(chain.count - 1) schemas)"
        throw OpenAPIError(
            message:
                "the schemas \(shown) refer to each other through $ref and nothing else, so they describe no value",
            location: location(of: top, in: document))
    }

    /// Replaces the target of every alias that holds itself through arrays or dictionaries by
    /// `JSONValue`, reporting each.
    static func breakCollectionCycles(
        _ declarations: [TopLevelDeclaration], document: OpenAPIDocument, diagnostics: inout [Diagnostic]
    ) -> [TopLevelDeclaration] {
        var broken: Set<String> = []
        for cycle in AliasGraph(declarations).cycles() where cycle.throughCollection {
            broken.formUnion(cycle.members)
        }
        guard !broken.isEmpty else { return declarations }
        return declarations.map { top in
            guard case .alias(var alias) = top.declaration, top.resourceType == nil, broken.contains(alias.name)
            else { return top }
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

    /// The top-level aliases as a graph in which each alias leads to at most one other (its
    /// target, through arrays and dictionaries), so its cycles are found in one linear walk.
    private struct AliasGraph {
        /// Alias name → the alias its target names, and whether an array or dictionary is on the way.
        var next: [String: (name: String, throughCollection: Bool)] = [:]
        /// Alias names in declaration order.
        var names: [String] = []
        /// Alias name → its position in ``names``.
        var order: [String: Int] = [:]

        init(_ declarations: [TopLevelDeclaration]) {
            var targets: [String: TypeRef] = [:]
            for top in declarations where top.resourceType == nil {
                guard case .alias(let alias) = top.declaration, targets[alias.name] == nil else { continue }
                targets[alias.name] = alias.target
                order[alias.name] = names.count
                names.append(alias.name)
            }
            for (name, target) in targets {
                var current = target
                var throughCollection = false
                while true {
                    switch current {
                    case .array(let element), .dictionary(let element):
                        throughCollection = true
                        current = element
                        continue
                    case .named(let other) where targets[other] != nil:
                        next[name] = (other, throughCollection)
                    default:
                        break
                    }
                    break
                }
            }
        }

        /// Every cycle, each visited once: a walk from each alias in declaration order stops at an
        /// alias an earlier walk reached, so every alias is stepped on once.
        func cycles() -> [Cycle] {
            var done: Set<String> = []
            var result: [Cycle] = []
            for start in names where !done.contains(start) {
                var path: [String] = []
                var onPath: [String: Int] = [:]
                var current: String? = start
                while let name = current, !done.contains(name) {
                    if let index = onPath[name] {
                        var members = Array(path[index...])
                        let first = members.indices.min { order[members[$0]]! < order[members[$1]]! }!
                        members = Array(members[first...] + members[..<first])
                        let collection = members.contains { next[$0]!.throughCollection }
                        result.append(Cycle(members: members, throughCollection: collection))
                        break
                    }
                    onPath[name] = path.count
                    path.append(name)
                    current = next[name]?.name
                }
                done.formUnion(path)
            }
            return result
        }
    }
}
