import Foundation

/// A server that speaks OpenAI's protocol, as data: where it is, how its key is sent, and how its
/// Chat Completions requests differ from OpenAI's (its ``Dialect``).
///
/// The SDK carries a catalogue of them (``all``, read from `ProviderCatalogue.swift`: one JSON
/// entry per provider, so adding one is a data entry); `OpenAIClient.Configuration.provider(_:apiKey:environment:)`
/// makes a configuration of one, and the client then adapts each Chat Completions request to
/// the dialect, reporting every change through the configuration's ``OpenAILogger``.
///
/// ```swift
/// let client = try OpenAIClient(configuration: .provider("groq"))  // reads GROQ_API_KEY
/// ```
///
/// A preset of your own is a value, or JSON of the same shape decoded with `JSONDecoder`.
public struct ProviderPreset: Codable, Sendable, Hashable, Identifiable {
    /// The preset's name in the catalogue, e.g. `groq`.
    public var id: String
    /// The provider's own name, e.g. `Groq`.
    public var name: String
    /// The base URL, the part before `/chat/completions`.
    public var baseURL: URL
    /// The environment variable that holds the key by the provider's convention (`GROQ_API_KEY`);
    /// `nil` for a local server that needs none.
    public var apiKeyVariable: String?
    /// The header the key goes in, as the raw key; `nil` (the default) for `Authorization: Bearer`.
    public var keyHeader: String?
    /// How its Chat Completions requests differ from OpenAI's.
    public var dialect: Dialect
    /// Where the facts of this entry come from: the provider's documentation.
    public var sources: [URL]

    /// Creates a preset.
    ///
    /// - Parameters:
    ///   - id: The preset's name, e.g. `my-gateway`.
    ///   - name: The provider's name.
    ///   - baseURL: The base URL, the part before `/chat/completions`.
    ///   - apiKeyVariable: The environment variable that holds the key.
    ///   - keyHeader: The header the raw key goes in; `nil` for `Authorization: Bearer`.
    ///   - dialect: How its requests differ from OpenAI's.
    ///   - sources: Where the facts come from.
    public init(
        id: String, name: String, baseURL: URL, apiKeyVariable: String? = nil, keyHeader: String? = nil,
        dialect: Dialect = Dialect(), sources: [URL] = []
    ) {
        self.id = id
        self.name = name
        self.baseURL = baseURL
        self.apiKeyVariable = apiKeyVariable
        self.keyHeader = keyHeader
        self.dialect = dialect
        self.sources = sources
    }

    /// Decodes a preset; a missing `dialect` is OpenAI's, missing `sources` none.
    ///
    /// - Throws: `DecodingError` when `id`, `name` or `baseURL` is missing or of another type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        baseURL = try container.decode(URL.self, forKey: .baseURL)
        apiKeyVariable = try container.decodeIfPresent(String.self, forKey: .apiKeyVariable)
        keyHeader = try container.decodeIfPresent(String.self, forKey: .keyHeader)
        dialect = try container.decodeIfPresent(Dialect.self, forKey: .dialect) ?? Dialect()
        sources = try container.decodeIfPresent([URL].self, forKey: .sources) ?? []
    }

    /// How a provider's Chat Completions requests differ from OpenAI's. Every member defaults to
    /// OpenAI's behaviour.
    public struct Dialect: Codable, Sendable, Hashable {
        /// The member that limits the reply's tokens: `max_completion_tokens` (OpenAI's) or
        /// `max_tokens` (servers that know only the older name; the SDK renames the member).
        public var maxTokensMember: String
        /// Whether `stream_options` (`include_usage`) is accepted; when `false` it is left out.
        public var acceptsStreamOptions: Bool
        /// Whether `strict` is accepted on function tools and `json_schema` response formats; when
        /// `false` it is left out (the schema is still sent).
        public var acceptsStrict: Bool
        /// How a request asks for reasoning effort.
        public var reasoning: Reasoning
        /// Request members the provider rejects, left out (OpenAI's names, e.g. `store`).
        public var unsupportedMembers: [String]
        /// Request members the provider knows by another name, renamed in place (Mistral's
        /// `seed` is `random_seed`).
        public var renamedMembers: [String: String]
        /// Request members the provider accepts and ignores: sent, and named in the log.
        public var ignoredMembers: [String]

        /// How a request asks for reasoning effort.
        public enum Reasoning: String, Codable, Sendable, Hashable {
            /// OpenAI's `reasoning_effort: "high"`.
            case reasoningEffort = "reasoning_effort"
            /// An object, `reasoning: {"effort": "high"}` (OpenRouter): the SDK moves
            /// `reasoning_effort` into it.
            case reasoningObject = "reasoning_object"
            /// No such parameter: `reasoning_effort` is left out.
            case none
        }

        /// Creates a dialect; the defaults are OpenAI's.
        ///
        /// - Parameters:
        ///   - maxTokensMember: `max_completion_tokens` or `max_tokens`.
        ///   - acceptsStreamOptions: Whether `stream_options` is accepted.
        ///   - acceptsStrict: Whether `strict` is accepted.
        ///   - reasoning: How reasoning effort is asked for.
        ///   - unsupportedMembers: Members the provider rejects.
        ///   - renamedMembers: Members the provider knows by another name, OpenAI's name first.
        ///   - ignoredMembers: Members the provider ignores.
        public init(
            maxTokensMember: String = "max_completion_tokens", acceptsStreamOptions: Bool = true,
            acceptsStrict: Bool = true, reasoning: Reasoning = .reasoningEffort, unsupportedMembers: [String] = [],
            renamedMembers: [String: String] = [:], ignoredMembers: [String] = []
        ) {
            self.maxTokensMember = maxTokensMember
            self.acceptsStreamOptions = acceptsStreamOptions
            self.acceptsStrict = acceptsStrict
            self.reasoning = reasoning
            self.unsupportedMembers = unsupportedMembers
            self.renamedMembers = renamedMembers
            self.ignoredMembers = ignoredMembers
        }

        /// Decodes a dialect; a missing member takes OpenAI's behaviour.
        ///
        /// - Throws: `DecodingError` when a member is of another type.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let openAI = Dialect()
            maxTokensMember =
                try container.decodeIfPresent(String.self, forKey: .maxTokensMember) ?? openAI.maxTokensMember
            acceptsStreamOptions =
                try container.decodeIfPresent(Bool.self, forKey: .acceptsStreamOptions) ?? openAI.acceptsStreamOptions
            acceptsStrict = try container.decodeIfPresent(Bool.self, forKey: .acceptsStrict) ?? openAI.acceptsStrict
            reasoning = try container.decodeIfPresent(Reasoning.self, forKey: .reasoning) ?? openAI.reasoning
            unsupportedMembers =
                try container.decodeIfPresent([String].self, forKey: .unsupportedMembers) ?? openAI.unsupportedMembers
            renamedMembers = try container.decodeIfPresent([String: String].self, forKey: .renamedMembers) ?? [:]
            ignoredMembers = try container.decodeIfPresent([String].self, forKey: .ignoredMembers) ?? []
        }
    }
}

extension ProviderPreset {
    /// Every preset of the catalogue, in its order.
    public static var all: [ProviderPreset] { ProviderCatalogue.presets }

    /// The preset named `id` (`groq`, `deepseek`, `ollama`, …), or `nil`.
    ///
    /// - Parameter id: The preset's name; case is ignored.
    public static func named(_ id: String) -> ProviderPreset? {
        let lowered = id.lowercased()
        return all.first { $0.id == lowered }
    }
}

extension OpenAIClient.Configuration {
    /// A configuration for the provider `preset`: its base URL, its key (from `apiKey`, else the
    /// preset's environment variable) sent as the preset says, and its dialect, to which the
    /// client adapts Chat Completions requests.
    ///
    /// - Parameters:
    ///   - preset: The provider.
    ///   - apiKey: The key; `nil` to read the preset's ``ProviderPreset/apiKeyVariable``.
    ///   - environment: The variables; the process environment by default.
    /// - Returns: The configuration (the logger from `OPENAI_LOG`, as ``fromEnvironment(_:)``).
    public static func provider(
        _ preset: ProviderPreset, apiKey: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Self {
        var configuration = Self(
            apiKey: apiKey ?? preset.apiKeyVariable.flatMap { environmentValue($0, in: environment) },
            baseURL: preset.baseURL)
        configuration.provider = preset
        configuration.logger = logger(environment)
        return configuration
    }

    /// A configuration for the catalogue's provider named `id` (``ProviderPreset/named(_:)``).
    ///
    /// - Parameters:
    ///   - id: The preset's name, e.g. `groq`.
    ///   - apiKey: The key; `nil` to read the preset's environment variable.
    ///   - environment: The variables; the process environment by default.
    /// - Returns: The configuration.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` naming the known
    ///   presets when there is none named `id`.
    public static func provider(
        _ id: String, apiKey: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Self {
        guard let preset = ProviderPreset.named(id) else {
            throw OpenAIError(
                kind: .invalidRequest,
                message:
                    "No provider preset is named \"\(id)\"; the presets are \(ProviderPreset.all.map(\.id).joined(separator: ", "))."
            )
        }
        return provider(preset, apiKey: apiKey, environment: environment)
    }
}
