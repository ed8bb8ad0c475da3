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

    /// Whether a header's value is a credential, never printed and never sent to another origin:
    /// a name of ``credentialNames``, or one a caller's own credential header has (a gateway's
    /// `Ocp-Apim-Subscription-Key`, `X-Goog-Api-Key`, `X-Auth-Token`, `X-Client-Secret`): ending in
    /// `key` after `-` or `_` or in `apikey`, or naming a token, secret, password, credential or
    /// signature, or `auth` (`X-Auth-…`, `…-Auth`). `Idempotency-Key` is not one.
    ///
    /// - Parameter name: The header's name, in any case.
    static func isCredential(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if credentialNames.contains(lowered) { return true }
        if lowered == "idempotency-key" { return false }
        if lowered.hasSuffix("-key") || lowered.hasSuffix("_key") || lowered.hasSuffix("apikey") { return true }
        if lowered.hasPrefix("x-auth") || lowered.hasSuffix("-auth") { return true }
        return ["token", "secret", "password", "credential", "signature"].contains { lowered.contains($0) }
    }

    /// Whether a header is never sent to another origin on a redirect: the credentials
    /// (``isCredential(_:)``) and the organization and project they are scoped to.
    ///
    /// - Parameter name: The header's name, in any case.
    static func isCrossOriginStripped(_ name: String) -> Bool {
        isCredential(name) || ["openai-organization", "openai-project"].contains(name.lowercased())
    }

    static func value(_ name: String, in headers: [String: String]) -> String? {
        if let value = headers[name] { return value }
        return headers.first { sameName($0.key, name) }?.value
    }

    /// Whether two header names are the same, compared without regard to case (as
    /// `a.lowercased() == b.lowercased()`, without creating strings for ASCII names).
    static func sameName(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case (let x?, let y?) where x < 0x80 && y < 0x80:
                if x == y { continue }
                let lowerX = x &- 0x41 < 26 ? x | 0x20 : x
                let lowerY = y &- 0x41 < 26 ? y | 0x20 : y
                if lowerX != lowerY { return false }
            case (nil, _?), (_?, nil):
                // One is longer: its rest lowercases to at least one more scalar.
                return false
            default:
                // Not ASCII: Unicode's case mapping (the Kelvin sign lowercases to `k`).
                return a.lowercased() == b.lowercased()
            }
        }
    }

    /// `headers` with credential values replaced by `<redacted>` (``Redaction/headers(_:)``).
    static func redacted(_ headers: [String: String]) -> [String: String] {
        Redaction.headers(headers)
    }
}
