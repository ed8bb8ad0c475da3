import Foundation
import OpenAI
import XCTest

@testable import OpenAIRealtime

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
