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
    /// Waits between retries (a fake in tests).
    let sleeper: any RetrySleeper
    /// Returns a fraction in `0...1` of the maximum backoff jitter (fixed in tests).
    let jitter: @Sendable () -> Double

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: Credentials, base URL, timeout and retries; by default from the
    ///     environment (see ``Configuration/fromEnvironment(_:)``).
    ///   - transport: The HTTP transport; ``URLSessionTransport`` by default.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when the
    ///   configuration has no credential at all (no API key, admin key or key provider).
    public convenience init(
        configuration: Configuration? = nil, transport: any HTTPTransport = URLSessionTransport()
    ) throws {
        try self.init(
            configuration: configuration, transport: transport, sleeper: TaskSleeper(),
            jitter: { Double.random(in: 0...1) })
    }

    init(
        configuration: Configuration?, transport: any HTTPTransport, sleeper: any RetrySleeper,
        jitter: @escaping @Sendable () -> Double
    ) throws {
        let configuration = configuration ?? Configuration.fromEnvironment()
        guard configuration.hasCredential else {
            throw OpenAIError(
                kind: .invalidRequest,
                message:
                    "No API key: set OPENAI_API_KEY (or OPENAI_ADMIN_KEY) or pass Configuration(apiKey:) or an apiKeyProvider."
            )
        }
        self.configuration = configuration
        self.transport = transport
        self.sleeper = sleeper
        self.jitter = jitter
    }

    /// The SDK's version, sent in `User-Agent`.
    public static let sdkVersion = "0.1.0"

    /// The `User-Agent` sent with every request: the SDK, its version and the platform.
    public static let userAgent: String = {
        #if os(Linux)
            let platform = "Linux"
        #elseif os(macOS)
            let platform = "macOS"
        #elseif os(iOS)
            let platform = "iOS"
        #else
            let platform = "Apple"
        #endif
        return "OpenAI-Swift/\(sdkVersion) (\(platform))"
    }()
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
