/// Module qualification of the type references a nested type hides.
///
/// A nested type may repeat a top-level name (`CreateMessageRequest.Role` beside the top-level
/// `Role`; ``TypeNames/nestedName(_:used:ancestors:insideSchemaType:)``). Swift looks a name up
/// in the enclosing types' members before the module, so inside `CreateMessageRequest` the name
/// `Role` means the nested type. Generated references are full paths from a top-level type
/// (`Response.Output`), so only their first component can be hidden: where it is, the reference
/// is written with its module (`OpenAI.Role`, `OpenAIAdmin.Project`).
enum ShadowedReferences {
    /// `declarations` with every hidden reference module-qualified.
    static func qualify(_ declarations: [TopLevelDeclaration]) -> [TopLevelDeclaration] {
        var modules: [String: SDKModule] = [:]
        var resourceMembers: [String: Set<String>] = [:]
        for top in declarations {
            if let resource = top.resourceType {
                modules[resource] = top.module
                resourceMembers[resource, default: []].insert(top.declaration.name)
            } else {
                modules[top.declaration.name] = top.module
            }
        }
        return declarations.map { top in
            var top = top
            let enclosing = top.resourceType.flatMap { resourceMembers[$0] } ?? []
            top.declaration = qualify(top.declaration, hidden: enclosing, modules: modules)
            return top
        }
    }

    /// `declaration` with its references, and its nested types' references, qualified where one
    /// of `hidden` (the nested type names of the types that enclose it) or of its own nested type
    /// names hides them.
    private static func qualify(_ declaration: Declaration, hidden: Set<String>, modules: [String: SDKModule])
        -> Declaration
    {
        switch declaration {
        case .structure(var decl):
            let inside = hidden.union(decl.nested.map(\.name))
            for index in decl.properties.indices {
                decl.properties[index].type = qualify(decl.properties[index].type, hidden: inside, modules: modules)
            }
            decl.additionalProperties = decl.additionalProperties.map {
                qualify($0, hidden: inside, modules: modules)
            }
            if var page = decl.page {
                page.itemType = qualify(page.itemType, hidden: inside, modules: modules)
                decl.page = page
            }
            decl.nested = decl.nested.map { qualify($0, hidden: inside, modules: modules) }
            return .structure(decl)
        case .union(var decl):
            let inside = hidden.union(decl.nested.map(\.name))
            for index in decl.cases.indices {
                decl.cases[index].type = qualify(decl.cases[index].type, hidden: inside, modules: modules)
            }
            decl.nested = decl.nested.map { qualify($0, hidden: inside, modules: modules) }
            return .union(decl)
        case .alias(var decl):
            decl.target = qualify(decl.target, hidden: hidden, modules: modules)
            return .alias(decl)
        case .openEnum:
            return declaration
        }
    }

    /// `type` with its module when its first path component is one of `hidden` and a top-level type.
    static func qualify(_ type: TypeRef, hidden: Set<String>, modules: [String: SDKModule]) -> TypeRef {
        switch type {
        case .named(let path):
            let first = String(path.prefix { $0 != "." })
            guard hidden.contains(first), let module = modules[first] else { return type }
            return .named(module.rawValue + "." + path)
        case .array(let element):
            return .array(qualify(element, hidden: hidden, modules: modules))
        case .dictionary(let value):
            return .dictionary(qualify(value, hidden: hidden, modules: modules))
        default:
            return type
        }
    }
}
