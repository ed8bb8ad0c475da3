import Foundation
import XCTest

@testable import OpenAIWebSocket

/// The opening handshake (RFC 6455 section 4) without I/O.
final class WebSocketHandshakeTests: XCTestCase {
    func testAcceptKeyMatchesRFC6455Section1_3() {
        // RFC 6455 section 1.3 gives "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" for this key (also what Python's
        // hashlib computes); the same value appears in section 4.2.2.
        XCTAssertEqual(
            WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func testRandomKeyIsBase64Of16Bytes() {
        let key = WebSocketHandshake.randomKey()
        XCTAssertEqual(Data(base64Encoded: key)?.count, 16)
        XCTAssertNotEqual(key, WebSocketHandshake.randomKey())
    }

    func testRequestHasUpgradeHeadersSubprotocolsAndSortedExtraHeaders() throws {
        let handshake = try WebSocketHandshake(
            url: URL(string: "ws://example.com:8080/v1/realtime?model=gpt-realtime")!,
            headers: ["Authorization": "Bearer sk-test", "OpenAI-Beta": "realtime=v1"],
            subprotocols: ["realtime", "openai-insecure-api-key.ek_123"],
            key: "dGhlIHNhbXBsZSBub25jZQ==")
        let expected =
            "GET /v1/realtime?model=gpt-realtime HTTP/1.1\r\nHost: example.com:8080\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: realtime, openai-insecure-api-key.ek_123\r\n"
            + "Authorization: Bearer sk-test\r\nOpenAI-Beta: realtime=v1\r\n\r\n"
        XCTAssertEqual(String(decoding: handshake.requestBytes(), as: UTF8.self), expected)
        XCTAssertEqual(handshake.port, 8080)
        XCTAssertFalse(handshake.usesTLS)
    }

    func testDefaultPortsAreOmittedFromHostAndIPv6IsBracketed() throws {
        let secure = try WebSocketHandshake(
            url: URL(string: "wss://api.openai.com/v1/realtime")!, headers: [:], subprotocols: [])
        XCTAssertEqual(secure.hostHeader, "api.openai.com")
        XCTAssertEqual(secure.port, 443)
        XCTAssertTrue(secure.usesTLS)
        let ipv6 = try WebSocketHandshake(
            url: URL(string: "ws://[::1]:9000")!, headers: [:], subprotocols: [])
        XCTAssertEqual(ipv6.host, "::1")
        XCTAssertEqual(ipv6.hostHeader, "[::1]:9000")
        XCTAssertEqual(ipv6.requestTarget, "/")
    }

    func testInvalidURLsAndHeadersAreRefusedWithoutEchoingValues() {
        for url in ["http://example.com/", "ws:///path"] {
            XCTAssertThrowsError(
                try WebSocketHandshake(url: URL(string: url)!, headers: [:], subprotocols: [])
            ) {
                XCTAssertEqual(($0 as? WebSocketError)?.kind, .invalidURL, url)
            }
        }
        let url = URL(string: "ws://example.com/")!
        XCTAssertThrowsError(
            try WebSocketHandshake(
                url: url, headers: ["Authorization": "Bearer sk-secret\r\nX: y"], subprotocols: [])
        ) {
            let error = $0 as? WebSocketError
            XCTAssertEqual(error?.kind, .invalidURL)
            XCTAssertFalse(error?.description.contains("sk-secret") ?? true)
        }
        XCTAssertThrowsError(
            try WebSocketHandshake(url: url, headers: ["Sec-WebSocket-Key": "x"], subprotocols: []))
        XCTAssertThrowsError(try WebSocketHandshake(url: url, headers: [:], subprotocols: ["a b"]))
    }

    private func response(_ lines: [String]) throws -> WebSocketHandshake.ResponseHead {
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\nEXTRA").utf8)
        let (head, length) = try XCTUnwrap(WebSocketHandshake.parseResponseHead(bytes))
        XCTAssertEqual(
            Array(bytes[length...]), Array("EXTRA".utf8),
            "bytes after the head are left for the framer")
        return head
    }

    private let handshake = try! WebSocketHandshake(
        url: URL(string: "ws://example.com/")!, headers: [:], subprotocols: ["realtime"],
        key: "dGhlIHNhbXBsZSBub25jZQ==")

    func testValid101ResponseReturnsTheSelectedSubprotocol() throws {
        let head = try response([
            "HTTP/1.1 101 Switching Protocols", "upgrade: WebSocket",
            "Connection: keep-alive, Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
            "Sec-WebSocket-Protocol: realtime",
        ])
        XCTAssertEqual(try handshake.validate(head), "realtime")
    }

    func testIncompleteHeadNeedsMoreBytes() throws {
        XCTAssertNil(
            try WebSocketHandshake.parseResponseHead(
                Array("HTTP/1.1 101 Switching\r\nUpgrade: w".utf8)))
        XCTAssertThrowsError(
            try WebSocketHandshake.parseResponseHead(Array(repeating: 0x41, count: 20000)))
    }

    func testBadResponsesAreRejectedWithStatusAndBody() throws {
        let wrongAccept = try response([
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: AAAA",
        ])
        XCTAssertThrowsError(try handshake.validate(wrongAccept)) {
            XCTAssertEqual(
                ($0 as? WebSocketError)?.message, "Sec-WebSocket-Accept does not match the key sent"
            )
        }
        let forbidden = try response(["HTTP/1.1 403 Forbidden", "Content-Length: 9"])
        XCTAssertThrowsError(try handshake.validate(forbidden, body: Array("forbidden".utf8))) {
            let error = $0 as? WebSocketError
            XCTAssertEqual(error?.kind, .handshakeRejected)
            XCTAssertEqual(error?.httpStatus, 403)
            XCTAssertEqual(error?.bodyExcerpt, "forbidden")
        }
        let unofferedProtocol = try response([
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Sec-WebSocket-Protocol: other",
        ])
        XCTAssertThrowsError(try handshake.validate(unofferedProtocol))
        let withExtension = try response([
            "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
            "Sec-WebSocket-Extensions: permessage-deflate",
        ])
        XCTAssertThrowsError(try handshake.validate(withExtension))
        let noUpgrade = try response([
            "HTTP/1.1 101 Switching Protocols", "Connection: Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ])
        XCTAssertThrowsError(try handshake.validate(noUpgrade)) {
            XCTAssertEqual(($0 as? WebSocketError)?.message, "response lacks Upgrade: websocket")
        }
    }
}
