/// Options for a ``WebSocket`` connection.
public struct WebSocketConfiguration: Sendable {
    /// The deadline for TCP connect, TLS handshake and HTTP upgrade together (default 30 seconds).
    /// Name resolution (getaddrinfo) is not interruptible and may take longer.
    public var connectTimeout: Duration
    /// How long ``WebSocket/close(code:reason:)`` waits for the peer's close frame before dropping
    /// the connection (default 5 seconds).
    public var closeTimeout: Duration
    /// The largest message accepted, in bytes, after reassembling fragments (default 16 MiB);
    /// a larger one closes the connection with 1009.
    public var maxMessageBytes: Int
    /// Sends wait while more than this many bytes are queued and not yet written to the socket
    /// (default 1 MiB). Sends return as soon as their frame is queued below this mark.
    public var sendBufferHighWaterBytes: Int
    /// Certificate verification for `wss://`.
    public var tls: WebSocketTLSConfiguration
    /// Which implementation carries the connection (default ``WebSocketTransport/automatic``).
    public var transport: WebSocketTransport

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - connectTimeout: Deadline for connect, TLS and upgrade (default 30 seconds).
    ///   - closeTimeout: Wait for the peer's close frame (default 5 seconds).
    ///   - maxMessageBytes: Largest message accepted, in bytes (default 16 MiB).
    ///   - sendBufferHighWaterBytes: Queued bytes above which sends wait (default 1 MiB).
    ///   - tls: Certificate verification options.
    ///   - transport: The implementation (default ``WebSocketTransport/automatic``).
    public init(
        connectTimeout: Duration = .seconds(30),
        closeTimeout: Duration = .seconds(5),
        maxMessageBytes: Int = 16 << 20,
        sendBufferHighWaterBytes: Int = 1 << 20,
        tls: WebSocketTLSConfiguration = WebSocketTLSConfiguration(),
        transport: WebSocketTransport = .automatic
    ) {
        self.connectTimeout = connectTimeout
        self.closeTimeout = closeTimeout
        self.maxMessageBytes = maxMessageBytes
        self.sendBufferHighWaterBytes = sendBufferHighWaterBytes
        self.tls = tls
        self.transport = transport
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up, at least 0.
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds =
            seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(max(0, milliseconds))
    }
}
