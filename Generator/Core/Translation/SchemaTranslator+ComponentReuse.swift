import OpenAIGeneratorOpenAPI

/// Component reuse: an inline schema with the shape of a component is emitted as that component
/// instead of a nested copy (``SchemaTranslator/resolve(_:suggestedName:scope:multipart:)``).
extension SchemaTranslator {
    /// Lets inline schemas be emitted as the component of the same shape, except the components
    /// `excluded` (those of another module, and multipart forms, whose binary members are file
    /// uploads).
    ///
    /// Shapes compare nested copies as the components they copy
    /// (``ShapeFingerprinter/equivalents``): an inline `{type, static: {…}}` whose `static` copies
    /// `StaticChunkingStrategy` is `StaticChunkingStrategyRequestParam`, which holds
    /// `static: $ref StaticChunkingStrategy`. Each round sees one more level of copies nested in
    /// copies; the rounds stop when the components' fingerprints no longer change (at most
    /// ``componentReuseRounds``).
    mutating func enableComponentReuse(excluding excluded: Set<String>) {
        let candidates = document.schemas.filter { !excluded.contains($0.name) && $0.schema.ref == nil }
        var equivalents: [String: String] = [:]
        for _ in 0..<Self.componentReuseRounds {
            fingerprinter = ShapeFingerprinter(equivalents: equivalents)
            var next: [String: String] = [:]
            for (name, schema) in candidates
            where Self.shapeKey(schema, using: &fingerprinter, allowNullable: false) != nil {
                let print = fingerprinter.fingerprint(schema)
                if next[print] == nil { next[print] = name }
            }
            if next == equivalents { break }
            equivalents = next
        }
        fingerprinter = ShapeFingerprinter(equivalents: equivalents)
        var byShape: [String: String] = [:]
        for (name, schema) in candidates {
            guard let key = Self.shapeKey(schema, using: &fingerprinter, allowNullable: false) else { continue }
            if byShape[key] == nil { byShape[key] = name }
        }
        componentsByShape = byShape
    }

    /// The most rounds ``enableComponentReuse(excluding:)`` takes: copies nested this deep in
    /// copies are still found.
    static let componentReuseRounds = 4

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
