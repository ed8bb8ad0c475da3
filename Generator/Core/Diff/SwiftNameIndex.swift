import OpenAIGeneratorOpenAPI
import OpenAIYAML

/// The Swift declarations a translated spec generates, by the JSON pointer they came from, so a
/// change at a pointer can name the declaration it affects.
struct SwiftNameIndex {
    /// Pointer of a schema → full Swift type path (`Response.Output`).
    var types: [String: String] = [:]
    /// Pointer of a property schema → `Type.property`.
    var properties: [String: String] = [:]
    /// Swift type path → raw value → case name, for open enums.
    var enumCases: [String: [String: String]] = [:]
    /// Swift type path → case type → case name, for unions.
    var unionCases: [String: [String: String]] = [:]
    /// Component schema name → Swift type path.
    var components: [String: String] = [:]
    /// Operation key (`post /chat/completions`) → translated operation.
    var operations: [String: OperationDecl] = [:]
    /// Operation pointer (`#/paths/~1chat~1completions/post`) → call spelling.
    var operationCalls: [String: String] = [:]
    /// Component schema name → API area.
    var componentAreas: [String: String] = [:]
    /// Operation pointer → API area.
    var operationAreas: [String: String] = [:]

    init(model: APIModel, document: OpenAPIDocument) {
        // An inline schema emitted as an equal component has that component's type: a spec
        // change that gives it a nested type of its own changes the Swift type there.
        for (pointer, name) in model.reusedComponents { types[pointer] = name }
        for top in model.declarations {
            let prefix = top.resourceType.map { $0 + "." } ?? ""
            add(top.declaration, prefix: prefix)
            if let schemaName = top.schemaName, let area = top.area, componentAreas[schemaName] == nil {
                componentAreas[schemaName] = area
            }
            if let schemaName = top.schemaName, components[schemaName] == nil,
                top.declaration.documentation.remark == "#/components/schemas/"
                    + escapePointerToken(schemaName)
            {
                components[schemaName] = prefix + top.declaration.name
            }
        }
        let byID = Dictionary(
            model.operations.map { ($0.operationID, $0) }, uniquingKeysWith: { first, _ in first })
        for operation in document.operations {
            let operationID = operation.operationID ?? "\(operation.method)\(operation.path)"
            guard let decl = byID[operationID] else { continue }
            operations[Self.operationKey(operation)] = decl
            operationCalls[operation.location.pointer] = Self.call(decl)
            operationAreas[operation.location.pointer] = decl.area
        }
    }

    /// `post /chat/completions` with path parameter names blanked, so renaming `{id}` is no change;
    /// everything else stays, so `/responses/{id}?beta=true` pairs with itself, not with
    /// `/responses/{id}`.
    static func operationKey(_ operation: Operation) -> String {
        var key = operation.method + " "
        var inBraces = false
        for character in operation.path {
            switch character {
            case "{":
                inBraces = true
                key += "{}"
            case "}":
                inBraces = false
            default:
                if !inBraces { key.append(character) }
            }
        }
        return key
    }

    /// `client.chat.completions.create(model:messages:)`-like spelling of a client method.
    static func call(_ decl: OperationDecl) -> String {
        let labels = decl.parameters.map { $0.name + ":" }.joined()
        let body = decl.bodies.isEmpty ? "" : "_:"
        return "client." + (decl.resourcePath + [decl.methodName]).joined(separator: ".") + "(" + labels
            + body + ")"
    }

    private mutating func add(_ declaration: Declaration, prefix: String) {
        let path = prefix + declaration.name
        let remark = declaration.documentation.remark
        if remark.hasPrefix("#"), types[remark] == nil { types[remark] = path }
        switch declaration {
        case .structure(let decl):
            for property in decl.properties where properties[property.documentation.remark] == nil {
                properties[property.documentation.remark] = path + "." + property.name
            }
            for nested in decl.nested { add(nested, prefix: path + ".") }
        case .union(let decl):
            var cases: [String: String] = [:]
            for unionCase in decl.cases { cases[unionCase.type.swift] = unionCase.name }
            unionCases[path] = cases
            for nested in decl.nested { add(nested, prefix: path + ".") }
        case .openEnum(let decl):
            enumCases[path] = Dictionary(
                decl.values.map { ($0.rawValue, $0.name) }, uniquingKeysWith: { first, _ in first })
        case .alias:
            break
        }
    }

    /// The API area of the thing at `pointer`: its component's or operation's area.
    func area(at pointer: String) -> String {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false)
        if tokens.count >= 4, tokens[1] == "components", tokens[2] == "schemas" {
            return componentAreas[unescapePointerToken(tokens[3])] ?? "Other"
        }
        if tokens.count >= 4, tokens[1] == "paths" {
            return operationAreas[tokens[0...3].joined(separator: "/")] ?? "Other"
        }
        if tokens.count >= 2, tokens[1] == "webhooks" { return "Webhooks" }
        return "Shared"
    }

    /// The Swift declaration nearest to `pointer`: the property, type or client method whose
    /// pointer is the longest prefix of it.
    func declaration(at pointer: String) -> String? {
        var current = Substring(pointer)
        while !current.isEmpty {
            let key = String(current)
            if let name = properties[key] ?? types[key] ?? operationCalls[key] { return name }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = current[..<slash]
        }
        return nil
    }
}
