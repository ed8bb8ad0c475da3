import Foundation

/// The JSON Schemas (Draft 2020-12) of every operation's input and reply
/// (`Catalogue/OperationSchemas.swift`), which the `openai mcp` server gives its tools and from which
/// the `openai` tool's flag shapes are projected (``FlagShapes``): written from the IR, so they
/// describe what the SDK's types send and accept. The generator's one converter of IR types to a
/// schema (``Converter``).
///
/// The file declares one string, `operationSchemasJSON`: a JSON object (format `version` 1) with
/// - `definitions`: each named type an input or a reply reaches, by its Swift path
///   (`Response.Output`), one per line, its references to others as `{"$ref": "#/$defs/<name>"}`;
/// - `operations`: by operationId, `input` (an object schema: the path, query and header
///   parameters and the body's top-level members by wire name, and which are required) and
///   `output` (the JSON reply's schema, when it has one).
///
/// Shapes: a struct is an object with `properties` and `required`; a string enum `enum` (or
/// `examples` when other strings are taken too); a union `anyOf`; a nullable member `anyOf` with
/// `{"type": "null"}`; a constant `const`; a multipart file a string (see ``fileDescription``);
/// free-form JSON `{}`. Each member carries its description's first sentence and the spec's facts.
enum SchemaCatalogueRenderer {
    /// What a multipart file member takes in the MCP server's tools.
    static let fileDescription =
        "A file: its content as a data URL (`data:audio/mpeg;base64,...`), or a local path after @ (`@/tmp/audio.mp3`) "
        + "when the server was started with --allow-files for its folder."

    static func file(_ model: APIModel) -> GeneratedFile {
        var converter = Converter(declarations: TopLevelDeclaration.indexByPath(model.declarations))
        var operations: [(id: String, json: String)] = []
        for operation in model.operations {
            operations.append((operation.operationID, CatalogueRenderer.json(converter.operation(operation))))
        }
        // Every definition the operations reach, and those the definitions reach.
        var definitions: [String: String] = [:]
        while let name = converter.pending.popFirst() {
            guard definitions[name] == nil, let declaration = converter.declarations[name] else { continue }
            definitions[name] = CatalogueRenderer.json(converter.definition(declaration))
        }
        let definitionLines = definitions.keys.sorted().map { "\(CatalogueRenderer.json($0)): \(definitions[$0]!)" }
        let operationLines = operations.sorted { $0.id < $1.id }.map { "\(CatalogueRenderer.json($0.id)): \($0.json)" }
        let body =
            "{\"version\": 1, \"definitions\": {\n" + definitionLines.joined(separator: ",\n")
            + "\n}, \"operations\": {\n"
            + operationLines.joined(separator: ",\n") + "\n}}"
        return CatalogueRenderer.jsonConstantFile(
            path: "Catalogue/OperationSchemas.swift", name: "operationSchemasJSON", json: body,
            about: [
                "The JSON Schemas (Draft 2020-12) of every operation's input and JSON reply, for the `openai mcp` server's",
                "tools (format: Generator/Core/Rendering/SchemaCatalogueRenderer.swift).",
            ],
            documentation: "The schemas' JSON text: `{\"version\": 1, \"definitions\": {...}, \"operations\": {...}}`.")
    }

    /// IR types to JSON Schema, noting the named types referred to.
    struct Converter {
        var declarations: [String: Declaration]
        /// Named types referred to and not yet written, in the order first met.
        var pending: ArraySlice<String> = []
        private var seen: Set<String> = []

        init(declarations: [String: Declaration]) { self.declarations = declarations }

        /// The input and output of an operation.
        mutating func operation(_ operation: OperationDecl) -> [String: Any] {
            var properties: [String: Any] = [:]
            var required: [String] = []
            for parameter in operation.parameters {
                var schema = self.schema(parameter.type)
                if let text = DocText.withFacts(DocText.summary(parameter.documentation), parameter.facts)
                    .nonEmpty
                {
                    schema["description"] = DocText.absoluteLinks(text)
                }
                properties[parameter.wireName] = schema
                if parameter.required { required.append(parameter.wireName) }
            }
            switch operation.bodies.first {
            case .json(let type)?, .multipart(let type)?:
                if let structure = CatalogueRenderer.structure(type, in: declarations) {
                    for property in structure.properties {
                        properties[property.wireName] = member(property)
                        if property.required { required.append(property.wireName) }
                    }
                }
            case .text?, nil:
                break
            }
            var input: [String: Any] = ["type": "object", "properties": properties]
            if !required.isEmpty { input["required"] = required }
            var result: [String: Any] = ["input": input]
            if case .json(let type) = operation.response { result["output"] = schema(type) }
            return result
        }

        /// A named type's schema.
        mutating func definition(_ declaration: Declaration) -> [String: Any] {
            switch declaration {
            case .structure(let decl):
                var properties: [String: Any] = [:]
                var required: [String] = []
                for property in decl.properties {
                    properties[property.wireName] = member(property)
                    if property.required { required.append(property.wireName) }
                }
                var result: [String: Any] = ["type": "object", "properties": properties]
                if !required.isEmpty { result["required"] = required }
                if let additional = decl.additionalProperties { result["additionalProperties"] = schema(additional) }
                return described(result, decl.documentation.summary)
            case .openEnum(let decl):
                let values = decl.values.map(\.rawValue)
                let result: [String: Any] =
                    decl.acceptsOtherStrings
                    ? ["type": "string", "examples": values] : ["type": "string", "enum": values]
                return described(result, decl.documentation.summary)
            case .union(let decl):
                return described(["anyOf": decl.cases.map { schema($0.type) }], decl.documentation.summary)
            case .alias(let decl):
                return described(schema(decl.target), decl.documentation.summary)
            }
        }

        /// A struct member: its type (or constant), `null` when nullable, its description and facts.
        private mutating func member(_ property: Property) -> [String: Any] {
            var result: [String: Any] = property.constant.map { ["const": $0] } ?? schema(property.type)
            if property.nullable { result = ["anyOf": [result, ["type": "null"]]] }
            if let text = DocText.withFacts(
                DocText.summary(property.documentation.summary), property.documentation.facts
            )
            .nonEmpty {
                // A file member keeps what it takes (``fileDescription``) after what it is.
                let taken = (result["description"] as? String).map { " " + $0 } ?? ""
                result["description"] = DocText.absoluteLinks(text) + taken
            }
            if property.documentation.deprecated { result["deprecated"] = true }
            return result
        }

        mutating func schema(_ type: TypeRef) -> [String: Any] {
            switch type {
            case .string: return ["type": "string"]
            case .int: return ["type": "integer"]
            case .double: return ["type": "number"]
            case .bool: return ["type": "boolean"]
            case .data: return ["type": "string", "contentEncoding": "base64"]
            case .file: return ["type": "string", "description": SchemaCatalogueRenderer.fileDescription]
            case .json: return [:]
            case .array(let element): return ["type": "array", "items": schema(element)]
            case .dictionary(let value): return ["type": "object", "additionalProperties": schema(value)]
            case .named(let name):
                guard declarations[name] != nil else { return [:] }
                if seen.insert(name).inserted { pending.append(name) }
                return ["$ref": "#/$defs/" + name]
            }
        }

        private func described(_ schema: [String: Any], _ text: String?) -> [String: Any] {
            guard let summary = DocText.summary(text) else { return schema }
            var result = schema
            result["description"] = DocText.absoluteLinks(summary)
            return result
        }
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
