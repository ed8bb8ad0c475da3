import Foundation
import OpenAICatalogue

/// The operations' JSON Schemas (Draft 2020-12) from the generated `operationSchemasJSON`: each
/// operation's input (parameters and body members) and JSON reply, referring to shared
/// definitions by `{"$ref": "#/$defs/<name>"}`.
package struct SchemaSet: Sendable {
    /// Named types' schemas, by Swift path.
    package var definitions: [String: JSON]
    private var inputs: [String: JSON]
    private var outputs: [String: JSON]

    /// The schemas of the locked spec, parsed on first use (the `openai mcp` server only).
    package static let shared: SchemaSet = {
        do {
            return try SchemaSet(json: Array(operationSchemasJSON.utf8))
        } catch {
            fatalError("The generated operation schemas do not parse: \(error)")
        }
    }()

    /// Parses the schemas' JSON text.
    ///
    /// - Throws: ``JSONSyntaxError`` for text that is not JSON.
    package init(json bytes: [UInt8]) throws {
        let root = try JSON.parse(bytes)
        definitions = [:]
        if case .object(let members)? = root["definitions"] {
            for member in members { definitions[member.key] = member.value }
        }
        inputs = [:]
        outputs = [:]
        if case .object(let members)? = root["operations"] {
            for member in members {
                if let input = member.value["input"] { inputs[member.key] = input }
                if let output = member.value["output"] { outputs[member.key] = output }
            }
        }
    }

    /// The input schema of `operationID` as generated (references unresolved), or an empty object schema.
    package func input(_ operationID: String) -> JSON {
        inputs[operationID] ?? .object([JSON.Member("type", .string("object"))])
    }

    /// The JSON reply's schema of `operationID` (references unresolved), when it has one.
    package func output(_ operationID: String) -> JSON? { outputs[operationID] }

    /// `schema` with every `$ref` replaced by the definition it names, within a budget, so that a
    /// client that does not follow references sees whole shapes:
    ///
    /// - references are inlined breadth first, nearest the root first, while the compact JSON stays
    ///   within `budget` bytes;
    /// - a reference past the budget, or to a type already being inlined above it (a recursive
    ///   shape), becomes `{"description": "<the type's description> (not expanded: …)"}`: any JSON,
    ///   with the type's name, so the shape is cut and never wrong;
    /// - `loose` (for output schemas) drops `required` everywhere: replies that leave out a member
    ///   the spec requires still match, as the SDK's lenient decoding reads them.
    ///
    /// - Returns: A schema without `$ref`.
    package func inlined(_ schema: JSON, budget: Int, loose: Bool = false) -> JSON {
        // Deepen one level at a time while the result fits: the deepest expansion within the budget.
        var best = expand(schema, depth: 0, ancestors: [], loose: loose)
        var depth = 1
        while depth <= 12 {
            let candidate = expand(schema, depth: depth, ancestors: [], loose: loose)
            if candidate.compact.utf8.count > budget { break }
            let complete = !candidate.compact.contains(Self.cutMarker)
            best = candidate
            if complete { break }
            depth += 1
        }
        return best
    }

    /// What a cut reference's description ends with.
    package static let cutMarker = "(not expanded:"

    private func expand(_ schema: JSON, depth: Int, ancestors: [String], loose: Bool) -> JSON {
        switch schema {
        case .object(let members):
            if let reference = schema["$ref"]?.string, reference.hasPrefix("#/$defs/") {
                let name = String(reference.dropFirst("#/$defs/".count))
                let siblings = members.filter { $0.key != "$ref" }
                guard depth > 0, !ancestors.contains(name), let definition = definitions[name] else {
                    let description = (schema["description"] ?? definitions[name]?["description"])?.string
                    let reason =
                        ancestors.contains(name)
                        ? "a recursive \(name)" : "a \(name); the schema's size budget is spent"
                    let text = (description.map { $0 + " " } ?? "") + "\(Self.cutMarker) \(reason))"
                    return .object([JSON.Member("description", .string(text))])
                }
                var merged = expand(definition, depth: depth - 1, ancestors: ancestors + [name], loose: loose)
                for sibling in siblings {
                    merged = merged.setting(
                        sibling.key, expand(sibling.value, depth: depth, ancestors: ancestors, loose: loose))
                }
                return merged
            }
            return .object(
                members.compactMap { member in
                    // `required` lists names (an array); a property named `required` holds a schema.
                    if loose, member.key == "required", case .array = member.value { return nil }
                    return JSON.Member(
                        member.key, expand(member.value, depth: depth, ancestors: ancestors, loose: loose))
                })
        case .array(let elements):
            return .array(elements.map { expand($0, depth: depth, ancestors: ancestors, loose: loose) })
        default:
            return schema
        }
    }

    /// `schema` with `$defs` holding every definition it reaches (directly or through others), for a
    /// client that follows references: the whole shape, whatever its size.
    package func withDefinitions(_ schema: JSON) -> JSON {
        var names: [String] = []
        var queue = [schema]
        var seen: Set<String> = []
        while let next = queue.popLast() {
            for name in Self.references(in: next) where seen.insert(name).inserted {
                names.append(name)
                if let definition = definitions[name] { queue.append(definition) }
            }
        }
        let defs = names.sorted().compactMap { name in definitions[name].map { JSON.Member(name, $0) } }
        return defs.isEmpty ? schema : schema.setting("$defs", .object(defs))
    }

    /// The names of the definitions `schema` refers to directly.
    static func references(in schema: JSON) -> [String] {
        switch schema {
        case .object(let members):
            var result: [String] = []
            for member in members {
                if member.key == "$ref", let reference = member.value.string, reference.hasPrefix("#/$defs/") {
                    result.append(String(reference.dropFirst("#/$defs/".count)))
                } else {
                    result += references(in: member.value)
                }
            }
            return result
        case .array(let elements):
            return elements.flatMap(references(in:))
        default:
            return []
        }
    }
}
