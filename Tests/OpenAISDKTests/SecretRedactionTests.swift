import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI
import OpenAIAdmin
@testable import OpenAIRuntime

/// Every public type that can hold a credential, printed every way Swift prints: no credential
/// appears in `description`, `debugDescription`, `String(reflecting:)` or `dump`. Every secret
/// below contains the word `canary`; nothing else does.
final class SecretRedactionTests: XCTestCase {
    static let headers = [
        "Authorization": "Bearer bearer-canary-0123", "api-key": "azure-canary-key", "X-Api-Key": "xkey-canary",
        "Proxy-Authorization": "Basic proxy-canary", "Cookie": "session=cookie-canary",
        "Set-Cookie": "sid=setcookie-canary",
        "X-Amz-Security-Token": "amz-canary-token", "X-Custom-Auth": "Bearer custom-canary-token",
        "X-Echo": "key sk-canary-echoed-in-a-custom-header", "Accept": "application/json",
    ]

    /// Every way a value is printed.
    static func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var texts = [String(describing: value), String(reflecting: value), dumped, "\(value)"]
        if let value = value as? any CustomDebugStringConvertible { texts.append(value.debugDescription) }
        if let value = value as? any CustomStringConvertible { texts.append(value.description) }
        return texts
    }

    static func assertNoSecret(_ value: Any, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        for text in renderings(value) where text.lowercased().contains("canary") {
            XCTFail("\(name) prints a secret: \(text)", file: file, line: line)
            return
        }
    }

    func testNoPublicTypeThatHoldsACredentialPrintsIt() throws {
        var configuration = OpenAIClient.Configuration(
            apiKey: "sk-canary-API-0123456789abcdef", adminAPIKey: "sk-admin-canary-0123456789",
            apiKeyProvider: { "sk-provided-canary" }, organization: "org-public", project: "proj_public",
            webhookSecret: "whsec_Y2FuYXJ5LXdlYmhvb2s=",
            baseURL: URL(string: "https://user:pass-canary@api.example.com/v1?api-key=query-canary&x=1")!,
            defaultHeaders: Self.headers)
        Self.assertNoSecret(configuration, "Configuration")
        let client = try OpenAIClient(configuration: configuration)
        Self.assertNoSecret(client, "OpenAIClient")
        configuration.azure = .init(apiVersion: "2024-10-21", deployment: "d")
        Self.assertNoSecret(configuration, "Azure Configuration")

        let url = URL(string: "https://user:pass-canary@api.example.com/v1/models?token=query-canary")!
        Self.assertNoSecret(
            HTTPRequest(method: "POST", url: url, headers: Self.headers, body: .data(Data())), "HTTPRequest")
        Self.assertNoSecret(HTTPResponse(statusCode: 401, headers: Self.headers, body: Data()), "HTTPResponse")
        Self.assertNoSecret(
            HTTPStreamingResponse(statusCode: 200, headers: Self.headers, body: AsyncThrowingStream { $0.finish() }),
            "HTTPStreamingResponse")
        let raw = RawResponse(statusCode: 200, headers: Self.headers, attempts: 1)
        Self.assertNoSecret(raw, "RawResponse")
        Self.assertNoSecret(
            DownloadResult(fileURL: URL(fileURLWithPath: "/tmp/x"), byteCount: 1, response: raw), "DownloadResult")
        Self.assertNoSecret(
            RequestOptions(headers: Self.headers, query: [URLQueryItem(name: "api-key", value: "q-canary")]),
            "RequestOptions")

        let error = OpenAIError.fromResponse(
            HTTPResponse(
                statusCode: 401, headers: Self.headers,
                body: Data(
                    #"{"error":{"message":"Incorrect API key provided: sk-canary-echoed. ek_canary_secret"}}"#.utf8)))
        Self.assertNoSecret(error, "OpenAIError")
        Self.assertNoSecret(try WebhookVerifier(secret: "whsec_Y2FuYXJ5LXdlYmhvb2s="), "WebhookVerifier")
        Self.assertNoSecret(try WebhookVerifier(secret: "plain-canary-secret"), "WebhookVerifier (raw secret)")

        let secret = RealtimeCreateClientSecretResponse(
            value: "ek_canary_68af296e8e408191", expiresAt: 1, session: .unknown(["type": "realtime"]))
        Self.assertNoSecret(secret, "RealtimeCreateClientSecretResponse")
        XCTAssertEqual(secret.value, "ek_canary_68af296e8e408191", "the value itself is still there to use")
        let decoded = try JSONDecoder().decode(
            ProjectServiceAccountCreateResponse.self,
            from: Data(
                #"{"object":"organization.project.service_account","id":"svc_1","name":"n","role":"member","created_at":1,"api_key":{"object":"organization.project.service_account.api_key","value":"sk-svcacct-canary","name":"k","created_at":1,"id":"key_1"}}"#
                    .utf8))
        Self.assertNoSecret(decoded, "ProjectServiceAccountCreateResponse")
        Self.assertNoSecret([decoded], "an array of them")
    }

    func testTheRedactionListMasksSecretsInFreeText() {
        XCTAssertEqual(Redaction.text("Bearer sk-abc123"), "Bearer <redacted>")
        XCTAssertEqual(Redaction.text("Bearer  two-spaces"), "Bearer  <redacted>")
        XCTAssertEqual(Redaction.text("auth: bearer\ttabbed, ok"), "auth: bearer\t<redacted>, ok")
        XCTAssertEqual(Redaction.text("Bearers are fine"), "Bearers are fine")
        let long = String(repeating: "a message of an error, ", count: 3_000) + "Bearer tail-token"
        XCTAssertEqual(Redaction.text(long), String(long.dropLast("tail-token".count)) + "<redacted>")
        XCTAssertEqual(Redaction.text("key sk-proj-abc_DEF-123, next"), "key sk-<redacted>, next")
        XCTAssertEqual(
            Redaction.text("[realtime, openai-insecure-api-key.ek_123]"),
            "[realtime, openai-insecure-api-key.<redacted>]")
        XCTAssertEqual(Redaction.text("whsec_abc=="), "whsec_<redacted>")
        XCTAssertEqual(
            Redaction.text("risk-free task-1 desk-2"), "risk-free task-1 desk-2", "not a key: no separator before")
        XCTAssertEqual(
            Redaction.url(URL(string: "https://u:p@h.example/v1?api-key=x&model=m")!),
            "https://<redacted>@h.example/v1?api-key=<redacted>&model=m")
    }

    func testAKeyRegisteredInEverySpellingIsMaskedHoweverAServerEncodesIt() throws {
        let key = "sk-proj-spelling0Canary_9xYz"
        Redaction.registerEverySpelling(of: key)
        func percent(_ text: String, _ all: Bool = false) -> String {
            text.utf8.map { all || $0 == UInt8(ascii: "-") ? String(format: "%%%02X", $0) : String(UnicodeScalar($0)) }
                .joined()
        }
        let json = key.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined()
        let spellings = [
            "Bearer%2520" + key,  // a space encoded twice before it
            "sk%2Dproj-spelling0Canary_9xYz",  // one character encoded
            "%22" + key + "%22",  // after an encoded quote
            "1" + key + "x",  // glued to other characters
            percent(key, true),  // every byte encoded
            percent(percent(key, true)).replacingOccurrences(of: "%", with: "%25"),  // encoded twice
            json,  // JSON-escaped
            "\"" + key.replacingOccurrences(of: "-", with: "\\u002D") + "\"",  // partly JSON-escaped
        ]
        for spelling in spellings {
            let masked = Redaction.text("error: \(spelling) is not valid")
            XCTAssertTrue(masked.contains("<redacted>"), "\(spelling) → \(masked)")
            XCTAssertFalse(masked.contains("Canary"), "\(spelling) → \(masked)")
        }
        // Inside base64 at every alignment, standard and URL-safe.
        for prefix in ["", "a", "ab"] {
            let blob = Data((prefix + "{\"key\":\"\(key)\"}").utf8).base64EncodedString()
            let masked = Redaction.text("token \(blob) end")
            XCTAssertTrue(masked.contains("<redacted>"), "\(prefix): \(masked)")
            let urlSafe = blob.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            XCTAssertTrue(Redaction.text(urlSafe).contains("<redacted>"), "\(prefix): url-safe")
        }
        // Text without it is left alone, `%` and `\\` included.
        let plain = "100% of \\u0041 sk%2Dother and 1task-force"
        XCTAssertEqual(Redaction.text(plain), plain)
    }

    func testEncodedBearerTokensCallerHeadersQueryNamesAndConfiguredKeysAreMasked() throws {
        // A token after a URL- or JSON-encoded space, as a proxy or an echoing server writes it.
        XCTAssertEqual(Redaction.text("Bearer%20sk-abc123&x=1"), "Bearer%20<redacted>&x=1")
        XCTAssertEqual(Redaction.text("authorization=Bearer+tok"), "authorization=Bearer+<redacted>")
        XCTAssertEqual(Redaction.text(#"{"h":"Bearer\u0020sk-abc"}"#), #"{"h":"Bearer\u0020<redacted>"}"#)
        // Query names of credentials beyond api-key and token.
        XCTAssertEqual(
            Redaction.url(URL(string: "https://h.example/cb?apikey=a&sig=b&code=c&signature=d&model=m")!),
            "https://h.example/cb?apikey=<redacted>&sig=<redacted>&code=<redacted>&signature=<redacted>&model=m")
        // A caller's own credential headers are masked and never cross origins; Idempotency-Key is not one.
        let headers = Redaction.headers([
            "Ocp-Apim-Subscription-Key": "gw-1", "X-Goog-Api-Key": "g-2", "X-Auth-Token": "t-3",
            "X-Client-Secret": "s-4", "Idempotency-Key": "k-5", "Accept": "application/json",
        ])
        XCTAssertEqual(
            headers,
            [
                "Ocp-Apim-Subscription-Key": "<redacted>", "X-Goog-Api-Key": "<redacted>", "X-Auth-Token": "<redacted>",
                "X-Client-Secret": "<redacted>", "Idempotency-Key": "k-5", "Accept": "application/json",
            ])
        var request = URLRequest(url: URL(string: "https://elsewhere.example/v1/models")!)
        request.httpMethod = "GET"
        request.setValue("gw-1", forHTTPHeaderField: "Ocp-Apim-Subscription-Key")
        request.setValue("k-5", forHTTPHeaderField: "Idempotency-Key")
        let followed = try XCTUnwrap(
            RedirectPolicy.follow(
                from: URL(string: "https://api.openai.com/v1/models")!, method: "GET", to: request, hasBody: false))
        XCTAssertEqual(followed.allHTTPHeaderFields, ["Idempotency-Key": "k-5"])
        // An Azure key has no prefix: once a client holds it, an echo of it anywhere is masked.
        let azureKey = "3f1c0a9e7b5d4c2a8e6f0b1d9c7a5e3f"
        XCTAssertEqual(Redaction.text("invalid key \(azureKey)!"), "invalid key \(azureKey)!", "not yet configured")
        _ = try OpenAIClient(
            configuration: .azure(
                endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "2024-10-21", apiKey: azureKey))
        XCTAssertEqual(Redaction.text("invalid key \(azureKey)!"), "invalid key <redacted>!")
        let error = OpenAIError(kind: .authentication, message: "the server said: \(azureKey)")
        XCTAssertFalse("\(error)".contains(azureKey), "\(error)")
    }
}
