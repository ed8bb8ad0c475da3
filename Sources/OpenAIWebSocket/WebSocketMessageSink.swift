/// Where a connection's I/O delivers what it receives.
///
/// A public ``WebSocket`` feeds its ``WebSocket/messages`` stream; the event sessions
/// (``RealtimeSession``, ``ResponsesWebSocketSession``) decode and route each message right where
/// it is received (the connection's I/O thread on Linux, URLSession's delegate queue on Apple
/// platforms), which saves a task switch per message against reading the stream from a task.
///
/// `receive` is called for each message in order, from one thread at a time (the I/O thread, or
/// the session's serial delegate queue); `finish` is called once, after the last message, with how
/// the connection closed and the error that ended it: `nil` after a 1000 close, a close this side
/// started, or an abort this side asked for (code 1006, `initiatedByPeer == false`).
package struct WebSocketMessageSink: Sendable {
    package let receive: @Sendable (WebSocketMessage) -> Void
    package let finish: @Sendable (WebSocketCloseInfo, WebSocketError?) -> Void

    /// Creates a sink from its two callbacks.
    ///
    /// - Parameters:
    ///   - receive: Called for each message, in order.
    ///   - finish: Called once, after the last message, with how the connection closed.
    package init(
        receive: @escaping @Sendable (WebSocketMessage) -> Void,
        finish: @escaping @Sendable (WebSocketCloseInfo, WebSocketError?) -> Void
    ) {
        self.receive = receive
        self.finish = finish
    }

    /// A sink that yields into an `AsyncThrowingStream`.
    ///
    /// - Parameters:
    ///   - continuation: The stream's continuation.
    /// - Returns: The sink.
    package static func stream(_ continuation: AsyncThrowingStream<WebSocketMessage, Error>.Continuation)
        -> WebSocketMessageSink
    {
        WebSocketMessageSink(
            receive: { continuation.yield($0) },
            finish: { _, error in
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            })
    }
}
