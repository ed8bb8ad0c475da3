import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The typed streaming path (`client.stream` → ``OpenAIStream``) on scripted replies: the inputs
/// of public bug reports, error events, unknown events, non-2xx replies, retries of the initial
/// connection, `[DONE]`, cancellation and dropping the iterator.
final class StreamingBehaviorTests: XCTestCase {
    private static let textDelta =
        #"{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"#
        + #""content_index":0,"delta":"Hi","logprobs":[]}"#

    private static func chatChunk(_ content: String) -> String {
        #"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"#
            + #""delta":{"content":"\#(content)"},"finish_reason":null}]}"#
    }

    private func collect<Event>(_ stream: OpenAIStream<Event>) async throws -> [Event] {
        var events: [Event] = []
        for try await event in stream { events.append(event) }
        return events
    }

    // MARK: - Inputs from public bug reports

    func testResponsesFramesWithoutEventLineAreDecodedByTheirJSONType() async throws {
        let body = Data("data: \(Self.textDelta)\n\n".utf8)
        let events = try await StreamingTestSupport.decodeAll(body, as: ResponseStreamEvent.self, framing: .data)
        guard case .responseOutputTextDelta(let delta) = try XCTUnwrap(events.first) else {
            return XCTFail("expected response.output_text.delta, got \(events)")
        }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(delta.delta, "Hi")
        XCTAssertEqual(delta.sequenceNumber, 1)
    }

    func testEventErrorWithServerErrorPayloadEndsTheStreamWithItsMessageAndCode() async throws {
        let body = Data(
            ("event: response.output_text.delta\ndata: \(Self.textDelta)\n\n"
                + "event: error\n"
                + #"data: {"type":"error","code":"server_error","message":"The server had an error","sequence_number":4}"#
                + "\n\nevent: response.output_text.delta\ndata: \(Self.textDelta)\n\n").utf8)
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: body))
        var received: [ResponseStreamEvent] = []
        let error = await XCTAssertThrowsOpenAIError {
            for try await event in StreamingTestSupport.stream(client, as: ResponseStreamEvent.self, framing: .data) {
                received.append(event)
            }
        }
        XCTAssertEqual(received.count, 1, "the event before the error arrives, none after it")
        XCTAssertEqual(error?.message, "The server had an error")
        XCTAssertEqual(error?.code, "server_error")
        XCTAssertNil(error?.type, "the Responses event type `error` is not an API error type")
        XCTAssertEqual(error?.requestID, "req_test")
        XCTAssertEqual(error?.kind, .server)
        XCTAssertEqual(error?.rawBody.map { String(decoding: $0, as: UTF8.self) }?.contains("sequence_number"), true)
    }

    func testRetryOnlyAndKeepAliveOnlyBlocksBetweenEventsAreSkippedWithoutDecodeErrors() async throws {
        let body = Data(
            ("data: \(Self.chatChunk("A"))\n\nretry: 3000\n\n: keep-alive\n\ndata: \(Self.chatChunk("B"))\n\n"
                + "data: [DONE]\n\n").utf8)
        let events = try await StreamingTestSupport.decodeAll(
            body, as: CreateChatCompletionStreamResponse.self, framing: .data, chunkSize: 7)
        XCTAssertEqual(events.map { $0.choices.first?.delta.content }, ["A", "B"])
    }

    func testSingleDataLineOf200000BytesArrivesWhole() async throws {
        let image = String(repeating: "QUJD", count: 50_000)  // 200,000 bytes of base64
        let json =
            #"{"type":"image_generation.partial_image","b64_json":"\#(image)","created_at":1,"size":"1024x1024","#
            + #""quality":"low","background":"opaque","output_format":"png","partial_image_index":0}"#
        let body = Data("event: image_generation.partial_image\ndata: \(json)\n\n".utf8)
        let events = try await StreamingTestSupport.decodeAll(
            body, as: ImageGenStreamEvent.self, framing: .data, chunkSize: 1000)
        guard events.count == 1, case .imageGenerationPartialImage(let partial) = events[0] else {
            return XCTFail("expected one partial image, got \(events.count) events")
        }
        XCTAssertEqual(partial.b64JSON.utf8.count, 200_000)
        XCTAssertEqual(partial.b64JSON, image)
    }

    // MARK: - Errors

    func testChatPayloadWithNestedErrorObjectEndsTheStream() async throws {
        let body = Data(
            ("data: \(Self.chatChunk("A"))\n\n"
                + #"data: {"error":{"message":"Overloaded","type":"server_error","param":null,"code":"overloaded"}}"#
                + "\n\ndata: [DONE]\n\n").utf8)
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: body))
        var received = 0
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in StreamingTestSupport.stream(
                client, as: CreateChatCompletionStreamResponse.self, framing: .data)
            {
                received += 1
            }
        }
        XCTAssertEqual(received, 1)
        XCTAssertEqual(error?.message, "Overloaded")
        XCTAssertEqual(error?.code, "overloaded")
        XCTAssertEqual(error?.type, "server_error")
        XCTAssertEqual(error?.requestID, "req_test")
    }

    func testAssistantsEventErrorWithFlatErrorObjectEndsTheStream() async throws {
        let body = Data(
            ("event: error\n"
                + #"data: {"code":"rate_limit_exceeded","message":"Slow down","param":null,"type":"requests"}"#
                + "\n\n").utf8)
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await StreamingTestSupport.decodeAll(
                body, as: AssistantStreamEvent.self, framing: .eventNameAndData)
        }
        XCTAssertEqual(error?.message, "Slow down")
        XCTAssertEqual(error?.code, "rate_limit_exceeded")
        XCTAssertEqual(error?.type, "requests")
    }

    func testEventErrorWithNestedPayloadAndWithNonJSONData() async throws {
        let nested = Data(("event: error\n" + #"data: {"error":{"message":"Boom","code":500}}"# + "\n\n").utf8)
        let nestedError = await XCTAssertThrowsOpenAIError {
            _ = try await StreamingTestSupport.decodeAll(nested, as: ResponseStreamEvent.self, framing: .data)
        }
        XCTAssertEqual(nestedError?.message, "Boom")
        XCTAssertEqual(nestedError?.code, "500")
        let text = Data("event: error\ndata: upstream timeout\n\n".utf8)
        let textError = await XCTAssertThrowsOpenAIError {
            _ = try await StreamingTestSupport.decodeAll(text, as: ResponseStreamEvent.self, framing: .data)
        }
        XCTAssertEqual(textError?.message, "upstream timeout")
    }

    func testResponseObjectsWithNullErrorMemberAreNotErrors() async throws {
        // Every Responses lifecycle event carries `"error": null` inside its response.
        let directory = try SSETestSupport.fixturesDirectory()
        let body = try Data(contentsOf: directory.appendingPathComponent("responses/stream/dotnet-text-basic.sse"))
        let events = try await StreamingTestSupport.decodeAll(body, as: ResponseStreamEvent.self, framing: .data)
        XCTAssertEqual(events.count, 17)
        guard case .responseCompleted(let completed) = try XCTUnwrap(events.last) else {
            return XCTFail("expected response.completed last")
        }
        XCTAssertNil(completed.response.error)
    }

    func testKnownEventMissingRequiredMembersIsDeliveredWithThemRecorded() async throws {
        // An older API version's delta event without `item_id`, indices or `delta` (`logprobs`, an
        // array, reads as empty and is no deviation).
        let body = Data(#"data: {"type":"response.output_text.delta","sequence_number":1}"#.utf8 + Data("\n\n".utf8))
        let events = try await StreamingTestSupport.decodeAll(body, as: ResponseStreamEvent.self, framing: .data)
        guard events.count == 1, case .responseOutputTextDelta(let delta) = events[0] else {
            return XCTFail("\(events)")
        }
        XCTAssertEqual(delta.sequenceNumber, 1)
        XCTAssertEqual(delta.delta, "")
        XCTAssertEqual(
            delta.specDeviations.filter { $0.kind == .missing }.map(\.member).sorted(),
            ["content_index", "delta", "item_id", "output_index"])
    }

    func testKnownEventThatDoesNotDecodeThrowsDecodingErrorWithItsPathInStrictMode() async throws {
        let body = Data(#"data: {"type":"response.output_text.delta","sequence_number":1}"#.utf8 + Data("\n\n".utf8))
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: body), decodingMode: .strict)
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in StreamingTestSupport.stream(client, as: ResponseStreamEvent.self, framing: .data) {}
        }
        XCTAssertEqual(error?.kind, .decoding)
        XCTAssertEqual(error?.codingPath, "item_id")
    }

    func testNon2xxReplyThrowsTheSameErrorAsANonStreamingCall() async throws {
        let url = try SharedData.file("fixtures/errors/400-responses-decimal-below-min-value-on-stream-request.json")
        let errorBody = try Data(contentsOf: url)
        let headers = ["content-type": "application/json", "x-request-id": "req_400"]
        let transport = ScriptedStreamTransport([
            .stream(status: 400, headers: headers, chunks: ScriptedStreamTransport.split(errorBody, 50), hold: false)
        ])
        let client = try StreamingTestSupport.client(transport)
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await self.collect(
                StreamingTestSupport.stream(client, as: ResponseStreamEvent.self, framing: .data))
        }
        let expected = OpenAIError.fromResponse(HTTPResponse(statusCode: 400, headers: headers, body: errorBody))
        XCTAssertEqual(error?.kind, .badRequest)
        XCTAssertEqual(error?.statusCode, 400)
        XCTAssertEqual(error?.message, expected.message)
        XCTAssertEqual(error?.code, expected.code)
        XCTAssertEqual(error?.code, "decimal_below_min_value")
        XCTAssertEqual(error?.param, expected.param)
        XCTAssertEqual(error?.requestID, "req_400")
        XCTAssertEqual(error?.rawBody, errorBody)
        XCTAssertEqual(transport.requests.count, 1, "400 is not retried")
    }

    // MARK: - Unknown events

    func testUnknownResponsesEventTypeArrivesAsUnknownAndTheStreamContinues() async throws {
        let body = Data(
            ("event: response.brand_new_thing\n"
                + #"data: {"type":"response.brand_new_thing","sequence_number":0,"payload":{"a":[1,2]}}"#
                + "\n\ndata: \(Self.textDelta)\n\n").utf8)
        let events = try await StreamingTestSupport.decodeAll(body, as: ResponseStreamEvent.self, framing: .data)
        XCTAssertEqual(events.count, 2)
        guard case .unknown(let json) = events[0] else { return XCTFail("expected unknown, got \(events[0])") }
        XCTAssertEqual(json["type"], "response.brand_new_thing")
        XCTAssertEqual(json["payload"]?["a"], [1, 2])
        guard case .responseOutputTextDelta = events[1] else { return XCTFail("expected a text delta") }
    }

    func testAssistantsEventLineDecidesTheEventEvenWhenTheDataLooksLikeAKnownOne() async throws {
        // The data is a run object; the name is new: it must not become a known run event.
        let body = Data(
            ("event: thread.run.brand_new\n" + #"data: {"id":"run_1","object":"thread.run","status":"queued"}"#
                + "\n\nevent: done\ndata: [DONE]\n\n").utf8)
        let events = try await StreamingTestSupport.decodeAll(
            body, as: AssistantStreamEvent.self, framing: .eventNameAndData)
        XCTAssertEqual(events.count, 1)
        guard case .unknown(let json) = try XCTUnwrap(events.first) else {
            return XCTFail("expected unknown, got \(events)")
        }
        XCTAssertEqual(json["event"], "thread.run.brand_new")
        XCTAssertEqual(json["data"]?["id"], "run_1")
    }

    // MARK: - Termination, retries, cancellation

    func testDoneEndsTheStreamCleanlyAndLaterFramesAreNotRead() async throws {
        let body = Data(
            ("data: \(Self.chatChunk("A"))\n\ndata:\n\ndata: [DONE]\n\ndata: \(Self.chatChunk("B"))\n\n").utf8)
        let transport = ScriptedStreamTransport(body: body)
        let client = try StreamingTestSupport.client(transport)
        let events = try await collect(
            StreamingTestSupport.stream(client, as: CreateChatCompletionStreamResponse.self, framing: .data))
        XCTAssertEqual(events.map { $0.choices.first?.delta.content }, ["A"])
        XCTAssertEqual(transport.requests.first?.value(forHeader: "Accept"), "text/event-stream")
    }

    func testInitialConnectionIsRetriedLikeANonStreamingRequest() async throws {
        let body = Data("data: \(Self.chatChunk("A"))\n\ndata: [DONE]\n\n".utf8)
        let transport = ScriptedStreamTransport([
            .failure(OpenAIError(kind: .connection, message: "refused")),
            .stream(status: 503, headers: ["x-request-id": "req_503"], chunks: [Data("{}".utf8)], hold: false),
            .stream(status: 200, headers: [:], chunks: [body], hold: false),
        ])
        let client = try StreamingTestSupport.client(transport, maxRetries: 2)
        let events = try await collect(
            StreamingTestSupport.stream(client, as: CreateChatCompletionStreamResponse.self, framing: .data))
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(transport.requests.count, 3)

        let exhausted = ScriptedStreamTransport([
            .stream(status: 500, headers: ["x-request-id": "req_500"], chunks: [Data("{}".utf8)], hold: false)
        ])
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await self.collect(
                StreamingTestSupport.stream(
                    try StreamingTestSupport.client(exhausted, maxRetries: 1),
                    as: CreateChatCompletionStreamResponse.self,
                    framing: .data))
        }
        XCTAssertEqual(error?.statusCode, 500)
        XCTAssertEqual(error?.requestID, "req_500")
        XCTAssertEqual(exhausted.requests.count, 2)
    }

    func testDroppingTheIteratorTerminatesTheBodyStream() async throws {
        let body = Data("data: \(Self.chatChunk("A"))\n\n".utf8)
        let transport = ScriptedStreamTransport([.stream(status: 200, headers: [:], chunks: [body], hold: true)])
        let client = try StreamingTestSupport.client(transport)
        do {
            var iterator = StreamingTestSupport.stream(
                client, as: CreateChatCompletionStreamResponse.self, framing: .data
            ).makeAsyncIterator()
            let first = try await iterator.next()
            XCTAssertEqual(first?.choices.first?.delta.content, "A")
            XCTAssertTrue(transport.terminations.isEmpty)
        }
        // The body's iterator ends with the stream's; Swift may destroy it a moment after its scope
        // (under ThreadSanitizer it has), so the close is awaited, within a bound.
        try await waitUntil { !transport.terminations.isEmpty }
        XCTAssertEqual(transport.terminations.count, 1, "dropping the iterator closes the body")
    }

    func testCancellingTheConsumingTaskThrowsCancelledAndTerminatesTheBody() async throws {
        let body = Data("data: \(Self.chatChunk("A"))\n\n".utf8)
        let transport = ScriptedStreamTransport([.stream(status: 200, headers: [:], chunks: [body], hold: true)])
        let client = try StreamingTestSupport.client(transport)
        let (firstEvent, signal) = AsyncStream<Void>.makeStream()
        let task = Task { () -> OpenAIError? in
            do {
                for try await _ in StreamingTestSupport.stream(
                    client, as: CreateChatCompletionStreamResponse.self, framing: .data)
                {
                    signal.yield()
                }
                return nil
            } catch let error as OpenAIError {
                return error
            } catch {
                return nil
            }
        }
        for await _ in firstEvent { break }
        task.cancel()
        let error = await task.value
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertEqual(transport.terminations.count, 1)
        if case .cancelled = transport.terminations.first {
        } else {
            XCTFail("expected a cancelled termination, got \(transport.terminations)")
        }
    }

    func testMidStreamTransportFailureEndsTheStreamWithoutRetrying() async throws {
        let transport = FailingBodyTransport(
            first: Data("data: \(Self.chatChunk("A"))\n\n".utf8),
            error: OpenAIError(kind: .connection, message: "connection reset"))
        let client = try StreamingTestSupport.client(transport)
        var received = 0
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in StreamingTestSupport.stream(
                client, as: CreateChatCompletionStreamResponse.self, framing: .data)
            {
                received += 1
            }
        }
        XCTAssertEqual(received, 1)
        XCTAssertEqual(error?.kind, .connection)
        XCTAssertEqual(transport.attempts, 1)
    }
}

/// A transport whose body yields one chunk and then fails.
private final class FailingBodyTransport: HTTPTransport, Sendable {
    private let first: Data
    private let error: OpenAIError
    private let attemptCount = Locked(0)

    init(first: Data, error: OpenAIError) {
        self.first = first
        self.error = error
    }

    var attempts: Int { attemptCount.withLock { $0 } }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        throw error
    }

    func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        attemptCount.withLock { $0 += 1 }
        let (first, error) = (first, error)
        return HTTPStreamingResponse(
            statusCode: 200, headers: [:],
            body: AsyncThrowingStream { continuation in
                continuation.yield(first)
                continuation.finish(throwing: error)
            })
    }
}
