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

        /// Query items sent with every request, after the operation's own; an item the operation
        /// or ``RequestOptions/query`` names replaces the default item of that name.
        public var defaultQuery: [URLQueryItem]
        /// Request/response interceptors around the transport, outermost first; each runs once
        /// per attempt (see ``HTTPMiddleware``).
        public var middlewares: [any HTTPMiddleware]
        /// Where requests are logged; `nil` (no logging) by default, or from `OPENAI_LOG`
        /// (see ``OpenAILogger``).
        public var logger: OpenAILogger?
        /// The region whose regional endpoint serves the requests
        /// (`https://eu.api.openai.com/v1`, ...), for projects created with data residency.
        /// Exclusive with a ``baseURL`` other than the default: the client's initialiser throws
        /// when both are set; the client's configuration then has the regional URL as its
        /// ``baseURL``.
        public var dataResidency: DataResidency?
        /// The OpenAI-compatible provider the client talks to, when it is not OpenAI: the client
        /// adapts Chat Completions requests to its ``ProviderPreset/Dialect`` (leaving out or
        /// renaming what it rejects, each change logged at ``OpenAILogger/Level/warning``) and
        /// sends the key in its ``ProviderPreset/keyHeader``. Set by
        /// `provider(_:apiKey:environment:)`; `nil` by default.
        public var provider: ProviderPreset?

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
        ///   - defaultQuery: Query items sent with every request.
        ///   - middlewares: Interceptors around the transport, outermost first.
        ///   - logger: Where requests are logged.
        ///   - dataResidency: The region whose endpoint serves the requests (exclusive with
        ///     `baseURL`).
        public init(
            apiKey: String? = nil, adminAPIKey: String? = nil,
            apiKeyProvider: (@Sendable () async throws -> String)? = nil, organization: String? = nil,
            project: String? = nil, webhookSecret: String? = nil, baseURL: URL = Configuration.defaultBaseURL,
            requestTimeout: TimeInterval = HTTPTimeouts.default.request,
            idleTimeout: TimeInterval = HTTPTimeouts.default.idle,
            connectTimeout: TimeInterval = HTTPTimeouts.default.connect, maxRetries: Int = 2,
            defaultHeaders: [String: String] = [:],
            azure: Azure? = nil, decodingMode: DecodingMode = .lenient,
            maxStreamEventBytes: Int = Configuration.defaultMaxStreamEventBytes,
            defaultQuery: [URLQueryItem] = [], middlewares: [any HTTPMiddleware] = [], logger: OpenAILogger? = nil,
            dataResidency: DataResidency? = nil
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
            self.defaultQuery = defaultQuery
            self.middlewares = middlewares
            self.logger = logger
            self.dataResidency = dataResidency
        }

        /// Whether any credential is set.
        var hasCredential: Bool { apiKey != nil || adminAPIKey != nil || apiKeyProvider != nil }

        /// Whether the credential goes in an `api-key` header (a fixed Azure key) rather than as
        /// `Authorization: Bearer` (OpenAI keys, and tokens from a provider, Azure's included).
        package var sendsKeyAsAPIKeyHeader: Bool { azure != nil && apiKeyProvider == nil }

        /// Reads `OPENAI_API_KEY`, `OPENAI_ADMIN_KEY`, `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`,
        /// `OPENAI_BASE_URL`, `OPENAI_WEBHOOK_SECRET`, `OPENAI_CUSTOM_HEADERS` and `OPENAI_LOG`;
        /// values are trimmed and an empty value counts as unset.
        ///
        /// `OPENAI_CUSTOM_HEADERS` holds default headers, one `Name: value` per line (as OpenAI's
        /// SDKs read it); a line without a colon or with an empty name is skipped. `OPENAI_LOG`
        /// (`debug`, `info`, `warn`, `error`) sets a logger that writes to standard error
        /// (``OpenAILogger/standardError(level:)``); `off` or another value logs nothing.
        ///
        /// - Parameter environment: The variables; the process environment by default.
        /// - Returns: The configuration, with defaults for everything unset.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> Configuration {
            func value(_ name: String) -> String? { environmentValue(name, in: environment) }
            var configuration = Configuration(
                apiKey: value("OPENAI_API_KEY"), adminAPIKey: value("OPENAI_ADMIN_KEY"),
                organization: value("OPENAI_ORG_ID"), project: value("OPENAI_PROJECT_ID"),
                webhookSecret: value("OPENAI_WEBHOOK_SECRET"),
                baseURL: value("OPENAI_BASE_URL").flatMap(URL.init(string:)) ?? defaultBaseURL)
            configuration.defaultHeaders = Self.customHeaders(value("OPENAI_CUSTOM_HEADERS"))
            configuration.logger = logger(environment)
            return configuration
        }

        /// The trimmed value of the variable `name`, or `nil` when it is unset or empty.
        static func environmentValue(_ name: String, in environment: [String: String]) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !raw.isEmpty
            else { return nil }
            return raw
        }

        /// The standard-error logger `OPENAI_LOG` asks for, or `nil`.
        static func logger(_ environment: [String: String]) -> OpenAILogger? {
            environmentValue("OPENAI_LOG", in: environment).flatMap(OpenAILogger.Level.init(environmentValue:))
                .map(OpenAILogger.standardError(level:))
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
        ///   - deployment: The deployment for deployment-scoped operations; when `nil`, the `model`
        ///     of the JSON or multipart body names it.
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
    /// A configuration for Azure OpenAI from the environment, as openai-node's `AzureOpenAI`
    /// reads it: `AZURE_OPENAI_ENDPOINT` (or `OPENAI_BASE_URL`, used as it is, without `/openai`
    /// added), `OPENAI_API_VERSION` and `AZURE_OPENAI_API_KEY`; values are
    /// trimmed and an empty value counts as unset.
    ///
    /// - Parameters:
    ///   - deployment: The deployment for deployment-scoped operations; when `nil`, the body's
    ///     `model` names it.
    ///   - tokenProvider: Returns a Microsoft Entra ID token; exclusive with
    ///     `AZURE_OPENAI_API_KEY` (the client's initialiser throws when both are set).
    ///   - environment: The variables; the process environment by default.
    /// - Returns: The configuration.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when
    ///   `OPENAI_API_VERSION` or both `AZURE_OPENAI_ENDPOINT` and `OPENAI_BASE_URL` are unset, or
    ///   the endpoint is not a URL.
    public static func azureFromEnvironment(
        deployment: String? = nil, tokenProvider: (@Sendable () async throws -> String)? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Self {
        func value(_ name: String) -> String? { environmentValue(name, in: environment) }
        guard let apiVersion = value("OPENAI_API_VERSION") else {
            throw OpenAIError(
                kind: .invalidRequest,
                message: "OPENAI_API_VERSION is unset: Azure OpenAI needs the api-version of every request.")
        }
        var configuration: Self
        if let base = value("OPENAI_BASE_URL") {
            guard let url = URL(string: base), url.scheme != nil else {
                throw OpenAIError(kind: .invalidRequest, message: "OPENAI_BASE_URL is not a URL.")
            }
            configuration = Self(
                apiKey: value("AZURE_OPENAI_API_KEY"), apiKeyProvider: tokenProvider, baseURL: url,
                azure: Azure(apiVersion: apiVersion, deployment: deployment))
        } else if let endpoint = value("AZURE_OPENAI_ENDPOINT") {
            guard let url = URL(string: endpoint), url.scheme != nil else {
                throw OpenAIError(kind: .invalidRequest, message: "AZURE_OPENAI_ENDPOINT is not a URL.")
            }
            configuration = .azure(
                endpoint: url, apiVersion: apiVersion, deployment: deployment, apiKey: value("AZURE_OPENAI_API_KEY"),
                tokenProvider: tokenProvider)
        } else {
            throw OpenAIError(
                kind: .invalidRequest, message: "Set AZURE_OPENAI_ENDPOINT (or OPENAI_BASE_URL) for Azure OpenAI.")
        }
        configuration.logger = logger(environment)
        return configuration
    }
}

extension OpenAIClient.Configuration {
    /// Azure OpenAI settings (see ``OpenAIClient/Configuration/azure(endpoint:apiVersion:deployment:apiKey:tokenProvider:)``).
    public struct Azure: Sendable, Hashable {
        /// The `api-version` query value.
        public var apiVersion: String
        /// The deployment used for deployment-scoped operations; the body's `model` when `nil`.
        public var deployment: String?

        /// The paths whose `POST` Azure serves below `/deployments/<name>`, as openai-node's
        /// `AzureOpenAI` routes them: the deployment is ``deployment``, else the `model` of the
        /// JSON or multipart body (audio, image edits); `/batches` has no `model`, so it moves
        /// only with a configured ``deployment``. Nothing moves when the base URL already has a
        /// `deployments` path segment.
        public static let deploymentScopedPaths: Set<String> = [
            "/completions", "/chat/completions", "/embeddings", "/audio/transcriptions", "/audio/translations",
            "/audio/speech", "/images/generations", "/images/edits", "/batches",
        ]

        /// Creates Azure settings.
        ///
        /// A configuration with Azure settings must not have both an API key and a key (token)
        /// provider: the client's initialiser throws, as openai-python's and openai-node's do.
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
        if !defaultQuery.isEmpty {
            parts.append(
                "defaultQuery: \(defaultQuery.map { Redaction.text("\($0.name)=\(Redaction.queryValue($0))") })")
        }
        if !middlewares.isEmpty { parts.append("middlewares: \(middlewares.map { String(describing: type(of: $0)) })") }
        if let logger { parts.append("logger: \(logger.level)") }
        if let dataResidency { parts.append("dataResidency: \(dataResidency.rawValue)") }
        if let provider { parts.append("provider: \(provider.id)") }
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
                "defaultQuery": defaultQuery.map { Redaction.text("\($0.name)=\(Redaction.queryValue($0))") },
                "middlewares": middlewares.map { String(describing: type(of: $0)) },
                "logger": logger.map { "\($0.level)" } as Any, "dataResidency": dataResidency?.rawValue as Any,
                "provider": provider?.id as Any,
            ])
    }
}

extension OpenAIClient.Configuration {
    /// A region of OpenAI's data residency, whose requests go to its regional endpoint
    /// `https://<prefix>.api.openai.com/v1` (the domain prefixes of OpenAI's data residency guide).
    /// Use it only for a project created with data residency in that region.
    public struct DataResidency: Sendable, Hashable, RawRepresentable {
        /// The domain prefix: `eu` for `eu.api.openai.com`.
        public var rawValue: String

        /// A region by its domain prefix, for one this list does not have yet.
        ///
        /// - Parameter rawValue: The prefix, e.g. `eu`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// United States, `us.api.openai.com`.
        public static let unitedStates = Self(rawValue: "us")
        /// Europe (EEA and Switzerland), `eu.api.openai.com`.
        public static let europe = Self(rawValue: "eu")
        /// Australia, `au.api.openai.com`.
        public static let australia = Self(rawValue: "au")
        /// Canada, `ca.api.openai.com`.
        public static let canada = Self(rawValue: "ca")
        /// Japan, `jp.api.openai.com`.
        public static let japan = Self(rawValue: "jp")
        /// India, `in.api.openai.com`.
        public static let india = Self(rawValue: "in")
        /// Singapore, `sg.api.openai.com`.
        public static let singapore = Self(rawValue: "sg")
        /// South Korea, `kr.api.openai.com`.
        public static let southKorea = Self(rawValue: "kr")
        /// United Kingdom, `gb.api.openai.com`.
        public static let unitedKingdom = Self(rawValue: "gb")
        /// United Arab Emirates, `ae.api.openai.com`.
        public static let unitedArabEmirates = Self(rawValue: "ae")

        /// The regional base URL, `https://<prefix>.api.openai.com/v1`, or `nil` when the prefix
        /// is not a DNS label.
        public var baseURL: URL? {
            guard !rawValue.isEmpty, rawValue.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { return nil }
            return URL(string: "https://\(rawValue.lowercased()).api.openai.com/v1")
        }
    }
}
