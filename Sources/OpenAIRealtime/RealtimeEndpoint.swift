import Foundation
import OpenAI
import OpenAIWebSocket

/// Where and how a session connects: URL, headers and subprotocols; pure, no I/O.
struct RealtimeEndpoint: Sendable, Hashable {
    var url: URL
    var headers: [String: String]
    var subprotocols: [String]

    /// The WebSocket form of a REST base URL plus a path: `https` becomes `wss`, `http` becomes `ws`.
    ///
    /// - Parameters:
    ///   - baseURL: For example `https://api.openai.com/v1`.
    ///   - path: For example `realtime`.
    /// - Returns: For example `wss://api.openai.com/v1/realtime`.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/invalidConfiguration`` for another scheme.
    static func webSocketURL(baseURL: URL, path: String) throws(RealtimeError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw RealtimeError(.invalidConfiguration, "the base URL is not a valid URL")
        }
        switch components.scheme?.lowercased() {
        case "https", "wss": components.scheme = "wss"
        case "http", "ws": components.scheme = "ws"
        default:
            throw RealtimeError(
                .invalidConfiguration, "the base URL must be http(s):// or ws(s)://")
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + "/" + path
        components.query = nil
        guard let url = components.url else {
            throw RealtimeError(.invalidConfiguration, "cannot build the WebSocket URL")
        }
        return url
    }

    /// Appends query items to an endpoint (keeping any it already has).
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - queryItems: The items, for example `model=gpt-realtime`.
    /// - Returns: The URL with the items.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/invalidConfiguration``.
    static func url(_ endpoint: URL, queryItems: [URLQueryItem]) throws(RealtimeError) -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw RealtimeError(.invalidConfiguration, "the endpoint is not a valid URL")
        }
        if !queryItems.isEmpty {
            components.queryItems = (components.queryItems ?? []) + queryItems
        }
        guard let url = components.url else {
            throw RealtimeError(.invalidConfiguration, "cannot build the WebSocket URL")
        }
        return url
    }

    /// The upgrade headers a server-side session sends: the client's credentials and headers.
    ///
    /// - Parameters:
    ///   - configuration: The client configuration.
    ///   - extra: Headers from ``RealtimeSessionOptions/headers``, applied last.
    /// - Returns: `Authorization: Bearer …` (from the key provider, the API key or the admin key;
    ///   with Azure settings a fixed key goes as `api-key` instead), `OpenAI-Organization`,
    ///   `OpenAI-Project`, `User-Agent`, the configuration's default headers and `extra`.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/invalidConfiguration`` without an API
    ///   key or with an empty provided one; what ``OpenAIClient/Configuration/apiKeyProvider``
    ///   throws.
    static func serverHeaders(
        _ configuration: OpenAIClient.Configuration, extra: [String: String]
    ) async throws -> [String: String] {
        // As for REST calls: the provider (refreshing tokens) wins over the fixed key.
        let provided = try await configuration.apiKeyProvider?()
        guard let key = provided ?? configuration.apiKey ?? configuration.adminAPIKey else {
            throw RealtimeError(.invalidConfiguration, "the client has no API key")
        }
        if provided?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true {
            throw RealtimeError(.invalidConfiguration, "the API key provider returned an empty key")
        }
        var headers = ["User-Agent": userAgent]
        if configuration.sendsKeyAsAPIKeyHeader {
            headers["api-key"] = key
        } else {
            headers["Authorization"] = "Bearer \(key)"
        }
        if let organization = configuration.organization {
            headers["OpenAI-Organization"] = organization
        }
        if let project = configuration.project { headers["OpenAI-Project"] = project }
        merge(configuration.defaultHeaders, into: &headers)
        merge(extra, into: &headers)
        return headers
    }

    /// The endpoint of a server-side session: URL (Azure: `api-version` and `deployment`) and
    /// upgrade headers, the credential asked for anew.
    ///
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/invalidConfiguration``; what the
    ///   key provider throws.
    static func server(
        _ target: RealtimeSession.Target, configuration: OpenAIClient.Configuration,
        options: RealtimeSessionOptions
    ) async throws -> RealtimeEndpoint {
        let base =
            try options.endpoint ?? webSocketURL(baseURL: configuration.baseURL, path: "realtime")
        var items = target.queryItems
        if let azure = configuration.azure {
            if let model = items.first(where: { $0.name == "model" })?.value ?? azure.deployment {
                items.removeAll { $0.name == "model" || $0.name == "deployment" }
                items.append(URLQueryItem(name: "deployment", value: azure.deployment ?? model))
            }
            if !items.contains(where: { $0.name == "api-version" }) {
                items.append(URLQueryItem(name: "api-version", value: azure.apiVersion))
            }
        }
        let headers = try await serverHeaders(configuration, extra: options.headers)
        try refuseBeta(headers)
        return RealtimeEndpoint(url: try url(base, queryItems: items), headers: headers, subprotocols: [])
    }

    /// Throws when `headers` ask for the beta protocol (`OpenAI-Beta` containing `realtime=v1`),
    /// whose events the generated GA types do not describe.
    static func refuseBeta(_ headers: [String: String]) throws(RealtimeError) {
        for (name, value) in headers where name.lowercased() == "openai-beta" {
            if value.lowercased().split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == "realtime=v1"
            }) {
                throw RealtimeError(
                    .invalidConfiguration,
                    "OpenAI-Beta: realtime=v1 asks for the beta Realtime protocol; this SDK speaks the GA protocol only (remove the header)"
                )
            }
        }
    }

    /// The subprotocols a browser-style session offers with an ephemeral client secret.
    ///
    /// - Parameters:
    ///   - clientSecret: The secret, for example `ek_…` (from `client.realtime.clientSecrets.create`).
    /// - Returns: `["realtime", "openai-insecure-api-key.<secret>"]`.
    static func clientSecretSubprotocols(_ clientSecret: String) -> [String] {
        ["realtime", "openai-insecure-api-key.\(clientSecret)"]
    }

    static let userAgent = OpenAIClient.userAgent

    /// Sets `source` into `headers`, replacing names that differ only in case.
    static func merge(_ source: [String: String], into headers: inout [String: String]) {
        for (name, value) in source.sorted(by: { $0.key < $1.key }) {
            for existing in headers.keys where existing.lowercased() == name.lowercased() {
                headers[existing] = nil
            }
            headers[name] = value
        }
    }
}
