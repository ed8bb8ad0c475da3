import OpenAIYAML

/// A JSON scalar as it appears in `enum`, `const` or `default`.
public enum ScalarValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// The value as a string when it is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// An OpenAPI 3.0/3.1 Schema Object, with `$ref` kept as a component name (resolved lazily by
/// ``OpenAPIDocument/schema(named:)``). Immutable once loaded.
public final class Schema: Sendable {
    /// `additionalProperties` as written.
    public enum AdditionalProperties: Sendable {
        case absent
        case allowed(Bool)
        case schema(Schema)
    }

    /// A discriminator object; in the locked spec none has a mapping.
    public struct Discriminator: Sendable {
        public var propertyName: String
        public var mapping: [(value: String, componentName: String)]
    }

    public let location: SourceLocation
    /// The component name of a `$ref: '#/components/schemas/Name'` (or the enclosing component
    /// for `$recursiveRef: '#'`).
    public let ref: String?
    /// `type`, as a list (OpenAPI 3.1 allows an array); empty when absent.
    public let types: [String]
    /// OpenAPI 3.0 `nullable: true`.
    public let nullable: Bool
    public let format: String?
    public let title: String?
    public let description: String?
    public let deprecated: Bool
    public let properties: [(name: String, schema: Schema)]
    /// `required` as written, duplicates included.
    public let required: [String]
    public let additionalProperties: AdditionalProperties
    public let items: Schema?
    public let enumValues: [ScalarValue]?
    public let constValue: ScalarValue?
    public let oneOf: [Schema]
    public let anyOf: [Schema]
    public let allOf: [Schema]
    public let discriminator: Discriminator?
    public let defaultValue: ScalarValue?
    /// `x-swift-type`: a hand-written type to use instead (set by the project's overlay).
    public let swiftType: String?
    /// `x-oaiSupportedSDKs`: a convenience OpenAI's own SDKs compute; not sent on the wire.
    public let sdkOnly: Bool
    /// The validation keywords of ``constraintKeywords`` that the schema sets, by keyword, as written
    /// (`maxLength: 64`, `pattern: '^[a-z]+$'`, `exclusiveMinimum: true` in OpenAPI 3.0 or a number
    /// in 3.1). The generated code does not check them; `diff` reports their changes.
    public let constraints: [String: ScalarValue]

    /// The validation keywords kept in ``constraints``, in the order reports list them.
    public static let constraintKeywords = [
        "minLength", "maxLength", "pattern", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
        "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
    ]

    init(
        location: SourceLocation, ref: String?, types: [String], nullable: Bool, format: String?,
        title: String?, description: String?, deprecated: Bool,
        properties: [(name: String, schema: Schema)], required: [String],
        additionalProperties: AdditionalProperties, items: Schema?, enumValues: [ScalarValue]?,
        constValue: ScalarValue?, oneOf: [Schema], anyOf: [Schema], allOf: [Schema],
        discriminator: Discriminator?, defaultValue: ScalarValue?, swiftType: String?, sdkOnly: Bool = false,
        constraints: [String: ScalarValue] = [:]
    ) {
        self.location = location
        self.ref = ref
        self.types = types
        self.nullable = nullable
        self.format = format
        self.title = title
        self.description = description
        self.deprecated = deprecated
        self.properties = properties
        self.required = required
        self.additionalProperties = additionalProperties
        self.items = items
        self.enumValues = enumValues
        self.constValue = constValue
        self.oneOf = oneOf
        self.anyOf = anyOf
        self.allOf = allOf
        self.discriminator = discriminator
        self.defaultValue = defaultValue
        self.swiftType = swiftType
        self.sdkOnly = sdkOnly
        self.constraints = constraints
    }
}

/// A parameter of an operation.
public struct Parameter: Sendable {
    public enum Location: String, Sendable { case path, query, header, cookie }
    public var name: String
    public var location: Location
    public var required: Bool
    public var deprecated: Bool
    public var description: String?
    public var schema: Schema
    public var source: SourceLocation
}

/// A media type entry of a request body or response: `application/json` and its schema.
public struct MediaType: Sendable {
    public var contentType: String
    public var schema: Schema?
}

public struct RequestBody: Sendable {
    public var required: Bool
    public var description: String?
    public var content: [MediaType]
}

public struct Response: Sendable {
    /// `200`, `4XX`, `default`.
    public var statusCode: String
    public var description: String?
    public var content: [MediaType]
}

/// An Operation Object with its path and method.
public struct Operation: Sendable {
    /// The path as written, e.g. `/threads/{thread_id}/runs` or `/responses?beta=true`.
    public var path: String
    /// Lowercase HTTP method.
    public var method: String
    public var operationID: String?
    public var tags: [String]
    public var summary: String?
    public var description: String?
    public var deprecated: Bool
    public var parameters: [Parameter]
    public var requestBody: RequestBody?
    public var responses: [Response]
    /// Names of the security schemes, e.g. `ApiKeyAuth`, `AdminApiKeyAuth`.
    public var security: [String]
    /// `x-oaiMeta.examples[*].response` strings (documentation examples of the reply body).
    public var responseExamples: [String]
    public var location: SourceLocation
    /// What the project's overlay states about the operation that the spec does not; empty as
    /// loaded, set by the overlay stage.
    public var overlay = OperationOverlay()
}

/// What the project's overlay (`Spec/overrides.json`) says about one operation, keyed there by its
/// operationId, beside what the spec says: set by the overlay stage, read by translation.
public struct OperationOverlay: Hashable, Sendable {
    /// The resource path and the method name, from the client down (`operations`: `threads.createAndRun`
    /// is `["threads", "createAndRun"]`), where the route rules would pick a name OpenAI's SDKs do not use.
    public var methodPath: [String]?
    /// A stream the spec does not declare although the request's `stream` flag asks for one (`streaming`).
    public var stream: UndeclaredStream?
    /// What completes the operation's event stream besides `data: [DONE]` (`stream-endings`).
    public var streamEnding: StreamEnding?
    /// The media types, for `Accept`, of a reply that is a file's bytes although the spec says
    /// otherwise (`binary-responses`).
    public var binaryReplyTypes: [String]?
    /// JSON body members (wire name → string value) the SDK sets when the caller left them unset
    /// (`body-defaults`).
    public var bodyDefaults: [String: String] = [:]

    public init() {}
}

/// A stream the spec does not declare (`Spec/overrides.json` `streaming`).
public struct UndeclaredStream: Hashable, Sendable {
    /// The component schema of one event.
    public var eventSchema: String
    /// Whether the event's name travels in the SSE `event:` line (the Assistants run stream);
    /// otherwise the event is the `data:` line alone.
    public var eventNameInEventLine: Bool

    public init(eventSchema: String, eventNameInEventLine: Bool) {
        self.eventSchema = eventSchema
        self.eventNameInEventLine = eventNameInEventLine
    }
}

/// What completes one operation's event stream besides `data: [DONE]`: the spec does not say
/// (`Spec/overrides.json` `stream-endings`).
public struct StreamEnding: Hashable, Sendable {
    /// Event types (discriminator values or `event:` names) that complete the stream.
    public var terminalEvents: [String]
    /// Whether the stream is complete once every choice has a `finish_reason` (Chat Completions,
    /// Completions).
    public var finishedChoices: Bool

    public init(terminalEvents: [String] = [], finishedChoices: Bool = false) {
        self.terminalEvents = terminalEvents
        self.finishedChoices = finishedChoices
    }
}

/// A webhook: its name and the payload schema the API posts.
public struct Webhook: Sendable {
    public var name: String
    public var description: String?
    public var payload: Schema?
    public var location: SourceLocation
}

/// The parts of an OpenAPI 3.0/3.1 document the generator uses.
public struct OpenAPIDocument: Sendable {
    public var file: String
    public var openAPIVersion: String
    public var title: String
    public var version: String
    /// Component schemas in document order.
    public var schemas: [(name: String, schema: Schema)] {
        didSet { schemaIndex = Self.index(schemas) }
    }
    public var operations: [Operation]
    public var webhooks: [Webhook]
    /// Security scheme names applied when an operation lists none.
    public var defaultSecurity: [String]
    /// Spec problems found while loading (duplicate keys, duplicate `required` entries...).
    public var diagnostics: [Diagnostic]
    /// The project's overlay file, as diagnostics about its entries name it; set by the overlay stage.
    public var overlayFile = "Spec/overrides.json"
    /// JSON pointers of properties whose values are credentials, never printed (the overlay's
    /// `secret-members`, each matched to a property of the document).
    public var secretMembers: Set<String> = []
    /// JSON member names that memberwise initialisers take right after the required parameters,
    /// in this order (the overlay's `leading-members`).
    public var leadingMembers: [String] = []

    private var schemaIndex: [String: Int]

    init(
        file: String, openAPIVersion: String, title: String, version: String,
        schemas: [(name: String, schema: Schema)], operations: [Operation], webhooks: [Webhook],
        defaultSecurity: [String], diagnostics: [Diagnostic]
    ) {
        self.file = file
        self.openAPIVersion = openAPIVersion
        self.title = title
        self.version = version
        self.schemas = schemas
        self.operations = operations
        self.webhooks = webhooks
        self.defaultSecurity = defaultSecurity
        self.diagnostics = diagnostics
        self.schemaIndex = Self.index(schemas)
    }

    private static func index(_ schemas: [(name: String, schema: Schema)]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (offset, entry) in schemas.enumerated() { index[entry.name] = offset }
        return index
    }

    /// The component schema `name`.
    public func schema(named name: String) -> Schema? {
        schemaIndex[name].map { schemas[$0].schema }
    }
}
