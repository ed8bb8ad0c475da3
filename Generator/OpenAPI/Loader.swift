import OpenAIYAML

/// Builds an ``OpenAPIDocument`` from YAML: resolves `#/components/responses` references,
/// keeps schema references by name, checks that every `$ref` points at something, and records
/// spec problems as diagnostics. The project's corrections are a later stage, the overlay
/// (``SchemaOverlay`` for the schemas).
public struct OpenAPILoader {
    /// The most `$ref` hops a chain of component schemas that are only a `$ref` to the next
    /// (`A0: {$ref: A1}`, `A1: {$ref: A2}`, …) may take before a schema that says something; a
    /// longer chain is an error naming where it starts.
    public static let aliasChainLimit = 64

    public init() {}

    /// Parses `bytes` as YAML (JSON is YAML) and loads the OpenAPI document.
    ///
    /// - Throws: ``OpenAPIError`` naming file:line:column and the JSON pointer for invalid YAML, a
    ///   document that is not OpenAPI 3.x, or a `$ref` that points at nothing.
    public func load(_ bytes: [UInt8], file: String) throws -> OpenAPIDocument {
        let parsed: YAMLDocument
        do {
            parsed = try YAMLParser().parse(bytes, file: file)
        } catch {
            throw OpenAPIError(
                message: "invalid YAML: \(error.message)",
                location: SourceLocation(file: file, mark: error.mark, pointer: error.pointer ?? "#"))
        }
        var context = LoadContext(file: file)
        for warning in parsed.warnings {
            context.diagnostics.append(
                Diagnostic(
                    .duplicateKey, message: warning.message,
                    location: SourceLocation(file: file, mark: warning.mark, pointer: "#")))
        }
        return try context.loadDocument(parsed.root)
    }
}

struct LoadContext {
    let file: String
    var diagnostics: [Diagnostic] = []
    var componentNames: Set<String> = []
    var responseComponents: [String: YAMLNode] = [:]
    var pendingRefs: [(name: String, location: SourceLocation)] = []
    /// The component schema being loaded, for `$recursiveRef: '#'`.
    var currentComponent: String?

    init(file: String) {
        self.file = file
    }

    func location(_ node: YAMLNode, _ pointer: String) -> SourceLocation {
        SourceLocation(file: file, mark: node.mark, pointer: pointer)
    }

    func error(_ message: String, _ node: YAMLNode, _ pointer: String) -> OpenAPIError {
        OpenAPIError(message: message, location: location(node, pointer))
    }

    mutating func loadDocument(_ root: YAMLNode) throws -> OpenAPIDocument {
        guard root.mapping != nil else {
            throw error("the document is not a mapping, so not an OpenAPI document", root, "#")
        }
        guard let versionNode = root["openapi"], let version = versionNode.scalarText else {
            throw error(
                "missing `openapi` version field: this is not an OpenAPI 3.x document", root, "#")
        }
        guard version.hasPrefix("3.0") || version.hasPrefix("3.1") else {
            throw error(
                "unsupported OpenAPI version \(version): expected 3.0.x or 3.1.x", versionNode,
                "#/openapi")
        }
        let info = root["info"]
        let components = root["components"]
        // Names first, so that references can be checked while loading.
        for pair in components?["schemas"]?.mapping ?? [] { componentNames.insert(pair.key) }
        for pair in components?["responses"]?.mapping ?? [] { responseComponents[pair.key] = pair.value }

        var schemas: [(name: String, schema: Schema)] = []
        for pair in components?["schemas"]?.mapping ?? [] {
            currentComponent = pair.key
            let pointer = "#/components/schemas/" + escapePointerToken(pair.key)
            schemas.append((pair.key, try loadSchema(pair.value, pointer)))
        }
        currentComponent = nil

        var operations: [Operation] = []
        if let paths = root["paths"] {
            for pathPair in paths.mapping ?? [] {
                let pathPointer = "#/paths/" + escapePointerToken(pathPair.key)
                let shared = try loadParameters(pathPair.value["parameters"], pathPointer + "/parameters")
                for methodPair in pathPair.value.mapping ?? [] {
                    let method = methodPair.key.lowercased()
                    guard ["get", "put", "post", "delete", "options", "head", "patch", "trace"].contains(method)
                    else { continue }
                    operations.append(
                        try loadOperation(
                            methodPair.value, path: pathPair.key, method: method,
                            pointer: pathPointer + "/" + method, sharedParameters: shared))
                }
            }
        }

        var webhooks: [Webhook] = []
        for pair in root["webhooks"]?.mapping ?? [] {
            let pointer = "#/webhooks/" + escapePointerToken(pair.key)
            let post = pair.value["post"]
            var payload: Schema?
            if let schemaNode = post?["requestBody"]?["content"]?["application/json"]?["schema"] {
                payload = try loadSchema(schemaNode, pointer + "/post/requestBody/content/application~1json/schema")
            }
            webhooks.append(
                Webhook(
                    name: pair.key, description: post?["description"]?.scalarText, payload: payload,
                    location: location(pair.value, pointer)))
        }

        for reference in pendingRefs where !componentNames.contains(reference.name) {
            throw OpenAPIError(
                message: "dangling $ref: no schema named \(reference.name) in #/components/schemas",
                location: reference.location)
        }

        try AliasChains.check(schemas)

        // An operationId names one operation (OpenAPI 3.1, Operation Object): two of them would be one
        // Swift method twice, which does not compile.
        var owners: [String: Operation] = [:]
        for operation in operations {
            guard let id = operation.operationID else { continue }
            if let first = owners[id] {
                throw OpenAPIError(
                    message:
                        "operationId \(id) is used twice: by \(first.method.uppercased()) \(first.path) (line "
                        + "\(first.location.mark.line)) and by \(operation.method.uppercased()) \(operation.path); an "
                        + "operationId must be unique among all operations",
                    location: operation.location)
            }
            owners[id] = operation
        }

        return OpenAPIDocument(
            file: file, openAPIVersion: version, title: info?["title"]?.scalarText ?? "",
            version: info?["version"]?.scalarText ?? "", schemas: schemas, operations: operations,
            webhooks: webhooks, defaultSecurity: securityNames(root["security"]),
            diagnostics: diagnostics)
    }

    func securityNames(_ node: YAMLNode?) -> [String] {
        (node?.sequence ?? []).flatMap { $0.mapping?.map(\.key) ?? [] }
    }

    mutating func loadParameters(_ node: YAMLNode?, _ pointer: String) throws -> [Parameter] {
        var result: [Parameter] = []
        for (offset, item) in (node?.sequence ?? []).enumerated() {
            let itemPointer = "\(pointer)/\(offset)"
            if item["$ref"] != nil {
                throw error("parameter references are not supported", item, itemPointer)
            }
            guard let name = item["name"]?.scalarText, let place = item["in"]?.scalarText,
                let location = Parameter.Location(rawValue: place)
            else {
                throw error("a parameter needs `name` and a valid `in`", item, itemPointer)
            }
            let schema: Schema
            if let schemaNode = item["schema"] {
                schema = try loadSchema(schemaNode, itemPointer + "/schema")
            } else {
                schema = try loadSchema(YAMLNode(kind: .mapping([]), mark: item.mark), itemPointer)
            }
            result.append(
                Parameter(
                    name: name, location: location,
                    required: item["required"]?.bool ?? (location == .path),
                    deprecated: item["deprecated"]?.bool ?? false,
                    description: item["description"]?.scalarText, schema: schema,
                    source: self.location(item, itemPointer)))
        }
        return result
    }

    mutating func loadContent(_ node: YAMLNode?, _ pointer: String) throws -> [MediaType] {
        var result: [MediaType] = []
        for pair in node?.mapping ?? [] {
            let mediaPointer = pointer + "/" + escapePointerToken(pair.key)
            let schema = try pair.value["schema"].map { try loadSchema($0, mediaPointer + "/schema") }
            result.append(MediaType(contentType: pair.key, schema: schema))
        }
        return result
    }

    mutating func loadOperation(
        _ node: YAMLNode, path: String, method: String, pointer: String, sharedParameters: [Parameter]
    ) throws -> Operation {
        var parameters = sharedParameters
        for parameter in try loadParameters(node["parameters"], pointer + "/parameters") {
            parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
            parameters.append(parameter)
        }
        var requestBody: RequestBody?
        if let body = node["requestBody"] {
            if body["$ref"] != nil {
                throw error("requestBody references are not supported", body, pointer + "/requestBody")
            }
            requestBody = RequestBody(
                required: body["required"]?.bool ?? false, description: body["description"]?.scalarText,
                content: try loadContent(body["content"], pointer + "/requestBody/content"))
        }
        var responses: [Response] = []
        for pair in node["responses"]?.mapping ?? [] {
            var responsePointer = pointer + "/responses/" + escapePointerToken(pair.key)
            var responseNode = pair.value
            if let reference = pair.value["$ref"]?.scalarText {
                let prefix = "#/components/responses/"
                guard reference.hasPrefix(prefix),
                    let target = responseComponents[String(reference.dropFirst(prefix.count))]
                else {
                    throw error("dangling $ref: \(reference)", pair.value, responsePointer + "/$ref")
                }
                responseNode = target
                responsePointer = reference
            }
            responses.append(
                Response(
                    statusCode: pair.key, description: responseNode["description"]?.scalarText,
                    content: try loadContent(responseNode["content"], responsePointer + "/content")))
        }
        var examples: [String] = []
        if let meta = node["x-oaiMeta"]?["examples"] {
            let entries = meta.sequence ?? [meta]
            for entry in entries {
                if let response = entry["response"]?.scalarText { examples.append(response) }
            }
        }
        return Operation(
            path: path, method: method, operationID: node["operationId"]?.scalarText,
            tags: node["tags"]?.sequence?.compactMap(\.scalarText) ?? [],
            summary: node["summary"]?.scalarText, description: node["description"]?.scalarText,
            deprecated: node["deprecated"]?.bool ?? false, parameters: parameters,
            requestBody: requestBody, responses: responses,
            security: node["security"].map(securityNames) ?? [], responseExamples: examples,
            location: location(node, pointer))
    }

    func scalarValue(_ node: YAMLNode) -> ScalarValue? {
        guard case .scalar(let scalar) = node.kind else { return nil }
        switch scalar.resolved {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .float(let value): return .double(value)
        case .string(let value): return .string(value)
        }
    }

    mutating func loadSchemaList(_ node: YAMLNode?, _ pointer: String) throws -> [Schema] {
        guard let node else { return [] }
        guard let items = node.sequence else {
            throw error("expected a list of schemas", node, pointer)
        }
        var result: [Schema] = []
        result.reserveCapacity(items.count)
        for (offset, item) in items.enumerated() {
            result.append(try loadSchema(item, "\(pointer)/\(offset)"))
        }
        return result
    }

    mutating func loadSchema(_ node: YAMLNode, _ pointer: String) throws -> Schema {
        let location = self.location(node, pointer)
        if case .scalar(let scalar) = node.kind, case .bool = scalar.resolved {
            // `true` / `false` schemas (JSON Schema): anything / nothing.
            return Schema.empty(location)
        }
        guard let pairs = node.mapping else {
            throw error("expected a schema (a mapping)", node, pointer)
        }
        var ref: String?
        var types: [String] = []
        var nullable = false
        var format: String?
        var title: String?
        var description: String?
        var deprecated = false
        var properties: [(name: String, schema: Schema)] = []
        var required: [String] = []
        var additional = Schema.AdditionalProperties.absent
        var items: Schema?
        var enumValues: [ScalarValue]?
        var constValue: ScalarValue?
        var oneOf: [Schema] = []
        var anyOf: [Schema] = []
        var allOf: [Schema] = []
        var discriminator: Schema.Discriminator?
        var defaultValue: ScalarValue?
        var swiftType: String?
        var sdkOnly = false
        var constraints: [String: ScalarValue] = [:]
        for pair in pairs {
            let value = pair.value
            switch pair.key {
            case "$ref":
                guard let text = value.scalarText else { throw error("$ref must be a string", value, pointer) }
                let prefix = "#/components/schemas/"
                guard text.hasPrefix(prefix), !text.dropFirst(prefix.count).contains("/") else {
                    throw error(
                        "unsupported $ref \(text): only #/components/schemas/<name> is supported", value,
                        pointer + "/$ref")
                }
                let name = String(text.dropFirst(prefix.count))
                pendingRefs.append((name, self.location(value, pointer + "/$ref")))
                ref = name
            case "$recursiveRef", "$dynamicRef":
                guard let currentComponent else {
                    throw error("\(pair.key) outside a component schema", value, pointer)
                }
                ref = currentComponent
            case "type":
                if let list = value.sequence {
                    types = list.compactMap(\.scalarText)
                } else if let text = value.scalarText {
                    types = [text]
                }
            case "nullable": nullable = value.bool ?? false
            case "format": format = value.scalarText
            case "title": title = value.scalarText
            case "description": description = value.scalarText
            case "deprecated": deprecated = value.bool ?? false
            case "properties":
                for property in value.mapping ?? [] {
                    properties.append(
                        (
                            property.key,
                            try loadSchema(
                                property.value, pointer + "/properties/" + escapePointerToken(property.key))
                        ))
                }
            case "required": required = value.sequence?.compactMap(\.scalarText) ?? []
            case "additionalProperties":
                if let flag = value.bool {
                    additional = .allowed(flag)
                } else {
                    additional = .schema(try loadSchema(value, pointer + "/additionalProperties"))
                }
            case "items":
                if value.mapping != nil { items = try loadSchema(value, pointer + "/items") }
            case "enum": enumValues = value.sequence?.compactMap { scalarValue($0) }
            case "const": constValue = scalarValue(value)
            case "oneOf": oneOf = try loadSchemaList(value, pointer + "/oneOf")
            case "anyOf": anyOf = try loadSchemaList(value, pointer + "/anyOf")
            case "allOf": allOf = try loadSchemaList(value, pointer + "/allOf")
            case "discriminator":
                if let name = value["propertyName"]?.scalarText {
                    let mapping = (value["mapping"]?.mapping ?? []).compactMap { entry -> (String, String)? in
                        guard let target = entry.value.scalarText else { return nil }
                        return (entry.key, String(target.split(separator: "/").last ?? ""))
                    }
                    discriminator = Schema.Discriminator(propertyName: name, mapping: mapping)
                }
            case "default": defaultValue = scalarValue(value)
            case "x-swift-type": swiftType = value.scalarText
            case "x-oaiSupportedSDKs": sdkOnly = true
            case _ where Schema.constraintKeywords.contains(pair.key):
                if let constraint = scalarValue(value) { constraints[pair.key] = constraint }
            default: break
            }
        }
        var seen: Set<String> = []
        for name in required where !seen.insert(name).inserted {
            diagnostics.append(
                Diagnostic(
                    .duplicateRequired,
                    message: "`required` lists \(name) more than once", location: location))
        }
        return Schema(
            location: location, ref: ref, types: types, nullable: nullable, format: format, title: title,
            description: description, deprecated: deprecated, properties: properties, required: required,
            additionalProperties: additional, items: items, enumValues: enumValues, constValue: constValue,
            oneOf: oneOf, anyOf: anyOf, allOf: allOf, discriminator: discriminator,
            defaultValue: defaultValue, swiftType: swiftType, sdkOnly: sdkOnly, constraints: constraints)
    }
}

extension Schema {
    /// A `oneOf` of `members`, for unions the spec implies but does not declare (e.g. all
    /// webhook payloads).
    public static func union(of members: [Schema], description: String, location: SourceLocation) -> Schema {
        Schema(
            location: location, ref: nil, types: [], nullable: false, format: nil, title: nil,
            description: description, deprecated: false, properties: [], required: [], additionalProperties: .absent,
            items: nil, enumValues: nil, constValue: nil, oneOf: [], anyOf: members, allOf: [],
            discriminator: nil, defaultValue: nil, swiftType: nil)
    }

    /// An array schema of `items` (for naming a type array's array branch).
    public static func arrayOf(_ items: Schema, location: SourceLocation) -> Schema {
        Schema(
            location: location, ref: nil, types: ["array"], nullable: false, format: nil, title: nil,
            description: nil, deprecated: false, properties: [], required: [], additionalProperties: .absent,
            items: items, enumValues: nil, constValue: nil, oneOf: [], anyOf: [], allOf: [],
            discriminator: nil, defaultValue: nil, swiftType: nil)
    }

    /// A copy that also accepts `null`.
    func makingNullable() -> Schema {
        Schema(
            location: location, ref: ref, types: types, nullable: true, format: format, title: title,
            description: description, deprecated: deprecated, properties: properties, required: required,
            additionalProperties: additionalProperties, items: items, enumValues: enumValues,
            constValue: constValue, oneOf: oneOf, anyOf: anyOf, allOf: allOf, discriminator: discriminator,
            defaultValue: defaultValue, swiftType: swiftType, sdkOnly: sdkOnly, constraints: constraints)
    }

    static func empty(_ location: SourceLocation) -> Schema {
        Schema(
            location: location, ref: nil, types: [], nullable: false, format: nil, title: nil,
            description: nil, deprecated: false, properties: [], required: [], additionalProperties: .absent,
            items: nil, enumValues: nil, constValue: nil, oneOf: [], anyOf: [], allOf: [],
            discriminator: nil, defaultValue: nil, swiftType: nil)
    }
}
