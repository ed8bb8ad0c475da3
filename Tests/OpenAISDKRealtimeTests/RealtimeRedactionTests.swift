import Foundation
import OpenAI
import OpenAISDKTestSupport
import XCTest

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

#if canImport(Glibc)

    /// Realtime sessions hold an API key or a client secret in their upgrade request: printing a
    /// session, its options or its socket shows neither.
    final class RealtimeRedactionTests: XCTestCase {
        private static func renderings(_ value: Any) -> [String] {
            var dumped = ""
            dump(value, to: &dumped)
            return [String(describing: value), String(reflecting: value), dumped, "\(value)"]
        }

        private static func assertNoSecret(_ value: Any, _ name: String) {
            for text in renderings(value) where text.contains("canary") {
                XCTFail("\(name) prints a secret: \(text)")
                return
            }
        }

        func testSessionsOptionsAndSocketsPrintNoCredential() async throws {
            let server = try RealtimeTestServer.shared()
            let options = RealtimeSessionOptions(
                endpoint: server.url("/session"), headers: ["X-Api-Key": "xkey-canary", "X-Trace": "trace-1"],
                webSocket: WebSocketConfiguration(connectTimeout: .seconds(10)), replyTimeout: .seconds(10))
            Self.assertNoSecret(options, "RealtimeSessionOptions")
            let client = try OpenAIClient(
                configuration: OpenAIClient.Configuration(apiKey: "sk-canary-realtime-0123456789"))
            let session = try await RealtimeSession.connect(.model("gpt-realtime"), client: client, options: options)
            Self.assertNoSecret(session, "RealtimeSession (API key)")
            await session.close()
            let browser = try await RealtimeSession.connect(
                .model("gpt-realtime"), clientSecret: "ek_canary_0123456789", options: options)
            Self.assertNoSecret(browser, "RealtimeSession (client secret)")
            XCTAssertTrue("\(browser)".contains("openai-insecure-api-key.<redacted>"), "\(browser)")
            await browser.close()
        }
    }

#endif
