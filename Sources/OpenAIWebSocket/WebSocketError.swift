/// An error from the WebSocket transport.
///
/// A struct wrapping a private code enum (as in async-http-client), so new cases can be added
/// without breaking callers; compare with the static members, for example
/// `error.kind == .tlsVerificationFailed`.
public struct WebSocketError: Error, Sendable, CustomStringConvertible {
    /// The category of a ``WebSocketError``.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        enum Code: Hashable, Sendable {
            case invalidURL
            case connectionFailed
            case tlsFailed
            case tlsVerificationFailed
            case handshakeRejected
            case protocolViolation
            case closed
            case timeout
            case cancelled
            case unsupported
        }

        let code: Code

        /// The URL is not a `ws://` or `wss://` URL with a host, or a header is malformed.
        public static let invalidURL = Kind(code: .invalidURL)
        /// Name resolution, TCP connect, or a read or write on the socket failed.
        public static let connectionFailed = Kind(code: .connectionFailed)
        /// The TLS handshake failed for a reason other than certificate verification.
        public static let tlsFailed = Kind(code: .tlsFailed)
        /// The server certificate chain or host name did not verify; ``WebSocketError/message`` names the reason.
        public static let tlsVerificationFailed = Kind(code: .tlsVerificationFailed)
        /// The server answered the upgrade request with something other than a valid 101 response.
        public static let handshakeRejected = Kind(code: .handshakeRejected)
        /// The peer violated RFC 6455; the connection was closed with 1002, 1007 or 1009.
        public static let protocolViolation = Kind(code: .protocolViolation)
        /// The connection is closed; ``WebSocketError/closeInfo`` holds the code and reason.
        public static let closed = Kind(code: .closed)
        /// A connect, handshake, ping or close deadline passed.
        public static let timeout = Kind(code: .timeout)
        /// The task awaiting the operation was cancelled.
        public static let cancelled = Kind(code: .cancelled)
        /// The chosen ``WebSocketTransport`` cannot run here, or cannot honour the configuration:
        /// for example ``WebSocketTransport/urlSession`` on Linux with a libcurl built without
        /// WebSocket support, or with extra trust roots.
        public static let unsupported = Kind(code: .unsupported)

        /// A short name of the category, for example `tlsVerificationFailed`.
        public var description: String { "\(code)" }
    }

    /// The category of the error.
    public var kind: Kind
    /// A human-readable explanation; for TLS verification failures it contains OpenSSL's reason,
    /// for example "self-signed certificate in certificate chain". Never contains credentials.
    public var message: String
    /// The HTTP status of a rejected upgrade (``Kind/handshakeRejected``), otherwise `nil`.
    public var httpStatus: Int?
    /// The first bytes (at most 1024) of a rejected upgrade's response body, decoded as UTF-8.
    public var bodyExcerpt: String?
    /// The close code and reason for ``Kind/closed`` and ``Kind/protocolViolation``.
    public var closeInfo: WebSocketCloseInfo?

    init(
        _ kind: Kind,
        _ message: String,
        httpStatus: Int? = nil,
        bodyExcerpt: String? = nil,
        closeInfo: WebSocketCloseInfo? = nil
    ) {
        self.kind = kind
        self.message = message
        self.httpStatus = httpStatus
        self.bodyExcerpt = bodyExcerpt
        self.closeInfo = closeInfo
    }

    static func closed(_ info: WebSocketCloseInfo) -> WebSocketError {
        let reason = info.reason.isEmpty ? "" : " \"\(info.reason)\""
        let side = info.initiatedByPeer ? "by the peer" : "locally"
        return WebSocketError(
            .closed, "WebSocket closed \(side) with code \(info.code)\(reason)", closeInfo: info)
    }

    /// The category, the message, and the HTTP status or close code when present.
    public var description: String {
        var text = "WebSocketError.\(kind): \(message)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        if let bodyExcerpt, !bodyExcerpt.isEmpty { text += " body: \(bodyExcerpt)" }
        return text
    }
}
