import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI
@testable import OpenAIRuntime

/// Stream behaviours of OpenAI's official SDKs (issue 16): `close()`, typed error events before
/// the throw, and the chat accumulator's delta and done events and completeness, on recorded
/// traffic (`../shared/fixtures`) and the local test server.
final class StreamParityTests: XCTestCase {
    private static let chatRequest = CreateChatCompletionRequest(
        messages: [.user(.init(content: "Hi"))], model: "gpt-4o-mini")

    /// The chunks of a recorded chat stream, decoded.
    private func chunks(_ fixture: String) async throws -> [CreateChatCompletionStreamResponse] {
        let body = try Data(contentsOf: try SharedData.file("fixtures/chat-completions/stream/" + fixture))
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: body, chunkSize: 97))
        var chunks: [CreateChatCompletionStreamResponse] = []
        for try await chunk in try client.chat.completions.createStream(Self.chatRequest) { chunks.append(chunk) }
        return chunks
    }

    // MARK: Accumulator events

    func testARecordedToolCallGivesArgumentDeltasAndOneDone() async throws {
        var accumulator = ChatCompletionStreamAccumulator()
        var events: [ChatCompletionStreamAccumulator.Event] = []
        for chunk in try await chunks("py-tool-call.sse") { events += accumulator.append(chunk) }
        let completion = try XCTUnwrap(accumulator.completion)
        guard case .function(let call)? = completion.choices.first?.message.toolCalls?.first else {
            return XCTFail("expected a function call in \(completion)")
        }
        var deltas = ""
        var snapshots: [String] = []
        var dones: [ChatCompletionStreamAccumulator.Event] = []
        for event in events {
            switch event {
            case .toolCallArgumentsDelta(0, 0, let name, let delta, let snapshot):
                XCTAssertEqual(name, "GetWeatherArgs")
                deltas += delta
                snapshots.append(snapshot)
                XCTAssertEqual(snapshot, deltas, "the snapshot is every delta so far")
            case .toolCallArgumentsDone: dones.append(event)
            default: XCTFail("unexpected \(event)")
            }
        }
        XCTAssertEqual(deltas, call.function.arguments)
        XCTAssertGreaterThan(snapshots.count, 3)
        XCTAssertEqual(
            dones, [.toolCallArgumentsDone(choice: 0, toolCall: 0, name: "GetWeatherArgs", arguments: deltas)])
        XCTAssertTrue(accumulator.isComplete)
        XCTAssertEqual(accumulator.unfinishedChoices, [])
    }

    func testRecordedContentRefusalAndThreeChoicesEachEndWithOneDone() async throws {
        var text = ChatCompletionStreamAccumulator()
        var textEvents: [ChatCompletionStreamAccumulator.Event] = []
        for chunk in try await chunks("py-plain-text.sse") { textEvents += text.append(chunk) }
        let content = try XCTUnwrap(text.content())
        XCTAssertFalse(content.isEmpty)
        XCTAssertEqual(textEvents.last, .contentDone(choice: 0, content: content))
        XCTAssertEqual(
            textEvents.dropLast().map { event -> String in
                guard case .contentDelta(0, let delta, _) = event else { return "<\(event)>" }
                return delta
            }.joined(), content)

        var refusal = ChatCompletionStreamAccumulator()
        var refusalEvents: [ChatCompletionStreamAccumulator.Event] = []
        for chunk in try await chunks("py-refusal.sse") { refusalEvents += refusal.append(chunk) }
        let refused = try XCTUnwrap(refusal.refusal())
        XCTAssertEqual(
            refusalEvents.filter { if case .refusalDone = $0 { true } else { false } },
            [
                .refusalDone(choice: 0, refusal: refused)
            ])
        XCTAssertTrue(refusalEvents.contains { if case .refusalDelta(0, _, refused) = $0 { true } else { false } })

        var three = ChatCompletionStreamAccumulator()
        var threeEvents: [ChatCompletionStreamAccumulator.Event] = []
        for chunk in try await chunks("py-n3-multiple-choices.sse") { threeEvents += three.append(chunk) }
        let dones = threeEvents.compactMap { event -> Int? in
            if case .contentDone(let choice, let content) = event {
                XCTAssertEqual(content, three.content(choice: choice))
                return choice
            }
            return nil
        }
        XCTAssertEqual(dones.sorted(), [0, 1, 2])
    }

    func testAStreamCutBeforeItsFinishReasonIsNotComplete() async throws {
        let chunks = try await chunks("py-n3-multiple-choices.sse")
        var accumulator = ChatCompletionStreamAccumulator()
        for chunk in chunks where !chunk.choices.contains(where: { $0.finishReason != nil && $0.index == 1 }) {
            let events = accumulator.append(chunk)
            XCTAssertFalse(events.contains { if case .contentDone(1, _) = $0 { true } else { false } })
        }
        XCTAssertFalse(accumulator.isComplete)
        XCTAssertEqual(accumulator.unfinishedChoices, [1])
        XCTAssertEqual(accumulator.completion?.choices[1].finishReason.rawValue, "")
        XCTAssertFalse(ChatCompletionStreamAccumulator().isComplete, "no choice at all is not complete")

        var responses = try ResponseStreamAccumulator()
        XCTAssertFalse(responses.isComplete)
        let body = try Data(contentsOf: try SharedData.file("fixtures/responses/stream/azure-text.sse"))
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: body))
        for try await event in try client.responses.createStream(CreateResponse(model: "gpt-4o", input: "Hi")) {
            try responses.apply(event)
        }
        XCTAssertTrue(responses.isComplete)
    }

    func testSeveralToolCallsEachGetOneDoneEvenWhenFragmentsGoBack() throws {
        func chunk(_ toolCalls: JSONValue, finish: String? = nil) throws -> CreateChatCompletionStreamResponse {
            try
                ([
                    "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                    "choices": [
                        [
                            "index": 0, "delta": ["tool_calls": toolCalls, "content": ""],
                            "finish_reason": finish.map(JSONValue.string) ?? .null,
                        ]
                    ],
                ] as JSONValue).decode()
        }
        func call(_ index: Int, id: String? = nil, name: String? = nil, arguments: String) -> JSONValue {
            var function: JSONObject = ["arguments": .string(arguments)]
            if let name { function["name"] = .string(name) }
            var object: JSONObject = ["index": .int(index), "function": .object(function)]
            if let id {
                object["id"] = .string(id)
                object["type"] = "function"
            }
            return .object(object)
        }
        var accumulator = ChatCompletionStreamAccumulator()
        var events: [ChatCompletionStreamAccumulator.Event] = []
        events += accumulator.append(try chunk([call(0, id: "call_a", name: "weather", arguments: "{\"city\":")]))
        events += accumulator.append(try chunk([call(0, arguments: "\"Paris\"}")]))
        events += accumulator.append(try chunk([call(1, id: "call_b", name: "time", arguments: "{}")]))
        // A late fragment for the first call (servers do not, but nothing forbids it).
        events += accumulator.append(try chunk([call(0, arguments: " ")]))
        events += accumulator.append(try chunk([], finish: "tool_calls"))
        let dones = events.filter { if case .toolCallArgumentsDone = $0 { true } else { false } }
        XCTAssertEqual(
            dones,
            [
                .toolCallArgumentsDone(choice: 0, toolCall: 0, name: "weather", arguments: "{\"city\":\"Paris\"}"),
                .toolCallArgumentsDone(choice: 0, toolCall: 1, name: "time", arguments: "{}"),
            ])
        XCTAssertEqual(accumulator.toolCallArguments(0), "{\"city\":\"Paris\"} ")
        XCTAssertFalse(events.contains { if case .contentDone = $0 { true } else { false } }, "empty content")
        XCTAssertTrue(accumulator.isComplete)
    }

    // MARK: Error events

    func testATypedErrorEventArrivesBeforeTheThrowWhenAsked() async throws {
        let body = try Data(contentsOf: try SharedData.file("fixtures/responses/stream/spec-examples/error.sse"))
        let request = CreateResponse(model: "gpt-4o", input: "Hi")
        let delivering = try StreamingTestSupport.client(ScriptedStreamTransport(body: body))
        var received: [ResponseStreamEvent] = []
        let error = await XCTAssertThrowsOpenAIError {
            for try await event in try delivering.responses.createStream(request).deliveringErrorEvents() {
                received.append(event)
            }
        }
        guard case .error(let event)? = received.first, received.count == 1 else {
            return XCTFail("expected the error event, got \(received)")
        }
        XCTAssertEqual(event.code, "ERR_SOMETHING")
        XCTAssertEqual(event.message, "Something went wrong")
        XCTAssertEqual(error?.kind, .server)
        XCTAssertEqual(error?.code, "ERR_SOMETHING")

        let plain = try StreamingTestSupport.client(ScriptedStreamTransport(body: body))
        var count = 0
        let thrown = await XCTAssertThrowsOpenAIError {
            for try await _ in try plain.responses.createStream(request) { count += 1 }
        }
        XCTAssertEqual(count, 0, "without the option the error is thrown at once")
        XCTAssertEqual(thrown?.code, "ERR_SOMETHING")

        // Chat Completions has no typed error event: the error is thrown at once, not yielded
        // as a placeholder chunk.
        let chatError = Data(
            ("data: " + #"{"error":{"message":"overloaded","type":"server_error","code":"busy"}}"# + "\n\n").utf8)
        let chat = try StreamingTestSupport.client(ScriptedStreamTransport(body: chatError))
        var chunks = 0
        let chatThrown = await XCTAssertThrowsOpenAIError {
            for try await _ in try chat.chat.completions.createStream(Self.chatRequest).deliveringErrorEvents() {
                chunks += 1
            }
        }
        XCTAssertEqual(chunks, 0)
        XCTAssertEqual(chatThrown?.code, "busy")
    }

    // MARK: close()

    func testCloseEndsAStreamMidwayAndClosesTheConnection() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        // One chunk every 5 s: without close() the stream would take far longer than the test.
        let client = try server.client(
            headers: ["x-testserver-scenario": scenario, "x-testserver-chunk-delay-ms": "5000"])
        let stream = try client.chat.completions.createStream(Self.chatRequest)
        let started = ContinuousClock.now
        var received = 0
        for try await _ in stream {
            received += 1
            if received == 1 {
                Task {
                    try await Task.sleep(for: .milliseconds(200))
                    stream.close()
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(received, 1)
        XCTAssertTrue(stream.isClosed)
        XCTAssertLessThan(elapsed, .seconds(4), "closing does not wait for the next chunk")
        var disconnected = false
        for _ in 0..<50 where !disconnected {
            disconnected = try await server.requests(scenario: scenario).first?.disconnected == true
            if !disconnected { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertTrue(disconnected, "the server saw the connection close")
    }

    /// A transport whose reply head never comes: `stream` waits until its task is cancelled.
    final class HangingTransport: HTTPTransport, Sendable {
        private let cancelled = Locked(false)
        var wasCancelled: Bool { cancelled.withLock { $0 } }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
            throw OpenAIError(kind: .timeout, message: "never")
        }
    }

    func testCloseCancelsARequestStillWaitingForItsHead() async throws {
        let transport = HangingTransport()
        let client = try StreamingTestSupport.client(transport)
        let stream = try client.chat.completions.createStream(Self.chatRequest)
        Task {
            try await Task.sleep(for: .milliseconds(200))
            stream.close()
        }
        let started = ContinuousClock.now
        var received = 0
        for try await _ in stream { received += 1 }
        XCTAssertEqual(received, 0)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
        XCTAssertTrue(transport.wasCancelled, "the waiting attempt was cancelled")
    }

    func testAStreamClosedBeforeIterationSendsNothing() async throws {
        let transport = ScriptedStreamTransport(body: Data("data: [DONE]\n\n".utf8))
        let client = try StreamingTestSupport.client(transport)
        let stream = try client.chat.completions.createStream(Self.chatRequest)
        stream.close()
        stream.close()
        var received = 0
        for try await _ in stream { received += 1 }
        XCTAssertEqual(received, 0)
        XCTAssertEqual(transport.requests.count, 0)
        // resend() makes an open stream.
        for try await _ in stream.resend() { received += 1 }
        XCTAssertEqual(transport.requests.count, 1)
    }
}
