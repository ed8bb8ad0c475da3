import OpenAI
import OpenAIWebSocket

/// An error from a ``RealtimeSession`` or ``ResponsesWebSocketSession`` helper.
///
/// Transport failures (connect, TLS, handshake) are thrown as ``WebSocketError``; this type covers
/// the session layer. A struct wrapping a private code enum, so kinds can be added without breaking
/// callers; compare with the static members, for example `error.kind == .serverError`.
public struct RealtimeError: Error, Sendable, CustomStringConvertible {
    /// The category of a ``RealtimeError``.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        enum Code: Hashable, Sendable {
            case serverError
            case replyTimeout
            case closed
            case encodingFailed
            case invalidConfiguration
            case cancelled
        }

        let code: Code

        /// The server answered with an `error` event; ``RealtimeError/serverError`` holds it.
        public static let serverError = Kind(code: .serverError)
        /// No reply arrived within ``RealtimeSessionOptions/replyTimeout``.
        public static let replyTimeout = Kind(code: .replyTimeout)
        /// The connection closed before the reply; ``RealtimeError/closeInfo`` says how.
        public static let closed = Kind(code: .closed)
        /// The client event could not be encoded as JSON.
        public static let encodingFailed = Kind(code: .encodingFailed)
        /// The client has no API key, or the base URL cannot be turned into a WebSocket URL.
        public static let invalidConfiguration = Kind(code: .invalidConfiguration)
        /// The task awaiting the reply was cancelled.
        public static let cancelled = Kind(code: .cancelled)

        /// A short name of the category, for example `serverError`.
        public var description: String { "\(code)" }
    }

    /// The category of the error.
    public var kind: Kind
    /// A human-readable explanation; never contains credentials.
    public var message: String
    /// The server's `error` event for ``Kind/serverError`` (schema ``/OpenAI/RealtimeServerEventError``).
    public var serverError: RealtimeServerEventError?
    /// How the connection closed, for ``Kind/closed``.
    public var closeInfo: WebSocketCloseInfo?
    /// The transport error that ended the connection, for ``Kind/closed``.
    public var underlying: WebSocketError?

    init(
        _ kind: Kind, _ message: String, serverError: RealtimeServerEventError? = nil,
        closeInfo: WebSocketCloseInfo? = nil, underlying: WebSocketError? = nil
    ) {
        self.kind = kind
        self.message = message
        self.serverError = serverError
        self.closeInfo = closeInfo
        self.underlying = underlying
    }

    /// An error carrying the server's `error` event.
    static func server(_ event: RealtimeServerEventError) -> RealtimeError {
        let detail = event.error
        var text = "\(detail.type)"
        if let code = detail.code { text += " (\(code))" }
        text += ": \(detail.message)"
        if let param = detail.param { text += " [param \(param)]" }
        return RealtimeError(.serverError, text, serverError: event)
    }

    /// The category, the message, and the close code when present.
    public var description: String {
        var text = "RealtimeError.\(kind): \(message)"
        if let closeInfo { text += " (close code \(closeInfo.code))" }
        return text
    }
}
