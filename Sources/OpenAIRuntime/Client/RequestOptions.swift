import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Per-request settings that override the client's ``OpenAIClient/Configuration``.
public struct RequestOptions: Sendable {
    /// Extra header fields; a `nil` value removes a header the SDK would send.
    public var headers: [String: String?]
    /// Extra query items, appended after the operation's own.
    public var query: [URLQueryItem]
    /// Extra members merged into a JSON request body, in their order: one the body has replaces
    /// its value in place, the others go last (a `.null` value sends an explicit `null`).
    public var extraBody: JSONObject
    /// The longest time one attempt may take, in seconds (until the head of a streamed reply);
    /// the client's ``OpenAIClient/Configuration/requestTimeout`` when `nil`.
    public var requestTimeout: TimeInterval?
    /// The longest time without a byte sent or received, in seconds; the client's
    /// ``OpenAIClient/Configuration/idleTimeout`` when `nil`.
    public var idleTimeout: TimeInterval?
    /// The longest time to wait for the connection, in seconds; the client's
    /// ``OpenAIClient/Configuration/connectTimeout`` when `nil`.
    public var connectTimeout: TimeInterval?

    /// The request timeout (``requestTimeout``), in seconds.
    @available(*, deprecated, renamed: "requestTimeout")
    public var timeout: TimeInterval? {
        get { requestTimeout }
        set { requestTimeout = newValue }
    }
    /// How many times a failed request is retried.
    public var maxRetries: Int?
    /// Sent as `Idempotency-Key`, the same on every attempt.
    public var idempotencyKey: String?
    /// Called as the request body is sent, with the bytes sent so far and the total when known.
    public var uploadProgress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?
    /// Called with bytes received and the reply's `Content-Length` (when it has one) as a download
    /// to a file arrives (the `openai` tool's progress bar).
    package var downloadProgress: (@Sendable (_ bytesReceived: Int64, _ totalBytes: Int64?) -> Void)?
    /// The most bytes one server-sent event of this request's stream may take; the client's
    /// ``OpenAIClient/Configuration/maxStreamEventBytes`` when `nil`.
    public var maxStreamEventBytes: Int?
    /// The base URL of this request instead of the client's ``OpenAIClient/Configuration/baseURL``
    /// (a regional endpoint, a proxy, a compatible provider); Azure deployment routing and the
    /// `api-version` query still apply.
    public var baseURL: URL?

    /// Creates options; every value defaults to the client's.
    ///
    /// - Parameters:
    ///   - headers: Extra headers; a `nil` value removes the header.
    ///   - query: Extra query items.
    ///   - extraBody: Extra members merged into a JSON body.
    ///   - requestTimeout: The longest time one attempt may take, in seconds.
    ///   - idleTimeout: The longest time without a byte sent or received, in seconds.
    ///   - connectTimeout: The longest time to wait for the connection, in seconds.
    ///   - maxRetries: How many times a failed request is retried (0 or more; a negative value
    ///     makes the request throw ``OpenAIError/Kind/invalidRequest`` before anything is sent).
    ///   - idempotencyKey: The `Idempotency-Key` header, the same on every attempt.
    ///   - uploadProgress: Called with bytes sent and total bytes as the body goes out.
    ///   - maxStreamEventBytes: The most bytes one server-sent event may take.
    ///   - baseURL: The base URL of this request.
    public init(
        headers: [String: String?] = [:], query: [URLQueryItem] = [], extraBody: JSONObject = [:],
        requestTimeout: TimeInterval? = nil, idleTimeout: TimeInterval? = nil, connectTimeout: TimeInterval? = nil,
        maxRetries: Int? = nil, idempotencyKey: String? = nil,
        uploadProgress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)? = nil,
        maxStreamEventBytes: Int? = nil, baseURL: URL? = nil
    ) {
        self.headers = headers
        self.query = query
        self.extraBody = extraBody
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.connectTimeout = connectTimeout
        self.maxRetries = maxRetries
        self.idempotencyKey = idempotencyKey
        self.uploadProgress = uploadProgress
        self.maxStreamEventBytes = maxStreamEventBytes
        self.baseURL = baseURL
    }
}

extension RequestOptions {
    /// These options for one of several different requests a helper sends: an idempotency key
    /// `k` becomes `k-<suffix>` (`k-round-2`, `k-upload`), so that each request has its own.
    package func forStep(_ suffix: String) -> RequestOptions {
        var options = self
        options.idempotencyKey = idempotencyKey.map { "\($0)-\(suffix)" }
        return options
    }
}

extension RequestOptions: CustomStringConvertible, CustomReflectable {
    /// The options with header credentials redacted.
    public var description: String {
        var parts: [String] = []
        if !headers.isEmpty { parts.append("headers: \(redactedHeaders)") }
        if !query.isEmpty {
            parts.append("query: \(query.map { "\($0.name)=\(Redaction.queryValue($0))" })")
        }
        if !extraBody.isEmpty { parts.append("extraBody: \(extraBody.keys.sorted())") }
        if let requestTimeout { parts.append("requestTimeout: \(requestTimeout) s") }
        if let idleTimeout { parts.append("idleTimeout: \(idleTimeout) s") }
        if let connectTimeout { parts.append("connectTimeout: \(connectTimeout) s") }
        if let maxRetries { parts.append("maxRetries: \(maxRetries)") }
        if idempotencyKey != nil { parts.append("idempotencyKey: <set>") }
        if let baseURL { parts.append("baseURL: \(Redaction.url(baseURL))") }
        return "RequestOptions(" + parts.joined(separator: ", ") + ")"
    }

    private var redactedHeaders: [String: String] {
        HTTPHeaders.redacted(headers.compactMapValues { $0 ?? "<removed>" })
    }

    /// A mirror that shows the headers with credentials redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description])
    }
}
