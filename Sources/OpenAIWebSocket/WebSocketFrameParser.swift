/// Parses the frames a WebSocket client receives into complete messages and control events
/// (RFC 6455 section 5); a pure state machine with no I/O.
///
/// Feed bytes with ``append(_:)`` in whatever chunks the socket delivers, then call ``next()``
/// until it returns `nil`. Fragmented messages are reassembled; control frames interleaved between
/// fragments are returned as soon as they are complete. After a violation the parser stays failed
/// and the caller must close the connection with ``Violation/closeCode``.
struct WebSocketFrameParser {
    /// A complete message or control frame.
    enum Event: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        /// A close frame; code `nil` when the payload was empty (reported as 1005 to callers).
        case close(code: WebSocketCloseCode?, reason: String)
    }

    /// A protocol violation, with the close code the receiver must send.
    struct Violation: Error, Equatable, Sendable {
        var closeCode: WebSocketCloseCode
        var reason: String
    }

    /// The largest reassembled message accepted, in bytes; larger ones fail with 1009.
    let maxMessageBytes: Int
    /// Whether frames must be masked: `false` on a client, since servers must not mask (section 5.1).
    let expectMaskedFrames: Bool

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var fragmentOpcode: WebSocketOpcode?
    private var fragments: [UInt8] = []
    private var failure: Violation?

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - maxMessageBytes: The largest message accepted, in bytes (default 16 MiB).
    ///   - expectMaskedFrames: `false` for a client parsing server frames.
    init(maxMessageBytes: Int = 16 << 20, expectMaskedFrames: Bool = false) {
        self.maxMessageBytes = maxMessageBytes
        self.expectMaskedFrames = expectMaskedFrames
    }

    /// The number of received bytes not yet consumed by a complete frame.
    var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    ///
    /// - Parameters:
    ///   - bytes: Bytes in wire order, any chunking.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    ///
    /// - Parameters:
    ///   - bytes: Bytes in wire order, any chunking.
    mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete event, or `nil` when more bytes are needed.
    ///
    /// - Returns: The next message or control frame, or `nil`.
    /// - Throws: ``Violation`` on the first protocol violation, and again on every later call.
    mutating func next() throws(Violation) -> Event? {
        if let failure { throw failure }
        do {
            return try parse()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func compact() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex > 65536, readIndex > buffer.count / 2 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }

    private static func violation(_ reason: String) -> Violation {
        Violation(closeCode: .protocolError, reason: reason)
    }

    private mutating func parse() throws(Violation) -> Event? {
        while true {
            let available = buffer.count - readIndex
            guard available >= 2 else { return nil }
            let first = buffer[readIndex]
            let second = buffer[readIndex + 1]
            let fin = first & 0x80 != 0
            guard first & 0x70 == 0 else {
                throw Self.violation("reserved bits set without a negotiated extension")
            }
            guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
                throw Self.violation("reserved opcode 0x\(String(first & 0x0F, radix: 16))")
            }
            let masked = second & 0x80 != 0
            if masked != expectMaskedFrames {
                throw Self.violation(
                    masked
                        ? "server sent a masked frame (RFC 6455 5.1)"
                        : "client sent an unmasked frame (RFC 6455 5.1)")
            }
            var length = UInt64(second & 0x7F)
            var headerLength = 2
            if length == 126 {
                guard available >= 4 else { return nil }
                length = UInt64(buffer[readIndex + 2]) << 8 | UInt64(buffer[readIndex + 3])
                headerLength = 4
            } else if length == 127 {
                guard available >= 10 else { return nil }
                length = 0
                for index in 0..<8 {
                    length = length << 8 | UInt64(buffer[readIndex + 2 + index])
                }
                guard length & (1 << 63) == 0 else {
                    throw Self.violation("64-bit payload length has its most significant bit set")
                }
                headerLength = 10
            }
            if opcode.isControl {
                guard fin else { throw Self.violation("fragmented control frame") }
                guard length <= 125 else {
                    throw Self.violation("control frame payload longer than 125 bytes")
                }
            } else {
                if opcode == .continuation, fragmentOpcode == nil {
                    throw Self.violation("continuation frame without a message to continue")
                }
                if opcode != .continuation, fragmentOpcode != nil {
                    throw Self.violation("new data frame before the fragmented message finished")
                }
                if length > UInt64(maxMessageBytes - fragments.count) {
                    throw Violation(
                        closeCode: .messageTooBig,
                        reason: "message larger than \(maxMessageBytes) bytes")
                }
            }
            if masked { headerLength += 4 }
            let payloadLength = Int(length)
            guard available >= headerLength + payloadLength else { return nil }
            let start = readIndex + headerLength
            var payload = Array(buffer[start..<(start + payloadLength)])
            if masked {
                let key = Array(buffer[(start - 4)..<start])
                payload.withUnsafeMutableBytes { WebSocketFrameEncoder.applyMask(key, to: $0) }
            }
            readIndex = start + payloadLength

            switch opcode {
            case .ping: return .ping(payload)
            case .pong: return .pong(payload)
            case .close: return try Self.parseClose(payload)
            case .text, .binary:
                if fin { return try Self.message(opcode, payload) }
                fragmentOpcode = opcode
                fragments = payload
            case .continuation:
                fragments.append(contentsOf: payload)
                if fin, let messageOpcode = fragmentOpcode {
                    let message = fragments
                    fragments = []
                    fragmentOpcode = nil
                    return try Self.message(messageOpcode, message)
                }
            }
        }
    }

    private static func message(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws(Violation)
        -> Event
    {
        guard opcode == .text else { return .binary(payload) }
        guard UTF8Validation.isValid(payload) else {
            throw Violation(
                closeCode: .invalidFramePayloadData, reason: "text message is not valid UTF-8")
        }
        return .text(String(decoding: payload, as: UTF8.self))
    }

    private static func parseClose(_ payload: [UInt8]) throws(Violation) -> Event {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else {
            throw violation("close frame payload of 1 byte")
        }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnTheWire else {
            throw violation("close code \(code.rawValue) is not allowed on the wire")
        }
        let reasonBytes = Array(payload[2...])
        guard UTF8Validation.isValid(reasonBytes) else {
            throw Violation(
                closeCode: .invalidFramePayloadData, reason: "close reason is not valid UTF-8")
        }
        return .close(code: code, reason: String(decoding: reasonBytes, as: UTF8.self))
    }
}
