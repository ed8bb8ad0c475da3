// Benchmark for the server-sent events framing layer (ServerSentEventParser and
// ServerSentEventStream). Run through Scripts/bench/bench-sse.sh, which builds it in release.
//
// Usage:
//   openai-bench-sse framing [runs] [events]   MB/s and events/s on synthetic chat and Responses streams
//   openai-bench-sse rss <multiplier> [events] peak RSS (kB) after streaming multiplier x events
//                                   from a generator through ServerSentEventStream
//   openai-bench-sse rss-client <multiplier> [events]   the same through the client's typed stream
//                                   (SwiftPM build only)
//   openai-bench-sse decode [runs] [events]    SwiftPM build only: framing + decoding into the generated
//                                   event types through the client (OpenAIStream) vs Foundation's
//                                   JSONDecoder (and the SDK's OrderedJSONDecoder) decoding the same
//                                   payloads alone
//   openai-bench-sse coding [runs] [count]     SwiftPM build only: values per second through the generated
//                                   code alone: encoding a chat and a Responses request and decoding a
//                                   Response with the SDK's coders and with Foundation's (`_foundation`),
//                                   and `==` on two equal Responses
// `events` is the length of each stream (default 100,000; Scripts/bench/bench-sse.sh's smoke mode passes a
// few hundred).

import Foundation

#if canImport(OpenAI)
    import OpenAI
#endif

// MARK: - Synthetic streams

/// Deterministic pseudo-random numbers (SplitMix64) so every run sees the same bytes.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func token(_ length: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }
}

let words = [
    "The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", ".", " Streaming", " responses",
    " arrive", " as", " small", " deltas", ",", " each", " one", " a", " JSON", " object", " \\\"quoted\\\"", " café",
    " 😀", "\\n",
]

/// The `index`-th frame of a Chat Completions stream (`data: {chat.completion.chunk}` + blank line).
func chatFrame(_ index: Int, _ random: inout SplitMix64) -> String {
    let content = words[index % words.count]
    return "data: {\"id\":\"chatcmpl-BfW1lGM0GNMpHFyaqBHjOyf4pgETx\",\"object\":\"chat.completion.chunk\","
        + "\"created\":1780693557,\"model\":\"gpt-4o-2024-08-06\",\"service_tier\":\"default\","
        + "\"system_fingerprint\":\"fp_58b2b3ae96\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\(content)\"},"
        + "\"logprobs\":null,\"finish_reason\":null}],\"usage\":null,\"obfuscation\":\"\(random.token(Int(random.next() % 12) + 3))\"}\n\n"
}

/// The `index`-th frame of a Responses stream (`event:` + `data:` lines, mostly text deltas with a
/// larger snapshot event every 500 frames).
func responsesFrame(_ index: Int, _ random: inout SplitMix64) -> String {
    if index % 500 == 0 {
        let text = (0..<200).map { words[($0 + index) % words.count] }.joined()
        return
            "event: response.output_text.done\ndata: {\"type\":\"response.output_text.done\",\"sequence_number\":\(index),"
            + "\"item_id\":\"msg_0b70e4946283a4df0068c9ef5f6b4881949f1b7c5ee04fa7cd\",\"output_index\":0,"
            + "\"content_index\":0,\"text\":\"\(text)\",\"logprobs\":[]}\n\n"
    }
    return
        "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":\(index),"
        + "\"item_id\":\"msg_0b70e4946283a4df0068c9ef5f6b4881949f1b7c5ee04fa7cd\",\"output_index\":0,"
        + "\"content_index\":0,\"delta\":\"\(words[index % words.count])\",\"logprobs\":[],"
        + "\"obfuscation\":\"\(random.token(Int(random.next() % 12) + 3))\"}\n\n"
}

/// The event that completes a Responses stream (real ones end with it, and the SDK reports a
/// stream without it as cut off).
let responsesCompleted =
    "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":100000,\"response\":"
    + "{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,\"status\":\"completed\",\"model\":\"gpt-4o\","
    + "\"output\":[],\"parallel_tool_calls\":true,\"tool_choice\":\"auto\",\"tools\":[]}}\n\n"

/// A stream of `events` frames, ending with `data: [DONE]` (`done`) or with `response.completed`.
func makeStream(events: Int, frame: (Int, inout SplitMix64) -> String, done: Bool) -> [UInt8] {
    var random = SplitMix64(state: 42)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(events * 400)
    for index in 0..<events { bytes.append(contentsOf: frame(index, &random).utf8) }
    bytes.append(contentsOf: (done ? "data: [DONE]\n\n" : responsesCompleted).utf8)
    return bytes
}

// MARK: - Measurements

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Feeds `bytes` in chunks of `chunkSize` bytes; returns (seconds, events).
func frameOnce(_ bytes: [UInt8], chunkSize: Int, reuseArray: Bool) -> (Double, Int) {
    var parser = ServerSentEventParser()
    var events: [ServerSentEvent] = []
    var count = 0
    var checksum = 0
    let start = now()
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + chunkSize, bytes.count)
        if reuseArray {
            parser.consume(bytes[offset..<end], into: &events)
            count += events.count
            for event in events { checksum &+= event.data.utf8.count }
            events.removeAll(keepingCapacity: true)
        } else {
            for event in parser.consume(bytes[offset..<end]) {
                count += 1
                checksum &+= event.data.utf8.count
            }
        }
        offset = end
    }
    count += parser.finish().count
    let seconds = Double(now() - start) / 1e9
    precondition(checksum > 0)
    return (seconds, count)
}

struct FramingResult {
    var mbPerSecond: Double
    var eventsPerSecond: Double
    var events: Int
}

func benchFraming(name: String, bytes: [UInt8], expectedEvents: Int, chunkSize: Int, reuseArray: Bool, runs: Int)
    -> FramingResult
{
    var rates: [Double] = []
    var eventRates: [Double] = []
    var events = 0
    for _ in 0..<runs {
        let (seconds, count) = frameOnce(bytes, chunkSize: chunkSize, reuseArray: reuseArray)
        precondition(count == expectedEvents, "\(name): \(count) events, expected \(expectedEvents)")
        events = count
        rates.append(Double(bytes.count) / 1e6 / seconds)
        eventRates.append(Double(count) / seconds)
    }
    let result = FramingResult(mbPerSecond: median(rates), eventsPerSecond: median(eventRates), events: events)
    let sink = reuseArray ? "consume(_:into:)" : "consume(_:) -> [ServerSentEvent]"
    print(
        "\(name): \(String(format: "%.1f", Double(bytes.count) / 1e6)) MB, \(events) events, "
            + "\(chunkSize)-byte chunks, \(sink): "
            + "\(String(format: "%.0f", result.mbPerSecond)) MB/s, \(String(format: "%.0f", result.eventsPerSecond)) events/s "
            + "(median of \(runs); min \(String(format: "%.0f", rates.min()!)), max \(String(format: "%.0f", rates.max()!)) MB/s)"
    )
    return result
}

/// Measures the async `ServerSentEventStream` over an `AsyncStream` of pre-split chunks.
func benchAsyncStream(name: String, bytes: [UInt8], expectedEvents: Int, chunkSize: Int, runs: Int) async throws {
    var rates: [Double] = []
    for _ in 0..<runs {
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map {
            Array(bytes[$0..<min($0 + chunkSize, bytes.count)])
        }
        let source = AsyncStream<[UInt8]> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let start = now()
        var count = 0
        for try await _ in ServerSentEventStream(source) { count += 1 }
        let seconds = Double(now() - start) / 1e9
        precondition(count == expectedEvents)
        rates.append(Double(bytes.count) / 1e6 / seconds)
    }
    print(
        "\(name) via ServerSentEventStream(AsyncStream<[UInt8]>), \(chunkSize)-byte chunks: "
            + "\(String(format: "%.0f", median(rates))) MB/s (median of \(runs))"
    )
}

// MARK: - RSS

/// Chunks of a synthetic chat stream built on demand, so the input is never held in memory.
struct GeneratedChunks: AsyncSequence {
    typealias Element = [UInt8]
    typealias Failure = Never
    let events: Int
    let chunkSize: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let events: Int
        let chunkSize: Int
        var index = 0
        var random = SplitMix64(state: 7)
        var carry: [UInt8] = []

        mutating func next(isolation actor: isolated (any Actor)?) async -> [UInt8]? {
            nextChunk()
        }

        mutating func next() async -> [UInt8]? {
            nextChunk()
        }

        mutating func nextChunk() -> [UInt8]? {
            while carry.count < chunkSize, index <= events {
                if index == events {
                    carry.append(contentsOf: "data: [DONE]\n\n".utf8)
                } else {
                    carry.append(contentsOf: chatFrame(index, &random).utf8)
                }
                index += 1
            }
            if carry.isEmpty { return nil }
            let size = Swift.min(chunkSize, carry.count)
            let chunk = Array(carry[0..<size])
            carry.removeFirst(size)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(events: events, chunkSize: chunkSize) }
}

/// The peak resident set size of this process in kB: `VmHWM` of `/proc/self/status` on Linux,
/// `ru_maxrss` of getrusage(2) (bytes) elsewhere; -1 when it cannot be read.
func peakRSSKilobytes() -> Int {
    #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
        }
        return -1
    #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return -1 }
        return Int(usage.ru_maxrss) / 1024
    #endif
}

// MARK: - Decoding through the client (SwiftPM build only: needs the generated types)

#if canImport(OpenAI)
    /// Serves a fixed body (or a generated one) from memory, in 16 KiB chunks, pulled on demand.
    struct MemoryTransport: HTTPTransport {
        let makeChunks: @Sendable () -> AsyncThrowingStream<Data, any Error>

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            HTTPResponse(statusCode: 500)
        }

        func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
            HTTPStreamingResponse(statusCode: 200, headers: [:], body: makeChunks())
        }
    }

    /// Produces the next chunk on demand; only the one stream that owns it calls it, in order.
    final class ChunkCursor: @unchecked Sendable {
        private let produce: () -> Data?
        init(_ produce: @escaping () -> Data?) { self.produce = produce }
        func next() -> Data? { produce() }
    }

    func chunked(_ bytes: [UInt8], size: Int = 16_384) -> @Sendable () -> AsyncThrowingStream<Data, any Error> {
        let data = Data(bytes)
        return {
            var offset = 0
            let cursor = ChunkCursor {
                guard offset < data.count else { return nil }
                let end = min(offset + size, data.count)
                defer { offset = end }
                return data.subdata(in: offset..<end)
            }
            return AsyncThrowingStream(unfolding: { cursor.next() })
        }
    }

    func benchClient(_ makeChunks: @escaping @Sendable () -> AsyncThrowingStream<Data, any Error>) throws
        -> OpenAIClient
    {
        try OpenAIClient(
            configuration: .init(apiKey: "sk-bench", baseURL: URL(string: "http://127.0.0.1:9/v1")!, maxRetries: 0),
            transport: MemoryTransport(makeChunks: makeChunks))
    }

    let chatRequest = try! JSONDecoder().decode(
        CreateChatCompletionRequest.self,
        from: Data(#"{"model":"gpt-4o","messages":[{"role":"user","content":"Hi"}]}"#.utf8))

    /// Seconds to stream `bytes` through `client.<resource>.createStream` and decode every event.
    func clientDecodeOnce(_ bytes: [UInt8], responses: Bool) async throws -> (Double, Int) {
        let client = try benchClient(chunked(bytes))
        var count = 0
        let start = now()
        if responses {
            for try await event in try client.responses.createStream(CreateResponse()) {
                if case .unknown = event { fatalError("unknown event in the benchmark stream") }
                count += 1
            }
        } else {
            for try await chunk in try client.chat.completions.createStream(chatRequest) {
                count &+= chunk.choices.count
            }
        }
        return (Double(now() - start) / 1e9, count)
    }

    /// A decoder of payloads: Foundation's `JSONDecoder` or the SDK's `OrderedJSONDecoder`.
    protocol PayloadDecoder {
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
    }
    extension JSONDecoder: PayloadDecoder {}
    extension OrderedJSONDecoder: PayloadDecoder {}

    /// Seconds for `decoder` alone to decode the same payloads, given as `Data` up front.
    func decoderOnce(_ decoder: some PayloadDecoder, _ payloads: [Data], responses: Bool) throws -> Double {
        var count = 0
        let start = now()
        for payload in payloads {
            if responses {
                if case .unknown = try decoder.decode(ResponseStreamEvent.self, from: payload) { fatalError() }
                count += 1
            } else {
                count &+= try decoder.decode(CreateChatCompletionStreamResponse.self, from: payload).choices.count
            }
        }
        precondition(count > 0)
        return Double(now() - start) / 1e9
    }

    func benchDecode(runs: Int, events: Int) async throws -> Double {
        var ratios: [Double] = []
        for (name, bytes, responses) in [
            ("chat", makeStream(events: events, frame: chatFrame, done: true), false),
            ("responses", makeStream(events: events, frame: responsesFrame, done: false), true),
        ] {
            var parser = ServerSentEventParser()
            let payloads = parser.consume(bytes).filter { $0.data != "[DONE]" }.map { Data($0.data.utf8) }
            var clientTimes: [Double] = []
            var baseTimes: [Double] = []
            var orderedTimes: [Double] = []
            var events = 0
            for _ in 0..<runs {
                let (seconds, count) = try await clientDecodeOnce(bytes, responses: responses)
                clientTimes.append(seconds)
                events = count
                baseTimes.append(try decoderOnce(JSONDecoder(), payloads, responses: responses))
                orderedTimes.append(try decoderOnce(OrderedJSONDecoder(), payloads, responses: responses))
            }
            let client = median(clientTimes)
            let base = median(baseTimes)
            let ordered = median(orderedTimes)
            let ratio = client / base
            ratios.append(ratio)
            print(
                "\(name) decode: framing+decoding via OpenAIStream \(String(format: "%.1f", Double(bytes.count) / 1e6 / client)) MB/s, "
                    + "\(String(format: "%.0f", Double(payloads.count) / client)) events/s; JSONDecoder alone "
                    + "\(String(format: "%.0f", Double(payloads.count) / base)) events/s; OrderedJSONDecoder alone "
                    + "\(String(format: "%.0f", Double(payloads.count) / ordered)) events/s; ratio \(String(format: "%.3f", ratio)) "
                    + "(\(events) elements, median of \(runs))")
        }
        return ratios.max()!
    }

    /// A chat request and a Responses request as apps send them (messages, tools, parameters),
    /// and a Response as the API returns it.
    let codingChatRequest = #"""
        {"model":"gpt-4o","temperature":0.2,"max_completion_tokens":512,"parallel_tool_calls":true,
         "messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Weather in Paris?"},
          {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
           "function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
          {"role":"tool","tool_call_id":"call_1","content":"18 C, clear"}],
         "tools":[{"type":"function","function":{"name":"get_weather","description":"Current weather",
          "parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}],
         "response_format":{"type":"text"},"metadata":{"user":"u_1"}}
        """#
    let codingResponsesRequest = #"""
        {"model":"gpt-4.1","instructions":"Answer briefly.","temperature":0.7,"top_p":1,"store":false,
         "input":[{"role":"user","content":[{"type":"input_text","text":"Summarise the file."},
          {"type":"input_file","file_id":"file-1"}]}],
         "tools":[{"type":"function","name":"lookup","description":"Look a term up","strict":true,
          "parameters":{"type":"object","properties":{"term":{"type":"string"}},"required":["term"],
           "additionalProperties":false}},{"type":"web_search"}],
         "text":{"format":{"type":"text"}},"reasoning":{"effort":"low"},"metadata":{"run":"bench"}}
        """#
    let codingResponse = #"""
        {"id":"resp_1","object":"response","created_at":1780693557,"status":"completed","model":"gpt-4.1-2025-04-14",
         "output":[{"type":"message","id":"msg_1","status":"completed","role":"assistant",
          "content":[{"type":"output_text","text":"The file describes the build.","annotations":[],"logprobs":[]}]},
          {"type":"function_call","id":"fc_1","call_id":"call_1","name":"lookup","arguments":"{\"term\":\"SDK\"}",
           "status":"completed"}],
         "parallel_tool_calls":true,"tool_choice":"auto","tools":[],"temperature":0.7,"top_p":1,
         "usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":0},"output_tokens":30,
          "output_tokens_details":{"reasoning_tokens":0},"total_tokens":150},
         "text":{"format":{"type":"text"}},"reasoning":{"effort":"low","summary":null},"metadata":{"run":"bench"},
         "store":false,"truncation":"disabled","error":null,"incomplete_details":null,"instructions":null}
        """#

    /// Values per second (median of `runs`) for each of `count` encodings, decodings and comparisons.
    func benchCoding(runs: Int, count: Int) throws {
        let decoder = JSONDecoder()
        let chat = try decoder.decode(CreateChatCompletionRequest.self, from: Data(codingChatRequest.utf8))
        let responsesRequest = try decoder.decode(CreateResponse.self, from: Data(codingResponsesRequest.utf8))
        let responseData = Data(codingResponse.utf8)
        let response = try decoder.decode(Response.self, from: responseData)
        let other = try decoder.decode(Response.self, from: responseData)
        for (name, deviations) in [
            ("chat request", chat.specDeviations), ("Responses request", responsesRequest.specDeviations),
            ("Response", response.specDeviations),
        ] where !deviations.isEmpty {
            print("coding: the \(name) sample differs from the spec: \(deviations)")
        }
        func rate(_ body: () throws -> Int) rethrows -> Double {
            var rates: [Double] = []
            for _ in 0..<runs {
                let start = now()
                let checksum = try body()
                precondition(checksum > 0)
                rates.append(Double(count) / (Double(now() - start) / 1e9))
            }
            return median(rates)
        }
        // What the SDK sends and reads with (`OrderedJSONEncoder`, `OrderedJSONDecoder`), then
        // Foundation's coders on the same types (`_foundation`).
        let format = { (value: Double) in String(format: "%.0f", value) }
        let ordered = OrderedJSONEncoder()
        let foundation = JSONEncoder()
        for (suffix, encode) in [
            ("", { (value: any Encodable) in try ordered.encode(value) }),
            ("_foundation", { (value: any Encodable) in try foundation.encode(value) }),
        ] as [(String, (any Encodable) throws -> Data)] {
            let chatRate = try rate { try (0..<count).reduce(0) { sum, _ in sum + (try encode(chat)).count } }
            let responsesRate = try rate {
                try (0..<count).reduce(0) { sum, _ in sum + (try encode(responsesRequest)).count }
            }
            print("coding_encode_chat_request\(suffix)_per_s: \(format(chatRate))")
            print("coding_encode_responses_request\(suffix)_per_s: \(format(responsesRate))")
        }
        for (suffix, reader) in [("", OrderedJSONDecoder() as any PayloadDecoder), ("_foundation", decoder)] {
            let decodeRate = try rate {
                try (0..<count).reduce(0) { sum, _ in
                    sum + (try reader.decode(Response.self, from: responseData)).output.count
                }
            }
            print("coding_decode_response\(suffix)_per_s: \(format(decodeRate))")
        }
        let equalRate = rate { (0..<count).reduce(0) { sum, _ in sum + (response == other ? 1 : 0) } }
        print("coding_equal_response_per_s: \(format(equalRate))")
    }

    /// Streams `multiplier` x `events` generated chat chunks through the typed client stream.
    func clientRSS(multiplier: Int, events: Int) async throws -> Int {
        let events = events * multiplier
        let client = try benchClient {
            var iterator = GeneratedChunks(events: events, chunkSize: 16_384).makeAsyncIterator()
            let cursor = ChunkCursor { iterator.nextChunk().map { Data($0) } }
            return AsyncThrowingStream(unfolding: { cursor.next() })
        }
        var count = 0
        for try await chunk in try client.chat.completions.createStream(chatRequest) { count &+= chunk.choices.count }
        precondition(count == events, "\(count) elements, expected \(events)")
        return count
    }
#endif

// MARK: - Main

let arguments = Array(CommandLine.arguments.dropFirst())
/// The whole-number argument at `index` (after the mode), or `fallback`.
func argument(_ index: Int, _ fallback: Int) -> Int {
    index < arguments.count ? Int(arguments[index]) ?? fallback : fallback
}
switch arguments.first {
case "decode":
    #if canImport(OpenAI)
        let ratio = try await benchDecode(runs: argument(1, 5), events: argument(2, 100_000))
        print("decode_ratio_vs_jsondecoder: \(String(format: "%.3f", ratio))")
    #else
        print("decode_ratio_vs_jsondecoder: unavailable (standalone build has no generated types)")
    #endif
case "coding":
    #if canImport(OpenAI)
        try benchCoding(runs: argument(1, 5), count: argument(2, 20_000))
    #else
        print("coding: unavailable (standalone build has no generated types)")
    #endif
case "rss-client":
    #if canImport(OpenAI)
        print("rss_events: \(try await clientRSS(multiplier: argument(1, 1), events: argument(2, 100_000)))")
        print("peak_rss_kb: \(peakRSSKilobytes())")
    #else
        print("peak_rss_kb: -1")
    #endif
case "rss":
    let events = argument(1, 1) * argument(2, 100_000)
    var count = 0
    var bytes = 0
    for try await event in ServerSentEventStream(GeneratedChunks(events: events, chunkSize: 16_384)) {
        count += 1
        bytes &+= event.data.utf8.count
    }
    precondition(count == events + 1, "\(count) events, expected \(events + 1)")
    print("rss_events: \(count)")
    print("rss_data_bytes: \(bytes)")
    print("peak_rss_kb: \(peakRSSKilobytes())")
default:
    let runs = argument(1, 7)
    let events = argument(2, 100_000)
    let chat = makeStream(events: events, frame: chatFrame, done: true)
    let responses = makeStream(events: events, frame: responsesFrame, done: false)
    var headline: [Double] = []
    for (name, bytes, expected) in [("chat", chat, events + 1), ("responses", responses, events + 1)] {
        for chunkSize in [1_024, 16_384, 65_536] {
            let result = benchFraming(
                name: name, bytes: bytes, expectedEvents: expected, chunkSize: chunkSize, reuseArray: true, runs: runs)
            if chunkSize == 16_384 { headline.append(result.mbPerSecond) }
        }
        _ = benchFraming(
            name: name, bytes: bytes, expectedEvents: expected, chunkSize: 16_384, reuseArray: false, runs: runs)
        try await benchAsyncStream(name: name, bytes: bytes, expectedEvents: expected, chunkSize: 16_384, runs: 3)
    }
    // Headline: the slower of the two streams, 16 KiB chunks, reused event array.
    print("framing_mb_per_s_chat: \(String(format: "%.0f", headline[0]))")
    print("framing_mb_per_s_responses: \(String(format: "%.0f", headline[1]))")
    print("framing_mb_per_s: \(String(format: "%.0f", headline.min()!))")
}
