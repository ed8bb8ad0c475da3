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
///
/// The client's descriptions and mirror never show a credential.
public final class OpenAIClient: Sendable {
    /// The configuration every request starts from.
    public let configuration: Configuration
    /// The HTTP transport.
    public let transport: any HTTPTransport
    /// The transport with the configuration's middlewares around it: what every attempt uses.
    let pipeline: any HTTPTransport
    /// Waits between retries (a fake in tests).
    package let sleeper: any RetrySleeper
    /// Returns a fraction in `0...1` of the maximum backoff jitter (fixed in tests).
    let jitter: @Sendable () -> Double
    /// Where the replies of this client's requests are collected: set only on the client that
    /// ``withRawResponse(isolation:_:)`` and ``withUndecodedResponse(isolation:_:)`` hand to their
    /// call, and on clients derived from it.
    let recorder: RawResponseRecorder?
    /// What every request starts from, computed once from ``configuration``.
    let template: RequestTemplate

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: Credentials, base URL, timeout and retries; by default from the
    ///     environment (see ``Configuration/fromEnvironment(_:)``).
    ///   - transport: The HTTP transport; ``URLSessionTransport`` by default.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when the
    ///   configuration has no credential at all (no API key, admin key or key provider), or a
    ///   negative `maxRetries` (rejected rather than read as 0, so that a mistake shows), a
    ///   timeout that is not a number of seconds greater than 0 and at most a year
    ///   (``HTTPTimeouts/longest``; `.nan`, `.infinity`, `1e300` included), a
    ///   `maxStreamEventBytes` under 1, Azure settings with both an API key and a key provider, a ``Configuration/dataResidency``
    ///   beside a ``Configuration/baseURL`` other than the default, or a data residency prefix
    ///   that is not a DNS label.
    public convenience init(
        configuration: Configuration? = nil, transport: any HTTPTransport = URLSessionTransport()
    ) throws {
        try self.init(
            configuration: configuration, transport: transport, sleeper: TaskSleeper(),
            jitter: { Double.random(in: 0...1) })
    }

    init(
        configuration: Configuration?, transport: any HTTPTransport, sleeper: any RetrySleeper,
        jitter: @escaping @Sendable () -> Double, recorder: RawResponseRecorder? = nil
    ) throws {
        var configuration = configuration ?? Configuration.fromEnvironment()
        // A local server (a provider preset without a key variable) takes requests without a key.
        guard configuration.hasCredential || (configuration.provider.map { $0.apiKeyVariable == nil } ?? false) else {
            throw OpenAIError(
                kind: .invalidRequest,
                message:
                    "No API key: set OPENAI_API_KEY (or OPENAI_ADMIN_KEY) or pass Configuration(apiKey:) or an apiKeyProvider."
            )
        }
        guard configuration.maxRetries >= 0 else {
            throw OpenAIError(
                kind: .invalidRequest,
                message: "Configuration.maxRetries is \(configuration.maxRetries); it must be 0 or more.")
        }
        try HTTPTimeouts.check(
            request: configuration.requestTimeout, idle: configuration.idleTimeout,
            connect: configuration.connectTimeout, of: "Configuration")
        guard configuration.maxStreamEventBytes > 0 else {
            throw OpenAIError(
                kind: .invalidRequest,
                message:
                    "Configuration.maxStreamEventBytes is \(configuration.maxStreamEventBytes); it must be 1 or more.")
        }
        if configuration.azure != nil, configuration.apiKey != nil, configuration.apiKeyProvider != nil {
            throw OpenAIError(
                kind: .invalidRequest,
                message:
                    "Azure OpenAI takes an API key or a token provider, not both (as openai-python and openai-node)."
            )
        }
        if let residency = configuration.dataResidency {
            guard let regional = residency.baseURL else {
                throw OpenAIError(
                    kind: .invalidRequest,
                    message: "The data residency prefix `\(residency.rawValue)` is not a DNS label.")
            }
            guard configuration.baseURL == Configuration.defaultBaseURL || configuration.baseURL == regional else {
                throw OpenAIError(
                    kind: .invalidRequest,
                    message:
                        "Configuration.dataResidency and a baseURL other than the default are exclusive: the region chooses the base URL."
                )
            }
            configuration.baseURL = regional
        }
        // Masked in every printed text from now on, an echoed Azure key (no `sk-` prefix) included.
        for secret in [configuration.apiKey, configuration.adminAPIKey, configuration.webhookSecret] {
            if let secret { Redaction.register(secret: secret) }
        }
        self.configuration = configuration
        self.template = RequestTemplate(configuration)
        self.transport = transport
        self.pipeline =
            configuration.middlewares.isEmpty
            ? transport : MiddlewareTransport(base: transport, middlewares: configuration.middlewares)
        self.sleeper = sleeper
        self.jitter = jitter
        self.recorder = recorder
    }

    /// This client, with its replies collected by `recorder`.
    private init(_ client: OpenAIClient, recordingInto recorder: RawResponseRecorder) {
        configuration = client.configuration
        template = client.template
        transport = client.transport
        pipeline = client.pipeline
        sleeper = client.sleeper
        jitter = client.jitter
        self.recorder = recorder
    }

    /// This client, with its replies collected by `recorder`: the client a raw-response call runs on.
    func recording(into recorder: RawResponseRecorder) -> OpenAIClient {
        OpenAIClient(self, recordingInto: recorder)
    }

    /// A client that shares this one's transport (its connections), retry sleeper and jitter, with
    /// some settings changed: openai-python's `with_options`, openai-node's `withOptions`.
    ///
    /// ```swift
    /// let tracing = try client.withOptions(headers: ["X-Trace": "on"]) { $0.maxRetries = 5 }
    /// ```
    ///
    /// - Parameters:
    ///   - headers: Default headers to merge into this client's (a `nil` value removes one; names
    ///     compared without regard to case); with `replacingHeaders`, they replace them all.
    ///   - query: Default query items to add to this client's (an item of the same name replaces
    ///     this client's items of that name); with `replacingQuery`, they replace them all.
    ///   - replacingHeaders: Whether `headers` replace the default headers instead of merging.
    ///   - replacingQuery: Whether `query` replaces the default query instead of merging.
    ///   - configure: Changes any other setting.
    /// - Returns: The new client; this one is unchanged.
    /// - Throws: As ``init(configuration:transport:)``.
    public func withOptions(
        headers: [String: String?] = [:], query: [URLQueryItem] = [], replacingHeaders: Bool = false,
        replacingQuery: Bool = false, _ configure: (inout Configuration) throws -> Void = { _ in }
    ) throws -> OpenAIClient {
        var derived = configuration
        if replacingHeaders { derived.defaultHeaders = [:] }
        for (name, value) in headers { Self.set(name, value, in: &derived.defaultHeaders) }
        if replacingQuery {
            derived.defaultQuery = query
        } else {
            let names = Set(query.map(\.name))
            derived.defaultQuery = derived.defaultQuery.filter { !names.contains($0.name) } + query
        }
        try configure(&derived)
        if configuration.dataResidency != nil, derived.dataResidency != configuration.dataResidency,
            derived.baseURL == configuration.baseURL
        {
            // The region chose this client's base URL; a new region chooses the new one.
            derived.baseURL = Configuration.defaultBaseURL
        }
        return try OpenAIClient(
            configuration: derived, transport: transport, sleeper: sleeper, jitter: jitter, recorder: recorder)
    }

    /// The SDK's version, sent in `User-Agent`.
    public static let sdkVersion = "0.1.0"

    /// The `User-Agent` sent with every request, in the form OpenAI's SDKs use:
    /// `OpenAI/Swift 0.1.0`.
    public static let userAgent = "OpenAI/Swift \(sdkVersion)"

    /// The platform headers sent with every request, as OpenAI's SDKs send theirs (their names
    /// come from the generator those SDKs are built with): `X-Stainless-Lang: swift`,
    /// `X-Stainless-Package-Version`, `X-Stainless-OS` (`Linux`, `MacOS`, `iOS`, `tvOS`,
    /// `watchOS`, `visionOS`, `Windows`, `Android`, `FreeBSD`, else `Other:<name>`),
    /// `X-Stainless-Arch` (`x64`, `arm64`, `x32`, `arm`, else `other:<name>`),
    /// `X-Stainless-Runtime: swift` and `X-Stainless-Runtime-Version` (the compiler's version,
    /// e.g. `6.3`). A header of the same name in the configuration's or a request's headers wins.
    public static let platformHeaders: [String: String] = [
        "X-Stainless-Lang": "swift", "X-Stainless-Package-Version": sdkVersion, "X-Stainless-OS": operatingSystem,
        "X-Stainless-Arch": architecture, "X-Stainless-Runtime": "swift", "X-Stainless-Runtime-Version": swiftVersion,
    ]

    static var operatingSystem: String {
        #if os(Linux)
            "Linux"
        #elseif os(macOS)
            "MacOS"
        #elseif os(visionOS)
            "visionOS"
        #elseif os(iOS)
            "iOS"
        #elseif os(tvOS)
            "tvOS"
        #elseif os(watchOS)
            "watchOS"
        #elseif os(Windows)
            "Windows"
        #elseif os(Android)
            "Android"
        #elseif os(FreeBSD)
            "FreeBSD"
        #else
            "Other:unknown"
        #endif
    }

    static var architecture: String {
        #if arch(x86_64)
            "x64"
        #elseif arch(arm64)
            "arm64"
        #elseif arch(i386)
            "x32"
        #elseif arch(arm)
            "arm"
        #else
            "other:unknown"
        #endif
    }

    static var swiftVersion: String {
        #if compiler(>=6.4)
            "6.4+"
        #elseif compiler(>=6.3)
            "6.3"
        #elseif compiler(>=6.2)
            "6.2"
        #elseif compiler(>=6.1)
            "6.1"
        #else
            "6.0"
        #endif
    }
}

extension OpenAIClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The base URL and settings, credentials redacted.
    public var description: String { "OpenAIClient(\(configuration))" }
    /// Same as ``description``.
    public var debugDescription: String { description }
    /// A mirror that shows the configuration with credentials redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration, "transport": String(describing: type(of: transport))])
    }
}
