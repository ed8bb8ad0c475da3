import OpenAIYAML

/// A correction the project lays over one schema of the spec (`Spec/overrides.json` `schemas`,
/// keyed by the schema's JSON pointer).
public struct SchemaCorrection: Hashable, Sendable {
    /// `x-swift-type`: the hand-written Swift type that stands for the schema.
    public var swiftType: String?
    /// `enum`: the values that replace the schema's enum.
    public var enumValues: [String]?
    /// `not-required`: members removed from `required`.
    public var notRequired: Set<String>
    /// `nullable-properties`: members that also accept `null`.
    public var nullableProperties: Set<String>

    public init(
        swiftType: String? = nil, enumValues: [String]? = nil, notRequired: Set<String> = [],
        nullableProperties: Set<String> = []
    ) {
        self.swiftType = swiftType
        self.enumValues = enumValues
        self.notRequired = notRequired
        self.nullableProperties = nullableProperties
    }
}

/// The `schemas` part of the overlay stage (the stage is `SpecOverlay`, in the generator's core):
/// lays the project's schema corrections over a loaded document, after the loader and before
/// translation. Each correction is keyed by the JSON pointer of the schema it
/// corrects, as the loader records it in ``SourceLocation/pointer`` (components, parameters,
/// request and response bodies, webhooks, at any depth). Only the schemas on the way to a
/// corrected one are copied; the rest of the document is shared.
public struct SchemaOverlay: Sendable {
    /// Corrections keyed by schema pointer, e.g. `#/components/schemas/Embedding/properties/embedding`.
    public var corrections: [String: SchemaCorrection]
    /// The overlay's file, as `overlay-unmatched` diagnostics name it.
    public var file: String

    public init(corrections: [String: SchemaCorrection], file: String = "Spec/overrides.json") {
        self.corrections = corrections
        self.file = file
    }

    /// `document` with every correction applied. A correction whose pointer matches no schema of
    /// the document (the schema moved or was renamed upstream, or is a path-level parameter every
    /// operation redeclares, which the loader does not keep) corrects nothing and is an
    /// `overlay-unmatched` diagnostic at `#/schemas/<pointer>` of ``file``, appended to the
    /// document's diagnostics.
    public func apply(to document: OpenAPIDocument) -> OpenAPIDocument {
        guard !corrections.isEmpty else { return document }
        var pass = Pass(corrections: corrections)
        var result = document
        result.schemas = document.schemas.map { ($0.name, pass.rewrite($0.schema)) }
        result.operations = document.operations.map { operation in
            var operation = operation
            operation.parameters = operation.parameters.map { parameter in
                var parameter = parameter
                parameter.schema = pass.rewrite(parameter.schema)
                return parameter
            }
            if var body = operation.requestBody {
                body.content = body.content.map { pass.rewrite($0) }
                operation.requestBody = body
            }
            operation.responses = operation.responses.map { response in
                var response = response
                response.content = response.content.map { pass.rewrite($0) }
                return response
            }
            return operation
        }
        result.webhooks = document.webhooks.map { webhook in
            var webhook = webhook
            webhook.payload = webhook.payload.map { pass.rewrite($0) }
            return webhook
        }
        for pointer in corrections.keys.sorted() where !pass.applied.contains(pointer) {
            result.diagnostics.append(
                Diagnostic(
                    .overlayUnmatched,
                    message:
                        "the schema correction for \(pointer) matches no schema of \(document.file); it is not applied",
                    location: SourceLocation(
                        file: file, mark: Mark(line: 1, column: 1), pointer: "#/schemas/" + escapePointerToken(pointer))
                ))
        }
        return result
    }

    /// One walk over a document: the corrections, and the pointers of those applied so far.
    private struct Pass {
        let corrections: [String: SchemaCorrection]
        /// Every prefix (`#/a`, `#/a/b`, …) of a corrected pointer: the schemas worth descending into.
        let prefixes: Set<String>
        var applied: Set<String> = []

        init(corrections: [String: SchemaCorrection]) {
            self.corrections = corrections
            var prefixes: Set<String> = []
            for pointer in corrections.keys {
                var prefix = Substring(pointer)
                while true {
                    prefixes.insert(String(prefix))
                    guard let slash = prefix.lastIndex(of: "/") else { break }
                    prefix = prefix[..<slash]
                }
            }
            self.prefixes = prefixes
        }

        mutating func rewrite(_ media: MediaType) -> MediaType {
            var media = media
            media.schema = media.schema.map { rewrite($0) }
            return media
        }

        /// `schema` itself when no correction lies at or under its pointer; otherwise a copy with
        /// its children rewritten and its own correction applied.
        mutating func rewrite(_ schema: Schema) -> Schema {
            let pointer = schema.location.pointer
            guard prefixes.contains(pointer) else { return schema }
            var properties = schema.properties.map { (name: $0.name, schema: rewrite($0.schema)) }
            var required = schema.required
            var swiftType = schema.swiftType
            var enumValues = schema.enumValues
            if let correction = corrections[pointer] {
                applied.insert(pointer)
                if let type = correction.swiftType { swiftType = type }
                if let values = correction.enumValues { enumValues = values.map { .string($0) } }
                required.removeAll { correction.notRequired.contains($0) }
                properties = properties.map { entry in
                    correction.nullableProperties.contains(entry.name)
                        ? (entry.name, entry.schema.makingNullable()) : entry
                }
            }
            let additional: Schema.AdditionalProperties
            if case .schema(let values) = schema.additionalProperties {
                additional = .schema(rewrite(values))
            } else {
                additional = schema.additionalProperties
            }
            return Schema(
                location: schema.location, ref: schema.ref, types: schema.types, nullable: schema.nullable,
                format: schema.format, title: schema.title, description: schema.description,
                deprecated: schema.deprecated, properties: properties, required: required,
                additionalProperties: additional, items: schema.items.map { rewrite($0) }, enumValues: enumValues,
                constValue: schema.constValue, oneOf: schema.oneOf.map { rewrite($0) },
                anyOf: schema.anyOf.map { rewrite($0) }, allOf: schema.allOf.map { rewrite($0) },
                discriminator: schema.discriminator, defaultValue: schema.defaultValue, swiftType: swiftType,
                sdkOnly: schema.sdkOnly, constraints: schema.constraints)
        }
    }
}
