// Benchmark for the stream accumulators (ChatCompletionStreamAccumulator, ResponseStreamAccumulator)
// and for parseStream's memory under a slow consumer. Run through Scripts/bench/bench-accumulators.sh,
// which builds it in release.
//
// Usage:
//   openai-bench-accumulators accumulate [runs] [bytes] [delta]
//       seconds to accumulate `bytes` (default 1 MiB) of text fed in deltas of `delta` characters
//       (default 4): chat content, chat tool-call arguments, Responses output text and Responses
//       function-call arguments; median of `runs` (default 5)
//   openai-bench-accumulators parse-stream-rss [chat|responses] [bytes] [delay-ms] [delta] [keep]
//       peak RSS (kB) of `client.<api>.parseStream` over an in-memory transport: a structured answer
//       of `bytes` (default 100 KiB) in deltas of `delta` characters (default 4), read by a consumer
//       that sleeps `delay-ms` milliseconds (default 1) per event and keeps nothing (`keep` 0, the
//       default) or every partial (`keep` 1)

import Foundation
import OpenAI

// MARK: - Support

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

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

/// `count` characters of text cut into pieces of `size` characters (ASCII, so characters are bytes).
func pieces(count: Int, size: Int) -> [String] {
    let alphabet = Array("abcdefghij klmnopqrstuvwxyz.")
    var result: [String] = []
    result.reserveCapacity(count / size + 1)
    var index = 0
    while index < count {
        let length = min(size, count - index)
        result.append(String((0..<length).map { alphabet[(index + $0) % alphabet.count] }))
        index += length
    }
    return result
}

func decode<T: Decodable>(_ type: T.Type, _ json: String) -> T {
    try! JSONDecoder().decode(type, from: Data(json.utf8))
}

// MARK: - Accumulators

let chatTemplate = decode(
    CreateChatCompletionStreamResponse.self,
    #"{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1780693557,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}"#
)

func chatContentChunks(_ texts: [String]) -> [CreateChatCompletionStreamResponse] {
    texts.map { text in
        var chunk = chatTemplate
        chunk.choices[0].delta.content = text
        return chunk
    }
}

func chatToolCallChunks(_ texts: [String]) -> [CreateChatCompletionStreamResponse] {
    let first = decode(
        CreateChatCompletionStreamResponse.self,
        #"{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1780693557,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"save","arguments":""}}]},"finish_reason":null}]}"#
    )
    return [first]
        + texts.map { text in
            var chunk = chatTemplate
            chunk.choices[0].delta.content = nil
            chunk.choices[0].delta.toolCalls = [
                .function(.init(index: 0, function: .init(arguments: text)))
            ]
            return chunk
        }
}

let responseCreated = decode(
    ResponseStreamEvent.self,
    #"{"type":"response.created","sequence_number":0,"response":{"id":"resp_bench","object":"response","created_at":1758064478,"status":"in_progress","error":null,"incomplete_details":null,"instructions":null,"model":"gpt-4o-mini","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"metadata":{}}}"#
)

func responseTextEvents(_ texts: [String]) -> [ResponseStreamEvent] {
    let added = decode(
        ResponseStreamEvent.self,
        #"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}"#
    )
    let part = decode(
        ResponseStreamEvent.self,
        #"{"type":"response.content_part.added","sequence_number":2,"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}"#
    )
    guard
        case .responseOutputTextDelta(let template) = decode(
            ResponseStreamEvent.self,
            #"{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"","logprobs":[]}"#
        )
    else { fatalError("not a text delta") }
    return [responseCreated, added, part]
        + texts.enumerated().map { index, text in
            var event = template
            event.delta = text
            event.sequenceNumber = 3 + index
            return .responseOutputTextDelta(event)
        }
}

func responseArgumentEvents(_ texts: [String]) -> [ResponseStreamEvent] {
    let added = decode(
        ResponseStreamEvent.self,
        #"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"save"}}"#
    )
    guard
        case .responseFunctionCallArgumentsDelta(let template) = decode(
            ResponseStreamEvent.self,
            #"{"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":""}"#
        )
    else { fatalError("not an arguments delta") }
    return [responseCreated, added]
        + texts.enumerated().map { index, text in
            var event = template
            event.delta = text
            event.sequenceNumber = 2 + index
            return .responseFunctionCallArgumentsDelta(event)
        }
}

/// Median seconds of `runs` runs of `body`, which returns the accumulated length to check.
func time(runs: Int, expected: Int, _ body: () throws -> Int) rethrows -> Double {
    var seconds: [Double] = []
    for _ in 0..<runs {
        let start = now()
        let length = try body()
        seconds.append(Double(now() - start) / 1e9)
        precondition(length == expected, "accumulated \(length) bytes, expected \(expected)")
    }
    return median(seconds)
}

func benchAccumulate(runs: Int, bytes: Int, delta: Int) throws {
    let texts = pieces(count: bytes, size: delta)
    let chatContent = chatContentChunks(texts)
    let chatArguments = chatToolCallChunks(texts)
    let responseText = responseTextEvents(texts)
    let responseArguments = responseArgumentEvents(texts)
    var results: [(String, Double)] = []
    results.append(
        (
            "chat_content",
            time(runs: runs, expected: bytes) {
                var accumulator = ChatCompletionStreamAccumulator()
                for chunk in chatContent { accumulator.append(chunk) }
                return accumulator.content()?.utf8.count ?? 0
            }
        ))
    results.append(
        (
            "chat_tool_arguments",
            time(runs: runs, expected: bytes) {
                var accumulator = ChatCompletionStreamAccumulator()
                for chunk in chatArguments { accumulator.append(chunk) }
                return accumulator.toolCallArguments(0)?.utf8.count ?? 0
            }
        ))
    results.append(
        (
            "responses_output_text",
            try time(runs: runs, expected: bytes) {
                var accumulator = try ResponseStreamAccumulator()
                for event in responseText { try accumulator.apply(event) }
                return accumulator.outputText(outputIndex: 0)?.utf8.count ?? 0
            }
        ))
    results.append(
        (
            "responses_function_arguments",
            try time(runs: runs, expected: bytes) {
                var accumulator = try ResponseStreamAccumulator()
                for event in responseArguments { try accumulator.apply(event) }
                return accumulator.arguments(outputIndex: 0)?.utf8.count ?? 0
            }
        ))
    let events = texts.count
    for (name, seconds) in results {
        print(
            "\(name): \(String(format: "%.3f", seconds)) s for \(bytes) bytes in \(events) deltas of \(delta) characters"
        )
    }
    print("accumulate_1mb_seconds: \(String(format: "%.3f", results.map(\.1).max()!))")
}

// MARK: - parseStream under a slow consumer

/// Serves a fixed body from memory, in 16 KiB chunks, pulled on demand.
struct MemoryTransport: HTTPTransport {
    let body: Data

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        HTTPResponse(statusCode: 500)
    }

    func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        let body = self.body
        let cursor = ChunkCursor(body)
        return HTTPStreamingResponse(
            statusCode: 200, headers: [:], body: AsyncThrowingStream(unfolding: { cursor.next() }))
    }
}

/// Hands out the next 16 KiB of a body; only the one stream that owns it calls it, in order.
final class ChunkCursor: @unchecked Sendable {
    private let data: Data
    private var offset = 0
    init(_ data: Data) { self.data = data }
    func next() -> Data? {
        guard offset < data.count else { return nil }
        let end = min(offset + 16_384, data.count)
        defer { offset = end }
        return data.subdata(in: offset..<end)
    }
}

struct Answer: Decodable, Sendable {
    var answer: String
}

/// A JSON string's body (escapes) for ASCII text without quotes or backslashes: the text itself.
func sseBody(api: String, texts: [String]) -> Data {
    // The structured output `{"answer":"…"}` in deltas: the opening, the text's pieces, the closing.
    let deltas = [#"{"answer":""#] + texts + [#""}"#]
    func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
    var body = ""
    if api == "chat" {
        let head =
            #"{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1780693557,"model":"gpt-4o","choices":[{"index":0,"delta":{"#
        body += "data: \(head)\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
        for delta in deltas {
            body += "data: \(head)\"content\":\"\(escaped(delta))\"},\"finish_reason\":null}]}\n\n"
        }
        body += "data: \(head)},\"finish_reason\":\"stop\"}]}\n\n"
        body += "data: [DONE]\n\n"
    } else {
        let response =
            #"{"id":"resp_bench","object":"response","created_at":1758064478,"status":"STATUS","error":null,"incomplete_details":null,"instructions":null,"model":"gpt-4o-mini","output":OUTPUT,"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"metadata":{}}"#
        var sequence = 0
        func event(_ type: String, _ json: String) {
            body += "event: \(type)\ndata: {\"type\":\"\(type)\",\"sequence_number\":\(sequence),\(json)}\n\n"
            sequence += 1
        }
        let created = response.replacingOccurrences(of: "STATUS", with: "in_progress")
            .replacingOccurrences(of: "OUTPUT", with: "[]")
        event("response.created", "\"response\":\(created)")
        event(
            "response.output_item.added",
            #""output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}"#
        )
        event(
            "response.content_part.added",
            #""item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}"#
        )
        for delta in deltas {
            event(
                "response.output_text.delta",
                #""item_id":"msg_1","output_index":0,"content_index":0,"logprobs":[],"delta":"\#(escaped(delta))""#)
        }
        let text = escaped(deltas.joined())
        let message =
            #"[{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"\#(text)"}]}]"#
        let completed = response.replacingOccurrences(of: "STATUS", with: "completed")
            .replacingOccurrences(of: "OUTPUT", with: message)
        event("response.completed", "\"response\":\(completed)")
    }
    return Data(body.utf8)
}

func benchParseStreamRSS(api: String, bytes: Int, delayMilliseconds: Int, delta: Int, keep: Bool) async throws {
    let texts = pieces(count: bytes, size: delta)
    let client = try OpenAIClient(
        configuration: .init(apiKey: "sk-bench", baseURL: URL(string: "http://127.0.0.1:9/v1")!, maxRetries: 0),
        transport: MemoryTransport(body: sseBody(api: api, texts: texts)))
    let baseline = peakRSSKilobytes()
    var partials = 0
    var answerBytes = 0
    var kept: [PartialOutput<Answer>] = []
    let start = now()
    if api == "chat" {
        let request = decode(
            CreateChatCompletionRequest.self, #"{"model":"gpt-4o","messages":[{"role":"user","content":"Hi"}]}"#)
        for try await event in try client.chat.completions.parseStream(request, as: Answer.self) {
            switch event {
            case .partial(let partial):
                partials += 1
                if keep { kept.append(partial) }
            case .completed(let parsed): answerBytes = parsed.output?.answer.utf8.count ?? -1
            }
            if delayMilliseconds > 0 { try await Task.sleep(nanoseconds: UInt64(delayMilliseconds) * 1_000_000) }
        }
    } else {
        let request = decode(CreateResponse.self, #"{"model":"gpt-4o-mini","input":"Hi"}"#)
        for try await event in try client.responses.parseStream(request, as: Answer.self) {
            switch event {
            case .partial(let partial):
                partials += 1
                if keep { kept.append(partial) }
            case .completed(let parsed): answerBytes = parsed.output?.answer.utf8.count ?? -1
            }
            if delayMilliseconds > 0 { try await Task.sleep(nanoseconds: UInt64(delayMilliseconds) * 1_000_000) }
        }
    }
    precondition(answerBytes == bytes, "answer of \(answerBytes) bytes, expected \(bytes)")
    precondition(kept.count == (keep ? partials : 0))
    print("partials: \(partials)")
    print("seconds: \(String(format: "%.1f", Double(now() - start) / 1e9))")
    print("baseline_rss_kb: \(baseline)")
    print("peak_rss_kb: \(peakRSSKilobytes())")
}

// MARK: - Main

let arguments = Array(CommandLine.arguments.dropFirst())
func argument(_ index: Int, _ fallback: Int) -> Int {
    index < arguments.count ? Int(arguments[index]) ?? fallback : fallback
}
switch arguments.first {
case "parse-stream-rss":
    let api = arguments.count > 1 ? arguments[1] : "chat"
    try await benchParseStreamRSS(
        api: api, bytes: argument(2, 100 * 1024), delayMilliseconds: argument(3, 1), delta: argument(4, 4),
        keep: argument(5, 0) != 0)
default:
    try benchAccumulate(runs: argument(1, 5), bytes: argument(2, 1 << 20), delta: argument(3, 4))
}
