import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The entry point of the SDK: holds the configuration and the transport, and exposes every API
/// resource as a property that follows the URL path (`client.chat.completions.create(...)`).
///
/// ```swift
/// let client = try OpenAIClient()  // reads OPENAI_API_KEY
/// let completion = try await client.chat.completions.create(
///     .init(messages: [.user(.init(content: .string("Hello")))], model: "gpt-4o"))
/// ```
public final class OpenAIClient: Sendable {
    /// The configuration every request starts from.
    public let configuration: Configuration
    /// The HTTP transport.
    public let transport: any HTTPTransport

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: Credentials, base URL, timeout and retries; by default from the
    ///     environment (see ``Configuration/fromEnvironment()``).
    ///   - transport: The HTTP transport; `URLSession` by default.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when the
    ///   configuration has no credential at all.
    public init(
        configuration: Configuration? = nil, transport: any HTTPTransport = URLSessionTransport()
    ) throws {
        let configuration = configuration ?? Configuration.fromEnvironment()
        guard configuration.apiKey != nil || configuration.adminAPIKey != nil else {
            throw OpenAIError(
                kind: .invalidRequest,
                message:
                    "No API key: set OPENAI_API_KEY (or OPENAI_ADMIN_KEY) or pass Configuration(apiKey:).")
        }
        self.configuration = configuration
        self.transport = transport
    }
}

extension OpenAIClient {
    /// Client settings. Every value can also be set per request through ``RequestOptions``.
    public struct Configuration: Sendable {
        /// The API key sent as `Authorization: Bearer` to operations that use `ApiKeyAuth`.
        public var apiKey: String?
        /// The admin key for the operations the spec marks with `AdminApiKeyAuth`.
        public var adminAPIKey: String?
        /// Sent as `OpenAI-Organization` when set.
        public var organization: String?
        /// Sent as `OpenAI-Project` when set.
        public var project: String?
        /// The base URL; `https://api.openai.com/v1` by default. A trailing slash is ignored.
        public var baseURL: URL
        /// The longest time one attempt may take, in seconds; 600 by default.
        public var timeout: TimeInterval
        /// How many times a failed request is retried; 2 by default.
        public var maxRetries: Int
        /// Headers sent with every request.
        public var defaultHeaders: [String: String]

        /// The default base URL, `https://api.openai.com/v1`.
        public static let defaultBaseURL = URL(string: "https://api.openai.com/v1")!

        /// Creates a configuration.
        public init(
            apiKey: String? = nil, adminAPIKey: String? = nil, organization: String? = nil,
            project: String? = nil, baseURL: URL = Configuration.defaultBaseURL, timeout: TimeInterval = 600,
            maxRetries: Int = 2, defaultHeaders: [String: String] = [:]
        ) {
            self.apiKey = apiKey
            self.adminAPIKey = adminAPIKey
            self.organization = organization
            self.project = project
            self.baseURL = baseURL
            self.timeout = timeout
            self.maxRetries = maxRetries
            self.defaultHeaders = defaultHeaders
        }

        /// Reads `OPENAI_API_KEY`, `OPENAI_ADMIN_KEY`, `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID` and
        /// `OPENAI_BASE_URL`; values are trimmed and an empty value counts as unset.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> Configuration {
            func value(_ name: String) -> String? {
                guard let raw = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines),
                    !raw.isEmpty
                else { return nil }
                return raw
            }
            return Configuration(
                apiKey: value("OPENAI_API_KEY"), adminAPIKey: value("OPENAI_ADMIN_KEY"),
                organization: value("OPENAI_ORG_ID"), project: value("OPENAI_PROJECT_ID"),
                baseURL: value("OPENAI_BASE_URL").flatMap(URL.init(string:)) ?? defaultBaseURL)
        }
    }
}

/// Per-request settings that override the client's ``OpenAIClient/Configuration``.
public struct RequestOptions: Sendable {
    /// Extra header fields; a `nil` value removes a header the SDK would send.
    public var headers: [String: String?]
    /// Extra query items, appended after the operation's own.
    public var query: [URLQueryItem]
    /// Extra members merged into a JSON request body (a `.null` value sends an explicit `null`).
    public var extraBody: [String: JSONValue]
    /// The longest time one attempt may take, in seconds.
    public var timeout: TimeInterval?
    /// How many times a failed request is retried.
    public var maxRetries: Int?
    /// Sent as `Idempotency-Key`, the same on every attempt.
    public var idempotencyKey: String?

    /// Creates options; every value defaults to the client's.
    public init(
        headers: [String: String?] = [:], query: [URLQueryItem] = [], extraBody: [String: JSONValue] = [:],
        timeout: TimeInterval? = nil, maxRetries: Int? = nil, idempotencyKey: String? = nil
    ) {
        self.headers = headers
        self.query = query
        self.extraBody = extraBody
        self.timeout = timeout
        self.maxRetries = maxRetries
        self.idempotencyKey = idempotencyKey
    }
}
