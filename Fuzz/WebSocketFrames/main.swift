// Fuzz target: WebSocket framing (Sources/OpenAIWebSocket/WebSocketFrameParser.swift, compiled
// here with the files it uses) and the UTF-8 validation of text messages (UTF8Validation.swift).
//
// The input's first byte configures the parser (bit 0: frames must be masked, as a server reads
// them; bits 1-4: the largest message, 16 bytes to 512 KiB; bit 5: the default 16 MiB); the rest
// is what the socket delivers. Invariants:
// - the bytes in one piece, in 1-byte pieces and in pieces of input-chosen lengths give the same
//   events and the same violation;
// - every event, encoded again as a frame (WebSocketFrameEncoder) and parsed, is the same event;
// - `UTF8Validation.isValid` agrees with the standard library's `String(validating:as:)`, on the
//   whole input and on every binary payload.

/// What a parser makes of the input: its events, then the violation that stopped it (if any).
struct Outcome: Equatable {
    var events: [WebSocketFrameParser.Event] = []
    var violation: WebSocketFrameParser.Violation?
}

func parse(_ pieces: [ArraySlice<UInt8>], maxMessageBytes: Int, masked: Bool) -> Outcome {
    var parser = WebSocketFrameParser(maxMessageBytes: maxMessageBytes, expectMaskedFrames: masked)
    var outcome = Outcome()
    for piece in pieces {
        parser.append(contentsOf: piece)
        do {
            while let event = try parser.next() { outcome.events.append(event) }
        } catch {
            outcome.violation = error
            do {
                _ = try parser.next()
                invariant(false, "next() after a violation did not throw")
            } catch {
                invariant(error == outcome.violation, "next() after a violation threw another violation")
            }
            return outcome
        }
    }
    return outcome
}

/// `event` as the frame a peer would send; `nil` for a close frame whose code cannot be sent.
func frame(_ event: WebSocketFrameParser.Event, masked: Bool) -> [UInt8] {
    let key: UInt32? = masked ? 0x1234_5678 : nil
    switch event {
    case .text(let text): return WebSocketFrameEncoder.encode(opcode: .text, payload: Array(text.utf8), maskingKey: key)
    case .binary(let bytes): return WebSocketFrameEncoder.encode(opcode: .binary, payload: bytes, maskingKey: key)
    case .ping(let bytes): return WebSocketFrameEncoder.encode(opcode: .ping, payload: bytes, maskingKey: key)
    case .pong(let bytes): return WebSocketFrameEncoder.encode(opcode: .pong, payload: bytes, maskingKey: key)
    case .close(let code?, let reason):
        let payload = WebSocketFrameEncoder.closePayload(code: code, reason: reason)
        return WebSocketFrameEncoder.encode(opcode: .close, payload: payload, maskingKey: key)
    case .close(nil, _): return WebSocketFrameEncoder.encode(opcode: .close, payload: [], maskingKey: key)
    }
}

func checkUTF8(_ bytes: [UInt8]) {
    let expected = String(validating: bytes, as: UTF8.self) != nil
    invariant(
        UTF8Validation.isValid(bytes) == expected, "UTF8Validation.isValid is \(!expected) for \(bytes.prefix(16))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    guard let configuration = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    checkUTF8(bytes)
    let masked = configuration & 1 != 0
    let maxMessageBytes = configuration & 0x20 != 0 ? 16 << 20 : 16 << Int((configuration >> 1) & 0x0F)
    let whole = parse([bytes[...]], maxMessageBytes: maxMessageBytes, masked: masked)
    let byteByByte = parse(chunks(bytes, lengths: [1]), maxMessageBytes: maxMessageBytes, masked: masked)
    invariant(whole == byteByByte, "1-byte pieces give \(byteByByte), one piece \(whole)")
    let pieces = parse(
        chunks(bytes, lengths: chunkLengths(from: bytes)), maxMessageBytes: maxMessageBytes, masked: masked)
    invariant(whole == pieces, "input-chosen pieces give \(pieces), one piece \(whole)")
    for event in whole.events {
        if case .binary(let payload) = event { checkUTF8(payload) }
        let again = parse([frame(event, masked: masked)[...]], maxMessageBytes: maxMessageBytes, masked: masked)
        invariant(again == Outcome(events: [event]), "\(event) encoded and parsed again is \(again)")
    }
    return 0
}
