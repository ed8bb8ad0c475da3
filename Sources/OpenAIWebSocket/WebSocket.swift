import Foundation
import OpenAIRuntime

/// A client WebSocket connection (RFC 6455) that works on Linux and on Apple platforms.
///
/// On Linux the transport is this module's own RFC 6455 framing over a POSIX socket, with OpenSSL
/// for `wss://`, run on one dedicated I/O thread per connection; on Apple platforms it wraps
/// `URLSessionWebSocketTask` (which Linux can use too: ``WebSocketTransport/urlSession``). See
/// `Sources/OpenAIWebSocket/README.md` for why.
///
/// ```swift
/// let socket = try await WebSocket.connect(
///     to: URL(string: "wss://api.openai.com/v1/realtime?model=gpt-realtime")!,
///     headers: ["Authorization": "Bearer \(apiKey)"])
/// try await socket.send(text: #"{"type":"session.update","session":{}}"#)
/// for try await message in socket.messages { ... }
/// ```
///
/// Pings from the server are answered automatically. The connection lives until it is closed by
/// either side, or until ``messages`` and every iterator over it are gone or the task iterating it
/// is cancelled; then the transport closes it with 1000 and releases its thread and socket.
public final class WebSocket: Sendable {
    /// Every text and binary message from the server, in order.
    ///
    /// Iterate it from one task. It finishes without error when the connection closes with 1000, or
    /// after a close this side started; it throws ``WebSocketError`` when the server closes with any
    /// other code (kind ``WebSocketError/Kind/closed``, e.g. 1011 "keepalive ping timeout"), when the
    /// connection drops (code 1006) and on a protocol violation.
    public let messages: AsyncThrowingStream<WebSocketMessage, Error>

    /// The subprotocol the server selected from those offered, or `nil` (RFC 6455 section 4.2.2).
    public let subprotocol: String?

    private let connection: any WebSocketConnection

    private init(
        connection: any WebSocketConnection,
        messages: AsyncThrowingStream<WebSocketMessage, Error>, subprotocol: String?
    ) {
        self.connection = connection
        self.messages = messages
        self.subprotocol = subprotocol
    }

    /// Opens a connection and performs the opening handshake (RFC 6455 section 4).
    ///
    /// - Parameters:
    ///   - url: A `ws://` or `wss://` URL, for example `wss://api.openai.com/v1/realtime?model=gpt-realtime`.
    ///   - headers: Extra request headers such as `Authorization`; never logged or put in errors.
    ///   - subprotocols: Subprotocols to offer, in preference order, for example
    ///     `["realtime", "openai-insecure-api-key.\(clientSecret)"]`.
    ///   - configuration: Timeouts, size limits, TLS trust and the transport.
    /// - Returns: The open connection.
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/invalidURL``,
    ///   ``WebSocketError/Kind/connectionFailed``, ``WebSocketError/Kind/tlsVerificationFailed`` (with
    ///   OpenSSL's reason), ``WebSocketError/Kind/tlsFailed``, ``WebSocketError/Kind/handshakeRejected``
    ///   (with HTTP status and body excerpt), ``WebSocketError/Kind/timeout`` after
    ///   ``WebSocketConfiguration/connectTimeout``, ``WebSocketError/Kind/cancelled``, or
    ///   ``WebSocketError/Kind/unsupported`` when ``WebSocketConfiguration/transport`` cannot run here.
    public static func connect(
        to url: URL,
        headers: [String: String] = [:],
        subprotocols: [String] = [],
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws -> WebSocket {
        let (messages, continuation) = AsyncThrowingStream<WebSocketMessage, Error>.makeStream()
        let socket = try await connect(
            to: url, headers: headers, subprotocols: subprotocols, configuration: configuration,
            sink: .stream(continuation), messages: messages)
        continuation.onTermination = { [connection = socket.connection] termination in
            if case .cancelled = termination {
                connection.requestClose(code: .normalClosure, reason: "")
            }
        }
        return socket
    }

    /// Opens a connection whose messages go to `sink` instead of ``messages`` (which then finishes
    /// at once). The caller closes the connection with ``abandon()`` when it drops the socket.
    ///
    /// - Parameters:
    ///   - url: A `ws://` or `wss://` URL.
    ///   - headers: Extra request headers.
    ///   - subprotocols: Subprotocols to offer.
    ///   - configuration: Timeouts, size limits, TLS trust and the transport.
    ///   - sink: Receives every message on the connection's I/O thread, then the end.
    /// - Returns: The open connection.
    /// - Throws: As ``connect(to:headers:subprotocols:configuration:)``.
    package static func connect(
        to url: URL, headers: [String: String], subprotocols: [String],
        configuration: WebSocketConfiguration, sink: WebSocketMessageSink
    ) async throws -> WebSocket {
        let (messages, continuation) = AsyncThrowingStream<WebSocketMessage, Error>.makeStream()
        continuation.finish()
        return try await connect(
            to: url, headers: headers, subprotocols: subprotocols, configuration: configuration,
            sink: sink, messages: messages)
    }

    private static func connect(
        to url: URL, headers: [String: String], subprotocols: [String],
        configuration: WebSocketConfiguration, sink: WebSocketMessageSink,
        messages: AsyncThrowingStream<WebSocketMessage, Error>
    ) async throws -> WebSocket {
        let handshake = try WebSocketHandshake(
            url: url, headers: headers, subprotocols: subprotocols)
        let connection = try makeConnection(
            handshake: handshake, url: url, configuration: configuration, sink: sink)
        let subprotocol = try await connection.start()
        return WebSocket(connection: connection, messages: messages, subprotocol: subprotocol)
    }

    private static func makeConnection(
        handshake: WebSocketHandshake, url: URL, configuration: WebSocketConfiguration,
        sink: WebSocketMessageSink
    ) throws -> any WebSocketConnection {
        switch configuration.transport {
        case .urlSession:
            return try URLSessionWebSocketConnection(
                handshake: handshake, url: url, configuration: configuration, sink: sink)
        case .automatic, .builtIn:
            #if canImport(Darwin)
                if configuration.transport == .automatic {
                    return try URLSessionWebSocketConnection(
                        handshake: handshake, url: url, configuration: configuration, sink: sink)
                }
                throw WebSocketError(
                    .unsupported, "the built-in WebSocket transport runs on Linux only")
            #elseif canImport(Glibc) && canImport(OpenAIWebSocketOpenSSL)
                return try SocketConnection(
                    handshake: handshake, configuration: configuration, sink: sink)
            #else
                // The socket code is written for glibc's spellings; Musl (the static Linux SDK) is
                // not compiled, nor claimed.
                throw WebSocketError(
                    .unsupported,
                    "the built-in WebSocket transport needs glibc and OpenSSL (OpenAIWebSocketOpenSSL)")
            #endif
        }
    }

    /// Starts closing with 1000 without waiting; for owners of a sink-fed socket that are going away.
    package func abandon() {
        connection.requestClose(code: .normalClosure, reason: "")
    }

    /// Sends a text message in one frame.
    ///
    /// Returns once the frame is queued; waits first while more than
    /// ``WebSocketConfiguration/sendBufferHighWaterBytes`` are waiting to be written.
    ///
    /// - Parameters:
    ///   - text: The message.
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/closed`` once closing has started or the
    ///   connection has ended.
    public func send(text: String) async throws {
        try await connection.send(.text, text.utf8)
    }

    /// Sends a text message that is already UTF-8 bytes (the caller guarantees valid UTF-8).
    package func send(utf8Text: some Collection<UInt8>) async throws {
        try await connection.send(.text, utf8Text)
    }

    /// Sends a binary message in one frame.
    ///
    /// - Parameters:
    ///   - binary: The message bytes.
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/closed`` once closing has started or the
    ///   connection has ended.
    public func send(binary: Data) async throws {
        try await connection.send(.binary, binary)
    }

    /// Sends a ping and waits for the server's pong (RFC 6455 section 5.5.2).
    ///
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/closed`` if the connection closes before
    ///   the pong arrives, ``WebSocketError/Kind/cancelled`` if the calling task is cancelled.
    public func ping() async throws {
        try await connection.ping()
    }

    /// Performs the closing handshake: sends a close frame and waits for the server's close frame,
    /// at most ``WebSocketConfiguration/closeTimeout``. Does nothing more if closing already started.
    ///
    /// - Parameters:
    ///   - code: The close code (default 1000).
    ///   - reason: A UTF-8 reason, truncated to 123 bytes (default empty).
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await connection.close(code: code, reason: reason)
    }

    /// How the connection closed, or `nil` while it is open.
    public var closeInfo: WebSocketCloseInfo? {
        connection.endInfo
    }
}

extension WebSocket: CustomStringConvertible, CustomReflectable {
    /// The negotiated subprotocol, the secret of an `openai-insecure-api-key.` one redacted.
    private var printableSubprotocol: String { subprotocol.map(Redaction.text) ?? "none" }

    /// The negotiated subprotocol, any secret in it redacted.
    public var description: String { "WebSocket(subprotocol: \(printableSubprotocol))" }

    /// A mirror without the connection's state or credentials.
    public var customMirror: Mirror {
        Mirror(self, children: ["subprotocol": printableSubprotocol])
    }
}
