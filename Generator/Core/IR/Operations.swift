public struct OperationParameter: Hashable, Sendable {
    public enum Location: String, Hashable, Sendable { case path, query, header }
    public var name: String
    public var wireName: String
    public var location: Location
    public var type: TypeRef
    public var required: Bool
    public var documentation: String?
    /// What the schema states about its values (``Documentation/facts``).
    public var facts: [String] = []
}

public enum RequestBodyKind: Hashable, Sendable {
    case json(TypeRef)
    case multipart(TypeRef)
    /// A text body with this content type (e.g. `application/sdp`).
    case text(contentType: String)
}

public enum ResponseKind: Hashable, Sendable {
    case json(TypeRef)
    case binary
    case text
    case none
}

public struct OperationDecl: Hashable, Sendable {
    public var operationID: String
    /// Resource chain from the client, e.g. `["chat", "completions"]`.
    public var resourcePath: [String]
    public var methodName: String
    public var httpMethod: String
    /// Path without the query part.
    public var path: String
    /// Fixed query items carried in the spec's path (`/responses?beta=true`).
    public var fixedQuery: [(String, String)]
    public var parameters: [OperationParameter]
    public var bodies: [RequestBodyKind]
    /// The caller must pass a body: `requestBody.required`, or a body schema that requires
    /// members (``Translator/bodyIsRequired(_:schemas:)``).
    public var bodyRequired: Bool
    public var response: ResponseKind
    /// The success reply's media types except `text/event-stream`, for `Accept`.
    public var acceptTypes: [String]
    public var streams: Bool
    /// The streaming variant (`createStream`), when the operation streams.
    public var streaming: StreamingInfo? = nil
    public var adminAuthentication: Bool
    public var documentation: Documentation
    public var area: String
    /// The module its method is compiled in (that of its root resource).
    public var module: SDKModule
    /// JSON body members the SDK sets when the caller left them `nil` (`Spec/overrides.json`
    /// `body-defaults`), e.g. `encoding_format: base64` for embeddings.
    public var bodyDefaults: [BodyDefault] = []
    /// The reply is a cursor page and the operation takes its cursor in this string query
    /// parameter (`after`; `page` for the usage endpoints, whose replies say `next_page`): it also
    /// gets an auto-paging method (`listPages`) returning `CursorPages`.
    public var pageCursor: OperationParameter? = nil

    public static func == (lhs: OperationDecl, rhs: OperationDecl) -> Bool {
        lhs.operationID == rhs.operationID
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(operationID) }
}

/// A JSON body member the SDK sets when the caller left it `nil`; the reply's decoder is told, so
/// types can answer in the form the caller expects (base64 embeddings decode to floats).
public struct BodyDefault: Hashable, Sendable {
    /// The property's Swift name.
    public var property: String
    /// The member's JSON name.
    public var wireName: String
    /// The string value sent.
    public var value: String
}

/// The streaming variant of an operation: its event type and how to ask for a stream.
public struct StreamingInfo: Hashable, Sendable {
    public enum Framing: String, Hashable, Sendable {
        /// `data:` holds the event's JSON.
        case data
        /// `event:` names the event, `data:` holds its payload.
        case eventNameAndData
    }

    /// A body member the streaming method sets to ask for a stream, e.g. `stream` to `true`.
    public struct BodySetting: Hashable, Sendable {
        public enum Value: Hashable, Sendable {
            case bool(Bool)
            case string(String)
        }

        /// The property's Swift name.
        public var property: String
        public var value: Value
    }

    public var eventType: TypeRef
    public var framing: Framing
    /// The body members that turn the caller's body into a streaming request.
    public var bodySettings: [BodySetting]
    /// The same for the `multipart/form-data` body, when the operation offers one beside JSON.
    public var multipartBodySettings: [BodySetting] = []
    /// A boolean query parameter that asks for the stream (`stream=true` on retrieve), which the
    /// streaming method sets and does not take.
    public var queryFlag: String?
    /// What completes the stream, so that one cut off early is reported as such.
    public var ending: StreamEndingRule = .unspecified
}

/// What completes an event stream besides `data: [DONE]` (from `Spec/overrides.json`).
public enum StreamEndingRule: Hashable, Sendable {
    /// Nothing more: the stream is complete whenever it ends between events.
    case unspecified
    /// One of these event types (discriminator values or `event:` names).
    case terminalEvents([String])
    /// Every choice has a `finish_reason`: the Swift names of the event's choices array, and of
    /// each choice's index and finish reason.
    case finishedChoices(choices: String, index: String, finishReason: String)
}
