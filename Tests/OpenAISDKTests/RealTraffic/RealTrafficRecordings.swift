import Foundation
import OpenAISDKTestSupport

@testable import OpenAI
@testable import OpenAIRuntime

/// The recordings of `../shared/realtraffic`: real replies of OpenAI and OpenAI-compatible
/// servers, each with what `MANIFEST.tsv` says of it.
struct RealTrafficRecording {
    /// The path below `../shared/realtraffic`.
    var path: String
    var provider: String
    var isStream: Bool
    /// The HTTP status the notes give (200 when they give none).
    var status: Int
    var body: Data

    /// Whether it is a Responses API reply (else Chat Completions).
    var isResponses: Bool { path.hasPrefix("responses/") }

    /// Every recording, in the manifest's order; skips the calling test when `../shared` is
    /// missing (fails under `CI=true`).
    static func all() throws -> [RealTrafficRecording] {
        let manifest = try SharedData.file("realtraffic/MANIFEST.tsv")
        let folder = manifest.deletingLastPathComponent()
        let rows = try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n").dropFirst()
        return try rows.map { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let notes = fields[7]
            var status = 200
            if let range = notes.range(of: "-> HTTP ") {
                status = Int(notes[range.upperBound...].prefix(3)) ?? 200
            }
            return RealTrafficRecording(
                path: fields[0], provider: fields[4], isStream: fields[5] == "sse", status: status,
                body: try Data(contentsOf: folder.appendingPathComponent(fields[0])))
        }
    }

    /// The body's server-sent events as the test reads them itself (WHATWG's rules for `data:`,
    /// `event:` and comments; an unterminated last event counts, as the SDK now reads it).
    var rawEvents: [(name: String?, data: String)] {
        var events: [(name: String?, data: String)] = []
        var name: String?
        var data: [String] = []
        func dispatch() {
            if !data.isEmpty { events.append((name, data.joined(separator: "\n"))) }
            name = nil
            data = []
        }
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                dispatch()
            } else if line.hasPrefix(":") {
                continue
            } else if line.hasPrefix("data:") {
                var value = line.dropFirst(5)
                if value.hasPrefix(" ") { value = value.dropFirst() }
                data.append(String(value))
            } else if line.hasPrefix("event:") {
                name = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            }
        }
        dispatch()
        return events
    }

    /// The JSON payloads of the events, `[DONE]` left out.
    var rawPayloads: [RawJSON] {
        rawEvents.filter { $0.data != "[DONE]" }.compactMap { try? RawJSON.parse($0.data) }
    }

    /// The body cut into chunks at positions from `seed` (one chunk for seed 0), as a
    /// connection delivers it.
    func chunks(seed: UInt64, maxChunk: Int) -> [Data] {
        guard seed != 0 else { return [body] }
        var random = SeededRandom(seed: seed)
        var chunks: [Data] = []
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(body.endIndex, start + 1 + random.below(maxChunk))
            chunks.append(body.subdata(in: start..<end))
            start = end
        }
        return chunks
    }

    /// A client whose transport answers every request with this recording.
    func client(chunks: [Data]? = nil) throws -> OpenAIClient {
        let headers = [
            "Content-Type": isStream ? "text/event-stream" : "application/json", "x-request-id": "req_recorded",
        ]
        let transport: any HTTPTransport
        if isStream {
            transport = ScriptedStreamTransport([
                .stream(status: status, headers: headers, chunks: chunks ?? [body], hold: false)
            ])
        } else {
            let (status, body) = (status, body)
            transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: status, headers: headers, body: body) }
        }
        return try OpenAIClient(
            configuration: .init(apiKey: "sk-test", maxRetries: 0), transport: transport, sleeper: NoSleep(),
            jitter: { 0 })
    }
}

/// What a Chat Completions reply or stream says, read from the raw JSON by the test.
struct ExpectedChat: Equatable {
    struct Choice: Equatable {
        var content: String?
        var reasoning: String?
        var toolArguments: [Int: String] = [:]
        var finishReason: String?
    }

    var choices: [Int: Choice] = [:]
    var usage: [Int] = []

    /// From a whole reply.
    init(reply: RawJSON) {
        for (position, choice) in (reply["choices"]?.array ?? []).enumerated() {
            let message = choice["message"] ?? .null
            var expected = Choice()
            expected.content = Self.text(message["content"])
            expected.reasoning = Self.reasoning(message)
            for (index, call) in (message["tool_calls"]?.array ?? []).enumerated() {
                expected.toolArguments[index] = call["function"]?["arguments"]?.string
            }
            expected.finishReason = choice["finish_reason"]?.string
            choices[choice["index"]?.int ?? position] = expected
        }
        usage = Self.tokens(reply["usage"])
    }

    /// From the chunks of a stream: pieces joined, the last finish reason and usage.
    init(chunks: [RawJSON]) {
        for chunk in chunks {
            for choice in chunk["choices"]?.array ?? [] {
                let index = choice["index"]?.int ?? 0
                var expected = choices[index] ?? Choice()
                let delta = choice["delta"] ?? .null
                if let text = Self.text(delta["content"]) { expected.content = (expected.content ?? "") + text }
                if let reasoning = Self.reasoning(delta), !reasoning.isEmpty {
                    expected.reasoning = (expected.reasoning ?? "") + reasoning
                }
                for call in delta["tool_calls"]?.array ?? [] {
                    // Without `index` (a call sent whole): a name starts the next call.
                    let last = expected.toolArguments.keys.max()
                    let callIndex =
                        call["index"]?.int
                        ?? (call["function"]?["name"] != nil || last == nil ? (last ?? -1) + 1 : last!)
                    expected.toolArguments[callIndex, default: ""] += call["function"]?["arguments"]?.string ?? ""
                }
                if let reason = choice["finish_reason"]?.string { expected.finishReason = reason }
                choices[index] = expected
            }
            let tokens = Self.tokens(chunk["usage"])
            if !tokens.isEmpty { usage = tokens }
        }
    }

    /// A content string, or the `text` parts of a content array joined.
    static func text(_ content: RawJSON?) -> String? {
        if let text = content?.string { return text }
        guard let parts = content?.array else { return nil }
        let texts = parts.filter { $0["type"]?.string == "text" }.compactMap { $0["text"]?.string }
        return texts.isEmpty ? nil : texts.joined()
    }

    /// `reasoning_content`, `reasoning`, `reasoning_details` texts, or `thinking` parts.
    static func reasoning(_ message: RawJSON) -> String? {
        if let text = message["reasoning_content"]?.string ?? message["reasoning"]?.string { return text }
        if let details = message["reasoning_details"]?.array {
            let texts = details.compactMap { $0["text"]?.string }
            if !texts.isEmpty { return texts.joined() }
        }
        let thinking = (message["content"]?.array ?? []).filter { $0["type"]?.string == "thinking" }.compactMap {
            part -> String? in
            part["thinking"]?.string ?? text(part["thinking"])
        }
        return thinking.isEmpty ? nil : thinking.joined()
    }

    static func tokens(_ usage: RawJSON?) -> [Int] {
        guard let usage, usage != .null else { return [] }
        return ["prompt_tokens", "completion_tokens", "total_tokens"].map { usage[$0]?.int ?? -1 }
    }
}

extension ExpectedChat {
    /// What the SDK made of a whole reply, in the same shape.
    init(_ completion: CreateChatCompletionResponse) {
        for choice in completion.choices {
            var expected = Choice()
            expected.content = choice.message.contentText
            expected.reasoning = choice.message.reasoningText
            for (index, call) in (choice.message.toolCalls ?? []).enumerated() {
                if case .function(let function) = call { expected.toolArguments[index] = function.function.arguments }
            }
            expected.finishReason = choice.finishReason.rawValue
            choices[choice.index] = expected
        }
        if let usage = completion.usage {
            self.usage = [usage.promptTokens, usage.completionTokens, usage.totalTokens]
        }
    }

    /// What the SDK's stream accumulator made of the chunks.
    init(_ accumulator: ChatCompletionStreamAccumulator, chunks: [CreateChatCompletionStreamResponse]) {
        let indices = Set(chunks.flatMap { $0.choices.map(\.index) })
        for index in indices {
            var expected = Choice()
            expected.content = accumulator.content(choice: index)
            expected.reasoning = accumulator.reasoning(choice: index)
            let completion = accumulator.completion
            let choice = completion?.choices.first { $0.index == index }
            for (position, call) in (choice?.message.toolCalls ?? []).enumerated() {
                if case .function(let function) = call {
                    expected.toolArguments[position] = function.function.arguments
                }
            }
            let reason = choice?.finishReason.rawValue ?? ""
            expected.finishReason = reason.isEmpty ? nil : reason
            choices[index] = expected
        }
        if let usage = accumulator.completion?.usage {
            self.usage = [usage.promptTokens, usage.completionTokens, usage.totalTokens]
        }
    }
}
