import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Header-field helpers shared by requests, responses and errors.
enum HTTPHeaders {
    /// Header names (lowercased) whose values are credentials and never printed: the one
    /// redaction list of descriptions, mirrors, errors and logs.
    static let credentialNames: Set<String> = [
        "authorization", "api-key", "x-api-key", "proxy-authorization", "cookie", "set-cookie",
        "x-amz-security-token",
    ]

    /// Header names (lowercased) never sent to another origin on a redirect: the credentials and
    /// the organization and project they are scoped to.
    static let crossOriginStripped: Set<String> = credentialNames.union(["openai-organization", "openai-project"])

    static func value(_ name: String, in headers: [String: String]) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// `headers` with credential values replaced by `<redacted>` (``Redaction/headers(_:)``).
    static func redacted(_ headers: [String: String]) -> [String: String] {
        Redaction.headers(headers)
    }
}
