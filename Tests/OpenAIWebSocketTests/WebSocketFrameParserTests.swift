import XCTest

@testable import OpenAIWebSocket

/// The framing state machine, frame by frame, against the examples of RFC 6455 section 5.7 and
/// the rules of sections 5.1-5.6 and 7.4.
final class WebSocketFrameParserTests: XCTestCase {
    private func events(_ bytes: [UInt8], maxMessageBytes: Int = 16 << 20, byteByByte: Bool = false)
        throws
        -> [WebSocketFrameParser.Event]
    {
        var parser = WebSocketFrameParser(maxMessageBytes: maxMessageBytes)
        var result: [WebSocketFrameParser.Event] = []
        let chunks = byteByByte ? bytes.map { [$0] } : [bytes]
        for chunk in chunks {
            parser.append(contentsOf: chunk)
            while let event = try parser.next() { result.append(event) }
        }
        return result
    }

    private func violation(_ bytes: [UInt8], maxMessageBytes: Int = 16 << 20)
        -> WebSocketFrameParser.Violation?
    {
        var parser = WebSocketFrameParser(maxMessageBytes: maxMessageBytes)
        parser.append(contentsOf: bytes)
        do {
            while try parser.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    private func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        WebSocketFrameEncoder.encode(opcode: opcode, payload: payload, fin: fin, maskingKey: nil)
    }

    func testMaskedHelloMatchesRFC6455Section5_7() {
        let bytes = WebSocketFrameEncoder.encode(
            opcode: .text, payload: Array("Hello".utf8), maskingKey: 0x37FA_213D)
        XCTAssertEqual(bytes, [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    func testUnmaskedHelloAndFragmentsFromRFC6455Section5_7Parse() throws {
        XCTAssertEqual(try events([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]), [.text("Hello")])
        XCTAssertEqual(
            try events([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F], byteByByte: true),
            [.text("Hello")])
        XCTAssertEqual(
            try events([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]), [.ping(Array("Hello".utf8))])
    }

    func testRandomMaskRoundTripsThroughAServerSideParser() throws {
        let payload = (0..<1000).map { UInt8($0 % 251) }
        let first = WebSocketFrameEncoder.encode(opcode: .binary, payload: payload)
        let second = WebSocketFrameEncoder.encode(opcode: .binary, payload: payload)
        XCTAssertEqual(first[1] & 0x80, 0x80, "client frames carry the mask bit")
        XCTAssertNotEqual(Array(first[4..<8]), Array(second[4..<8]), "each frame gets a fresh key")
        XCTAssertNotEqual(Array(first[8...]), payload, "payload is masked on the wire")
        var server = WebSocketFrameParser(expectMaskedFrames: true)
        server.append(contentsOf: first + second)
        XCTAssertEqual(try server.next(), .binary(payload))
        XCTAssertEqual(try server.next(), .binary(payload))
        XCTAssertNil(try server.next())
    }

    func testEveryPayloadLengthClassEncodesAndParses() throws {
        let cases: [(length: Int, header: [UInt8])] = [
            (0, [0x82, 0x00]),
            (125, [0x82, 125]),
            (126, [0x82, 126, 0x00, 126]),
            (65535, [0x82, 126, 0xFF, 0xFF]),
            (65536, [0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0]),
            (100_000, [0x82, 127, 0, 0, 0, 0, 0, 0x01, 0x86, 0xA0]),
        ]
        for (length, header) in cases {
            let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let bytes = frame(.binary, payload)
            XCTAssertEqual(Array(bytes.prefix(header.count)), header, "header for \(length) bytes")
            XCTAssertEqual(bytes.count, header.count + length)
            XCTAssertEqual(try events(bytes), [.binary(payload)], "\(length) bytes")
            let masked = WebSocketFrameEncoder.encode(
                opcode: .binary, payload: payload, maskingKey: 0x0102_0304)
            XCTAssertEqual(masked.count, header.count + 4 + length)
        }
        // Split at every position of a 16-bit length frame.
        let payload = Array(repeating: UInt8(0x61), count: 300)
        let bytes = frame(.text, payload)
        for split in 1..<bytes.count {
            var parser = WebSocketFrameParser()
            parser.append(contentsOf: bytes[..<split])
            XCTAssertNil(try parser.next(), "split at \(split)")
            parser.append(contentsOf: bytes[split...])
            XCTAssertEqual(try parser.next(), .text(String(repeating: "a", count: 300)))
        }
    }

    func testFragmentedMessageWithInterleavedPingAndPongReassembles() throws {
        let bytes =
            frame(.text, Array("Hel".utf8), fin: false) + frame(.ping, [1, 2])
            + frame(.continuation, Array("lo ".utf8), fin: false) + frame(.pong, [3])
            + frame(.continuation, Array("world".utf8))
        XCTAssertEqual(try events(bytes), [.ping([1, 2]), .pong([3]), .text("Hello world")])
        XCTAssertEqual(
            try events(bytes, byteByByte: true), [.ping([1, 2]), .pong([3]), .text("Hello world")])
    }

    func testMultiByteCharacterSplitAcrossFragmentsIsValid() throws {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let bytes =
            frame(.text, [0x41, euro[0]], fin: false) + frame(.continuation, [euro[1], euro[2]])
        XCTAssertEqual(try events(bytes), [.text("A€")])
    }

    func testInvalidUTF8TextClosesWith1007() {
        XCTAssertEqual(
            violation(frame(.text, [0x41, 0xC0, 0x80]))?.closeCode, .invalidFramePayloadData)
        XCTAssertEqual(
            violation(frame(.text, [0xED, 0xA0, 0x80]))?.closeCode.rawValue, 1007, "surrogate")
        XCTAssertEqual(
            violation(frame(.text, [0xF4, 0x90, 0x80, 0x80]))?.closeCode.rawValue, 1007,
            "> U+10FFFF")
        XCTAssertEqual(
            violation(frame(.text, [0xE2, 0x82]))?.closeCode.rawValue, 1007, "truncated")
        XCTAssertNil(violation(frame(.text, Array("ok 😀 é".utf8))))
        XCTAssertNil(violation(frame(.binary, [0xC0, 0x80])), "binary is not validated")
    }

    func testReservedOpcodesAndBitsAreProtocolErrors() {
        for opcode: UInt8 in [0x3, 0x7, 0xB, 0xF] {
            XCTAssertEqual(
                violation([0x80 | opcode, 0x00])?.closeCode, .protocolError, "opcode \(opcode)")
        }
        XCTAssertEqual(
            violation([0xC1, 0x00])?.closeCode, .protocolError, "RSV1 without extension")
        XCTAssertEqual(violation([0x91, 0x00])?.closeCode, .protocolError, "RSV3")
    }

    func testMaskedFrameFromServerIsProtocolErrorButUnmaskedIsFine() throws {
        let masked = WebSocketFrameEncoder.encode(
            opcode: .text, payload: Array("hi".utf8), maskingKey: 1)
        let error = violation(masked)
        XCTAssertEqual(error?.closeCode, .protocolError)
        XCTAssertEqual(error?.reason, "server sent a masked frame (RFC 6455 5.1)")
        XCTAssertEqual(try events(frame(.text, Array("hi".utf8))), [.text("hi")])
    }

    func testControlFrameRulesAndFragmentSequenceRules() {
        XCTAssertEqual(violation(frame(.ping, [1], fin: false))?.reason, "fragmented control frame")
        XCTAssertEqual(
            violation(frame(.ping, Array(repeating: 0, count: 126)))?.reason,
            "control frame payload longer than 125 bytes")
        XCTAssertEqual(
            violation(frame(.continuation, [1]))?.reason,
            "continuation frame without a message to continue")
        XCTAssertEqual(
            violation(frame(.text, [0x41], fin: false) + frame(.text, [0x42]))?.reason,
            "new data frame before the fragmented message finished")
        XCTAssertEqual(
            violation([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1])?.reason,
            "64-bit payload length has its most significant bit set")
    }

    func testMessageOverTheLimitClosesWith1009EvenAcrossFragments() {
        XCTAssertEqual(
            violation(frame(.binary, Array(repeating: 0, count: 11)), maxMessageBytes: 10)?
                .closeCode, .messageTooBig)
        XCTAssertNil(violation(frame(.binary, Array(repeating: 0, count: 10)), maxMessageBytes: 10))
        let fragmented =
            frame(.binary, Array(repeating: 0, count: 6), fin: false)
            + frame(.continuation, Array(repeating: 0, count: 6))
        XCTAssertEqual(violation(fragmented, maxMessageBytes: 10)?.closeCode.rawValue, 1009)
        // Refused from the header alone, before the payload arrives.
        XCTAssertEqual(
            violation([0x82, 127, 0, 0, 0, 1, 0, 0, 0, 0], maxMessageBytes: 10)?.closeCode.rawValue,
            1009)
    }

    func testCloseFramesCarryCodeAndUTF8Reason() throws {
        let payload = WebSocketFrameEncoder.closePayload(
            code: .internalError, reason: "keepalive ping timeout")
        XCTAssertEqual(Array(payload.prefix(2)), [0x03, 0xF3])
        XCTAssertEqual(
            try events(frame(.close, payload)),
            [.close(code: WebSocketCloseCode(rawValue: 1011), reason: "keepalive ping timeout")])
        XCTAssertEqual(try events(frame(.close, [])), [.close(code: nil, reason: "")])
        XCTAssertEqual(
            try events(frame(.close, [0x0B, 0xB8])),
            [.close(code: WebSocketCloseCode(rawValue: 3000), reason: "")])
        XCTAssertEqual(
            violation(frame(.close, [0x03]))?.closeCode, .protocolError, "1-byte close payload")
        for code: UInt16 in [999, 1004, 1005, 1006, 1015, 2000, 5000] {
            XCTAssertEqual(
                violation(frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)]))?.closeCode,
                .protocolError, "code \(code)")
        }
        XCTAssertEqual(
            violation(frame(.close, [0x03, 0xE8, 0xFF]))?.closeCode, .invalidFramePayloadData)
    }

    func testCloseReasonIsTruncatedTo123BytesAtACharacterBoundary() {
        let payload = WebSocketFrameEncoder.closePayload(
            code: .normalClosure, reason: String(repeating: "é", count: 100))
        XCTAssertEqual(payload.count, 2 + 122, "61 two-byte characters fit in 123 bytes")
        XCTAssertTrue(UTF8Validation.isValid(Array(payload[2...])))
    }

    func testParserStaysFailedAfterAViolation() {
        var parser = WebSocketFrameParser()
        parser.append(contentsOf: [0x83, 0x00] + frame(.text, [0x41]))
        XCTAssertThrowsError(try parser.next())
        XCTAssertThrowsError(try parser.next())
    }

    /// The 32- and 8-byte paths and the byte tail agree with masking byte by byte (section 5.3).
    func testWideMaskingMatchesTheBytewiseDefinitionAtEveryLength() {
        var generator = SystemRandomNumberGenerator()
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        for length in 0...100 {
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var masked = payload
            masked.withUnsafeMutableBytes { WebSocketFrameEncoder.applyMask(key, to: $0) }
            XCTAssertEqual(
                masked, payload.enumerated().map { $0.element ^ key[$0.offset % 4] },
                "\(length) bytes")
        }
    }
}

#if canImport(Glibc)
    final class MaskingKeyPoolTests: XCTestCase {
        /// Keys come from OpenSSL's CSPRNG in blocks of 256; across several refills none repeats
        /// (one repeat among 1,000 random 32-bit keys has a probability of about 1 in 8,600; two, far less).
        func testKeysAcrossRefillsAreDistinct() {
            var pool = MaskingKeyPool()
            let keys = (0..<1000).map { _ in pool.next() }
            XCTAssertGreaterThanOrEqual(Set(keys).count, 999)
        }
    }
#endif
