import Foundation
import OpenAIWebSocket

/// Builds the JSON text of `input_audio_buffer.append` events (spec schema
/// ``/OpenAI/RealtimeClientEventInputAudioBufferAppend``) straight into UTF-8 bytes: the audio is base64
/// encoded (RFC 4648 section 4, with padding) between a fixed prefix and suffix, which needs no JSON
/// escaping, so no `String` is built and nothing is validated or copied twice.
///
/// The result is the same text `JSONEncoder` gives for the generated type with only `type` and
/// `audio` set (tested).
enum AudioAppendEncoder {
    private static let prefix = Array(#"{"type":"input_audio_buffer.append","audio":""#.utf8)
    private static let suffix = Array(#""}"#.utf8)
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The event's UTF-8 text.
    ///
    /// - Parameters:
    ///   - audio: The PCM16 bytes of one event.
    /// - Returns: `{"type":"input_audio_buffer.append","audio":"<base64>"}` as UTF-8 bytes.
    static func event(_ audio: Data) -> [UInt8] {
        let encodedCount = (audio.count + 2) / 3 * 4
        let total = prefix.count + encodedCount + suffix.count
        return [UInt8](unsafeUninitializedCapacity: total) { output, initialized in
            let base = output.baseAddress!
            prefix.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: $0.count) }
            audio.withUnsafeBytes { input in
                encodeBase64(input, into: base + prefix.count)
            }
            suffix.withUnsafeBufferPointer {
                (base + prefix.count + encodedCount).initialize(from: $0.baseAddress!, count: $0.count)
            }
            initialized = total
        }
    }

    /// The base64 digits of every 12-bit value, two bytes each, in memory order (high digit
    /// first): one lookup writes two digits, so a group of 3 input bytes takes two lookups
    /// instead of four (8 KiB, built on first use).
    private static let digitPairs: [UInt16] = (0..<4096).map { value in
        let high = UInt16(alphabet[value >> 6])
        let low = UInt16(alphabet[value & 0x3F])
        // Stored so that the high digit comes first in memory on either byte order.
        return (high | low << 8).littleEndian
    }

    /// Writes the padded base64 of `input` to `output`, which has room for
    /// `(input.count + 2) / 3 * 4` bytes.
    private static func encodeBase64(_ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>) {
        let count = input.count
        var read = 0
        var write = 0
        if count >= 3, let bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            digitPairs.withUnsafeBufferPointer { pairs in
                let pairs = pairs.baseAddress!
                let destination = UnsafeMutableRawPointer(output)
                while read + 3 <= count {
                    let word = UInt32(bytes[read]) << 16 | UInt32(bytes[read + 1]) << 8 | UInt32(bytes[read + 2])
                    destination.storeBytes(of: pairs[Int(word >> 12)], toByteOffset: write, as: UInt16.self)
                    destination.storeBytes(of: pairs[Int(word & 0xFFF)], toByteOffset: write + 2, as: UInt16.self)
                    read += 3
                    write += 4
                }
            }
        }
        let remaining = count - read
        guard remaining > 0 else { return }
        let padding = UInt8(ascii: "=")
        let first = UInt32(input[read]) << 16
        let word = remaining == 2 ? first | UInt32(input[read + 1]) << 8 : first
        output[write] = alphabet[Int(word >> 18)]
        output[write + 1] = alphabet[Int((word >> 12) & 0x3F)]
        output[write + 2] = remaining == 2 ? alphabet[Int((word >> 6) & 0x3F)] : padding
        output[write + 3] = padding
    }
}
