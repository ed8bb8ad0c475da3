import Foundation

/// The one redaction list of the SDK, applied wherever a value can be printed: descriptions,
/// mirrors (`dump`, `String(reflecting:)`), errors and logs.
///
/// Redacted: the values of credential headers (``HTTPHeaders/isCredential(_:)``: `Authorization`,
/// `api-key`, `x-api-key`, `proxy-authorization`, `cookie`, `set-cookie`, `x-amz-security-token`,
/// and a caller's own such as `Ocp-Apim-Subscription-Key` or `X-Auth-Token`); URL userinfo and
/// credential query items (``credentialQueryNames``); the secret of an
/// `openai-insecure-api-key.<secret>` WebSocket subprotocol; in any other text, `Bearer <token>`
/// (after a space, a tab, `%20`, `+` or a JSON `\u0020`), API keys (`sk-…`), ephemeral client
/// secrets (`ek_…`), session tokens (`sess-…`) and webhook secrets (`whsec_…`); and, anywhere, the
/// secrets a client was configured with (``register(secret:)``: an Azure key has no prefix to
/// find it by when a server echoes it). A tool that holds one or two keys (the `openai` command)
/// registers them with ``registerEverySpelling(of:)``: then each is also masked glued to other text
/// (`1sk-…`), with any of its characters percent-encoded once or twice (`sk%2D…`, `%25…`) or
/// JSON-escaped (`\u002d`), and base64-encoded at any alignment.
package enum Redaction {
    /// What a secret prints as.
    package static let placeholder = "<redacted>"

    /// Query item names (lowercased) whose values are credentials.
    static let credentialQueryNames: Set<String> = [
        "api-key", "api_key", "apikey", "key", "token", "access_token", "client_secret", "sig", "signature",
        "code", "password", "secret", "x-amz-signature", "x-amz-security-token",
    ]

    /// The secrets clients were configured with (API keys of every kind, webhook secrets), at
    /// least 8 characters long: masked wherever they appear.
    private static let registered = Locked(Set<String>())

    /// Masks `secret` wherever a later text is redacted: a client registers its configured keys,
    /// so that a server echoing one (an Azure key, which has no prefix) does not print it.
    ///
    /// - Parameter secret: The secret; one shorter than 8 characters is not registered (it would
    ///   mask ordinary words), nor one with a prefix the text rules already find (`sk-…`,
    ///   `whsec_…`): a server holding many OpenAI keys keeps this list short.
    package static func register(secret: String) {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 8, !secretPrefixes.contains(where: { trimmed.hasPrefix($0) }) else { return }
        registered.withLock { _ = $0.insert(trimmed) }
    }

    /// The secrets masked in every spelling (``registerEverySpelling(of:)``), as UTF-8 bytes, with
    /// the base64 runs each one leaves inside a larger base64 text (standard and URL-safe alphabets).
    private static let spelled = Locked([(secret: [UInt8], base64: [String])]())

    /// The most secrets ``registerEverySpelling(of:)`` keeps (a command holds one or two).
    static let spelledLimit = 8

    /// Masks `secret` wherever a later text is redacted, in every spelling a server could echo it
    /// in (see the type's description): for a process that holds a few keys of its own, such as
    /// the `openai` command and its MCP server. Every text redacted afterwards is scanned once
    /// per secret, in time linear in its length.
    ///
    /// - Parameter secret: The secret; one shorter than 8 characters is not registered, nor more
    ///   than 8 secrets.
    package static func registerEverySpelling(of secret: String) {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 8 else { return }
        let bytes = Array(trimmed.utf8)
        var runs: [String] = []
        for offset in 0..<3 {
            // `secret` preceded by `offset` other bytes: the characters that depend on its bytes alone.
            let encoded = Data(repeating: 0, count: offset) + Data(bytes)
            let text = encoded.base64EncodedString().replacingOccurrences(of: "=", with: "")
            let first = (offset * 8 + 5) / 6
            let last = (encoded.count * 8) / 6
            guard last - first >= 12 else { continue }
            let run = String(Array(text)[first..<last])
            runs.append(run)
            runs.append(run.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
        }
        spelled.withLock { list in
            guard list.count < spelledLimit, !list.contains(where: { $0.secret == bytes }) else { return }
            list.append((bytes, Array(Set(runs)).sorted()))
        }
    }

    /// Prefixes of secrets that appear in free text, and the WebSocket subprotocol prefix.
    private static let secretPrefixes = ["sk-", "ek_", "sess-", "whsec_", "openai-insecure-api-key."]

    /// `headers` with credential values replaced and secrets in other values masked.
    package static func headers(_ headers: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers {
            result[name] = HTTPHeaders.isCredential(name) ? placeholder : text(value)
        }
        return result
    }

    /// `url` as text, with userinfo and credential query items redacted.
    package static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return text(url.absoluteString)
        }
        let hadUserinfo = components.user != nil || components.password != nil
        components.user = nil
        components.password = nil
        let items = components.percentEncodedQueryItems
        components.percentEncodedQuery = nil
        var result = components.string ?? ""
        if hadUserinfo, let separator = result.range(of: "://") {
            result.insert(contentsOf: placeholder + "@", at: separator.upperBound)
        }
        if let items, !items.isEmpty {
            result +=
                "?"
                + items.map { item in item.value == nil ? item.name : "\(item.name)=\(queryValue(item))" }
                .joined(separator: "&")
        }
        return text(result)
    }

    /// The value of a query item as it may be printed: the placeholder for a credential
    /// (``credentialQueryNames``), else the value (`""` when it has none).
    static func queryValue(_ item: URLQueryItem) -> String {
        credentialQueryNames.contains(item.name.lowercased()) ? placeholder : (item.value ?? "")
    }

    /// WebSocket subprotocols with the secret of `openai-insecure-api-key.<secret>` redacted.
    package static func subprotocols(_ subprotocols: [String]) -> [String] {
        subprotocols.map(text)
    }

    /// `value` with every secret token masked, in time linear in its length: `Bearer <token>`, `sk-…`, `ek_…`, `sess-…`,
    /// `whsec_…` and `openai-insecure-api-key.…` keep their prefix; the rest of the token (up to
    /// the next space, quote, comma or semicolon) becomes `<redacted>`.
    package static func text(_ value: String) -> String {
        var value = value
        for secret in registered.withLock({ $0 }) where value.contains(secret) {
            value = value.replacingOccurrences(of: secret, with: placeholder)
        }
        for entry in spelled.withLock({ $0 }) {
            value = maskingSpellings(of: entry.secret, in: value)
            for run in entry.base64 where value.contains(run) {
                value = value.replacingOccurrences(of: run, with: placeholder)
            }
        }
        guard value.contains(where: { $0 == "-" || $0 == "_" || $0 == "." || $0 == " " || $0 == "%" || $0 == "+" })
        else { return value }
        var result = ""
        var rest = Substring(value)
        while !rest.isEmpty {
            if let prefix = secretPrefixes.first(where: { rest.hasPrefix($0) }), isTokenStart(result) {
                result += prefix + placeholder
                rest = rest.dropFirst(prefix.count).drop { !isTokenEnd($0) }
            } else if rest.prefix(6).lowercased() == "bearer", isTokenStart(result),
                case let spaced = separator(after: rest.dropFirst(6)), !spaced.isEmpty
            {
                // `Bearer`, the space after it (any amount, in any of its encodings), then the token.
                result += rest.prefix(6) + spaced + placeholder
                rest = rest.dropFirst(6 + spaced.count).drop { !isTokenEnd($0) }
            } else {
                result.append(rest.removeFirst())
            }
        }
        return result
    }

    /// `text` with every occurrence of `secret` replaced by the placeholder, each of its bytes
    /// matched as itself, `%XX`, `%25XX` or `\uXXXX` (hex in either case), whatever surrounds it.
    static func maskingSpellings(of secret: [UInt8], in text: String) -> String {
        guard let head = secret.first else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var changed = false
        var index = 0
        func hex(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[at..<(at + count)] {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                value = value * 16 + digit
            }
            return value
        }
        // The end of `byte` spelled at `at`, or nil.
        func spelling(of byte: UInt8, at: Int) -> Int? {
            guard at < bytes.count else { return nil }
            let first = bytes[at]
            if first == byte { return at + 1 }
            if first == UInt8(ascii: "%") {
                if hex(at + 1, 2) == Int(byte) { return at + 3 }
                if hex(at + 1, 2) == 0x25, hex(at + 3, 2) == Int(byte) { return at + 5 }
            }
            if first == UInt8(ascii: "\\"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "u"),
                hex(at + 2, 4) == Int(byte)
            {
                return at + 6
            }
            return nil
        }
        while index < bytes.count {
            let first = bytes[index]
            if first == head || first == UInt8(ascii: "%") || first == UInt8(ascii: "\\") {
                var end: Int? = index
                for byte in secret {
                    guard let at = end else { break }
                    end = spelling(of: byte, at: at)
                }
                if let end {
                    result += Array(placeholder.utf8)
                    index = end
                    changed = true
                    continue
                }
            }
            result.append(first)
            index += 1
        }
        return changed ? String(decoding: result, as: UTF8.self) : text
    }

    /// The space that starts `text`: spaces and tabs, and their URL (`%20`, `+`) and JSON
    /// (`\u0020`) encodings, any number of them; empty when `text` starts otherwise.
    private static func separator(after text: Substring) -> Substring {
        var rest = text
        while let first = rest.first {
            if first == " " || first == "\t" || first == "+" {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("%20") || rest.hasPrefix("%09") {
                rest = rest.dropFirst(3)
            } else if rest.prefix(6).lowercased() == "\\u0020" {
                rest = rest.dropFirst(6)
            } else {
                break
            }
        }
        return text[text.startIndex..<rest.startIndex]
    }

    /// Whether a token may start after `text` (at its start, or after a separator).
    private static func isTokenStart(_ text: String) -> Bool {
        guard let last = text.last else { return true }
        return !(last.isLetter || last.isNumber || last == "-" || last == "_")
    }

    private static func isTokenEnd(_ character: Character) -> Bool {
        " \"',;&\n\r\t)]}>".contains(character)
    }
}
