// Benchmark for embeddings replies: the bytes and the decode time of the float form
// (`encoding_format: "float"`) against the base64 form that `client.embeddings.create` asks for when
// the caller does not choose, decoded into the same floats. Run through Scripts/bench/bench-embeddings.sh,
// which builds it in release.
//
// Usage: openai-bench-embeddings [runs] [vectors] [dimensions]     (defaults 15, 64, 1536)

import Foundation
import OpenAI

/// Deterministic pseudo-random numbers (SplitMix64) so every run sees the same vectors.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A float32 in about the range embeddings have (unit vectors of 1536 dimensions: ~±0.08).
    mutating func component() -> Float {
        Float(Int64(bitPattern: next()) % 160_000) / 1_000_000
    }
}

let arguments = CommandLine.arguments
let runs = arguments.count > 1 ? Int(arguments[1]) ?? 15 : 15
let count = arguments.count > 2 ? Int(arguments[2]) ?? 64 : 64
let dimensions = arguments.count > 3 ? Int(arguments[3]) ?? 1536 : 1536

var random = SplitMix64(state: 42)
let vectors = (0..<count).map { _ in (0..<dimensions).map { _ in random.component() } }

/// A reply as the API sends it: `{"object": "list", "data": [...], "model": ..., "usage": ...}`,
/// each float printed as openai-python's server does (the shortest text of its double value).
func reply(base64: Bool) -> Data {
    var text = #"{"object":"list","data":["#
    for (index, vector) in vectors.enumerated() {
        if index > 0 { text += "," }
        text += #"{"object":"embedding","index":\#(index),"embedding":"#
        if base64 {
            var bytes = Data(capacity: vector.count * 4)
            for value in vector { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
            text += "\"" + bytes.base64EncodedString() + "\""
        } else {
            text += "[" + vector.map { String(Double($0)) }.joined(separator: ",") + "]"
        }
        text += "}"
    }
    text += #"],"model":"text-embedding-3-small","usage":{"prompt_tokens":8,"total_tokens":8}}"#
    return Data(text.utf8)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Median milliseconds to decode `data` into floats with `decoder`, checking the values.
func measure(_ data: Data, _ decoder: JSONDecoder) throws -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = try decoder.decode(CreateEmbeddingResponse.self, from: data)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        guard case .floats(let first) = response.data[0].embedding, first == vectors[0] else {
            fatalError("the reply did not decode into the same floats")
        }
        times.append(elapsed)
    }
    return median(times)
}

let floatReply = reply(base64: false)
let base64Reply = reply(base64: true)
let floatDecoder = JSONDecoder()
// What the client's decoder carries when it chose base64 itself.
let base64Decoder = JSONDecoder()
base64Decoder.userInfo[.openAIDefaultedRequestMembers] = Set(["encoding_format"])

let floatMilliseconds = try measure(floatReply, floatDecoder)
let base64Milliseconds = try measure(base64Reply, base64Decoder)
print("# openai-bench-embeddings: \(count) vectors of \(dimensions) float32, median of \(runs) decodes")
print("float_reply_bytes: \(floatReply.count)")
print("base64_reply_bytes: \(base64Reply.count)")
print(String(format: "float_decode_ms: %.2f", floatMilliseconds))
print(String(format: "base64_decode_ms: %.2f", base64Milliseconds))
print(String(format: "bytes_ratio_base64_vs_float: %.3f", Double(base64Reply.count) / Double(floatReply.count)))
print(String(format: "decode_speedup_base64_vs_float: %.2f", floatMilliseconds / base64Milliseconds))
