import OpenAIGeneratorOpenAPI

/// A schema with nullability folded in: `nullable: true`, a type array with `null`, an enum with
/// `null` and an `anyOf`/`oneOf` null branch all become ``nullable``, and single-member wrappers
/// (`anyOf: [X, null]`, `allOf: [X]`) are unwrapped to X.
struct SchemaShape {
    /// The schema after unwrapping.
    let schema: Schema
    /// `null` is accepted.
    var nullable: Bool
    /// `type` without `null`, plus `object`/`array` inferred from `properties`/`items`.
    let types: Set<String>
    /// `enum` without `null`.
    let enumValues: [ScalarValue]?
    /// `oneOf` + `anyOf` without null branches.
    let variants: [Schema]

    init(_ original: Schema) {
        var current = original
        var nullable = false
        var depth = 0
        while true {
            nullable = nullable || Self.ownNullability(current)
            let variants = Self.variants(current)
            let bare =
                current.ref == nil && current.properties.isEmpty && current.items == nil
                && current.enumValues == nil && current.constValue == nil
                && current.types.allSatisfy { $0 == "null" }
            if depth < 8, bare, variants.count == 1, current.allOf.isEmpty {
                current = variants[0]
            } else if depth < 8, bare, variants.isEmpty, current.allOf.count == 1 {
                current = current.allOf[0]
            } else {
                break
            }
            depth += 1
        }
        schema = current
        self.nullable = nullable
        var types = Set(current.types.filter { $0 != "null" })
        if types.isEmpty && !current.properties.isEmpty { types.insert("object") }
        if types.isEmpty && current.items != nil { types.insert("array") }
        self.types = types
        enumValues = current.enumValues?.filter { $0 != .null }
        variants = Self.variants(current)
    }

    /// Whether the schema takes any string: `type: string` without an enum, a constant or
    /// variants (a `$ref` is not followed).
    var takesAnyString: Bool {
        schema.ref == nil && types == ["string"] && enumValues == nil && schema.constValue == nil
            && variants.isEmpty
    }

    /// Whether `schema` itself (not what it references) accepts `null`.
    static func ownNullability(_ schema: Schema) -> Bool {
        schema.nullable || schema.types.contains("null") || schema.enumValues?.contains(.null) == true
            || (schema.oneOf + schema.anyOf).contains(where: isNullBranch)
    }

    /// `{type: null}`, `{enum: [null]}` or `{const: null}`.
    static func isNullBranch(_ schema: Schema) -> Bool {
        guard schema.ref == nil, schema.properties.isEmpty else { return false }
        return schema.types == ["null"] || schema.enumValues == [.null] || schema.constValue == .null
    }

    static func variants(_ schema: Schema) -> [Schema] {
        (schema.oneOf + schema.anyOf).filter { !isNullBranch($0) }
    }
}

/// Canonical text of a schema's shape (types, properties, required, enums, variants, refs by
/// name; no descriptions), for detecting renamed schemas and matching inline union variants.
struct ShapeFingerprinter {
    /// Fingerprints before ``equivalents`` apply, by schema object.
    private var memo: [ObjectIdentifier: String] = [:]
    /// A component's fingerprint → its name (as a `$ref` holds it): a nested schema (never the one fingerprinted
    /// itself) with the shape of a component is written as a reference to it, so that an inline
    /// copy of a component and a `$ref` to it compare equal, at any depth. Empty: no such rewriting.
    var equivalents: [String: String] = [:]

    init(equivalents: [String: String] = [:]) {
        self.equivalents = equivalents
    }

    mutating func fingerprint(_ schema: Schema, depth: Int = 0) -> String {
        let raw = rawFingerprint(schema, depth: depth)
        guard depth > 0, !equivalents.isEmpty else { return raw }
        let nullable = raw.hasPrefix("? ")
        guard let ref = equivalents[nullable ? String(raw.dropFirst(2)) : raw] else { return raw }
        return (nullable ? "? $" : "$") + ref
    }

    private mutating func rawFingerprint(_ schema: Schema, depth: Int) -> String {
        if let known = memo[ObjectIdentifier(schema)] { return known }
        let shape = SchemaShape(schema)
        var parts: [String] = []
        if shape.nullable { parts.append("?") }
        if let ref = shape.schema.ref {
            parts.append("$" + ref)
        } else if depth > 24 {
            parts.append("…")
        } else {
            let inner = shape.schema
            if !shape.types.isEmpty { parts.append("t:" + shape.types.sorted().joined(separator: "|")) }
            if let format = inner.format { parts.append("f:" + format) }
            if let swiftType = inner.swiftType { parts.append("x:" + swiftType) }
            if let discriminator = inner.discriminator { parts.append("d:" + discriminator.propertyName) }
            if let values = shape.enumValues {
                parts.append("e:" + values.map(Self.text).sorted().joined(separator: ","))
            }
            if let value = inner.constValue { parts.append("c:" + Self.text(value)) }
            if !inner.properties.isEmpty {
                let properties = inner.properties.map {
                    "\($0.name)=\(fingerprint($0.schema, depth: depth + 1))"
                }
                parts.append("p{" + properties.sorted().joined(separator: ";") + "}")
            }
            if !inner.required.isEmpty {
                parts.append("r:" + Set(inner.required).sorted().joined(separator: ","))
            }
            if let items = inner.items { parts.append("i(" + fingerprint(items, depth: depth + 1) + ")") }
            if case .schema(let value) = inner.additionalProperties {
                parts.append("a(" + fingerprint(value, depth: depth + 1) + ")")
            }
            if !shape.variants.isEmpty {
                parts.append(
                    "u["
                        + shape.variants.map { fingerprint($0, depth: depth + 1) }.sorted().joined(
                            separator: "|") + "]")
            }
            if !inner.allOf.isEmpty {
                parts.append(
                    "&[" + inner.allOf.map { fingerprint($0, depth: depth + 1) }.joined(separator: "|") + "]")
            }
        }
        let result = parts.joined(separator: " ")
        memo[ObjectIdentifier(schema)] = result
        return result
    }

    static func text(_ value: ScalarValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .string(let string): "\"" + string + "\""
        }
    }
}
