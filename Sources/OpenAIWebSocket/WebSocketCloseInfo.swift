/// Why and how a WebSocket connection closed.
public struct WebSocketCloseInfo: Sendable, Hashable {
    /// The close code: the peer's, ours when we closed first, or 1006 when the connection dropped
    /// without a close frame.
    public var code: WebSocketCloseCode
    /// The UTF-8 close reason (at most 123 bytes on the wire), empty when none was sent.
    public var reason: String
    /// Whether the peer sent the first close frame (or dropped the connection).
    public var initiatedByPeer: Bool

    /// Creates a close description.
    ///
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: The close reason.
    ///   - initiatedByPeer: Whether the peer closed first.
    public init(code: WebSocketCloseCode, reason: String, initiatedByPeer: Bool) {
        self.code = code
        self.reason = reason
        self.initiatedByPeer = initiatedByPeer
    }
}
