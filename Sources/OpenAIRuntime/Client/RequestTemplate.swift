import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What every request of a client starts from, computed once when the client is created rather
/// than for every request: the headers that do not depend on the request, with the
/// configuration's default headers applied; the names those default headers take over; the
/// credential header; and the base URL as text.
struct RequestTemplate: Sendable {
    /// The platform headers, `User-Agent`, `OpenAI-Organization` and `OpenAI-Project`, then the
    /// configuration's default headers over them (any spelling of a name replaced).
    let headers: [String: String]
    /// The names of the configuration's default headers, lowercased: a header the SDK sets for a
    /// request under one of these names is not sent (the default wins).
    let defaultHeaderNames: Set<String>
    /// The header that carries a static credential: `api-key` for Azure keys, the provider's
    /// ``ProviderPreset/keyHeader``, else `Authorization`.
    let credentialName: String
    /// Whether the credential is sent as `Bearer <key>` (else as the key alone).
    let sendsBearer: Bool
    /// The value of ``credentialName`` for operations that use the project API key, or `nil`.
    let apiKeyCredential: String?
    /// The value of ``credentialName`` for operations that use the admin key, or `nil`.
    let adminKeyCredential: String?
    /// The configuration's base URL as text, without a trailing slash.
    let baseURLText: String

    /// The template of `configuration`.
    init(_ configuration: OpenAIClient.Configuration) {
        var headers = OpenAIClient.platformHeaders
        headers["User-Agent"] = OpenAIClient.userAgent
        if let organization = configuration.organization { headers["OpenAI-Organization"] = organization }
        if let project = configuration.project { headers["OpenAI-Project"] = project }
        for (name, value) in configuration.defaultHeaders { OpenAIClient.set(name, value, in: &headers) }
        self.headers = headers
        defaultHeaderNames = Set(configuration.defaultHeaders.keys.map { $0.lowercased() })
        if configuration.sendsKeyAsAPIKeyHeader {
            credentialName = "api-key"
        } else if let header = configuration.provider?.keyHeader, configuration.apiKeyProvider == nil {
            credentialName = header
        } else {
            credentialName = "Authorization"
        }
        let bearer = credentialName == "Authorization"
        sendsBearer = bearer
        func value(_ key: String?) -> String? { key.map { bearer ? "Bearer \($0)" : $0 } }
        apiKeyCredential = value(configuration.apiKey ?? configuration.adminAPIKey)
        adminKeyCredential = value(configuration.adminAPIKey ?? configuration.apiKey)
        baseURLText = Self.trimmed(configuration.baseURL)
    }

    /// The static credential header's value for an operation of `authentication`.
    func credential(for authentication: APIRequest.Authentication) -> String? {
        switch authentication {
        case .apiKey: apiKeyCredential
        case .adminAPIKey: adminKeyCredential
        }
    }

    /// Sets the header `name` of one request unless a default header has that name (in any
    /// spelling): the default, already in ``headers``, wins.
    func set(_ name: String, _ value: String, in headers: inout [String: String]) {
        if defaultHeaderNames.isEmpty || !defaultHeaderNames.contains(name.lowercased()) {
            headers[name] = value
        }
    }

    /// `url` as text without a trailing slash.
    static func trimmed(_ url: URL) -> String {
        let text = url.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
