import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Every recording of `../shared/realtraffic` (replies of OpenAI and 12 compatible servers)
/// replayed through the SDK's public API, as an app would call it: the text, tool arguments,
/// finish reasons, usage and errors equal what the test reads from the raw JSON itself; every
/// member the server sent is still there after a decode and encode round trip; a stream cut at
/// random points gives the same events as the stream in one piece.
final class RealTrafficTests: XCTestCase {
    /// How a recording fared.
    enum Outcome: String {
        /// Decoded, every value as the raw JSON says, every member kept.
        case exact
        /// Decoded and its values right, but members lost in the round trip.
        case lossy
        /// Did not decode, or a value differs.
        case failing
    }

    func testEveryRecordingDecodesWithItsValuesAndKeepsEveryMember() async throws {
        let recordings = try RealTrafficRecording.all()
        XCTAssertEqual(recordings.count, 111, "MANIFEST.tsv rows")
        var outcomes: [Outcome: [String]] = [:]
        for recording in recordings {
            let problems: (lost: [String], wrong: [String])
            if recording.status != 200 || Self.isErrorEnvelope(recording) {
                problems = ([], await Self.checkError(recording))
            } else if recording.isStream {
                problems = await Self.checkStream(recording)
            } else {
                problems = await Self.checkReply(recording)
            }
            let outcome: Outcome = !problems.wrong.isEmpty ? .failing : problems.lost.isEmpty ? .exact : .lossy
            outcomes[outcome, default: []].append(recording.path)
            for problem in problems.wrong { XCTFail("\(recording.path): \(problem)") }
            if !problems.lost.isEmpty {
                XCTFail("\(recording.path): members lost in a decode-encode round trip: \(problems.lost.prefix(8))")
            }
        }
        print(
            "RealTraffic: \(recordings.count) recordings: \(outcomes[.exact]?.count ?? 0) exact, "
                + "\(outcomes[.lossy]?.count ?? 0) lossy, \(outcomes[.failing]?.count ?? 0) failing")
        XCTAssertEqual(outcomes[.exact]?.count, recordings.count)
    }

    func testAStreamCutAnywhereGivesTheEventsOfTheWholeStream() async throws {
        for recording in try RealTrafficRecording.all() where recording.isStream && recording.status == 200 {
            let whole = try await Self.streamEvents(recording, chunks: [recording.body])
            for (seed, maxChunk) in [(UInt64(1), 7), (2, 64), (3, 4096)] {
                let split = try await Self.streamEvents(
                    recording, chunks: recording.chunks(seed: seed, maxChunk: maxChunk))
                XCTAssertEqual(
                    split, whole, "\(recording.path) cut with seed \(seed) into pieces of at most \(maxChunk) bytes")
            }
        }
    }

    func testTheReasoningOfEveryProviderIsOneAccessorAndAccumulates() async throws {
        // The recordings with reasoning: OpenRouter's `reasoning` and `reasoning_details`.
        let recordings = try RealTrafficRecording.all().filter {
            $0.isStream && !$0.isResponses
                && $0.rawPayloads.contains { chunk in
                    (chunk["choices"]?.array ?? []).contains { ExpectedChat.reasoning($0["delta"] ?? .null) != nil }
                }
        }
        XCTAssertFalse(recordings.isEmpty)
        for recording in recordings {
            let chunks = try await Self.chatChunks(recording, chunks: [recording.body])
            var accumulator = ChatCompletionStreamAccumulator()
            var deltas = ""
            var done: String?
            for chunk in chunks {
                for event in accumulator.append(chunk) {
                    if case .reasoningDelta(_, let delta, _) = event { deltas += delta }
                    if case .reasoningDone(_, let reasoning) = event { done = reasoning }
                }
            }
            let expected = ExpectedChat(chunks: recording.rawPayloads).choices[0]?.reasoning
            XCTAssertNotNil(expected, recording.path)
            XCTAssertEqual(deltas, expected, recording.path)
            XCTAssertEqual(done, expected, recording.path)
            let message = try XCTUnwrap(accumulator.completion?.choices.first?.message)
            XCTAssertEqual(message.reasoningText, expected, recording.path)
            // The other members of the deltas accumulate as the server would have sent them whole.
            XCTAssertEqual(
                message.undeclaredMembers["reasoning_details"]?.arrayValue?.first?["text"]?.stringValue, expected,
                recording.path)
        }
    }

    func testStreamedAudioBecomesTheMessagesAudio() async throws {
        let recording = try XCTUnwrap(
            try RealTrafficRecording.all().first { $0.path.hasSuffix("ChatWithBasicAudioOutput.sse") })
        let chunks = try await Self.chatChunks(recording, chunks: [recording.body])
        var accumulator = ChatCompletionStreamAccumulator()
        var pieces = Data()
        for chunk in chunks {
            accumulator.append(chunk)
            for choice in chunk.choices { pieces += choice.delta.audioDelta?.bytes ?? Data() }
        }
        let raw = recording.rawPayloads.flatMap { $0["choices"]?.array ?? [] }.compactMap { $0["delta"]?["audio"] }
        let audio = try XCTUnwrap(accumulator.completion?.choices.first?.message.audio)
        XCTAssertEqual(audio.id, raw.compactMap { $0["id"]?.string }.first)
        XCTAssertEqual(audio.transcript, raw.compactMap { $0["transcript"]?.string }.joined())
        XCTAssertEqual(audio.expiresAt, raw.compactMap { $0["expires_at"]?.int }.last)
        let bytes = raw.compactMap { $0["data"]?.string }.reduce(Data()) { $0 + Data(base64Encoded: $1)! }
        XCTAssertEqual(Data(base64Encoded: audio.data), bytes)
        XCTAssertEqual(pieces, bytes)
        XCTAssertEqual(bytes.count, 45_600)
        XCTAssertTrue(audio.specDeviations.isEmpty, "\(audio.specDeviations)")
        XCTAssertNil(accumulator.completion?.choices.first?.message.undeclaredMembers["audio"])
    }

    func testProviderExtrasAreTypedWhereServersAgree() async throws {
        let all = try RealTrafficRecording.all()
        // OpenRouter's cost, in its credits (one per dollar).
        let openRouter = try XCTUnwrap(all.first { $0.path.hasSuffix("openrouter_chat_model_reasoning_tokens.sse") })
        let chunks = try await Self.chatChunks(openRouter, chunks: [openRouter.body])
        let rawUsage = try XCTUnwrap(openRouter.rawPayloads.last { $0["usage"] != nil }?["usage"])
        guard case .number(let cost)? = rawUsage["cost"] else { return XCTFail("no cost in the recording") }
        var accumulator = ChatCompletionStreamAccumulator()
        for chunk in chunks { accumulator.append(chunk) }
        XCTAssertEqual(accumulator.completion?.usage?.costInUSD, cost)
        XCTAssertEqual(accumulator.completion?.undeclaredMembers["provider"], "Novita")
        XCTAssertEqual(accumulator.completion?.choices.first?.undeclaredMembers["native_finish_reason"], "stop")
        // Perplexity's citations, the URLs its chunks carry.
        let perplexity = try XCTUnwrap(all.first { $0.path.hasSuffix("TestPerplexityTool.sse") })
        let perplexityChunks = try await Self.chatChunks(perplexity, chunks: [perplexity.body])
        let rawCitations = try XCTUnwrap(perplexity.rawPayloads.last?["citations"]?.array).compactMap(\.string)
        XCTAssertFalse(rawCitations.isEmpty)
        XCTAssertEqual(perplexityChunks.last?.citationURLs, rawCitations)
        var perplexityAccumulator = ChatCompletionStreamAccumulator()
        for chunk in perplexityChunks { perplexityAccumulator.append(chunk) }
        XCTAssertEqual(perplexityAccumulator.completion?.citationURLs, rawCitations)
        // Groq's `x_groq` and timings, by name.
        let groq = try XCTUnwrap(all.first { $0.provider == "groq" })
        let completion = try await groq.client().chat.completions.create(Self.chatRequest)
        XCTAssertEqual(completion.undeclaredMembers["x_groq"]?["id"], "req_01j6yb3tceeb0bjyqs3751ehv3")
        XCTAssertEqual(
            completion.usage?.undeclaredMembers.keys, ["queue_time", "prompt_time", "completion_time", "total_time"])
        XCTAssertEqual(completion.usage?.undeclaredMembers["total_time"]?.doubleValue, 0.023868644)
        // The deviation report lists them by path.
        let report = SpecDeviationReport(completion)
        XCTAssertEqual(
            report.undeclaredMembers.map(\.description),
            ["x_groq", "usage: queue_time, prompt_time, completion_time, total_time"])
    }

    // MARK: Checks

    /// A reply whose body is an error envelope, whatever its status (Azure answers a filtered
    /// prompt with HTTP 200 and `{"error": {...}}`).
    static func isErrorEnvelope(_ recording: RealTrafficRecording) -> Bool {
        guard !recording.isStream, let raw = try? RawJSON.parse(recording.body) else { return false }
        if case .object? = raw["error"] { return raw["object"] == nil }
        return false
    }

    static let chatRequest = CreateChatCompletionRequest(messages: [.user(.init(content: "Hi"))], model: "m")

    /// A whole reply through the method that returns its type.
    static func checkReply(_ recording: RealTrafficRecording) async -> (lost: [String], wrong: [String]) {
        do {
            let raw = try RawJSON.parse(recording.body)
            let client = try recording.client()
            let value: any Encodable
            var wrong: [String] = []
            switch raw["object"]?.string {
            case "chat.completion":
                let completion = try await client.chat.completions.create(chatRequest)
                let expected = ExpectedChat(reply: raw)
                if ExpectedChat(completion) != expected { wrong.append("\(ExpectedChat(completion)) ≠ \(expected)") }
                value = completion
            case "list":
                let page = try await client.chat.completions.messages.list(completionID: "chatcmpl-1")
                if page.data.map(\.content) != (raw["data"]?.array ?? []).map({ $0["content"]?.string }) {
                    wrong.append("message contents differ")
                }
                value = page
            case "chat.completion.deleted":
                let deleted = try await client.chat.completions.delete(completionID: "chatcmpl-1")
                if deleted.id != raw["id"]?.string || !deleted.deleted { wrong.append("\(deleted)") }
                value = deleted
            case "response":
                let response = try await client.responses.create(CreateResponse(model: "m", input: "Hi"))
                wrong += checkResponse(response, raw)
                value = response
            case "response.compaction":
                let compacted = try await client.responses.compact(.init(model: "gpt-5"))
                if compacted.id != raw["id"]?.string { wrong.append("id \(compacted.id)") }
                value = compacted
            case "response.input_tokens":
                let counts = try await client.responses.inputTokens()
                if counts.inputTokens != raw["input_tokens"]?.int { wrong.append("input_tokens \(counts.inputTokens)") }
                value = counts
            case "response.deleted":
                // The spec declares no body for this reply: it is kept beside the head.
                let (_, head) = try await client.withRawResponse { try await $0.responses.delete(responseID: "resp_1") }
                let kept = try RawJSON.parse(head.unreturnedBody ?? Data())
                return (raw.missingMembers(in: kept), [])
            default:
                return ([], ["no check for `object` \(raw["object"]?.description ?? "nil")"])
            }
            let encoded = try RawJSON.parse(OrderedJSONEncoder().encode(value))
            return (raw.missingMembers(in: encoded), wrong)
        } catch {
            return ([], ["\(error)"])
        }
    }

    /// An error reply: the thrown error has the status and the error object's message, type, code
    /// and param.
    static func checkError(_ recording: RealTrafficRecording) async -> [String] {
        do {
            let client = try recording.client()
            _ = try await client.chat.completions.create(chatRequest)
            return ["a \(recording.status) reply did not throw"]
        } catch let error as OpenAIError {
            guard let raw = try? RawJSON.parse(recording.body), let object = raw["error"] else {
                return ["the recording has no error object"]
            }
            var wrong: [String] = []
            if error.statusCode != recording.status { wrong.append("status \(error.statusCode ?? 0)") }
            if let message = object["message"]?.string, error.message != message {
                wrong.append("message \(error.message) ≠ \(message)")
            }
            for (name, value) in [("type", error.type), ("code", error.code), ("param", error.param)] {
                let expected = object[name].flatMap { $0.string ?? $0.int.map(String.init) }
                if value != expected { wrong.append("\(name) \(value ?? "nil") ≠ \(expected ?? "nil")") }
            }
            return wrong
        } catch {
            return ["\(error)"]
        }
    }

    static func checkResponse(_ response: Response, _ raw: RawJSON) -> [String] {
        var wrong: [String] = []
        let text = (raw["output"]?.array ?? []).filter { $0["type"]?.string == "message" }
            .flatMap { $0["content"]?.array ?? [] }.filter { $0["type"]?.string == "output_text" }
            .compactMap { $0["text"]?.string }.joined()
        if response.outputText != text { wrong.append("output text \(response.outputText) ≠ \(text)") }
        if let status = raw["status"]?.string, response.status?.rawValue != status {
            wrong.append("status \(response.status?.rawValue ?? "nil") ≠ \(status)")
        }
        if let usage = raw["usage"], usage != .null {
            let sdk = response.usage.map { [$0.inputTokens, $0.outputTokens, $0.totalTokens] }
            let expected = ["input_tokens", "output_tokens", "total_tokens"].map { usage[$0]?.int ?? -1 }
            if sdk != expected { wrong.append("usage \(sdk ?? []) ≠ \(expected)") }
        }
        return wrong
    }

    /// A stream: the values the accumulator assembles, and every event's members.
    static func checkStream(_ recording: RealTrafficRecording) async -> (lost: [String], wrong: [String]) {
        do {
            let raw = recording.rawPayloads
            let events = try await streamEvents(recording, chunks: [recording.body])
            guard events.count == raw.count else {
                return ([], ["\(events.count) events from \(raw.count) JSON payloads"])
            }
            var lost: [String] = []
            for (index, (event, rawEvent)) in zip(events, raw).enumerated() {
                lost += rawEvent.missingMembers(in: event).map { "event \(index): \($0)" }
            }
            var wrong: [String] = []
            if recording.isResponses {
                wrong += try await checkResponsesStream(recording, raw)
            } else {
                let chunks = try await chatChunks(recording, chunks: [recording.body])
                var accumulator = ChatCompletionStreamAccumulator()
                for chunk in chunks { accumulator.append(chunk) }
                let made = ExpectedChat(accumulator, chunks: chunks)
                let expected = ExpectedChat(chunks: raw)
                if made != expected { wrong.append("\(made) ≠ \(expected)") }
            }
            return (lost, wrong)
        } catch {
            return ([], ["\(error)"])
        }
    }

    static func checkResponsesStream(_ recording: RealTrafficRecording, _ raw: [RawJSON]) async throws -> [String] {
        let client = try recording.client()
        var accumulator = try ResponseStreamAccumulator()
        for try await event in try client.responses.createStream(CreateResponse(model: "m", input: "Hi")) {
            try accumulator.apply(event)
        }
        guard let completed = raw.last(where: { $0["type"]?.string == "response.completed" })?["response"] else {
            return []
        }
        guard let response = try accumulator.currentResponse() else { return ["no response assembled"] }
        return checkResponse(response, completed)
    }

    /// The stream's events as the SDK decoded them, encoded again and read by the test.
    static func streamEvents(_ recording: RealTrafficRecording, chunks: [Data]) async throws -> [RawJSON] {
        let client = try recording.client(chunks: chunks)
        let encoder = OrderedJSONEncoder()
        var events: [RawJSON] = []
        if recording.isResponses {
            for try await event in try client.responses.createStream(CreateResponse(model: "m", input: "Hi")) {
                events.append(try RawJSON.parse(encoder.encode(event)))
            }
        } else {
            for chunk in try await chatChunks(recording, chunks: chunks) {
                events.append(try RawJSON.parse(encoder.encode(chunk)))
            }
        }
        return events
    }

    static func chatChunks(_ recording: RealTrafficRecording, chunks: [Data]) async throws
        -> [CreateChatCompletionStreamResponse]
    {
        var result: [CreateChatCompletionStreamResponse] = []
        for try await chunk in try recording.client(chunks: chunks).chat.completions.createStream(chatRequest) {
            result.append(chunk)
        }
        return result
    }
}
