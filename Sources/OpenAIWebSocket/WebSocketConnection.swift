/// What ``WebSocket`` needs from a transport implementation: `SocketConnection` (this module's
/// RFC 6455 framing over POSIX sockets and OpenSSL, Linux) or `URLSessionWebSocketConnection`
/// (`URLSessionWebSocketTask`, Apple platforms, and Linux when libcurl supports WebSocket).
protocol WebSocketConnection: AnyObject, Sendable {
    /// Connects and performs the opening handshake; returns the selected subprotocol.
    func start() async throws -> String?
    /// Sends one data message.
    func send(_ opcode: WebSocketOpcode, _ payload: some Collection<UInt8>) async throws
    /// Sends a ping and waits for its pong.
    func ping() async throws
    /// Starts the closing handshake without waiting.
    func requestClose(code: WebSocketCloseCode, reason: String)
    /// Performs the closing handshake and waits for it to end.
    func close(code: WebSocketCloseCode, reason: String) async
    /// How the connection closed, or `nil` while it is open.
    var endInfo: WebSocketCloseInfo? { get }
}
