import Foundation

extension JSONSchemaDocument {
    /// OpenAI's limits on a strict schema (structured outputs guide, "Supported schemas").
    public struct StrictLimits: Sendable, Equatable {
        /// Most levels of object nesting (the root object is level 1).
        public var nestingDepth = 10
        /// Most object properties in the whole schema.
        public var totalProperties = 5000
        /// Most enum values in the whole schema.
        public var totalEnumValues = 1000
        /// Most characters of all property names, `$defs` names and enum values together.
        public var totalStringLength = 120_000
        /// Most characters of the values of one enum that has more than 250 values.
        public var largeEnumStringLength = 15_000

        /// The limits as OpenAI documents them.
        public init() {}
    }

    /// The document as the JSON object the API takes (`json_schema.schema`, `parameters`).
    ///
    /// - Parameters:
    ///   - strict: Whether to write OpenAI's strict form: every object member required, an
    ///     optional one nullable instead, no `$ref` with sibling keywords (the referenced schema is
    ///     written in place). Objects always have `additionalProperties: false`.
    ///   - limits: Strict mode's limits to check against (nesting depth, property, enum value and
    ///     string length totals); OpenAI's documented ones by default.
    /// - Throws: ``JSONSchemaError`` at a JSON pointer into the document, in strict mode, for what
    ///   strict mode does not accept: a dictionary (free member names), a schema that allows any
    ///   value, a root that is not a non-nullable object, or more than ``StrictLimits`` allow.
    public func jsonObject(strict: Bool, limits: StrictLimits = StrictLimits()) throws -> JSONObject {
        var writer = SchemaJSONWriter(document: self, strict: strict)
        if strict {
            guard case .object = root.kind, !root.isNullable else {
                throw JSONSchemaError(
                    path: "#", message: "a strict schema's root must be an object that is not nullable")
            }
        }
        var object = try writer.write(root, pointer: "#").objectValue ?? [:]
        // Every definition in plain mode; in strict mode those written as a `$ref`, including the
        // ones first reached from another definition (writing one can reference more).
        var definitionsJSON = JSONObject()
        while let next = definitions.first(where: {
            (!strict || writer.referenced.contains($0.name)) && definitionsJSON[$0.name] == nil
        }) {
            definitionsJSON[next.name] = try writer.write(
                next.schema, pointer: "#/$defs/" + Self.escapePointer(next.name))
        }
        if !definitionsJSON.isEmpty { object["$defs"] = .object(definitionsJSON) }
        if strict { try Self.check(.object(object), limits: limits) }
        return object
    }

    static func escapePointer(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Checks a strict schema's JSON against `limits`: the totals over the root and each `$defs`
    /// entry once, the nesting depth along every path from the root, through `$ref`s (a cycle,
    /// which strict mode allows, ends a path).
    static func check(_ json: JSONValue, limits: StrictLimits) throws {
        let definitions = json["$defs"]?.objectValue ?? [:]
        var properties = 0
        var enumValues = 0
        var stringLength = definitions.keys.reduce(0) { $0 + $1.count }
        func count(_ value: JSONValue, pointer: String) throws {
            guard case .object(let object) = value else { return }
            if let members = object["properties"]?.objectValue {
                properties += members.count
                stringLength += members.keys.reduce(0) { $0 + $1.count }
                for name in members.keys.sorted() {
                    try count(members[name]!, pointer: pointer + "/properties/" + escapePointer(name))
                }
            }
            if let values = object["enum"]?.arrayValue {
                enumValues += values.count
                let length = values.reduce(0) { $0 + ($1.stringValue?.count ?? 0) }
                stringLength += length
                if values.count > 250 && length > limits.largeEnumStringLength {
                    throw JSONSchemaError(
                        path: pointer + "/enum",
                        message:
                            "an enum of \(values.count) values totals \(length) characters; strict mode allows \(limits.largeEnumStringLength) for more than 250 values"
                    )
                }
            }
            if let items = object["items"] { try count(items, pointer: pointer + "/items") }
            for (index, branch) in (object["anyOf"]?.arrayValue ?? []).enumerated() {
                try count(branch, pointer: pointer + "/anyOf/\(index)")
            }
        }
        try count(json, pointer: "#")
        for name in definitions.keys.sorted() {
            try count(definitions[name]!, pointer: "#/$defs/" + escapePointer(name))
        }

        func depth(_ value: JSONValue, pointer: String, level: Int, visiting: Set<String>) throws {
            guard case .object(let object) = value else { return }
            var level = level
            if let ref = object["$ref"]?.stringValue {
                let prefix = "#/$defs/"
                guard ref.hasPrefix(prefix), !visiting.contains(ref) else { return }
                let name = String(ref.dropFirst(prefix.count)).replacingOccurrences(of: "~1", with: "/")
                    .replacingOccurrences(of: "~0", with: "~")
                if let target = definitions[name] {
                    try depth(target, pointer: ref, level: level, visiting: visiting.union([ref]))
                }
                return
            }
            if object["type"] == "object" || object["type"]?.arrayValue?.contains("object") == true {
                level += 1
                if level > limits.nestingDepth {
                    throw JSONSchemaError(
                        path: pointer,
                        message: "\(level) levels of object nesting; strict mode allows \(limits.nestingDepth)")
                }
            }
            let members = object["properties"]?.objectValue ?? [:]
            for name in members.keys.sorted() {
                try depth(
                    members[name]!, pointer: pointer + "/properties/" + escapePointer(name), level: level,
                    visiting: visiting)
            }
            if let items = object["items"] {
                try depth(items, pointer: pointer + "/items", level: level, visiting: visiting)
            }
            for (index, branch) in (object["anyOf"]?.arrayValue ?? []).enumerated() {
                try depth(branch, pointer: pointer + "/anyOf/\(index)", level: level, visiting: visiting)
            }
        }
        try depth(json, pointer: "#", level: 0, visiting: [])

        if properties > limits.totalProperties {
            throw JSONSchemaError(
                path: "#", message: "\(properties) object properties; strict mode allows \(limits.totalProperties)")
        }
        if enumValues > limits.totalEnumValues {
            throw JSONSchemaError(
                path: "#", message: "\(enumValues) enum values; strict mode allows \(limits.totalEnumValues)")
        }
        if stringLength > limits.totalStringLength {
            throw JSONSchemaError(
                path: "#",
                message:
                    "property names, definition names and enum values total \(stringLength) characters; strict mode allows \(limits.totalStringLength)"
            )
        }
    }
}

/// Writes schemas as JSON, in the plain or the strict form.
private struct SchemaJSONWriter {
    let document: JSONSchemaDocument
    let strict: Bool
    /// `$defs` names written as a `$ref`.
    var referenced: Set<String> = []
    /// Definitions being written in place (strict `$ref` with siblings), against a cycle.
    private var inlining: Set<String> = []

    init(document: JSONSchemaDocument, strict: Bool) {
        self.document = document
        self.strict = strict
    }

    mutating func write(_ schema: JSONSchema, pointer: String) throws -> JSONValue {
        var object = JSONObject()
        let typeName: String?
        switch schema.kind {
        case .string(let format):
            typeName = "string"
            if let format { object["format"] = .string(format) }
        case .integer: typeName = "integer"
        case .number: typeName = "number"
        case .boolean: typeName = "boolean"
        case .null: typeName = "null"
        case .enumeration(let values):
            typeName = values.allSatisfy { $0.stringValue != nil } ? "string" : "integer"
            object["enum"] = .array(schema.isNullable ? values + [.null] : values)
        case .array(let items):
            typeName = "array"
            object["items"] = try write(items, pointer: pointer + "/items")
        case .object(let properties):
            typeName = "object"
            var members = JSONObject()
            for property in properties {
                var value = property.schema
                if strict && !property.isRequired { value.isNullable = true }
                members[property.name] = try write(
                    value, pointer: pointer + "/properties/" + JSONSchemaDocument.escapePointer(property.name))
            }
            object["properties"] = .object(members)
            object["required"] = .array(
                properties.filter { strict || $0.isRequired }.map { .string($0.name) })
            object["additionalProperties"] = false
        case .dictionary(let values):
            if strict {
                throw JSONSchemaError(
                    path: pointer,
                    message:
                        "a dictionary (free member names) is not accepted in strict mode; use an array of key-value objects"
                )
            }
            typeName = "object"
            object["additionalProperties"] = try write(values, pointer: pointer + "/additionalProperties")
        case .anyOf(let schemas):
            typeName = nil
            var branches = try schemas.enumerated().map { index, branch in
                try write(branch, pointer: pointer + "/anyOf/\(index)")
            }
            if schema.isNullable { branches.append(["type": "null"]) }
            object["anyOf"] = .array(branches)
        case .reference(let reference):
            typeName = nil
            return try writeReference(reference, schema: schema, pointer: pointer)
        case .any:
            if strict {
                throw JSONSchemaError(
                    path: pointer, message: "a schema that allows any value is not accepted in strict mode")
            }
            typeName = nil
        }
        // `type` first, then `description`, then the keywords of the kind, in the order written.
        var result = JSONObject()
        if let typeName {
            result["type"] = schema.isNullable && typeName != "null" ? [.string(typeName), "null"] : .string(typeName)
        }
        if let description = schema.description { result["description"] = .string(description) }
        result.merge(object)
        return .object(result)
    }

    private mutating func writeReference(
        _ reference: JSONSchema.Reference, schema: JSONSchema, pointer: String
    ) throws -> JSONValue {
        let target: String
        if reference == document.rootType {
            target = "#"
        } else if let definition = document.definition(reference) {
            // Strict mode takes no keyword beside `$ref`: a described reference is written in place.
            if strict, let description = schema.description, !inlining.contains(definition.name) {
                inlining.insert(definition.name)
                defer { inlining.remove(definition.name) }
                var inline = definition.schema
                inline.description = description
                inline.isNullable = inline.isNullable || schema.isNullable
                return try write(inline, pointer: pointer)
            }
            target = "#/$defs/" + JSONSchemaDocument.escapePointer(definition.name)
            referenced.insert(definition.name)
        } else {
            throw JSONSchemaError(
                path: pointer,
                message:
                    "\(reference.type) is not in this document's $defs; build the document with JSONSchemaDocument(root:)"
            )
        }
        let ref: JSONValue = ["$ref": .string(target)]
        var result: JSONObject
        if schema.isNullable {
            result = ["anyOf": [ref, ["type": "null"]]]
        } else {
            result = ref.objectValue!
        }
        // Strict mode takes no keyword beside `$ref`: the description of a reference that is not
        // written in place (to the root, or within a cycle) is left out there.
        if let description = schema.description, !strict || schema.isNullable {
            result["description"] = .string(description)
        }
        return .object(result)
    }
}
