import OpenAIGeneratorOpenAPI

/// Component reuse: an inline schema with the shape of a component is emitted as that component
/// instead of a nested copy (``SchemaTranslator/resolve(_:suggestedName:scope:multipart:)``).
extension SchemaTranslator {
    /// Lets inline schemas be emitted as the component of the same shape, except the components
    /// `excluded` (those of another module, and multipart forms, whose binary members are file
    /// uploads).
    mutating func enableComponentReuse(excluding excluded: Set<String>) {
        var byShape: [String: String] = [:]
        for (name, schema) in document.schemas where !excluded.contains(name) {
            guard let key = Self.shapeKey(schema, using: &fingerprinter, allowNullable: false) else { continue }
            if byShape[key] == nil { byShape[key] = name }
        }
        componentsByShape = byShape
    }

    /// The key under which a schema's shape is compared with the components', or `nil` for a
    /// schema no inline copy is replaced by: one that is not a declared type (a `$ref`, a primitive,
    /// a one-value enum, a schema with its own Swift type), or that accepts `null` itself (its
    /// uses would become optional). Descriptions do not count; discriminators and `x-swift-type`
    /// corrections, at any depth, do (``ShapeFingerprinter``).
    static func shapeKey(_ schema: Schema, using fingerprinter: inout ShapeFingerprinter, allowNullable: Bool)
        -> String?
    {
        let shape = SchemaShape(schema)
        guard schema.swiftType == nil, shape.schema.ref == nil, allowNullable || !shape.nullable else { return nil }
        let inner = shape.schema
        let declares =
            !inner.properties.isEmpty || shape.variants.count >= 2 || (shape.enumValues?.count ?? 0) >= 2
        guard declares else { return nil }
        var key = fingerprinter.fingerprint(inner)
        if key.hasPrefix("? ") { key.removeFirst(2) }
        if inner.discriminator == nil, let discriminator = schema.discriminator {
            key += " d:" + discriminator.propertyName
        }
        return key
    }

    /// The component whose shape `schema` has, when an inline copy should be emitted as it.
    mutating func equalComponent(_ schema: Schema, scope: Scope) -> String? {
        guard !componentsByShape.isEmpty,
            let key = Self.shapeKey(schema, using: &fingerprinter, allowNullable: true),
            let component = componentsByShape[key], let name = componentTypeNames[component]
        else { return nil }
        // A credential member marked on the inline copy must stay redacted there.
        let pointer = schema.location.pointer
        if secretPointers.contains(where: { $0.hasPrefix(pointer + "/") }) { return nil }
        // Not the type being declared itself, nor one enclosing it.
        if scope.ancestors.contains(name) { return nil }
        return name
    }
}
