import OpenAIGeneratorOpenAPI

/// The Swift type names of one translation: every component's, the top-level names synthesized
/// later (`WebhookEvent`), and the nested names inside each type. A name
/// that is taken gets a suffix (`Object` for a component whose name the runtime uses, `Value` for
/// a nested type whose name the runtime uses, then `2`, `3`, …); a component whose name changes
/// so, or a nested type that needs a number, is a `name-taken` note.
struct TypeNames {
    /// Component schema name → Swift type name.
    private(set) var components: [String: String] = [:]
    /// Every top-level Swift type name, which nested names must avoid.
    private(set) var topLevel: Set<String> = []

    /// Names the components of `document`, in document order, avoiding `reserved` (names the
    /// caller keeps for itself) and ``Naming/runtimeTypeNames``.
    init(document: OpenAPIDocument, reserved: Set<String>, diagnostics: inout [Diagnostic]) {
        var used = Naming.runtimeTypeNames.union(reserved)
        for (name, schema) in document.schemas {
            let wanted = Naming.typeName(name)
            var swiftName = wanted
            if used.contains(swiftName) { swiftName += "Object" }
            let candidate = Self.numbered(swiftName) { used.contains($0) }
            if candidate != wanted {
                diagnostics.append(
                    Diagnostic(
                        .nameTaken,
                        message:
                            "the schema \(name) would be the Swift type \(wanted), which is taken; it is \(candidate)",
                        location: schema.location))
            }
            used.insert(candidate)
            components[name] = candidate
            topLevel.insert(candidate)
        }
    }

    /// Reserves a top-level name for a synthesized type; `name`, or `name2`, `name3`, … when taken.
    mutating func reserveTopLevel(_ name: String) -> String {
        let candidate = Self.numbered(name) { topLevel.contains($0) || Naming.runtimeTypeNames.contains($0) }
        topLevel.insert(candidate)
        return candidate
    }

    /// Records a nested type hoisted to the top level beside its alias.
    mutating func insertTopLevel(_ name: String) {
        topLevel.insert(name)
    }

    /// A nested type name derived from `base`, unique among `used` (the names already declared in
    /// the enclosing type, to which it is added). `Value` is appended to a name the runtime uses
    /// unqualified (`ErrorValue`, `DataValue`) or that Swift reserves (`TypeValue`), then a number
    /// (`numbered`) when `used` has it.
    ///
    /// Inside a schema type (`insideSchemaType`), a nested type may repeat a top-level or an
    /// enclosing type's name (`CreateResponse.Model`, `ComparisonFilter.Value.Value`): the
    /// references it hides are module-qualified (``ShadowedReferences``). Elsewhere (the top level,
    /// where an alias's element type is hoisted, and a resource type, whose operations name
    /// top-level types) it must differ from every top-level and enclosing name.
    func nestedName(_ base: String, used: inout Set<String>, ancestors: Set<String>, insideSchemaType: Bool) -> (
        name: String, numbered: Bool
    ) {
        var name = Naming.typeName(base)
        let hides = !insideSchemaType && (topLevel.contains(name) || ancestors.contains(name))
        if hides || Naming.runtimeTypeNames.contains(name) {
            name += "Value"
        }
        let candidate = Self.numbered(name) {
            used.contains($0)
                || (!insideSchemaType && (topLevel.contains($0) || ancestors.contains($0)))
                || Naming.runtimeTypeNames.contains($0)
        }
        used.insert(candidate)
        return (candidate, candidate != name)
    }

    /// `name`, or the first of `name2`, `name3`, … that is not `taken`.
    static func numbered(_ name: String, taken: (String) -> Bool) -> String {
        var candidate = name
        var counter = 2
        while taken(candidate) {
            candidate = name + String(counter)
            counter += 1
        }
        return candidate
    }
}
