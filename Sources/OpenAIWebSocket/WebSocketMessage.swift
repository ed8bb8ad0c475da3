import Foundation

/// A complete WebSocket data message, reassembled from all of its frames (RFC 6455 section 5.4).
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (opcode 0x1), validated as UTF-8.
    case text(String)
    /// A binary message (opcode 0x2).
    case binary(Data)
}
