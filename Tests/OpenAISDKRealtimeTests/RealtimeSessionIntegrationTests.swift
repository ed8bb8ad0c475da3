import Foundation
import OpenAI
import OpenAISDKTestSupport
import XCTest

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

#if os(Linux) || os(macOS)

    /// The typed session layer against PyPI's `websockets` server (Scripts/servers/realtime-testserver/server.py):
    /// over the built-in transport on Linux, over `URLSessionWebSocketTask` on macOS (the transport
    /// of Apple platforms, with the test CA as an extra anchor).
    final class RealtimeSessionIntegrationTests: XCTestCase {
        struct Timeout: Error {}

        /// Runs `body`, failing after `seconds` instead of hanging the suite.
        private func within(
            _ seconds: Int = 30, _ body: @escaping @Sendable () async throws -> Void
        ) async throws {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await body()
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(seconds))
                    return false
                }
                let finished = try await group.next()!
                group.cancelAll()
                if !finished { throw Timeout() }
            }
        }

        private static func client() throws -> OpenAIClient {
            try OpenAIClient(
                configuration: OpenAIClient.Configuration(
                    apiKey: "sk-test-realtime", organization: "org-test"))
        }

        private static func options(
            _ server: RealtimeTestServer, _ path: String, tls: Bool = false, port: Int? = nil
        ) -> RealtimeSessionOptions {
            RealtimeSessionOptions(
                endpoint: server.url(path, tls: tls, port: port ?? (tls ? server.goodTLSPort : nil)),
                webSocket: WebSocketConfiguration(
                    connectTimeout: .seconds(10),
                    tls: WebSocketTLSConfiguration(additionalTrustRootsPEM: server.caPEM)),
                replyTimeout: .seconds(10), maxAudioBytesPerAppend: 16_000)
        }

        /// The whole scripted conversation of the issue, through the typed helpers.
        private static func runScriptedSession(tls: Bool) async throws {
            let server = try RealtimeTestServer.shared()
            let session = try await RealtimeSession.connect(
                .model("gpt-realtime"), client: try Self.client(),
                options: Self.options(server, "/session", tls: tls))
            var events = session.events.makeAsyncIterator()
            guard case .sessionCreated(let created) = try await events.next() else {
                return XCTFail("first event must be session.created")
            }
            guard case .realtime(let createdSession) = created.session else {
                return XCTFail("\(created.session)")
            }
            XCTAssertEqual(createdSession.id, "sess_test_001")

            let updated = try await session.updateSession(
                .realtime(RealtimeSessionCreateRequestGA(instructions: "Be brief.")))
            guard case .realtime(let updatedSession) = updated.session else {
                return XCTFail("\(updated.session)")
            }
            XCTAssertEqual(updatedSession.instructions, "Be brief.")
            guard case .sessionUpdated(let streamed) = try await events.next() else {
                return XCTFail("session.updated must also be in the stream")
            }
            XCTAssertEqual(streamed, updated)

            // Bug-report inputs: an event type missing from the union, and beta vs GA names.
            guard case .unknown(let transcription) = try await events.next() else {
                return XCTFail("transcription_session.updated must arrive as unknown")
            }
            XCTAssertEqual(
                transcription,
                [
                    "type": "transcription_session.updated", "event_id": "event_3",
                    "session": ["id": "sess_test_001"],
                ])
            guard case .unknown(let beta) = try await events.next() else {
                return XCTFail("the beta name must arrive as unknown")
            }
            XCTAssertEqual(beta["type"], "response.audio_transcript.done")
            XCTAssertEqual(beta["transcript"], "beta name")
            guard case .responseOutputAudioTranscriptDone(let ga) = try await events.next() else {
                return XCTFail("the GA name must be typed")
            }
            XCTAssertEqual(ga.transcript, "GA name")

            // One second of 24 kHz PCM16 in 16,000-byte appends: three events.
            let audio = Data((0..<48_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let appended = try await session.appendAudio(audio)
            XCTAssertEqual(appended, 3)
            let committed = try await session.commitAudio()
            XCTAssertEqual(committed.itemID, "item_3_48000", "the server decoded 3 appends, 48000 bytes")
            guard case .inputAudioBufferCommitted = try await events.next() else {
                return XCTFail("committed must be in the stream")
            }

            let response = try await session.createResponse()
            XCTAssertEqual(response.response.id, "resp_001")
            guard case .responseCreated = try await events.next() else {
                return XCTFail("response.created must be in the stream")
            }
            for index in 0..<6 {
                guard case .responseOutputAudioDelta(let delta) = try await events.next() else {
                    return XCTFail("delta \(index)")
                }
                XCTAssertEqual(
                    Data(base64Encoded: delta.delta), Data(Array(0...255) as [UInt8]).repeated(19),
                    "delta \(index) (odd ones fragmented) intact")
            }
            guard case .responseFunctionCallArgumentsDone(let call) = try await events.next() else {
                return XCTFail("function call expected")
            }
            XCTAssertEqual(call.callID, "call_001")
            XCTAssertEqual(call.name, "get_weather")
            XCTAssertEqual(call.arguments, #"{"location": "Paris"}"#)

            let item = try await session.sendFunctionCallOutput(
                callID: call.callID, output: #"{"temperature_c":18}"#)
            guard case .functionCallOutput(let output) = item else { return XCTFail("\(item)") }
            XCTAssertEqual(output.id, "item_003")
            XCTAssertEqual(output.output, #"{"temperature_c":18}"#)
            guard case .conversationItemAdded = try await events.next(),
                case .responseDone(let done) = try await events.next()
            else { return XCTFail("conversation.item.added then response.done expected") }
            XCTAssertEqual(done.response.id, "resp_001")
            XCTAssertEqual(
                try JSONValue(encoding: done.response)["metadata"]?["function_output"],
                #"{"temperature_c":18}"#)

            let closed = await session.close()
            XCTAssertEqual(
                closed, WebSocketCloseInfo(code: .normalClosure, reason: "", initiatedByPeer: false))
            let end = try await events.next()
            XCTAssertNil(end, "the stream finishes after our close")
            XCTAssertEqual(session.decodingFailures, [])
        }

        func testScriptedConversationRunsThroughTheTypedHelpers() async throws {
            try await within { try await Self.runScriptedSession(tls: false) }
        }

        func testScriptedConversationRunsOverTLSWithTheTestCA() async throws {
            try await within { try await Self.runScriptedSession(tls: true) }
        }

        func testCertificateForAnotherHostIsRefused() async throws {
            let server = try RealtimeTestServer.shared()
            do {
                _ = try await RealtimeSession.connect(
                    .model("gpt-realtime"), client: try Self.client(),
                    options: Self.options(server, "/session", tls: true, port: server.wrongHostTLSPort))
                XCTFail("a certificate for wrong.example must be refused for localhost")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .tlsVerificationFailed)
                #if os(Linux)
                    // OpenSSL's words; the Security framework's differ.
                    XCTAssertTrue(error.message.contains("hostname mismatch"), error.message)
                #endif
            }
        }

        func testServerAuthenticationAndTargetReachTheServer() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                let session = try await RealtimeSession.connect(
                    .call(id: "rtc_123"), client: try Self.client(),
                    options: Self.options(server, "/headers"))
                var events = session.events.makeAsyncIterator()
                guard case .unknown(let report) = try await events.next() else {
                    return XCTFail("the header report has no type")
                }
                XCTAssertEqual(report["path"], "/headers?call_id=rtc_123")
                XCTAssertEqual(report["authorization"], "Bearer sk-test-realtime")
                XCTAssertEqual(report["offered_subprotocols"], [])
                XCTAssertEqual(
                    session.decodingFailures, [], "a message without type is unknown, not a failure")
                await session.close()
            }
        }

        func testClientSecretIsOfferedAsSubprotocolWithoutAuthorization() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                let session = try await RealtimeSession.connect(
                    .transcription, clientSecret: "ek_test_123",
                    options: Self.options(server, "/headers"))
                XCTAssertEqual(session.subprotocol, "realtime")
                var events = session.events.makeAsyncIterator()
                guard case .unknown(let report) = try await events.next() else {
                    return XCTFail("the header report has no type")
                }
                XCTAssertEqual(report["path"], "/headers?intent=transcription")
                XCTAssertEqual(report["authorization"], .null)
                XCTAssertEqual(
                    report["offered_subprotocols"],
                    ["realtime", "openai-insecure-api-key.ek_test_123"])
                await session.close()
            }
        }

        func testServerErrorForAHelpersEventIsThrownAndStreamed() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                let session = try await RealtimeSession.connect(
                    .model("gpt-realtime"), client: try Self.client(),
                    options: Self.options(server, "/session"))
                var events = session.events.makeAsyncIterator()
                _ = try await events.next()  // session.created
                // The script expects session.update first and answers anything else with an error
                // naming the offending event_id.
                do {
                    _ = try await session.createResponse()
                    XCTFail("response.create before session.update must fail")
                } catch let error as RealtimeError {
                    XCTAssertEqual(error.kind, .serverError)
                    XCTAssertEqual(error.serverError?.error.code, "unexpected_event")
                    XCTAssertEqual(
                        error.serverError?.error.message,
                        "expected session.update, got response.create")
                }
                guard case .error(let streamed) = try await events.next() else {
                    return XCTFail("the error event must also be in the stream")
                }
                XCTAssertEqual(streamed.error.type, "invalid_request_error")
                XCTAssertTrue(streamed.error.eventID?.hasPrefix("evt_swift_") == true)
                // The session keeps running.
                let updated = try await session.updateSession(
                    .realtime(RealtimeSessionCreateRequestGA(instructions: "ok")))
                XCTAssertEqual(updated.eventID, "event_3")
                await session.close()
            }
        }

        func testHelperWithoutReplyTimesOutAndTheSessionStaysUsable() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                var options = Self.options(server, "/echo")
                options.replyTimeout = .milliseconds(300)
                let session = try await RealtimeSession.connect(
                    .model("gpt-realtime"), client: try Self.client(), options: options)
                let start = ContinuousClock.now
                do {
                    _ = try await session.commitAudio()
                    XCTFail("the echo server never sends input_audio_buffer.committed")
                } catch let error as RealtimeError {
                    XCTAssertEqual(error.kind, .replyTimeout)
                }
                XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(300))
                // 16-bit samples go out little-endian; the echo comes back as an unknown event.
                try await session.appendAudio(samples: [1, -2])
                var events = session.events.makeAsyncIterator()
                guard case .unknown(let commit) = try await events.next(),
                    case .unknown(let append) = try await events.next()
                else { return XCTFail("echoed client events are unknown server events") }
                XCTAssertEqual(commit["type"], "input_audio_buffer.commit")
                XCTAssertEqual(append["audio"]?.stringValue, Data([1, 0, 0xFE, 0xFF]).base64EncodedString())
                await session.close()
            }
        }

        func testServerClose1011IsReportedAndReconnectIsOptIn() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                let session = try await RealtimeSession.connect(
                    .model("gpt-realtime"), client: try Self.client(),
                    options: Self.options(server, "/close-1011"))
                var received: [RealtimeServerEvent] = []
                do {
                    for try await event in session.events { received.append(event) }
                    XCTFail("a 1011 close must end the stream with an error")
                } catch let error as WebSocketError {
                    XCTAssertEqual(error.kind, .closed)
                    XCTAssertEqual(error.closeInfo?.code, .internalError)
                    XCTAssertEqual(error.closeInfo?.reason, "keepalive ping timeout")
                }
                XCTAssertEqual(received, [.unknown(.string("closing"))])
                XCTAssertEqual(
                    session.closeInfo,
                    WebSocketCloseInfo(
                        code: .internalError, reason: "keepalive ping timeout",
                        initiatedByPeer: true))
                do {
                    _ = try await session.commitAudio()
                    XCTFail("a helper after the close must fail")
                } catch let error as RealtimeError {
                    XCTAssertEqual(error.kind, .closed)
                    XCTAssertEqual(error.closeInfo?.code, .internalError)
                }

                let never = RealtimeReconnectPolicy(retryableCloseCodes: [])
                let none = try await session.reconnect(policy: never)
                XCTAssertNil(none, "1011 is not retried when the policy excludes it")
                let fast = RealtimeReconnectPolicy(initialDelay: .milliseconds(10))
                let again = try await session.reconnect(policy: fast)
                XCTAssertNotNil(again)
                XCTAssertFalse(again === session, "a new session")
                // The route closes every connection at once, so the new one may already be closed
                // again: what proves the new connection is its own first event.
                var iterator = again?.events.makeAsyncIterator()
                let first = try await iterator?.next()
                XCTAssertEqual(first, .unknown(.string("closing")))
            }
        }

        func testReconnectAsksTheKeyProviderAgainAndCallsTheHook() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                let keys = Locked(0)
                let client = try OpenAIClient(
                    configuration: OpenAIClient.Configuration(
                        apiKeyProvider: { "sk-rt-\(keys.withLock { count -> Int in count += 1; return count })" }))
                let session = try await RealtimeSession.connect(
                    .model("gpt-realtime"), client: client, options: Self.options(server, "/headers-close-1012"))
                var reports: [JSONValue] = []
                do {
                    for try await event in session.events {
                        if case .unknown(let report) = event { reports.append(report) }
                    }
                } catch let error as WebSocketError {
                    XCTAssertEqual(error.closeInfo?.code, .serviceRestart)
                }
                XCTAssertEqual(reports.map { $0["authorization"] }, ["Bearer sk-rt-1"])
                let attempts = Locked<[Int]>([])
                let again = try await session.reconnect(
                    policy: RealtimeReconnectPolicy(initialDelay: .milliseconds(10)),
                    willReconnect: { attempt, delay in
                        XCTAssertLessThanOrEqual(delay, .milliseconds(10))
                        attempts.withLock { $0.append(attempt) }
                    })
                let renewed = try XCTUnwrap(again)
                XCTAssertEqual(attempts.withLock { $0 }, [1])
                var iterator = renewed.events.makeAsyncIterator()
                guard case .unknown(let report) = try await iterator.next() else {
                    return XCTFail("the new connection's header report")
                }
                XCTAssertEqual(report["authorization"], "Bearer sk-rt-2", "a fresh key for the new connection")
                XCTAssertEqual(report["path"], "/headers-close-1012?model=gpt-realtime")
                await renewed.close()
                // A hook that throws stops reconnecting.
                struct Stop: Error {}
                do {
                    _ = try await session.reconnect(
                        policy: RealtimeReconnectPolicy(initialDelay: .milliseconds(10)),
                        willReconnect: { _, _ in throw Stop() })
                    XCTFail("the hook's error ends the reconnect")
                } catch is Stop {}
                XCTAssertEqual(keys.withLock { $0 }, 2, "no key was asked for after the hook threw")
            }
        }

        func testAzureSessionSendsItsKeyAsAPIKeyToTheServer() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                let client = try OpenAIClient(
                    configuration: .azure(
                        endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "2025-04-01-preview",
                        apiKey: "az-realtime-key"))
                let session = try await RealtimeSession.connect(
                    .model("gpt-rt"), client: client, options: Self.options(server, "/headers"))
                var events = session.events.makeAsyncIterator()
                guard case .unknown(let report) = try await events.next() else {
                    return XCTFail("the header report has no type")
                }
                XCTAssertEqual(report["api_key"], "az-realtime-key")
                XCTAssertEqual(report["authorization"], .null)
                XCTAssertEqual(report["path"], "/headers?deployment=gpt-rt&api-version=2025-04-01-preview")
                await session.close()
            }
        }

        func testResponsesWebSocketModeStreamsTypedEventsWithTheirLane() async throws {
            try await within {
                let server = try RealtimeTestServer.shared()
                let socket = try await ResponsesWebSocketSession.connect(
                    client: try Self.client(), options: Self.options(server, "/responses"))
                var request = ResponsesClientEventResponseCreate()
                request.streamID = "lane_1"
                request.model = "gpt-5"
                request.input = "Say hello."
                try await socket.createResponse(.responseCreate(request))
                var events = socket.events.makeAsyncIterator()
                var text = ""
                for _ in 0..<2 {
                    guard case .responseOutputTextDelta(let delta) = try await events.next() else {
                        return XCTFail("text delta expected")
                    }
                    XCTAssertEqual(delta.streamID, "lane_1")
                    text += delta.delta
                }
                XCTAssertEqual(text, "Hello")
                guard case .error(let error) = try await events.next() else {
                    return XCTFail("ResponseWsError expected")
                }
                XCTAssertEqual(error.status, 400)
                XCTAssertEqual(error.error.code, "model_not_found")
                XCTAssertEqual(error.error.message, "model gpt-5 not found", "the request's model arrived")
                XCTAssertEqual(error.streamID, "lane_1")
                guard case .unknown(let future) = try await events.next() else {
                    return XCTFail("an undefined type must arrive as unknown")
                }
                XCTAssertEqual(future["detail"], ["kept": true])
                XCTAssertEqual(socket.decodingFailures, [])
                let closed = await socket.close()
                XCTAssertEqual(closed?.code, .normalClosure)
            }
        }
    }

    extension Data {
        fileprivate func repeated(_ count: Int) -> Data {
            var result = Data(capacity: self.count * count)
            for _ in 0..<count { result.append(self) }
            return result
        }
    }
#endif
