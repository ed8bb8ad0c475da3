import OpenAIGeneratorOpenAPI

/// The project's overlay, `Spec/overrides.json`, as typed values (``load(from:)`` rejects unknown
/// keys): method names, schema corrections, undeclared streams and their endings, binary replies,
/// body defaults, credential members and the order of initialiser parameters. The overlay stage
/// (``SpecOverlay``) lays every section over the loaded document; translation reads only the
/// document.
public struct Overrides: Sendable {
    /// operationId → `resource.path.method`, e.g. `createImage` → `images.generate`.
    public var operations: [String: String]
    /// JSON pointer → the correction laid over that schema.
    public var schemas: [String: SchemaCorrection]
    /// operationId → the event schema (component name) of a stream the spec does not declare,
    /// and `event` framing when the event name travels in the `event:` line.
    public var streaming: [String: (eventSchema: String, framing: String)]
    /// operationId → what completes its event stream.
    public var streamEndings: [String: StreamEnding]
    /// operationId → the media types of a reply that is file bytes although the spec says
    /// otherwise (a JSON string, or no body), for `Accept`.
    public var binaryResponses: [String: [String]]
    /// operationId → JSON body members (wire name → string value) the SDK sets when the caller
    /// left them unset.
    public var bodyDefaults: [String: [String: String]]
    /// JSON pointers of properties whose values are credentials: never printed.
    public var secretMembers: Set<String> = []
    /// JSON member names that memberwise initialisers take right after the required parameters,
    /// in this order (`leading-members`): the members callers set most, such as `model` and
    /// `input`. The other optional members follow in schema order.
    public var leadingMembers: [String] = []
    /// The file they were read from, as diagnostics about them name it.
    public var source = "Spec/overrides.json"

    public init(
        operations: [String: String] = [:], schemas: [String: SchemaCorrection] = [:],
        streaming: [String: (eventSchema: String, framing: String)] = [:],
        streamEndings: [String: StreamEnding] = [:], binaryResponses: [String: [String]] = [:],
        bodyDefaults: [String: [String: String]] = [:]
    ) {
        self.operations = operations
        self.schemas = schemas
        self.streaming = streaming
        self.streamEndings = streamEndings
        self.binaryResponses = binaryResponses
        self.bodyDefaults = bodyDefaults
    }
}
