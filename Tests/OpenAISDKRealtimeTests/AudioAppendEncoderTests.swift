import Foundation
import OpenAI
import XCTest

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

final class AudioAppendEncoderTests: XCTestCase {
    /// Every remainder class (0, 1 and 2 bytes past a multiple of 3) and a 100 ms chunk of 24 kHz
    /// PCM16, against Foundation's base64 and the generated event type.
    func testMatchesFoundationBase64AndDecodesAsTheGeneratedEvent() throws {
        var generator = SystemRandomNumberGenerator()
        for count in Array(0...9) + [4799, 4800, 4801, 65_537] {
            let audio = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let bytes = AudioAppendEncoder.event(audio)
            XCTAssertEqual(
                String(decoding: bytes, as: UTF8.self),
                #"{"type":"input_audio_buffer.append","audio":""# + audio.base64EncodedString()
                    + #""}"#, "\(count) bytes")
            let event = try JSONDecoder().decode(RealtimeClientEvent.self, from: Data(bytes))
            guard case .inputAudioBufferAppend(let append) = event else {
                return XCTFail("\(count) bytes decoded as \(event)")
            }
            XCTAssertEqual(Data(base64Encoded: append.audio), audio, "\(count) bytes")
        }
    }

    func testKnownVectorsFromRFC4648Section10() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==",
            "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy",
        ]
        for (input, expected) in vectors {
            let text = String(decoding: AudioAppendEncoder.event(Data(input.utf8)), as: UTF8.self)
            XCTAssertEqual(text, #"{"type":"input_audio_buffer.append","audio":""# + expected + #""}"#)
        }
    }
}
