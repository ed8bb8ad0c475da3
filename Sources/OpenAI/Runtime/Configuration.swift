import Foundation

extension OpenAIClient {
    /// Client settings. Timeout, retries, headers and query can also be set per request through
    /// ``RequestOptions``.
    ///
    /// Its descriptions and mirror (`dump`) redact every credential.
    public struct Configuration: Sendable {
        /// The API key sent as `Authorization: Bearer` to operations that use `ApiKeyAuth`.
        public var apiKey: String?
        /// The admin key for the operations the spec marks with `AdminApiKeyAuth`.
        public var adminAPIKey: String?
        /// Returns the key (or an Azure Entra ID token) to send; called before every attempt, so
        /// it can refresh short-lived tokens. It wins over ``apiKey``; admin operations still use
        /// ``adminAPIKey`` when set.
        public var apiKeyProvider: (@Sendable () async throws -> String)?
        /// Sent as `OpenAI-Organization` when set.
        public var organization: String?
        /// Sent as `OpenAI-Project` when set.
        public var project: String?
        /// The `whsec_` secret that webhook verification uses when none is passed.
        public var webhookSecret: String?
        /// The base URL; `https://api.openai.com/v1` by default. A trailing slash is ignored.
        public var baseURL: URL
        /// The longest time one attempt may take, in seconds: from sending the request until the
        /// reply has arrived whole or, for a streamed reply, until its head has arrived; 600 by
        /// default (``HTTPTimeouts/request``).
        public var requestTimeout: TimeInterval
        /// The longest time an attempt may go without a byte sent or received, in seconds: while
        /// the server works on the reply, and between two chunks of a stream; 600 by default, as
        /// openai-python's read timeout (``HTTPTimeouts/idle``).
        public var idleTimeout: TimeInterval
        /// The longest time to wait for the connection, in seconds: until the request body starts
        /// going out or, without a body, until the reply head arrives; 10 by default
        /// (``HTTPTimeouts/connect``).
        public var connectTimeout: TimeInterval

        /// The request timeout (``requestTimeout``), in seconds.
        @available(*, deprecated, renamed: "requestTimeout")
        public var timeout: TimeInterval {
            get { requestTimeout }
            set { requestTimeout = newValue }
        }

        /// How many times a failed request is retried; 2 by default.
        public var maxRetries: Int
        /// Headers sent with every request.
        public var defaultHeaders: [String: String]
        /// Azure OpenAI settings; `nil` for OpenAI and OpenAI-compatible providers.
        public var azure: Azure?
        /// How strictly replies are held to the spec: ``DecodingMode/lenient`` by default, so a
        /// reply that differs from the spec in the ways real servers differ still decodes, with
        /// every difference in its ``SpecDeviations``; ``DecodingMode/strict`` throws instead.
        public var decodingMode: DecodingMode
        /// The most bytes one server-sent event may take while it arrives (its `data:` lines
        /// together); a larger one ends the stream with ``OpenAIError/Kind/eventTooLarge``
        /// instead of being buffered without end. 64 MiB by default: the largest events, a
        /// Responses `response.completed` or an image event with base64 images, take a few MiB.
        public var maxStreamEventBytes: Int

        /// The default of ``maxStreamEventBytes``: 64 MiB.
        public static let defaultMaxStreamEventBytes = 64 << 20

        /// The default base URL, `https://api.openai.com/v1`.
        public static let defaultBaseURL = URL(string: "https://api.openai.com/v1")!

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - apiKey: The API key.
        ///   - adminAPIKey: The admin API key.
        ///   - apiKeyProvider: Called before every attempt for the key or token to send.
        ///   - organization: The organization ID (`OpenAI-Organization`).
        ///   - project: The project ID (`OpenAI-Project`).
        ///   - webhookSecret: The webhook signing secret (`whsec_...`).
        ///   - baseURL: The base URL.
        ///   - requestTimeout: The longest time one attempt may take, in seconds (until the head of a
        ///     streamed reply).
        ///   - idleTimeout: The longest time without a byte sent or received, in seconds.
        ///   - connectTimeout: The longest time to wait for the connection, in seconds.
        ///   - maxRetries: How many times a failed request is retried (0 or more; a negative value
        ///     makes the client's initialiser throw).
        ///   - defaultHeaders: Headers sent with every request.
        ///   - azure: Azure OpenAI settings.
        ///   - decodingMode: How strictly replies are held to the spec.
        ///   - maxStreamEventBytes: The most bytes one server-sent event may take.
        public init(
            apiKey: String? = nil, adminAPIKey: String? = nil,
            apiKeyProvider: (@Sendable () async throws -> String)? = nil, organization: String? = nil,
            project: String? = nil, webhookSecret: String? = nil, baseURL: URL = Configuration.defaultBaseURL,
            requestTimeout: TimeInterval = HTTPTimeouts.default.request,
            idleTimeout: TimeInterval = HTTPTimeouts.default.idle,
            connectTimeout: TimeInterval = HTTPTimeouts.default.connect, maxRetries: Int = 2,
            defaultHeaders: [String: String] = [:],
            azure: Azure? = nil, decodingMode: DecodingMode = .lenient,
            maxStreamEventBytes: Int = Configuration.defaultMaxStreamEventBytes
        ) {
            self.apiKey = apiKey
            self.adminAPIKey = adminAPIKey
            self.apiKeyProvider = apiKeyProvider
            self.organization = organization
            self.project = project
            self.webhookSecret = webhookSecret
            self.baseURL = baseURL
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
            self.connectTimeout = connectTimeout
            self.maxRetries = maxRetries
            self.defaultHeaders = defaultHeaders
            self.azure = azure
            self.decodingMode = decodingMode
            self.maxStreamEventBytes = maxStreamEventBytes
        }

        /// Whether any credential is set.
        var hasCredential: Bool { apiKey != nil || adminAPIKey != nil || apiKeyProvider != nil }

        /// Reads `OPENAI_API_KEY`, `OPENAI_ADMIN_KEY`, `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`,
        /// `OPENAI_BASE_URL`, `OPENAI_WEBHOOK_SECRET` and `OPENAI_CUSTOM_HEADERS`; values are
        /// trimmed and an empty value counts as unset.
        ///
        /// `OPENAI_CUSTOM_HEADERS` holds default headers, one `Name: value` per line (as OpenAI's
        /// SDKs read it); a line without a colon or with an empty name is skipped.
        ///
        /// - Parameter environment: The variables; the process environment by default.
        /// - Returns: The configuration, with defaults for everything unset.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> Configuration {
            func value(_ name: String) -> String? {
                guard let raw = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !raw.isEmpty
                else { return nil }
                return raw
            }
            var configuration = Configuration(
                apiKey: value("OPENAI_API_KEY"), adminAPIKey: value("OPENAI_ADMIN_KEY"),
                organization: value("OPENAI_ORG_ID"), project: value("OPENAI_PROJECT_ID"),
                webhookSecret: value("OPENAI_WEBHOOK_SECRET"),
                baseURL: value("OPENAI_BASE_URL").flatMap(URL.init(string:)) ?? defaultBaseURL)
            configuration.defaultHeaders = Self.customHeaders(value("OPENAI_CUSTOM_HEADERS"))
            return configuration
        }

        /// The headers of `OPENAI_CUSTOM_HEADERS`: one `Name: value` per line, trimmed.
        static func customHeaders(_ text: String?) -> [String: String] {
            var headers: [String: String] = [:]
            for line in (text ?? "").split(whereSeparator: \.isNewline) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, !name.contains(where: { $0.isWhitespace }) else { continue }
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return headers
        }

        /// A configuration for Azure OpenAI: base URL `<endpoint>/openai`, the `api-version`
        /// query on every request, `/deployments/<name>` before the deployment-scoped paths, and
        /// the key in an `api-key` header (or a token from `tokenProvider` as `Authorization:
        /// Bearer`).
        ///
        /// - Parameters:
        ///   - endpoint: The resource endpoint, e.g. `https://example.openai.azure.com`.
        ///   - apiVersion: The `api-version` query value, e.g. `2024-10-21`.
        ///   - deployment: The deployment for deployment-scoped operations; when `nil`, the JSON
        ///     body's `model` names it.
        ///   - apiKey: The Azure API key, sent as `api-key`.
        ///   - tokenProvider: Returns a Microsoft Entra ID token; called before every attempt.
        /// - Returns: The configuration.
        public static func azure(
            endpoint: URL, apiVersion: String, deployment: String? = nil, apiKey: String? = nil,
            tokenProvider: (@Sendable () async throws -> String)? = nil
        ) -> Configuration {
            let base =
                endpoint.absoluteString.hasSuffix("/")
                ? String(endpoint.absoluteString.dropLast()) : endpoint.absoluteString
            return Configuration(
                apiKey: apiKey, apiKeyProvider: tokenProvider, baseURL: URL(string: base + "/openai") ?? endpoint,
                azure: Azure(apiVersion: apiVersion, deployment: deployment))
        }
    }
}

extension OpenAIClient.Configuration {
    /// Azure OpenAI settings (see ``OpenAIClient/Configuration/azure(endpoint:apiVersion:deployment:apiKey:tokenProvider:)``).
    public struct Azure: Sendable, Hashable {
        /// The `api-version` query value.
        public var apiVersion: String
        /// The deployment used for deployment-scoped operations; the body's `model` when `nil`.
        public var deployment: String?

        /// The paths Azure serves below `/deployments/<name>` (as openai-python's `AzureOpenAI`).
        public static let deploymentScopedPaths: Set<String> = [
            "/completions", "/chat/completions", "/embeddings", "/audio/transcriptions", "/audio/translations",
            "/audio/speech", "/images/generations", "/images/edits",
        ]

        /// Creates Azure settings.
        ///
        /// - Parameters:
        ///   - apiVersion: The `api-version` query value.
        ///   - deployment: The deployment name, or `nil` to use the body's `model`.
        public init(apiVersion: String, deployment: String? = nil) {
            self.apiVersion = apiVersion
            self.deployment = deployment
        }
    }
}

extension OpenAIClient.Configuration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings with every credential shown only as set or unset.
    public var description: String {
        func secret(_ value: String?) -> String { value == nil ? "nil" : "<redacted>" }
        var parts = [
            "baseURL: \(Redaction.url(baseURL))", "apiKey: \(secret(apiKey))", "adminAPIKey: \(secret(adminAPIKey))",
            "apiKeyProvider: \(apiKeyProvider == nil ? "nil" : "<set>")",
            "webhookSecret: \(secret(webhookSecret))", "requestTimeout: \(requestTimeout) s",
            "idleTimeout: \(idleTimeout) s", "connectTimeout: \(connectTimeout) s", "maxRetries: \(maxRetries)",
            "decodingMode: \(decodingMode)", "maxStreamEventBytes: \(maxStreamEventBytes)",
        ]
        if let organization { parts.append("organization: \(organization)") }
        if let project { parts.append("project: \(project)") }
        if !defaultHeaders.isEmpty { parts.append("defaultHeaders: \(HTTPHeaders.redacted(defaultHeaders))") }
        if let azure { parts.append("azure: \(azure)") }
        return "Configuration(" + parts.joined(separator: ", ") + ")"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with credentials redacted, so `dump(configuration)` shows no key.
    public var customMirror: Mirror {
        func secret(_ value: String?) -> String { value == nil ? "nil" : "<redacted>" }
        return Mirror(
            self,
            children: [
                "apiKey": secret(apiKey), "adminAPIKey": secret(adminAPIKey),
                "apiKeyProvider": apiKeyProvider == nil ? "nil" : "<set>", "organization": organization as Any,
                "project": project as Any, "webhookSecret": secret(webhookSecret), "baseURL": Redaction.url(baseURL),
                "requestTimeout": requestTimeout, "idleTimeout": idleTimeout, "connectTimeout": connectTimeout,
                "maxRetries": maxRetries, "defaultHeaders": HTTPHeaders.redacted(defaultHeaders),
                "azure": azure as Any, "decodingMode": decodingMode, "maxStreamEventBytes": maxStreamEventBytes,
            ])
    }
}
