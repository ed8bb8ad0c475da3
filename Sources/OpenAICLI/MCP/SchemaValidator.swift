/// Checks a value against the JSON Schema subset the generated schemas use (Draft 2020-12 keywords
/// `type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`, `anyOf`,
/// `$ref` into the schema set's definitions; annotations such as `description` and `examples` are
/// ignored), so that a tool call with wrong arguments is answered before anything is sent.
package struct SchemaValidator: Sendable {
    var schemas: SchemaSet

    package init(schemas: SchemaSet) { self.schemas = schemas }

    /// The problems of `value` against `schema`, each with the JSON pointer where it is (`/input/0`);
    /// empty when it matches. At most `limit` problems are reported.
    package func errors(_ value: JSON, against schema: JSON, limit: Int = 20) -> [String] {
        var errors: [String] = []
        check(value, schema, path: "", depth: 0, errors: &errors, limit: limit)
        return errors
    }

    private func check(_ value: JSON, _ schema: JSON, path: String, depth: Int, errors: inout [String], limit: Int) {
        guard errors.count < limit, depth < 64, case .object = schema else { return }
        let at = path.isEmpty ? "the arguments" : "`\(path)`"
        if let reference = schema["$ref"]?.string, reference.hasPrefix("#/$defs/") {
            if let definition = schemas.definitions[String(reference.dropFirst("#/$defs/".count))] {
                check(value, definition, path: path, depth: depth + 1, errors: &errors, limit: limit)
            }
        }
        if let constant = schema["const"], !Self.equal(constant, value) {
            errors.append("\(at) must be \(constant.compact)")
            return
        }
        if let values = schema["enum"]?.array, !values.contains(where: { Self.equal($0, value) }) {
            errors.append("\(at) must be one of \(values.map(\.compact).joined(separator: ", ")), not \(value.compact)")
            return
        }
        if let types = schema["type"].map({ $0.array?.compactMap(\.string) ?? [$0.string].compactMap { $0 } }),
            !types.isEmpty, !types.contains(where: { Self.matches(value, type: $0) })
        {
            errors.append("\(at) must be \(types.joined(separator: " or ")), not \(Self.typeName(value))")
            return
        }
        if let alternatives = schema["anyOf"]?.array {
            var best: [String]? = nil
            for alternative in alternatives {
                var attempt: [String] = []
                check(value, alternative, path: path, depth: depth + 1, errors: &attempt, limit: limit)
                if attempt.isEmpty {
                    best = nil
                    break
                }
                if best == nil || attempt.count < best!.count { best = attempt }
            }
            if let best {
                errors.append("\(at) matches none of its \(alternatives.count) shapes; the closest: \(best[0])")
                return
            }
        }
        switch value {
        case .object(let members):
            let properties: [JSON.Member]
            if case .object(let declared)? = schema["properties"] { properties = declared } else { properties = [] }
            for name in schema["required"]?.array?.compactMap(\.string) ?? [] where value[name] == nil {
                errors.append("\(at) needs `\(name)`")
            }
            for member in members {
                let memberPath = path + "/" + member.key
                if let declared = properties.first(where: { $0.key == member.key }) {
                    check(
                        member.value, declared.value, path: memberPath, depth: depth + 1, errors: &errors, limit: limit)
                } else if let additional = schema["additionalProperties"] {
                    if additional == .bool(false) {
                        errors.append("\(at) has no member `\(member.key)`")
                    } else {
                        check(
                            member.value, additional, path: memberPath, depth: depth + 1, errors: &errors, limit: limit)
                    }
                }
            }
        case .array(let elements):
            if let items = schema["items"] {
                for (index, element) in elements.enumerated() {
                    check(element, items, path: path + "/\(index)", depth: depth + 1, errors: &errors, limit: limit)
                }
            }
        default:
            break
        }
    }

    static func matches(_ value: JSON, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .number):
            return true
        case ("integer", .number(let text)):
            // Written as an integer: `1.0` is one to JSON Schema, but it would be sent as written, and the
            // API's own check wants `1`.
            return Int(text) != nil
        default:
            return false
        }
    }

    static func typeName(_ value: JSON) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// JSON equality with numbers compared by value (`1` and `1.0`) and objects by members, in any order.
    static func equal(_ a: JSON, _ b: JSON) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x == y || (Double(x) != nil && Double(x) == Double(y))
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { member in b[member.key].map { equal(member.value, $0) } ?? false }
        default: return a == b
        }
    }
}
