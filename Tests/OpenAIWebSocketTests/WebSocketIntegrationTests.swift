import Foundation
import XCTest
import OpenAISDKTestSupport

@testable import OpenAIWebSocket

// The Linux transport's exact behaviour (OpenSSL's messages, /proc, Glibc sockets); the Apple
// transport wraps URLSessionWebSocketTask and is not run here.
#if canImport(Glibc)
    import Glibc

    /// The Linux transport against PyPI's `websockets` server (an independent RFC 6455 implementation),
    /// over loopback, plain and TLS.
    final class WebSocketIntegrationTests: XCTestCase {
        struct Timeout: Error {}

        /// The next `count` messages, failing after `timeout`.
        private func receive(_ socket: WebSocket, count: Int = 1, timeout: Duration = .seconds(10))
            async throws
            -> [WebSocketMessage]
        {
            try await withThrowingTaskGroup(of: [WebSocketMessage]?.self) { group in
                group.addTask {
                    var result: [WebSocketMessage] = []
                    for try await message in socket.messages {
                        result.append(message)
                        if result.count == count { break }
                    }
                    return result
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next()!
                group.cancelAll()
                guard let first else { throw Timeout() }
                return first
            }
        }

        /// Reads until the stream ends; returns the error it ended with, or `nil`.
        private func end(of socket: WebSocket, timeout: Duration = .seconds(10)) async throws
            -> Error?
        {
            try await withThrowingTaskGroup(of: Error??.self) { group in
                group.addTask {
                    do {
                        for try await message in socket.messages {
                            XCTFail("unexpected message \(message)")
                        }
                        return .some(nil)
                    } catch {
                        return .some(error)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next()!
                group.cancelAll()
                guard let first else { throw Timeout() }
                return first
            }
        }

        func testEchoesTextAndBinaryOfEveryLengthClass() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(to: server.url("/echo"))
            let text = "hello é € 😀 " + String(repeating: "x", count: 200)
            try await socket.send(text: text)
            try await socket.send(text: "short")
            let big = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 31) })
            try await socket.send(binary: big)
            try await socket.send(binary: Data())
            let messages = try await receive(socket, count: 4)
            XCTAssertEqual(messages, [.text(text), .text("short"), .binary(big), .binary(Data())])
            await socket.close()
            XCTAssertEqual(
                socket.closeInfo,
                WebSocketCloseInfo(code: .normalClosure, reason: "", initiatedByPeer: false))
            let error = try await end(of: socket)
            XCTAssertNil(error, "a close we started ends the stream without error")
            do {
                try await socket.send(text: "after close")
                XCTFail("send after close must throw")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .closed)
            }
        }

        /// The `type` of each JSON text message.
        private func types(_ messages: [WebSocketMessage]) throws -> [String] {
            try messages.map { message in
                guard case .text(let text) = message,
                    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
                        as? [String: Any],
                    let type = object["type"] as? String
                else { throw Timeout() }
                return type
            }
        }

        private func object(_ message: WebSocketMessage?) throws -> [String: Any] {
            guard case .text(let text) = message else { return [:] }
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        }

        func testScriptedRealtimeSessionRunsEndToEndOverTheTransport() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(
                to: server.url("/session"), headers: ["Authorization": "Bearer sk-test"],
                subprotocols: ["realtime"])
            let created = try await receive(socket)
            XCTAssertEqual(try types(created), ["session.created"])
            try await socket.send(
                text: #"{"type":"session.update","session":{"instructions":"Be brief."}}"#)
            let updates = try await receive(socket, count: 4)
            XCTAssertEqual(
                try types(updates),
                [
                    "session.updated", "transcription_session.updated",
                    "response.audio_transcript.done",
                    "response.output_audio_transcript.done",
                ])
            XCTAssertEqual(
                (try object(updates.first)["session"] as? [String: Any])?["instructions"]
                    as? String, "Be brief.")

            // 500 ms of 24 kHz PCM16 mono as five 100 ms appends of 4800 bytes.
            let chunk = Data((0..<4800).map { UInt8(truncatingIfNeeded: $0) }).base64EncodedString()
            for _ in 0..<5 {
                try await socket.send(
                    text: #"{"type":"input_audio_buffer.append","audio":""# + chunk + #""}"#)
            }
            try await socket.send(text: #"{"type":"input_audio_buffer.commit"}"#)
            let committed = try object(try await receive(socket).first)
            XCTAssertEqual(committed["type"] as? String, "input_audio_buffer.committed")
            XCTAssertEqual(committed["appends"] as? Int, 5)
            XCTAssertEqual(committed["audio_bytes"] as? Int, 24000)

            try await socket.send(text: #"{"type":"response.create"}"#)
            let response = try await receive(socket, count: 8)
            XCTAssertEqual(
                try types(response),
                ["response.created"] + Array(repeating: "response.output_audio.delta", count: 6)
                    + ["response.function_call_arguments.done"])
            let delta = try object(response[2])["delta"] as? String
            XCTAssertEqual(
                delta.flatMap { Data(base64Encoded: $0) }?.count, 256 * 19,
                "fragmented delta intact")
            XCTAssertEqual(try object(response.last)["call_id"] as? String, "call_001")

            try await socket.send(
                text:
                    #"{"type":"conversation.item.create","item":{"type":"function_call_output","call_id":"call_001","output":"{\"temperature_c\":18}"}}"#
            )
            let finish = try await receive(socket, count: 2)
            XCTAssertEqual(try types(finish), ["conversation.item.added", "response.done"])
            let done = try object(finish.last)
            let metadata = (done["response"] as? [String: Any])?["metadata"] as? [String: Any]
            XCTAssertEqual(metadata?["function_output"] as? String, #"{"temperature_c":18}"#)
            await socket.close()
            XCTAssertEqual(socket.closeInfo?.code, .normalClosure)
        }

        func testReassemblesMessagesTheServerSendsInSeveralFrames() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(to: server.url("/fragmented"))
            let messages = try await receive(socket, count: 2)
            XCTAssertEqual(
                messages,
                [.text("frag-one frag-two frag-three é€"), .binary(Data([0, 1, 2, 3, 4]))])
            await socket.close()
        }

        func testAnswersServerPingsAndAwaitsPongsForItsOwnPings() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(to: server.url("/ping"))
            let messages = try await receive(socket)
            XCTAssertEqual(messages, [.text("pong received")], "the server saw our automatic pong")
            try await socket.ping()
            try await socket.ping()
            try await socket.send(text: "still open")
            let received1 = try await receive(socket)
            XCTAssertEqual(received1, [.text("still open")])
            await socket.close(code: .goingAway, reason: "bye")
            XCTAssertEqual(socket.closeInfo?.code, .goingAway)
        }

        func testServerCloseWith1011EndsTheStreamWithCodeAndReason() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(to: server.url("/close-1011"))
            let received2 = try await receive(socket)
            XCTAssertEqual(received2, [.text("closing")])
            let error = try await end(of: socket) as? WebSocketError
            XCTAssertEqual(error?.kind, .closed)
            let expected = WebSocketCloseInfo(
                code: .internalError, reason: "keepalive ping timeout", initiatedByPeer: true)
            XCTAssertEqual(error?.closeInfo, expected)
            XCTAssertEqual(socket.closeInfo, expected)
            do {
                try await socket.send(text: "too late")
                XCTFail("send after the peer closed must throw")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.closeInfo?.code.rawValue, 1011)
            }
            await socket.close()  // no-op after the connection ended
        }

        func testSubprotocolNegotiationAndAuthorizationHeaderReachTheServer() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(
                to: server.url("/headers?model=gpt-realtime"),
                headers: ["Authorization": "Bearer sk-test-123", "X-Custom": "value"],
                subprotocols: ["realtime", "openai-insecure-api-key.ek_test_secret"])
            XCTAssertEqual(socket.subprotocol, "realtime")
            guard case .text(let json) = try await receive(socket).first else {
                return XCTFail("expected text")
            }
            let report = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            XCTAssertEqual(report?["authorization"] as? String, "Bearer sk-test-123")
            XCTAssertEqual(report?["x_custom"] as? String, "value")
            XCTAssertEqual(report?["path"] as? String, "/headers?model=gpt-realtime")
            XCTAssertEqual(report?["host"] as? String, "127.0.0.1:\(server.plainPort)")
            XCTAssertEqual(
                report?["offered_subprotocols"] as? [String],
                ["realtime", "openai-insecure-api-key.ek_test_secret"])
            XCTAssertEqual(report?["selected_subprotocol"] as? String, "realtime")
            await socket.close()
        }

        func testWSSWithTheTestCAConnectsAndEchoes() async throws {
            let server = try RealtimeTestServer.shared()
            let byFile = WebSocketConfiguration(
                tls: WebSocketTLSConfiguration(additionalTrustRootsFile: server.caFile))
            let socket = try await WebSocket.connect(
                to: server.url("/echo", tls: true, port: server.goodTLSPort), configuration: byFile)
            let big = String(repeating: "0123456789", count: 10_000)
            try await socket.send(text: "over TLS")
            try await socket.send(text: big)
            let received3 = try await receive(socket, count: 2)
            XCTAssertEqual(received3, [.text("over TLS"), .text(big)])
            await socket.close()
            XCTAssertEqual(socket.closeInfo?.code, .normalClosure)

            let byPEM = WebSocketConfiguration(
                tls: WebSocketTLSConfiguration(additionalTrustRootsPEM: server.caPEM))
            let second = try await WebSocket.connect(
                to: server.url("/fragmented", tls: true, port: server.goodTLSPort),
                configuration: byPEM
            )
            let received4 = try await receive(second).first
            XCTAssertEqual(received4, .text("frag-one frag-two frag-three é€"))
            await second.close()
        }

        func testWSSWithoutTheTestCAIsRefusedWithOpenSSLsReason() async throws {
            let server = try RealtimeTestServer.shared()
            do {
                _ = try await WebSocket.connect(
                    to: server.url("/echo", tls: true, port: server.goodTLSPort))
                XCTFail("an untrusted certificate must be refused")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .tlsVerificationFailed)
                XCTAssertEqual(
                    error.message,
                    "certificate verification failed: unable to get local issuer certificate (X509_V_ERR 20)"
                )
            }
        }

        func testWSSCertificateForAnotherHostIsRefused() async throws {
            let server = try RealtimeTestServer.shared()
            let configuration = WebSocketConfiguration(
                tls: WebSocketTLSConfiguration(additionalTrustRootsFile: server.caFile))
            do {
                _ = try await WebSocket.connect(
                    to: server.url("/echo", tls: true, port: server.wrongHostTLSPort),
                    configuration: configuration)
                XCTFail("a certificate for wrong.example must be refused for localhost")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .tlsVerificationFailed)
                XCTAssertEqual(
                    error.message,
                    "certificate verification failed: hostname mismatch (X509_V_ERR 62)")
            }
        }

        func testRejectedUpgradeReportsHTTPStatusAndBody() async throws {
            let server = try RealtimeTestServer.shared()
            do {
                _ = try await WebSocket.connect(to: server.url("/reject"))
                XCTFail("the server refuses this path")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .handshakeRejected)
                XCTAssertEqual(error.httpStatus, 403)
                XCTAssertEqual(error.bodyExcerpt, "forbidden: test rejection\n")
            }
        }

        func testMessageOverTheConfiguredLimitClosesWith1009() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(
                to: server.url("/large?bytes=5000"),
                configuration: WebSocketConfiguration(maxMessageBytes: 4096))
            let error = try await end(of: socket) as? WebSocketError
            XCTAssertEqual(error?.kind, .protocolViolation)
            XCTAssertEqual(error?.closeInfo?.code, .messageTooBig)
            XCTAssertEqual(socket.closeInfo?.code.rawValue, 1009)
        }

        func testCancellingTheConsumingTaskClosesTheConnection() async throws {
            let server = try RealtimeTestServer.shared()
            let socket = try await WebSocket.connect(to: server.url("/echo"))
            let consumer = Task {
                for try await _ in socket.messages {}
            }
            try await Task.sleep(for: .milliseconds(100))
            consumer.cancel()
            _ = await consumer.result
            var waited = 0
            while socket.closeInfo == nil, waited < 100 {
                try await Task.sleep(for: .milliseconds(20))
                waited += 1
            }
            XCTAssertEqual(
                socket.closeInfo,
                WebSocketCloseInfo(code: .normalClosure, reason: "", initiatedByPeer: false))
        }

        func testCancelledConsumersLeaveNoSocketPipeOrThreadBehind() async throws {
            let server = try RealtimeTestServer.shared()
            func useAndAbandon() async throws {
                let socket = try await WebSocket.connect(to: server.url("/echo"))
                try await socket.send(text: "x")
                let consumer = Task {
                    for try await _ in socket.messages {}
                }
                try await Task.sleep(for: .milliseconds(20))
                consumer.cancel()
                _ = await consumer.result
            }
            try await useAndAbandon()  // warm up what the runtime opens once
            try await Task.sleep(for: .milliseconds(200))
            guard let fdsBefore = ProcessResources.openFileDescriptors() else {
                throw XCTSkip("needs /proc (Linux)")
            }
            let threadsBefore = SocketConnection.liveIOThreadCount
            for _ in 0..<5 {
                try await useAndAbandon()
            }
            var waited = 0
            while ProcessResources.openFileDescriptors() != fdsBefore
                || SocketConnection.liveIOThreadCount != threadsBefore, waited < 250
            {
                try await Task.sleep(for: .milliseconds(20))
                waited += 1
            }
            XCTAssertEqual(
                ProcessResources.openFileDescriptors(), fdsBefore, "socket and wake pipe are closed")
            XCTAssertEqual(SocketConnection.liveIOThreadCount, threadsBefore, "I/O threads have exited")
        }

        /// A TCP listener that accepts connections into its backlog and never answers.
        private func silentListener() throws -> (fd: Int32, port: Int) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 8) == 0
                        && getsockname(fd, $0, &length) == 0
                }
            }
            guard fd >= 0, bound else { throw Unavailable.skip("cannot open a loopback listener") }
            return (fd, Int(UInt16(bigEndian: address.sin_port)))
        }

        func testSilentServerTimesOutAfterTheConnectTimeout() async throws {
            let listener = try silentListener()
            defer { close(listener.fd) }
            let start = ContinuousClock.now
            do {
                _ = try await WebSocket.connect(
                    to: URL(string: "ws://127.0.0.1:\(listener.port)/")!,
                    configuration: WebSocketConfiguration(connectTimeout: .milliseconds(300)))
                XCTFail("the server never answers the upgrade")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .timeout)
            }
            let elapsed = ContinuousClock.now - start
            XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(300))
            XCTAssertLessThan(elapsed, .seconds(3))
        }

        func testCancellingConnectEndsItPromptly() async throws {
            let listener = try silentListener()
            defer { close(listener.fd) }
            let url = URL(string: "ws://127.0.0.1:\(listener.port)/")!
            let connecting = Task { try await WebSocket.connect(to: url) }
            try await Task.sleep(for: .milliseconds(100))
            let start = ContinuousClock.now
            connecting.cancel()
            do {
                _ = try await connecting.value
                XCTFail("connect was cancelled")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .cancelled)
            }
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        }

        func testConnectionRefusedIsAConnectionFailure() async throws {
            // Port 1 on loopback: nothing listens there on a test machine.
            do {
                _ = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:1/")!)
                XCTFail("nothing listens on port 1")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .connectionFailed)
                XCTAssertEqual(error.message, "cannot connect to 127.0.0.1:1: Connection refused")
            }
        }
    }
#endif

#if canImport(Glibc)

    /// ``WebSocketTransport/urlSession`` on Linux: FoundationNetworking's `URLSessionWebSocketTask`.
    final class URLSessionTransportOnLinuxTests: XCTestCase {
        func testConnectsWhenLibcurlSupportsWebSocketElseSaysItIsUnsupported() async throws {
            let server = try RealtimeTestServer.shared()
            let configuration = WebSocketConfiguration(
                connectTimeout: .seconds(10), transport: .urlSession)
            let socket: WebSocket
            do {
                socket = try await WebSocket.connect(
                    to: server.url("/headers"), headers: ["Authorization": "Bearer sk-url"],
                    subprotocols: ["realtime"], configuration: configuration)
            } catch let error as WebSocketError where error.kind == .unsupported {
                // Debian 12's libcurl 7.88 is built without WebSocket support.
                XCTAssertTrue(
                    error.message.contains("WebSockets not supported by libcurl"), error.message)
                return
            }
            // A libcurl with WebSocket support: the same exchange as the built-in transport.
            var messages = socket.messages.makeAsyncIterator()
            guard case .text(let report) = try await messages.next() else {
                return XCTFail("the /headers route reports the request first")
            }
            let json = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
            XCTAssertEqual(json?["authorization"] as? String, "Bearer sk-url")
            XCTAssertEqual(socket.subprotocol, "realtime")
            try await socket.send(text: "héllo")
            guard case .text(let echo) = try await messages.next() else { return XCTFail("echo") }
            XCTAssertEqual(echo, "héllo")
            await socket.close()
            XCTAssertEqual(socket.closeInfo?.code, .normalClosure)
        }

        func testExtraTrustRootsAreRefusedBecauseFoundationNetworkingCannotTakeThem() async throws {
            let configuration = WebSocketConfiguration(
                tls: WebSocketTLSConfiguration(additionalTrustRootsPEM: "-----BEGIN CERTIFICATE-----"),
                transport: .urlSession)
            do {
                _ = try await WebSocket.connect(
                    to: URL(string: "wss://127.0.0.1:1/")!, configuration: configuration)
                XCTFail("must be refused before connecting")
            } catch let error as WebSocketError {
                XCTAssertEqual(error.kind, .unsupported)
                XCTAssertTrue(error.message.contains("system roots only"), error.message)
            }
        }
    }

#endif
