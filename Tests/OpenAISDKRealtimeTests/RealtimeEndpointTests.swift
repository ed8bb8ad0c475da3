import Foundation
import OpenAI
import XCTest

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

/// URL, headers and subprotocols of a session, without I/O.
final class RealtimeEndpointTests: XCTestCase {
    func testRESTBaseURLBecomesTheWebSocketEndpointWithTheTargetQuery() throws {
        let base = try RealtimeEndpoint.webSocketURL(
            baseURL: URL(string: "https://api.openai.com/v1/")!, path: "realtime")
        XCTAssertEqual(base.absoluteString, "wss://api.openai.com/v1/realtime")
        XCTAssertEqual(
            try RealtimeEndpoint.url(base, queryItems: RealtimeSession.Target.model("gpt-realtime").queryItems)
                .absoluteString,
            "wss://api.openai.com/v1/realtime?model=gpt-realtime")
        XCTAssertEqual(
            try RealtimeEndpoint.url(base, queryItems: RealtimeSession.Target.call(id: "rtc_1").queryItems)
                .absoluteString,
            "wss://api.openai.com/v1/realtime?call_id=rtc_1")
        XCTAssertEqual(
            try RealtimeEndpoint.url(base, queryItems: RealtimeSession.Target.transcription.queryItems)
                .absoluteString,
            "wss://api.openai.com/v1/realtime?intent=transcription")
        XCTAssertEqual(
            try RealtimeEndpoint.webSocketURL(
                baseURL: URL(string: "http://127.0.0.1:8080/v1")!, path: "responses"
            ).absoluteString,
            "ws://127.0.0.1:8080/v1/responses")
        XCTAssertThrowsError(
            try RealtimeEndpoint.webSocketURL(baseURL: URL(string: "ftp://x/v1")!, path: "realtime"))
    }

    func testServerHeadersCarryTheClientCredentialsAndOverrides() async throws {
        let configuration = OpenAIClient.Configuration(
            apiKey: "sk-1", organization: "org-1", project: "proj_1",
            defaultHeaders: ["X-Default": "d"])
        let headers = try await RealtimeEndpoint.serverHeaders(
            configuration, extra: ["x-default": "override", "OpenAI-Beta": "realtime=v1"])
        XCTAssertEqual(headers["Authorization"], "Bearer sk-1")
        XCTAssertEqual(headers["OpenAI-Organization"], "org-1")
        XCTAssertEqual(headers["OpenAI-Project"], "proj_1")
        XCTAssertEqual(headers["x-default"], "override")
        XCTAssertNil(headers["X-Default"], "names differing only in case are replaced")
        XCTAssertEqual(headers["OpenAI-Beta"], "realtime=v1")
        XCTAssertEqual(headers["User-Agent"], OpenAIClient.userAgent)

        var provided = configuration
        provided.apiKeyProvider = { "token-from-provider" }
        let refreshed = try await RealtimeEndpoint.serverHeaders(provided, extra: [:])
        XCTAssertEqual(refreshed["Authorization"], "Bearer token-from-provider")

        do {
            _ = try await RealtimeEndpoint.serverHeaders(OpenAIClient.Configuration(), extra: [:])
            XCTFail("no key must be refused")
        } catch let error as RealtimeError {
            XCTAssertEqual(error.kind, .invalidConfiguration)
        }
    }

    func testAzureSessionsUseTheDeploymentAPIVersionAndAPIKey() async throws {
        let azure = OpenAIClient.Configuration.azure(
            endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "2025-04-01-preview",
            apiKey: "az-key")
        let endpoint = try await RealtimeEndpoint.server(
            .model("gpt-rt-dep"), configuration: azure, options: RealtimeSessionOptions())
        XCTAssertEqual(
            endpoint.url.absoluteString,
            "wss://r.openai.azure.com/openai/realtime?deployment=gpt-rt-dep&api-version=2025-04-01-preview")
        XCTAssertEqual(endpoint.headers["api-key"], "az-key")
        XCTAssertNil(endpoint.headers["Authorization"])
        // A configured deployment wins; an Entra ID token goes as a Bearer token.
        let token = OpenAIClient.Configuration.azure(
            endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "v", deployment: "fixed",
            tokenProvider: { "entra-token" })
        let tokenEndpoint = try await RealtimeEndpoint.server(
            .model("ignored"), configuration: token, options: RealtimeSessionOptions())
        XCTAssertEqual(
            tokenEndpoint.url.absoluteString, "wss://r.openai.azure.com/openai/realtime?deployment=fixed&api-version=v")
        XCTAssertEqual(tokenEndpoint.headers["Authorization"], "Bearer entra-token")
        XCTAssertNil(tokenEndpoint.headers["api-key"])
    }

    func testTheBetaProtocolIsRefused() async throws {
        for (defaults, extra) in [
            (["OpenAI-Beta": "realtime=v1"], [String: String]()), ([:], ["openai-beta": "assistants=v2, realtime=v1"]),
        ] {
            let configuration = OpenAIClient.Configuration(apiKey: "sk-1", defaultHeaders: defaults)
            do {
                _ = try await RealtimeEndpoint.server(
                    .model("gpt-realtime"), configuration: configuration,
                    options: RealtimeSessionOptions(headers: extra))
                XCTFail("the beta header must be refused")
            } catch let error as RealtimeError {
                XCTAssertEqual(error.kind, .invalidConfiguration)
                XCTAssertTrue(error.message.contains("GA protocol only"), error.message)
            }
        }
        do {
            _ = try await RealtimeSession.connect(
                .transcription, clientSecret: "ek_1",
                options: RealtimeSessionOptions(
                    endpoint: URL(string: "ws://127.0.0.1:9/v1/realtime")!, headers: ["OpenAI-Beta": "realtime=v1"]))
            XCTFail("the beta header must be refused with a client secret too")
        } catch let error as RealtimeError {
            XCTAssertEqual(error.kind, .invalidConfiguration)
        }
        let other = OpenAIClient.Configuration(apiKey: "sk-1", defaultHeaders: ["OpenAI-Beta": "assistants=v2"])
        _ = try await RealtimeEndpoint.server(
            .model("gpt-realtime"), configuration: other, options: RealtimeSessionOptions())
    }

    func testClientSecretIsOfferedBesideRealtime() {
        XCTAssertEqual(
            RealtimeEndpoint.clientSecretSubprotocols("ek_abc"),
            ["realtime", "openai-insecure-api-key.ek_abc"])
    }

    func testDefaultAudioChunkKeepsBase64Within15MiB() {
        let bytes = RealtimeSessionOptions.defaultMaxAudioBytesPerAppend
        XCTAssertEqual(bytes, 11_796_480)
        XCTAssertEqual(bytes % 2, 0, "whole PCM16 samples")
        XCTAssertEqual((bytes + 2) / 3 * 4, 15 * 1024 * 1024, "base64 length is exactly 15 MiB")
    }
}
