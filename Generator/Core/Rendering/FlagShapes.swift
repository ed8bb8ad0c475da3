import OpenAICatalogueModel

/// The shape of each of the `openai` tool's flags (a ``CatalogueSchema`` in the catalogue), projected
/// from the JSON Schema that `OperationSchemas` gives the value (``SchemaCatalogueRenderer/Converter``),
/// so the tool's flags and the MCP server's tools come from one schema of each operation.
///
/// The projection keeps what the tool reads: the JSON type (`file` for a multipart file, whose
/// schema is a string described by ``SchemaCatalogueRenderer/fileDescription``), `enum`, `examples`,
/// `format: binary` for base64 bytes (`contentEncoding`), an array's `items`, and a union's
/// alternatives merged (``union(_:)``). References are followed; a union nested more than four
/// deep is any JSON. A class: the definitions it projects are converted once per catalogue.
final class FlagShapes {
    private var converter: SchemaCatalogueRenderer.Converter
    /// Definitions converted so far, by name.
    private var definitions: [String: [String: Any]] = [:]

    init(declarations: [String: Declaration]) {
        converter = SchemaCatalogueRenderer.Converter(declarations: declarations)
    }

    /// The shape of a value of `type`.
    func shape(of type: TypeRef) -> CatalogueSchema {
        shape(converter.schema(type), depth: 0)
    }

    private func shape(_ schema: [String: Any], depth: Int) -> CatalogueSchema {
        if let reference = schema["$ref"] as? String {
            guard let definition = definition(String(reference.dropFirst("#/$defs/".count))) else { return .any }
            return shape(definition, depth: depth)
        }
        if let alternatives = schema["anyOf"] as? [[String: Any]] {
            guard depth < 4 else { return .any }
            return Self.union(alternatives.map { shape($0, depth: depth + 1) })
        }
        switch schema["type"] as? String {
        case "string"?:
            if schema["description"] as? String == SchemaCatalogueRenderer.fileDescription {
                return CatalogueSchema(type: "file")
            }
            if schema["contentEncoding"] as? String == "base64" {
                return CatalogueSchema(type: "string", format: "binary")
            }
            return CatalogueSchema(
                type: "string", enumValues: schema["enum"] as? [String] ?? [],
                examples: schema["examples"] as? [String] ?? [])
        case "array"?:
            let items = schema["items"] as? [String: Any] ?? [:]
            return CatalogueSchema(type: "array", items: shape(items, depth: depth + 1))
        case let type?:
            return CatalogueSchema(type: type)
        case nil:
            return .any
        }
    }

    private func definition(_ name: String) -> [String: Any]? {
        if let known = definitions[name] { return known }
        guard let declaration = converter.declarations[name] else { return nil }
        let definition = converter.definition(declaration)
        definitions[name] = definition
        return definition
    }

    /// The alternatives of a union as one shape: nested `anyOf`s flattened, string enums merged,
    /// repeated shapes once; a single shape stands alone.
    static func union(_ cases: [CatalogueSchema]) -> CatalogueSchema {
        let flat = cases.flatMap { $0.anyOf.isEmpty ? [$0] : $0.anyOf }
        if flat.contains(where: \.isAny) { return .any }
        var result: [CatalogueSchema] = []
        var enumValues: [String] = []
        var plainString = false
        var examples: [String] = []
        var seen: Set<CatalogueSchema> = []
        for item in flat {
            if item.type == "string", item.format == nil {
                if !item.enumValues.isEmpty {
                    enumValues += item.enumValues.filter { !enumValues.contains($0) }
                } else {
                    // Known values only (examples), or any string.
                    examples += item.examples
                    plainString = true
                }
                continue
            }
            if seen.insert(item).inserted { result.append(item) }
        }
        if plainString {
            result.insert(CatalogueSchema(type: "string", examples: enumValues + examples), at: 0)
        } else if !enumValues.isEmpty {
            result.insert(CatalogueSchema(type: "string", enumValues: enumValues), at: 0)
        }
        return result.count == 1 ? result[0] : CatalogueSchema(anyOf: result)
    }
}
