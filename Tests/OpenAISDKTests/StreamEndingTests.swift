import Foundation
import XCTest
import OpenAISDKTestSupport

@testable import OpenAI
@testable import OpenAIRuntime

/// Honest stream endings, event-size limits, skipped payloads and single consumption, on the
/// recorded streams of `../shared/fixtures` cut short anywhere and on real-shaped payloads.
final class StreamEndingTests: XCTestCase {
    // MARK: Cut anywhere

    /// One recorded stream and how to decode it.
    private struct Recording {
        var path: String
        var bytes: [UInt8]
        var terminalEvents: Set<String>
        var tracksChoices: Bool
        /// Decodes `body` through the client's streaming path; returns the events' count.
        var decode: @Sendable (Data, Int) async throws -> Int
    }

    private static func recordings() throws -> [Recording] {
        let directory = try SSETestSupport.fixturesDirectory()
        var result: [Recording] = []
        for path in try SSETestSupport.sseFixtures(in: directory)
        where !path.contains("/spec-examples/") && !path.hasPrefix("images/") {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
            func events<Event: Decodable & Sendable>(
                _ type: Event.Type, _ framing: StreamFraming, _ ending: StreamEnding<Event>
            ) -> @Sendable (Data, Int) async throws -> Int {
                { body, chunkSize in
                    try await StreamingTestSupport.decodeAll(
                        body, as: type, framing: framing, chunkSize: chunkSize, ending: ending
                    ).count
                }
            }
            let chat = StreamingTestSupport.finishedChoices { (chunk: CreateChatCompletionStreamResponse) in
                chunk.choices.map { ($0.index, $0.finishReason != nil) }
            }
            let completions = StreamingTestSupport.finishedChoices { (chunk: CreateCompletionResponse) in
                chunk.choices.map { ($0.index, $0.finishReason != nil) }
            }
            if path.hasPrefix("chat-completions/") {
                result.append(
                    Recording(
                        path: path, bytes: bytes, terminalEvents: [], tracksChoices: true,
                        decode: events(CreateChatCompletionStreamResponse.self, .data, chat)))
            } else if path.hasPrefix("completions/") {
                result.append(
                    Recording(
                        path: path, bytes: bytes, terminalEvents: [], tracksChoices: true,
                        decode: events(CreateCompletionResponse.self, .data, completions)))
            } else if path.hasPrefix("responses/") {
                let terminal = try StreamingTestSupport.terminalEvents(operationID: "createResponse")
                result.append(
                    Recording(
                        path: path, bytes: bytes, terminalEvents: terminal, tracksChoices: false,
                        decode: events(ResponseStreamEvent.self, .data, .terminalEvents(terminal))))
            } else if path.hasPrefix("assistants/") {
                let terminal = try StreamingTestSupport.terminalEvents(operationID: "createRun")
                result.append(
                    Recording(
                        path: path, bytes: bytes, terminalEvents: terminal, tracksChoices: false,
                        decode: events(AssistantStreamEvent.self, .eventNameAndData, .terminalEvents(terminal))))
            } else if path.hasPrefix("audio/"), path.contains("speech") {
                let terminal = try StreamingTestSupport.terminalEvents(operationID: "createSpeech")
                result.append(
                    Recording(
                        path: path, bytes: bytes, terminalEvents: terminal, tracksChoices: false,
                        decode: events(CreateSpeechResponseStreamEvent.self, .data, .terminalEvents(terminal))))
            } else if path.hasPrefix("audio/") {
                let terminal = try StreamingTestSupport.terminalEvents(operationID: "createTranscription")
                result.append(
                    Recording(
                        path: path, bytes: bytes, terminalEvents: terminal, tracksChoices: false,
                        decode: events(CreateTranscriptionResponseStreamEvent.self, .data, .terminalEvents(terminal))))
            }
        }
        return result
    }

    /// What a stream cut after `prefix` must give, read without the SDK: a line-based reading of
    /// the WHATWG event-stream rules (CR, LF and CR LF line ends; comments; `data` and `event`).
    private enum Expected: Equatable {
        case complete(events: Int)
        case truncated(events: Int)
        case missingTerminal(events: Int)
        case unfinished(events: Int, choices: [Int])
    }

    private static func expected(_ prefix: [UInt8], _ recording: Recording) -> Expected {
        let text = String(decoding: prefix, as: UTF8.self)
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        var lastTerminated = true
        while index < text.endIndex {
            let character = text[index]
            if character == "\n" || character == "\r" || character == "\r\n" {
                lines.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        if start < text.endIndex {
            lines.append(text[start...])
            lastTerminated = false
        }
        var events: [(name: String?, data: String)] = []
        var data: [String] = []
        var name: String?
        for (position, line) in lines.enumerated() {
            let unterminated = position == lines.count - 1 && !lastTerminated
            if unterminated { break }
            if line.isEmpty {
                if !data.isEmpty { events.append((name, data.joined(separator: "\n"))) }
                data = []
                name = nil
                continue
            }
            if line.hasPrefix(":") { continue }
            let field = line.prefix { $0 != ":" }
            var value = line.dropFirst(field.count)
            if value.hasPrefix(":") { value = value.dropFirst() }
            if value.hasPrefix(" ") { value = value.dropFirst() }
            if field == "data" { data.append(String(value)) }
            if field == "event" { name = String(value) }
        }
        let partial = !lastTerminated && !(lines.last?.hasPrefix(":") ?? true) && !(lines.last?.isEmpty ?? true)
        // A last event without its blank line counts when it is whole: `[DONE]`, or complete JSON.
        var pending = data
        if partial, let last = lines.last, last.hasPrefix("data") {
            var value = last.dropFirst(4)
            if value.hasPrefix(":") { value = value.dropFirst() }
            if value.hasPrefix(" ") { value = value.dropFirst() }
            if last == "data" || last.hasPrefix("data:") { pending.append(String(value)) }
        }
        let lastData = pending.joined(separator: "\n")
        let lastIsWhole =
            !pending.isEmpty
            && (lastData.hasPrefix("[DONE]") || (try? JSONSerialization.jsonObject(with: Data(lastData.utf8))) != nil)
        if lastIsWhole {
            events.append((name, lastData))
            data = []
        }
        var delivered = 0
        var terminal = false
        var seen: Set<Int> = []
        var finished: Set<Int> = []
        for event in events {
            if event.data.hasPrefix("[DONE]") { return .complete(events: delivered) }
            delivered += 1
            let json = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any]
            if let type = event.name ?? (json?["type"] as? String), recording.terminalEvents.contains(type) {
                terminal = true
            }
            for choice in json?["choices"] as? [[String: Any]] ?? [] {
                guard let index = choice["index"] as? Int else { continue }
                seen.insert(index)
                if choice["finish_reason"] is String { finished.insert(index) }
            }
        }
        if !lastIsWhole && (!data.isEmpty || partial) { return .truncated(events: delivered) }
        if terminal { return .complete(events: delivered) }
        if recording.tracksChoices {
            if !seen.isEmpty && finished.isSuperset(of: seen) { return .complete(events: delivered) }
            return .unfinished(events: delivered, choices: seen.subtracting(finished).sorted())
        }
        if recording.terminalEvents.isEmpty { return .complete(events: delivered) }
        return .missingTerminal(events: delivered)
    }

    func testEveryRecordedStreamCutAnywhereIsReportedAsCutOffUnlessItWasComplete() async throws {
        var random = SeededRandom(seed: 0x5EED_CAFE)
        let recordings = try Self.recordings()
        XCTAssertGreaterThan(recordings.count, 70)
        var outcomes: [String: Int] = [:]
        for recording in recordings {
            let length = recording.bytes.count
            var cuts = [0, length, length - 1, length - 2]
            for _ in 0..<8 { cuts.append(Int(random.next() % UInt64(length + 1))) }
            // Event boundaries too: the last few (around the completing event) and some others.
            let boundaries = Self.eventBoundaries(recording.bytes)
            cuts += boundaries.suffix(3)
            for _ in 0..<3 where !boundaries.isEmpty {
                cuts.append(boundaries[Int(random.next() % UInt64(boundaries.count))])
            }
            for cut in Set(cuts) where cut >= 0 {
                let prefix = Array(recording.bytes.prefix(cut))
                let expected = Self.expected(prefix, recording)
                let chunkSize = 1 + Int(random.next() % 700)
                let actual: Expected
                do {
                    actual = .complete(events: try await recording.decode(Data(prefix), chunkSize))
                } catch let error as OpenAIError {
                    let count = error.stream?.eventCount ?? -1
                    switch error.kind {
                    case .truncatedEvent: actual = .truncated(events: count)
                    case .missingTerminalEvent: actual = .missingTerminal(events: count)
                    case .unfinishedChoices:
                        actual = .unfinished(events: count, choices: error.stream?.unfinishedChoices ?? [])
                    default:
                        XCTFail("\(recording.path) cut at \(cut): \(error)")
                        continue
                    }
                }
                XCTAssertEqual(actual, expected, "\(recording.path) cut at \(cut) of \(length), chunks of \(chunkSize)")
                outcomes["\(expected)".prefix { $0 != "(" }.description, default: 0] += 1
            }
        }
        print("StreamEndingTests cuts: \(outcomes.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(outcomes["truncated"] ?? 0, 500)
        XCTAssertGreaterThan(outcomes["missingTerminal"] ?? 0, 150)
        XCTAssertGreaterThan(outcomes["unfinished"] ?? 0, 40)
        XCTAssertGreaterThan(outcomes["complete"] ?? 0, 100)
    }

    /// Offsets just after each blank line that ends an event (LF LF, CR LF CR LF or CR CR).
    private static func eventBoundaries(_ bytes: [UInt8]) -> [Int] {
        var result: [Int] = []
        var index = 1
        while index < bytes.count {
            if bytes[index] == 0x0A, bytes[index - 1] == 0x0A { result.append(index + 1) }
            if index >= 3, bytes[index] == 0x0A, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A,
                bytes[index - 3] == 0x0D
            {
                result.append(index + 1)
            }
            index += 1
        }
        return result
    }

    // MARK: Through the generated methods

    private static let responsesRequest: JSONValue = ["model": "gpt-4o", "input": "Hello"]
    private static let chatRequest: JSONValue = ["model": "gpt-4o", "messages": [["role": "user", "content": "Hi"]]]

    private func fixtureBytes(_ path: String) throws -> Data {
        try Data(contentsOf: try SharedData.file("fixtures/" + path))
    }

    func testResponsesStreamThatClosesBeforeResponseCompletedThrowsMissingTerminalEvent() async throws {
        let body = try fixtureBytes("responses/stream/azure-text.sse")
        let events = SSETestSupport.parse(Array(body))
        // Everything up to (not including) `response.completed`, ending on an event boundary.
        let kept = events.prefix { $0.event != "response.completed" }
        XCTAssertEqual(kept.count, events.count - 1)
        let cut = kept.map { "event: \($0.event!)\ndata: \($0.data)\n\n" }.joined()
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(cut.utf8)))
        var received = 0
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try client.responses.createStream(try Self.responsesRequest.decode()) { received += 1 }
        }
        XCTAssertEqual(error?.kind, .missingTerminalEvent)
        XCTAssertEqual(received, kept.count)
        XCTAssertEqual(error?.stream?.eventCount, kept.count)
        XCTAssertEqual(error?.stream?.lastEventType, kept.last?.event)
        XCTAssertEqual(error?.requestID, "req_test")
        XCTAssertTrue(error?.message.contains("response.completed") ?? false, error?.message ?? "")
    }

    func testResponsesStreamCutInsideAnEventThrowsTruncatedEventWithTheBytesReceived() async throws {
        let body = try fixtureBytes("responses/stream/azure-text.sse")
        let text = String(decoding: body, as: UTF8.self)
        let marker = try XCTUnwrap(text.range(of: "event: response.output_text.done"))
        let cut = String(text[..<marker.upperBound]) + "\ndata: {\"type\":\"response.output_text.done\",\"seq"
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(cut.utf8), chunkSize: 13))
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try client.responses.createStream(try Self.responsesRequest.decode()) {}
        }
        XCTAssertEqual(error?.kind, .truncatedEvent)
        // The raw body holds the unfinished event as it arrived: its unterminated `data:` line.
        XCTAssertEqual(
            error?.rawBody.map { String(decoding: $0, as: UTF8.self) },
            #"data: {"type":"response.output_text.done","seq"#)
    }

    func testResponsesStreamWithoutEventLinesIsCompleteByItsJSONType() async throws {
        // An OpenAI-compatible server that sends only `data:` lines.
        let body = try fixtureBytes("responses/stream/azure-text.sse")
        let dataOnly = SSETestSupport.parse(Array(body)).map { "data: \($0.data)\n\n" }.joined()
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(dataOnly.utf8)))
        var last: ResponseStreamEvent?
        for try await event in try client.responses.createStream(try Self.responsesRequest.decode()) { last = event }
        guard case .responseCompleted? = last else { return XCTFail("\(String(describing: last))") }
        // Without its last event, the same stream is cut off.
        let cut = SSETestSupport.parse(Array(body)).dropLast().map { "data: \($0.data)\n\n" }.joined()
        let cutClient = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(cut.utf8)))
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try cutClient.responses.createStream(try Self.responsesRequest.decode()) {}
        }
        XCTAssertEqual(error?.kind, .missingTerminalEvent)
        XCTAssertEqual(error?.stream?.lastEventType, "response.output_item.done")
    }

    func testChatStreamWithoutDoneIsCompleteOnceEveryChoiceFinishedAndCutOffBefore() async throws {
        let body = try fixtureBytes("chat-completions/stream/py-n3-multiple-choices.sse")
        let events = SSETestSupport.parse(Array(body)).filter { !$0.data.hasPrefix("[DONE]") }
        let withoutDone = events.map { "data: \($0.data)\n\n" }.joined()
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(withoutDone.utf8)))
        var count = 0
        for try await _ in try client.chat.completions.createStream(try Self.chatRequest.decode()) { count += 1 }
        XCTAssertEqual(count, events.count)

        // Cut after the first choice finished: the other two are reported.
        let firstFinish = try XCTUnwrap(events.firstIndex { $0.data.contains(#""finish_reason":"stop""#) })
        let cut = events[...firstFinish].map { "data: \($0.data)\n\n" }.joined()
        let cutClient = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(cut.utf8)))
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try cutClient.chat.completions.createStream(try Self.chatRequest.decode()) {}
        }
        XCTAssertEqual(error?.kind, .unfinishedChoices)
        XCTAssertEqual(error?.stream?.eventCount, firstFinish + 1)
        XCTAssertEqual(error?.stream?.unfinishedChoices.count, 2)
        XCTAssertTrue(error?.message.contains("had no finish_reason") ?? false, error?.message ?? "")
    }

    func testAssistantsRunStreamWithoutItsDoneEventOrRunEndIsCutOff() async throws {
        let body = try fixtureBytes("assistants/stream/dotnet-run-text.sse")
        let events = SSETestSupport.parse(Array(body))
        let cut = events.prefix { !($0.event ?? "").hasPrefix("thread.message.completed") }
            .map { "event: \($0.event ?? "")\ndata: \($0.data)\n\n" }.joined()
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(cut.utf8)))
        let error = await XCTAssertThrowsOpenAIError {
            let request: CreateRunRequest = try (["assistant_id": "asst_1"] as JSONValue).decode()
            for try await _ in try client.threads.runs.createStream(threadID: "thread_1", request) {}
        }
        XCTAssertEqual(error?.kind, .missingTerminalEvent)
        XCTAssertEqual(error?.stream?.lastEventType, "thread.message.delta")
    }

    // MARK: Bounded events

    func testAnEventLargerThanTheLimitThrowsInsteadOfBuffering() async throws {
        let chunk =
            #"{"type":"response.output_text.delta","sequence_number":1,"item_id":"m","output_index":0,"content_index":0,"delta":""#
        let huge = "data: " + chunk + String(repeating: "a", count: 300_000) + "\"}\n\n"
        let client = try StreamingTestSupport.client(
            ScriptedStreamTransport(body: Data(huge.utf8), chunkSize: 16_384), maxStreamEventBytes: 100_000)
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in StreamingTestSupport.stream(client, as: ResponseStreamEvent.self, framing: .data) {}
        }
        XCTAssertEqual(error?.kind, .eventTooLarge)
        XCTAssertTrue(error?.message.contains("100000 bytes") ?? false, error?.message ?? "")
        // The same event in one chunk is checked when it is dispatched.
        let oneChunk = try StreamingTestSupport.client(
            ScriptedStreamTransport(body: Data(huge.utf8), chunkSize: 1 << 20), maxStreamEventBytes: 100_000)
        let dispatched = await XCTAssertThrowsOpenAIError {
            for try await _ in StreamingTestSupport.stream(oneChunk, as: ResponseStreamEvent.self, framing: .data) {}
        }
        XCTAssertEqual(dispatched?.kind, .eventTooLarge)
        // Per request, the limit can be raised.
        let raised = try StreamingTestSupport.client(
            ScriptedStreamTransport(body: Data(huge.utf8)), maxStreamEventBytes: 100_000)
        var request = APIRequest(method: "POST", path: "/responses", operationID: "test")
        request.accept = "text/event-stream"
        let stream = raised.stream(
            request, options: RequestOptions(maxStreamEventBytes: 1 << 20), as: ResponseStreamEvent.self,
            framing: .data, ending: .unspecified)
        var events = 0
        for try await _ in stream { events += 1 }
        XCTAssertEqual(events, 1)
        XCTAssertEqual(OpenAIClient.Configuration().maxStreamEventBytes, 64 << 20)
    }

    // MARK: Payloads that are not events

    func testKeepAlivesAndProxyFramesAreSkippedAndReportedAndLaterErrorsStillThrow() async throws {
        let body = try fixtureBytes("chat-completions/stream/py-plain-text.sse")
        let chunks = SSETestSupport.parse(Array(body)).filter { !$0.data.hasPrefix("[DONE]") }.map(\.data)
        let inserted =
            "data: \(chunks[0])\n\n" + "data: keep-alive\n\n" + #"data: {"type":"ping"}"# + "\n\n" + "data: 42\n\n"
            + "data: \(chunks[1])\n\n"
            + #"data: {"error":{"message":"Upstream timed out","type":"server_error","code":"timeout"}}"#
            + "\n\n" + "data: \(chunks[2])\n\n"
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(inserted.utf8), chunkSize: 5))
        let skipped = Locked<[SkippedStreamEvent]>([])
        var received: [String] = []
        let error = await XCTAssertThrowsOpenAIError {
            let stream = try client.chat.completions.createStream(try Self.chatRequest.decode())
                .onSkippedEvent { event in skipped.withLock { $0.append(event) } }
            for try await chunk in stream { received.append(chunk.id) }
        }
        XCTAssertEqual(received.count, 2, "the chunks before the error, around the skipped frames")
        XCTAssertEqual(error?.message, "Upstream timed out")
        XCTAssertEqual(error?.code, "timeout")
        XCTAssertEqual(skipped.withLock { $0.map(\.event.data) }, ["keep-alive", #"{"type":"ping"}"#, "42"])
        XCTAssertEqual(skipped.withLock { $0.map(\.reason) }, [.notJSON, .notAnEvent, .notAnEvent])

        // Strict mode does not skip: a frame that is not a chunk fails the stream.
        let strict = try StreamingTestSupport.client(
            ScriptedStreamTransport(body: Data(inserted.utf8)), decodingMode: .strict)
        let strictError = await XCTAssertThrowsOpenAIError {
            for try await _ in try strict.chat.completions.createStream(try Self.chatRequest.decode()) {}
        }
        XCTAssertEqual(strictError?.kind, .decoding)
    }

    func testSkippedEventsKeepWhyTheyDidNotDecodeAndReachTheDeviationReport() async throws {
        let body = try fixtureBytes("chat-completions/stream/py-plain-text.sse")
        let chunks = SSETestSupport.parse(Array(body)).filter { !$0.data.hasPrefix("[DONE]") }.map(\.data)
        var text = "data: \(chunks[0])\n\n" + "data: keep-alive\n\n" + "event: tick\ndata: [1, 2]\n\n"
        text += #"data: {"type":"ping"}"# + "\n\n"
        text += String(repeating: "data: keep-alive\n\n", count: 100)
        text += chunks.dropFirst().map { "data: \($0)\n\n" }.joined() + "data: [DONE]\n\n"
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: Data(text.utf8), chunkSize: 64))
        let stream = try client.chat.completions.createStream(try Self.chatRequest.decode())
        var events: [CreateChatCompletionStreamResponse] = []
        for try await chunk in stream { events.append(chunk) }
        XCTAssertEqual(events.count, chunks.count)
        XCTAssertEqual(stream.skippedEventCount, 103)
        let skipped = stream.skippedEvents
        XCTAssertEqual(skipped.count, OpenAIStream<CreateChatCompletionStreamResponse>.maxRecordedSkippedEvents)
        XCTAssertEqual(skipped.count, 64)
        XCTAssertEqual(skipped.prefix(3).map(\.reason), [.notJSON, .notAnEvent, .notAnEvent])
        // Not JSON, and JSON of another shape: the decoding error says where and keeps the data.
        XCTAssertEqual(skipped[0].decodingError?.kind, .decoding)
        XCTAssertEqual(skipped[1].decodingError?.kind, .decoding)
        XCTAssertEqual(skipped[1].decodingError?.codingPath, "")
        XCTAssertEqual(skipped[1].decodingError?.rawBody, Data("[1, 2]".utf8))
        XCTAssertTrue(
            skipped[1].decodingError?.message.hasPrefix("The reply does not decode at the top level") ?? false,
            skipped[1].decodingError?.message ?? "no error")
        // An object that decodes but shares no member with a chunk: nothing failed to decode.
        XCTAssertNil(skipped[2].decodingError)
        let report = SpecDeviationReport(events, skippedEvents: skipped)
        XCTAssertFalse(report.isEmpty)
        let lines = report.description.split(separator: "\n").map(String.init)
        let skippedLines = lines.filter { $0.hasPrefix("skipped event") }
        XCTAssertEqual(skippedLines.count, 64, report.description)
        XCTAssertEqual(lines.count - skippedLines.count, SpecDeviationReport(events).entries.count)
        XCTAssertTrue(
            skippedLines[1].hasPrefix("skipped event `tick`: The reply does not decode at the top level"),
            skippedLines[1])
        XCTAssertEqual(skippedLines[2], "skipped event: shares no member with the event type")
    }

    // MARK: One consumption per stream

    func testIteratingAStreamTwiceThrowsAndResendSendsTheRequestAgain() async throws {
        let body = try fixtureBytes("chat-completions/stream/py-plain-text.sse")
        let transport = ScriptedStreamTransport(body: body)
        let client = try StreamingTestSupport.client(transport)
        let stream = try client.chat.completions.createStream(try Self.chatRequest.decode())
        var first = 0
        for try await _ in stream { first += 1 }
        XCTAssertEqual(first, 33)
        let copy = stream.onSkippedEvent { _ in }
        let error = await XCTAssertThrowsOpenAIError { for try await _ in copy {} }
        XCTAssertEqual(error?.kind, .streamAlreadyConsumed)
        XCTAssertEqual(transport.requests.count, 1, "the request was not sent, nor billed, again")
        var again = 0
        for try await _ in stream.resend() { again += 1 }
        XCTAssertEqual(again, 33)
        XCTAssertEqual(transport.requests.count, 2)
    }
}
