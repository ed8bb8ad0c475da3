import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Every recorded `.sse` body in `../shared/fixtures` (real OpenAI traffic and marked spec
/// examples, see `PROVENANCE.md` there) decoded through the client's streaming path into the
/// generated event type of its operation, chosen by folder:
///
/// | folder | operation | event type |
/// | --- | --- | --- |
/// | `chat-completions/stream` | createChatCompletion | `CreateChatCompletionStreamResponse` |
/// | `completions/stream` | createCompletion | `CreateCompletionResponse` |
/// | `responses/stream` | createResponse / getResponse(stream) | `ResponseStreamEvent` |
/// | `assistants/stream` | createRun, createThreadAndRun, submitToolOuputsToRun | `AssistantStreamEvent` (named by `event:`) |
/// | `audio/stream/*speech*` | createSpeech (`stream_format: sse`) | `CreateSpeechResponseStreamEvent` |
/// | `audio/stream` (others) | createTranscription | `CreateTranscriptionResponseStreamEvent` |
/// | `images/stream` | createImage | `ImageGenStreamEvent` |
///
/// An event decoded as `unknown` passes only when the locked spec does not mention its type at
/// all; such types are listed in the test output.
final class StreamingConformanceTests: XCTestCase {
    private struct FolderSummary {
        var files = 0
        var events = 0
        var unknown: [String: Int] = [:]
    }

    private enum Kind: String {
        case chat, completions, responses, assistants, speech, transcription, imageGeneration
    }

    /// Whether a fixture is a documentation example or a hand-edited upstream fixture rather than
    /// recorded traffic: such fixtures may lack members the spec requires (their deviations are
    /// printed); recorded traffic must decode without any, and so in strict mode too.
    private static func isRecordedTraffic(_ path: String) -> Bool {
        !path.contains("/spec-examples/") && !path.contains("/synthetic/")
    }

    /// The operation whose `stream-endings` entry applies to each kind of stream.
    private static func operationID(_ kind: Kind) -> String {
        switch kind {
        case .responses: "createResponse"
        case .assistants: "createRun"
        case .speech: "createSpeech"
        case .transcription: "createTranscription"
        case .imageGeneration: "createImage"
        case .chat: "createChatCompletion"
        case .completions: "createCompletion"
        }
    }

    /// Documentation examples are single events, not whole streams: they have no ending.
    private static func isFragment(_ path: String) -> Bool { path.contains("/spec-examples/") }

    private static func kind(of path: String) -> Kind? {
        if path.hasPrefix("chat-completions/") { return .chat }
        if path.hasPrefix("completions/") { return .completions }
        if path.hasPrefix("responses/") { return .responses }
        if path.hasPrefix("assistants/") { return .assistants }
        if path.hasPrefix("audio/") { return path.contains("speech") ? .speech : .transcription }
        if path.hasPrefix("images/") { return .imageGeneration }
        return nil
    }

    /// The number of events the client must yield: frames with data, minus `[DONE]`.
    private static func expectedEventCount(_ bytes: Data) -> Int {
        SSETestSupport.parse(Array(bytes)).filter { !$0.data.isEmpty && !$0.data.hasPrefix("[DONE]") }.count
    }

    private static func unknownName(_ json: JSONValue, key: String) -> String {
        json[key]?.stringValue ?? "<no \(key)>"
    }

    func testEveryRecordedStreamDecodesIntoItsOperationsEventTypeWithNoUnknownSpecEvents() async throws {
        let directory = try SSETestSupport.fixturesDirectory()
        let spec = try StreamingTestSupport.specText()
        var summaries: [String: FolderSummary] = [:]
        var acceptedUnknown: Set<String> = []
        var seenDeviations: [String] = []
        for path in try SSETestSupport.sseFixtures(in: directory) {
            guard let kind = Self.kind(of: path) else {
                XCTFail("no operation known for \(path)")
                continue
            }
            let body = try Data(contentsOf: directory.appendingPathComponent(path))
            let folder = path.split(separator: "/").prefix(2).joined(separator: "/")
            var summary = summaries[folder] ?? FolderSummary()
            summary.files += 1
            let expected = Self.expectedEventCount(body)
            var unknown: [String] = []
            var count = 0
            if path.hasSuffix("spec-examples/error.sse") {
                let error = await XCTAssertThrowsOpenAIError {
                    _ = try await StreamingTestSupport.decodeAll(body, as: ResponseStreamEvent.self, framing: .data)
                }
                XCTAssertEqual(error?.kind, .server, path)
                XCTAssertFalse(error?.message.isEmpty ?? true, path)
                summaries[folder] = summary
                continue
            }
            var report: [String] = []
            func audit(_ events: [some Any]) {
                for event in events {
                    let entries = SpecDeviationReport(event).entries
                    if !entries.isEmpty { report.append(entries.map(\.description).joined(separator: " | ")) }
                }
            }
            func chatEnding<Chunk>(_ choices: @escaping @Sendable (Chunk) -> [(Int, Bool)]) -> StreamEnding<Chunk> {
                Self.isFragment(path) ? .unspecified : StreamingTestSupport.finishedChoices(choices)
            }
            func ending<Event>() throws -> StreamEnding<Event> {
                Self.isFragment(path)
                    ? .unspecified
                    : .terminalEvents(try StreamingTestSupport.terminalEvents(operationID: Self.operationID(kind)))
            }
            do {
                switch kind {
                case .chat:
                    let events = try await StreamingTestSupport.decodeAll(
                        body, as: CreateChatCompletionStreamResponse.self, framing: .data, chunkSize: 997,
                        ending: chatEnding { $0.choices.map { ($0.index, $0.finishReason != nil) } })
                    count = events.count
                    audit(events)
                    try checkChatAccumulation(events, body: body, path: path)
                case .completions:
                    let events = try await StreamingTestSupport.decodeAll(
                        body, as: CreateCompletionResponse.self, framing: .data, chunkSize: 997,
                        ending: chatEnding { $0.choices.map { ($0.index, $0.finishReason != nil) } })
                    count = events.count
                    audit(events)
                    XCTAssertEqual(
                        events.flatMap { $0.choices.map(\.text) }.joined(),
                        try Self.independentTexts(body, path: ["choices", "text"]).joined(), path)
                case .responses:
                    let events = try await StreamingTestSupport.decodeAll(
                        body, as: ResponseStreamEvent.self, framing: .data, chunkSize: 997, ending: try ending())
                    count = events.count
                    audit(events)
                    for case .unknown(let json) in events { unknown.append(Self.unknownName(json, key: "type")) }
                    if !Self.isFragment(path) {
                        try checkResponsesAccumulation(events, path: path, directory: directory)
                    }
                case .assistants:
                    let events = try await StreamingTestSupport.decodeAll(
                        body, as: AssistantStreamEvent.self, framing: .eventNameAndData, chunkSize: 997,
                        ending: try ending())
                    count = events.count
                    audit(events)
                    for case .unknown(let json) in events { unknown.append(Self.unknownName(json, key: "event")) }
                case .speech:
                    let events = try await StreamingTestSupport.decodeAll(
                        body, as: CreateSpeechResponseStreamEvent.self, framing: .data, chunkSize: 997,
                        ending: try ending())
                    count = events.count
                    audit(events)
                    for case .unknown(let json) in events { unknown.append(Self.unknownName(json, key: "type")) }
                case .transcription:
                    let events = try await StreamingTestSupport.decodeAll(
                        body, as: CreateTranscriptionResponseStreamEvent.self, framing: .data, chunkSize: 997,
                        ending: try ending())
                    count = events.count
                    audit(events)
                    for case .unknown(let json) in events { unknown.append(Self.unknownName(json, key: "type")) }
                case .imageGeneration:
                    let events = try await StreamingTestSupport.decodeAll(
                        body, as: ImageGenStreamEvent.self, framing: .data, chunkSize: 997, ending: try ending())
                    count = events.count
                    audit(events)
                    for case .unknown(let json) in events { unknown.append(Self.unknownName(json, key: "type")) }
                }
            } catch {
                XCTFail("\(path): \(error)")
                continue
            }
            let deviations = Array(Set(report)).sorted().joined(separator: " || ")
            if Self.isRecordedTraffic(path) {
                XCTAssertEqual(deviations, "", "\(path) is recorded traffic and decodes with deviations")
            } else if !deviations.isEmpty {
                seenDeviations.append("\(path): \(deviations)")
            }
            XCTAssertEqual(count, expected, "events yielded for \(path)")
            summary.events += count
            for name in unknown {
                summary.unknown[name, default: 0] += 1
                // An unknown event is acceptable only when the locked spec does not define its type.
                if spec.contains(name) || name.hasPrefix("<no ") {
                    XCTFail("\(path): \(name) is defined by the locked spec but decoded as unknown")
                } else {
                    acceptedUnknown.insert(name)
                }
            }
            summaries[folder] = summary
        }
        for folder in summaries.keys.sorted() {
            let summary = summaries[folder]!
            let unknown = summary.unknown.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }
            print(
                "StreamingConformance \(folder): \(summary.files) files, \(summary.events) events, "
                    + "unknown: \(unknown.isEmpty ? "none" : unknown.joined(separator: ", "))")
        }
        print("StreamingConformance: event types not in the locked spec: \(acceptedUnknown.sorted())")
        print(
            "StreamingConformance: \(seenDeviations.count) documentation or hand-edited fixtures with deviations:\n  "
                + seenDeviations.joined(separator: "\n  "))
        XCTAssertGreaterThanOrEqual(summaries.values.map(\.files).reduce(0, +), 100)
    }

    // MARK: - Chat

    /// Texts at `path` in every frame's JSON, read with `JSONSerialization` (independent of the SDK).
    private static func independentTexts(_ body: Data, path: [String]) throws -> [String] {
        var texts: [String] = []
        for event in SSETestSupport.parse(Array(body)) where !event.data.hasPrefix("[DONE]") {
            let object = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
            for choice in object?[path[0]] as? [[String: Any]] ?? [] {
                if let text = choice[path[1]] as? String { texts.append(text) }
            }
        }
        return texts
    }

    private func checkChatAccumulation(_ chunks: [CreateChatCompletionStreamResponse], body: Data, path: String) throws
    {
        var accumulator = ChatCompletionStreamAccumulator()
        for chunk in chunks { accumulator.append(chunk) }
        let completion = try XCTUnwrap(accumulator.completion, path)
        // Independent reading: content, refusal and tool-call arguments per choice index.
        var content: [Int: String] = [:]
        var refusal: [Int: String] = [:]
        var arguments: [String: String] = [:]
        var sawUsage = false
        var indices: Set<Int> = []
        var finishReasons: [Int: String] = [:]
        for event in SSETestSupport.parse(Array(body)) where !event.data.hasPrefix("[DONE]") {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])
            if object["usage"] is [String: Any] { sawUsage = true }
            for choice in object["choices"] as? [[String: Any]] ?? [] {
                let index = choice["index"] as? Int ?? -1
                indices.insert(index)
                if let reason = choice["finish_reason"] as? String { finishReasons[index] = reason }
                let delta = choice["delta"] as? [String: Any] ?? [:]
                if let text = delta["content"] as? String { content[index, default: ""] += text }
                if let text = delta["refusal"] as? String { refusal[index, default: ""] += text }
                for call in delta["tool_calls"] as? [[String: Any]] ?? [] {
                    let key = "\(index).\(call["index"] as? Int ?? -1)"
                    let function = call["function"] as? [String: Any] ?? [:]
                    arguments[key, default: ""] += function["arguments"] as? String ?? ""
                }
            }
        }
        XCTAssertEqual(completion.choices.map(\.index), indices.sorted(), "\(path) choice indices")
        for choice in completion.choices {
            XCTAssertEqual(choice.message.content, content[choice.index], "\(path) content of choice \(choice.index)")
            XCTAssertEqual(choice.message.refusal, refusal[choice.index], "\(path) refusal of choice \(choice.index)")
            XCTAssertEqual(
                choice.finishReason.rawValue, finishReasons[choice.index] ?? "",
                "\(path) finish reason of choice \(choice.index)")
            for (position, call) in (choice.message.toolCalls ?? []).enumerated() {
                guard case .function(let function) = call else { continue }
                XCTAssertEqual(function.function.arguments, arguments["\(choice.index).\(position)"], path)
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(function.function.arguments.utf8)), path)
                XCTAssertFalse(function.id.isEmpty, path)
                XCTAssertFalse(function.function.name.isEmpty, path)
            }
        }
        XCTAssertEqual(completion.usage != nil, sawUsage, "\(path) usage")
    }

    // MARK: - Responses

    private static func withoutEncryptedContent(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            // A program item's `fingerprint` is encrypted anew each time too.
            for (key, member) in object where key != "encrypted_content" && key != "fingerprint" {
                result[key] = withoutEncryptedContent(member)
            }
            return .object(result)
        case .array(let array): return .array(array.map(withoutEncryptedContent))
        default: return value
        }
    }

    private static func argumentField(of item: JSONValue) -> String? {
        switch item["type"]?.stringValue {
        case "function_call", "mcp_call": "arguments"
        case "custom_tool_call": "input"
        case "code_interpreter_call": "code"
        default: nil
        }
    }

    /// Checks the accumulator against the stream's own finished values: before each
    /// `response.output_item.done`, the text and arguments assembled from deltas equal the done
    /// item's; before `response.completed`, the assembled output equals the completed response's.
    private func checkResponsesAccumulation(_ events: [ResponseStreamEvent], path: String, directory: URL) throws {
        var accumulator = try ResponseStreamAccumulator()
        var completedResponse: Response?
        for event in events {
            switch event {
            case .responseOutputItemDone(let done):
                guard try accumulator.item(outputIndex: done.outputIndex) != nil else { break }
                let item = try JSONValue(encoding: done.item)
                if let field = Self.argumentField(of: item) {
                    XCTAssertEqual(
                        accumulator.arguments(outputIndex: done.outputIndex), item[field]?.stringValue,
                        "\(path) arguments of output \(done.outputIndex)")
                }
                if item["type"] == "message" {
                    for (index, part) in (item["content"]?.arrayValue ?? []).enumerated()
                    where part["type"] == "output_text" {
                        XCTAssertEqual(
                            accumulator.outputText(outputIndex: done.outputIndex, contentIndex: index),
                            part["text"]?.stringValue, "\(path) text of output \(done.outputIndex)")
                    }
                }
                if item["type"] == "reasoning", let assembled = try accumulator.item(outputIndex: done.outputIndex) {
                    XCTAssertEqual(
                        try JSONValue(encoding: assembled)["summary"], item["summary"], "\(path) reasoning summary")
                }
            case .responseCompleted(let completed):
                completedResponse = completed.response
                let assembled = try XCTUnwrap(try accumulator.currentResponse(), path)
                // `encrypted_content` (reasoning, compaction) is encrypted anew each time the server
                // sends an item, so it differs between `output_item.done` and `response.completed`.
                XCTAssertEqual(
                    Self.withoutEncryptedContent(try JSONValue(encoding: assembled.output)),
                    Self.withoutEncryptedContent(try JSONValue(encoding: completed.response.output)),
                    "\(path) assembled output")
                XCTAssertEqual(assembled.id, completed.response.id, path)
            default:
                break
            }
            try accumulator.apply(event)
        }
        if let completedResponse {
            XCTAssertEqual(accumulator.finalResponse, completedResponse, path)
            let text = completedResponse.output.compactMap { item -> String? in
                guard case .object(let object) = (try? JSONValue(encoding: item)) ?? .null, object["type"] == "message"
                else { return nil }
                return (object["content"]?.arrayValue ?? []).filter { $0["type"] == "output_text" }
                    .compactMap { $0["text"]?.stringValue }.joined()
            }.joined()
            XCTAssertEqual(accumulator.outputText, text, "\(path) output text")
        }
        // The one fixture whose stream and complete reply are the same response (same id).
        if path == "responses/stream/synthetic/vercel-custom-tool-call.sse" {
            let url = directory.appendingPathComponent("responses/json/synthetic/vercel-custom-tool-call.json")
            let reply = try JSONDecoder().decode(Response.self, from: Data(contentsOf: url))
            XCTAssertEqual(accumulator.finalResponse?.id, reply.id)
            XCTAssertEqual(accumulator.finalResponse?.output, reply.output, "stream vs reply output of \(path)")
        }
    }
}
