import OpenAIGeneratorOpenAPI

/// The generator's stages, in order, and the one place that wires them: **load** (YAML → the
/// OpenAPI model), **overlay** (every section of `Spec/overrides.json` laid over that model,
/// ``SpecOverlay``), **translate** (→ the IR, ``APIModel``: names, shapes, modules and areas
/// decided), **render** (→ files: layout by content and Swift text). `generate` and `check` run
/// all four, `diff` the first three, and the tests any of them.
public struct GeneratorPipeline: Sendable {
    public var configuration: GeneratorConfiguration

    public init(configuration: GeneratorConfiguration = GeneratorConfiguration()) {
        self.configuration = configuration
    }

    /// Parses the spec, then lays the overrides over it (``overlay(_:)``).
    ///
    /// - Throws: ``OpenAPIError`` naming file:line:column and the JSON pointer when the spec is
    ///   not YAML, not OpenAPI 3.x, or has a dangling `$ref`.
    public func load(_ bytes: [UInt8], file: String) throws -> OpenAPIDocument {
        overlay(try OpenAPILoader().load(bytes, file: file))
    }

    /// The overlay stage alone: `document` with every section of `Spec/overrides.json` applied
    /// (``SpecOverlay``), and an `overlay-unmatched` diagnostic for each entry that matches nothing.
    public func overlay(_ document: OpenAPIDocument) -> OpenAPIDocument {
        SpecOverlay(overrides: configuration.overrides).apply(to: document)
    }

    /// Translates a loaded spec (with the overlay laid over it) into the IR, with the diagnostics
    /// found on the way.
    ///
    /// - Throws: ``OpenAPIError`` when schemas refer to each other through `$ref` alone (they
    ///   describe no value, and Swift cannot declare them).
    public func translate(_ document: OpenAPIDocument) throws -> (model: APIModel, diagnostics: [Diagnostic]) {
        try Translator().translate(
            document, adminModule: configuration.access != "internal", previousAreas: configuration.previousLayout.areas
        )
    }

    /// All four stages: the files of the SDK for the spec `bytes`. The command line, `check`, the
    /// tests and the benchmarks all generate through here.
    ///
    /// - Parameters:
    ///   - bytes: The spec (YAML or JSON).
    ///   - file: Its path, as locations name it.
    ///   - sha256: Its hash, for the manifest.
    /// - Throws: ``OpenAPIError`` from ``load(_:file:)`` or ``translate(_:)``.
    public func run(_ bytes: [UInt8], file: String, sha256: String) throws -> GenerationResult {
        let document = try load(bytes, file: file)
        let (model, diagnostics) = try translate(document)
        return SwiftGenerator.render(
            model, diagnostics: diagnostics, schemaCount: document.schemas.count, sha256: sha256,
            configuration: configuration)
    }
}
