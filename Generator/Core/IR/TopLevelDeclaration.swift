/// The Swift module a generated declaration or operation is compiled in.
public enum SDKModule: String, Hashable, Sendable, CaseIterable {
    /// `OpenAI`: everything called with a project API key, and every type those operations reach.
    case openAI = "OpenAI"
    /// `OpenAIAdmin`: the root resources whose every operation needs an admin API key
    /// (`organization`, `projects`) and the types only those operations reach. Its files are in
    /// the generated folder's `Admin/`.
    case admin = "OpenAIAdmin"

    /// The folder of its files inside the generated folder, with a trailing slash (empty for `OpenAI`).
    public var folder: String { self == .admin ? "Admin/" : "" }
}

/// Where a top-level declaration is declared.
public enum Placement: Hashable, Sendable {
    /// At the top level, in the types files of an API area (the tag of the operations that reach
    /// it, or `Shared`).
    case area(String)
    /// Nested in a resource type (an operation's inline schema), e.g. `ChatCompletionsAPI`.
    case resource(String)
}

/// A top-level declaration and where it goes.
public struct TopLevelDeclaration: Hashable, Sendable {
    public var declaration: Declaration
    public var placement: Placement
    /// The component schema it came from, or nil for synthesized ones.
    public var schemaName: String?
    /// The module it is compiled in.
    public var module: SDKModule
    /// What a reader uses it for: the types operations take and return and the event types each
    /// get a file of their own and their own group in the documentation.
    public var role: Role = .supporting

    /// What a top-level type is to a reader.
    public enum Role: Hashable, Sendable {
        /// A component an operation's body or reply names directly (`CreateResponse`, `Response`).
        case operationType
        /// A stream's event type (the schema `Spec/overrides.json` names for a stream) or a union
        /// of events (`ResponseStreamEvent`, `WebhookEvent`).
        case event
        /// Any other type: a member's type, a variant of a union.
        case supporting
    }

    /// Whether it is a type a reader names (``Role/operationType`` or ``Role/event``): in a file
    /// of its own, named after it (`Types/Responses/Response.swift`), when it is long enough; the
    /// others share their area's files.
    public var hasOwnFile: Bool { role != .supporting }

    /// The types files' area, or `nil` for a type nested in a resource type.
    public var area: String? {
        if case .area(let area) = placement { return area }
        return nil
    }

    /// The resource type it is nested in (an operation's inline schema), or `nil` at the top level.
    public var resourceType: String? {
        if case .resource(let type) = placement { return type }
        return nil
    }

    /// A declaration nested in the resource type `resourceType`.
    static func inResource(_ declaration: Declaration, _ resourceType: String, module: SDKModule)
        -> TopLevelDeclaration
    {
        TopLevelDeclaration(
            declaration: declaration, placement: .resource(resourceType), schemaName: nil, module: module)
    }

    /// Every declaration, nested ones included, by its full Swift path (`Response.Output`).
    static func indexByPath(_ declarations: [TopLevelDeclaration]) -> [String: Declaration] {
        var result: [String: Declaration] = [:]
        func index(_ declaration: Declaration, prefix: String?) {
            let path = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            result[path] = declaration
            switch declaration {
            case .structure(let decl): for nested in decl.nested { index(nested, prefix: path) }
            case .union(let decl): for nested in decl.nested { index(nested, prefix: path) }
            default: break
            }
        }
        for top in declarations { index(top.declaration, prefix: top.resourceType) }
        return result
    }

    /// Every struct, nested ones included, by its full Swift path.
    static func structsByPath(_ declarations: [TopLevelDeclaration]) -> [String: StructDecl] {
        indexByPath(declarations).compactMapValues { declaration in
            if case .structure(let decl) = declaration { return decl }
            return nil
        }
    }
}
