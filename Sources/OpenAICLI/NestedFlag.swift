import Foundation
import OpenAICatalogueModel
import OpenAICommandLine

/// A dotted flag, the official CLI's inner flags at any depth: `--reasoning.effort low` sets
/// `effort` inside the body's `reasoning`, `--tool-resources.code-interpreter.file-ids a` a
/// member two levels down, `--effective-at.gt 1700000000` a member of a query parameter's object
/// (sent `effective_at[gt]=1700000000`).
///
/// Each part after the first names a member of the object the parts before it reach, as its flag
/// would (`code-interpreter` for `code_interpreter`; an array member also by its singular). The
/// members come from the operation's input schema (``SchemaSet``), through references and the
/// alternatives of unions. A value is read by its member's shape, as a top-level flag's is.
///
/// Through an array of objects (`--message.content hi`, `messages` by its singular) a part sets
/// the member in the array's last object, or in a new object appended when that one has the
/// member already: `--message.role user --message.content hi --message.role assistant` makes two
/// messages. A dotted flag merges into a value given for its parent (by its flag or on standard
/// input); it is applied after them, in command-line order.
struct NestedFlag {
    /// One step from the body down to the member set.
    enum Step: Equatable {
        /// The member of an object, by its wire name.
        case member(String)
        /// The last object of an array (or a new one, see ``NestedFlag``).
        case element
    }

    /// The top-level flag the dotted name starts with.
    var top: Flag
    /// The steps from the body, the top-level member's first.
    var steps: [Step]
    /// The flag reading the value: the dotted name and the member's shape.
    var leaf: Flag

    /// The dotted flag `name` (`reasoning.effort`, without dashes) of `operation`, or `nil` when its
    /// first part is not a body or query flag of the operation.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` for a part that names no member, listing the members
    ///   there are.
    static func resolve(_ name: String, operation: APIOperation, schemas: @autoclosure () -> SchemaSet) throws
        -> NestedFlag?
    {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, let (top, singular) = operation.flag(named: parts[0]),
            top.location == .body || top.location == .query
        else { return nil }
        let set = schemas()
        var schema = set.input(operation.id)["properties"]?[top.name] ?? .object([])
        var steps: [Step] = [.member(top.name)]
        if singular {
            schema = set.items(of: schema) ?? .object([])
            steps.append(.element)
        }
        for (index, part) in parts.enumerated().dropFirst() {
            if !set.hasProperties(schema), let items = set.items(of: schema) {
                schema = items
                steps.append(.element)
            }
            let properties = set.properties(of: schema)
            let found = properties.first { Self.flagName($0.key) == part || $0.key == part }
            if let found {
                schema = found.value
                steps.append(.member(found.key))
            } else if let plural = properties.first(where: { Self.flagName($0.key).flatMap(Flag.singular(of:)) == part }
            ),
                let items = set.items(of: plural.value)
            {
                schema = items
                steps += [.member(plural.key), .element]
            } else {
                let reached = parts[..<index].joined(separator: ".")
                let names = properties.map { reached + "." + (Self.flagName($0.key) ?? $0.key) }
                let list = names.prefix(12).map { "--" + $0 }.joined(separator: ", ") + (names.count > 12 ? ", …" : "")
                throw CLIError.usage(
                    "unknown flag --\(name) for `openai \(operation.command)`"
                        + (names.isEmpty
                            ? ": --\(reached) has no members to set one by one"
                            : Suggestion.didYouMean(reached + "." + part, among: names, prefix: "--")
                                + "; --\(reached) has \(list)"),
                    usage: Help.usage(operation))
            }
        }
        let (leafSchema, nullable) = set.catalogueSchema(of: schema)
        return NestedFlag(top: top, steps: steps, leaf: Flag(nested: name, schema: leafSchema, nullable: nullable))
    }

    /// A member's name as a flag part: `code_interpreter` → `code-interpreter`.
    static func flagName(_ wire: String) -> String? {
        wire.isEmpty ? nil : wire.replacingOccurrences(of: "_", with: "-").lowercased()
    }

    /// `body` (the request's members) with `value` set where ``steps`` lead.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` when a value on the way is not an object (or an array
    ///   where the steps go through one): `--reasoning null --reasoning.effort low`.
    func apply(_ value: JSON, to body: [JSON.Member], usage: String) throws -> [JSON.Member] {
        guard case .object(let members) = try set(value, in: .object(body), at: steps[...], usage: usage) else {
            return body
        }
        return members
    }

    private func set(_ value: JSON, in container: JSON?, at steps: ArraySlice<Step>, usage: String) throws -> JSON {
        guard let step = steps.first else {
            // An array member set again appends, as a repeated array flag does.
            if case .array(let old)? = container, case .array(let new) = value { return .array(old + new) }
            return value
        }
        let rest = steps.dropFirst()
        switch step {
        case .member(let name):
            var members: [JSON.Member]
            switch container {
            case nil, .null?: members = []
            case .object(let given)?: members = given
            default: throw notObject(usage: usage)
            }
            let index = members.firstIndex { $0.key == name }
            let updated = try set(value, in: index.map { members[$0].value }, at: rest, usage: usage)
            if let index { members[index].value = updated } else { members.append(JSON.Member(name, updated)) }
            return .object(members)
        case .element:
            var elements: [JSON]
            switch container {
            case nil, .null?: elements = []
            case .array(let given)?: elements = given
            default: throw notObject(usage: usage)
            }
            // The last object takes the member unless it has it already: then a new object begins.
            if case .member(let next)? = rest.first, let last = elements.last, last[next] == nil || rest.count > 1 {
                elements[elements.count - 1] = try set(value, in: last, at: rest, usage: usage)
            } else {
                elements.append(try set(value, in: nil, at: rest, usage: usage))
            }
            return .array(elements)
        }
    }

    private func notObject(usage: String) -> CLIError {
        CLIError.usage("--\(leaf.flag): the value it goes into is not an object", usage: usage)
    }
}

extension APIOperation {
    /// Whether `--max-items` applies: the operation pages, streams, or replies with a list.
    var takesMaxItems: Bool { page != nil || stream != nil || repliesWithList }

    /// Whether the JSON reply is a list: an object with a `data` array (`models list`,
    /// `vector-stores search`), from the reply's schema.
    var repliesWithList: Bool {
        guard reply == .json, page == nil, let output = SchemaSet.shared.output(id) else { return false }
        let schemas = SchemaSet.shared
        return schemas.properties(of: output).contains { $0.key == "data" && schemas.items(of: $0.value) != nil }
    }
}

extension SchemaSet {
    /// `schema` with its references followed (a bounded number of times).
    func resolved(_ schema: JSON) -> JSON {
        var current = schema
        for _ in 0..<32 {
            guard let reference = current["$ref"]?.string, reference.hasPrefix("#/$defs/"),
                let definition = definitions[String(reference.dropFirst("#/$defs/".count))]
            else { break }
            current = definition
        }
        return current
    }

    /// The alternatives of a union (`anyOf`, `oneOf`, `allOf`, nested, references followed), or
    /// `schema` itself; at most 64.
    func alternatives(of schema: JSON) -> [JSON] {
        var result: [JSON] = []
        var queue = [resolved(schema)]
        while let next = queue.popLast(), result.count < 64 {
            let parts = ["anyOf", "oneOf", "allOf"].flatMap { next[$0]?.array ?? [] }
            if parts.isEmpty { result.append(next) } else { queue += parts.reversed().map(resolved) }
        }
        return result
    }

    /// Whether `schema` (or one of its alternatives) declares members.
    func hasProperties(_ schema: JSON) -> Bool { alternatives(of: schema).contains { $0["properties"] != nil } }

    /// The members `schema` declares across its alternatives, in order; a member several
    /// alternatives declare takes any of their shapes (`role` of a chat message: `developer`,
    /// `system`, `user`, …).
    func properties(of schema: JSON) -> [JSON.Member] {
        var result: [JSON.Member] = []
        for alternative in alternatives(of: schema) {
            guard case .object(let members)? = alternative["properties"] else { continue }
            for member in members {
                guard let index = result.firstIndex(where: { $0.key == member.key }) else {
                    result.append(member)
                    continue
                }
                let shapes = result[index].value["x-shapes"]?.array ?? [result[index].value]
                result[index].value = .object([JSON.Member("x-shapes", .array(shapes + [member.value]))])
            }
        }
        return result.map { member in
            guard let shapes = member.value["x-shapes"]?.array else { return member }
            return JSON.Member(member.key, .object([JSON.Member("anyOf", .array(shapes))]))
        }
    }

    /// The items of `schema` when it (or one of its alternatives) is an array.
    func items(of schema: JSON) -> JSON? {
        alternatives(of: schema).first { $0["type"]?.string == "array" }?["items"]
    }

    /// `schema` as the catalogue describes a flag's shape (``CatalogueSchema``), and whether it allows
    /// null.
    func catalogueSchema(of schema: JSON, depth: Int = 0) -> (CatalogueSchema, nullable: Bool) {
        let all = alternatives(of: schema)
        let nullable = all.contains { $0["type"]?.string == "null" }
        var shapes: [CatalogueSchema] = []
        for shape in all.filter({ $0["type"]?.string != "null" }).map({ shape($0, depth: depth) })
        where !shapes.contains(shape) {
            shapes.append(shape)
        }
        // Alternatives that are each a few strings are one enum (`developer`, `system`, `user`, …).
        if shapes.count > 1, shapes.allSatisfy({ $0.type == "string" && !$0.enumValues.isEmpty }) {
            return (CatalogueSchema(type: "string", enumValues: shapes.flatMap(\.enumValues)), nullable)
        }
        if shapes.count == 1 { return (shapes[0], nullable) }
        return (CatalogueSchema(anyOf: shapes), nullable)
    }

    /// One alternative in the catalogue's form: `type`, `enum` (a `const` as an enum of one), `items`.
    private func shape(_ schema: JSON, depth: Int) -> CatalogueSchema {
        var type = schema["type"]?.string ?? (schema["properties"] != nil ? "object" : nil)
        let values = (schema["enum"]?.array ?? []).compactMap(\.string) + [schema["const"]?.string].compactMap { $0 }
        if !values.isEmpty, type == nil { type = "string" }
        var items: CatalogueSchema?
        if type == "array", depth < 4, let element = schema["items"] {
            items = catalogueSchema(of: element, depth: depth + 1).0
        }
        return CatalogueSchema(type: type, enumValues: values, items: items)
    }
}
