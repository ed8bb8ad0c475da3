/// A frame opcode (RFC 6455 section 5.2); values 0x3...0x7 and 0xB...0xF are reserved.
enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Whether this is a control frame (close, ping, pong), which must not be fragmented (section 5.5).
    var isControl: Bool { rawValue & 0x8 != 0 }
}
