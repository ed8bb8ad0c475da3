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

    /// Writes the padded base64 of `input` to `output`, which has room for
    /// `(input.count + 2) / 3 * 4` bytes.
    private static func encodeBase64(_ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>) {
        alphabet.withUnsafeBufferPointer { table in
            let table = table.baseAddress!
            let count = input.count
            var read = 0
            var write = 0
            while read + 3 <= count {
                let word =
                    UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
                output[write] = table[Int(word >> 18)]
                output[write + 1] = table[Int((word >> 12) & 0x3F)]
                output[write + 2] = table[Int((word >> 6) & 0x3F)]
                output[write + 3] = table[Int(word & 0x3F)]
                read += 3
                write += 4
            }
            let remaining = count - read
            guard remaining > 0 else { return }
            let padding = UInt8(ascii: "=")
            let first = UInt32(input[read]) << 16
            let word = remaining == 2 ? first | UInt32(input[read + 1]) << 8 : first
            output[write] = table[Int(word >> 18)]
            output[write + 1] = table[Int((word >> 12) & 0x3F)]
            output[write + 2] = remaining == 2 ? table[Int((word >> 6) & 0x3F)] : padding
            output[write + 3] = padding
        }
    }
}
