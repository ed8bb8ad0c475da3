/// The implementation behind a ``WebSocket``. See `Sources/OpenAIWebSocket/README.md`.
public enum WebSocketTransport: Hashable, Sendable {
    /// `URLSessionWebSocketTask` on Apple platforms, ``builtIn`` on Linux.
    case automatic
    /// `URLSessionWebSocketTask`. On Linux this is FoundationNetworking's, which runs on libcurl and
    /// needs a libcurl built with WebSocket support (7.86 or later with it enabled; on by default
    /// from 8.11). Debian 12's libcurl 7.88 has none: connecting then throws ``WebSocketError`` of
    /// kind ``WebSocketError/Kind/unsupported`` ("WebSockets not supported by libcurl"). On Linux
    /// it trusts the system roots only: extra trust roots, or not trusting the system roots, are
    /// refused with the same kind. FoundationNetworking does not enforce
    /// ``WebSocketConfiguration/maxMessageBytes`` (it only sizes libcurl's receive buffer), and
    /// its handling of very large outgoing messages is not tested here: prefer ``builtIn`` for
    /// large audio appends on Linux.
    case urlSession
    /// This module's RFC 6455 framing over a POSIX socket, with OpenSSL for `wss://`: one I/O
    /// thread per connection. Linux only; elsewhere connecting throws
    /// ``WebSocketError/Kind/unsupported``.
    case builtIn
}
