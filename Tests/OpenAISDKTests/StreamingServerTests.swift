import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Streaming end to end against the local test server (Scripts/servers/testserver) over the real
/// ``URLSessionTransport``: the server validates each request against the spec and replays a
/// recorded `.sse` fixture frame by frame, injects an error event mid-stream, or records that the
/// client disconnected.
final class StreamingServerTests: XCTestCase {
    private var scenario = ""
    private var client: OpenAIClient!

    private func makeClient(_ name: String = #function, headers: [String: String] = [:]) throws -> OpenAIClient {
        scenario = TestServer.scenario(name)
        return try TestServer.shared().client(
            maxRetries: 1, headers: ["x-testserver-scenario": scenario].merging(headers) { $1 }, sleeper: NoSleep())
    }

    private static let chatBody: JSONValue = [
        "model": "gpt-4o", "messages": [["role": "user", "content": "Hello"]], "stream": true,
    ]
    private static let responsesBody: JSONValue = ["model": "gpt-4o", "input": "Hello", "stream": true]

    /// The generated `createStream` method, so its ending rule is the one users get.
    private func chatStream(_ client: OpenAIClient) throws -> OpenAIStream<CreateChatCompletionStreamResponse> {
        try client.chat.completions.createStream(try Self.chatBody.decode())
    }

    private func responsesStream(_ client: OpenAIClient) throws -> OpenAIStream<ResponseStreamEvent> {
        try client.responses.createStream(try Self.responsesBody.decode())
    }

    func testChatCompletionStreamEndToEndAssemblesTheRecordedAnswer() async throws {
        let client = try makeClient(headers: ["x-testserver-fixture": "chat-completions/stream/py-plain-text.sse"])
        var accumulator = ChatCompletionStreamAccumulator()
        for try await chunk in try chatStream(client) { accumulator.append(chunk) }
        XCTAssertEqual(accumulator.chunkCount, 33)
        let completion = try XCTUnwrap(accumulator.completion)
        XCTAssertEqual(completion.id, "chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL")
        XCTAssertEqual(completion.choices.first?.finishReason, .stop)
        XCTAssertTrue(completion.choices.first?.message.content?.hasPrefix("I'm unable to provide real-time") ?? false)
        let records = try await TestServer.shared().requests(scenario: scenario)
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.validation, "ok")
        XCTAssertEqual(records.first?.headers["accept"] ?? records.first?.headers["Accept"], "text/event-stream")
    }

    func testResponsesStreamEndToEndGivesTheCompletedResponse() async throws {
        let client = try makeClient(headers: ["x-testserver-fixture": "responses/stream/dotnet-text-basic.sse"])
        var accumulator = try ResponseStreamAccumulator()
        var count = 0
        for try await event in try responsesStream(client) {
            try accumulator.apply(event)
            count += 1
        }
        XCTAssertEqual(count, 17)
        let response = try XCTUnwrap(accumulator.finalResponse)
        XCTAssertTrue(response.id.hasPrefix("resp_0b70e4946283a4df"))
        XCTAssertFalse(accumulator.outputText.isEmpty)
        XCTAssertEqual(accumulator.lastSequenceNumber, 16)
    }

    func testErrorEventInTheMiddleOfAResponsesStreamEndsItWithTheServerError() async throws {
        let client = try makeClient(headers: [
            "x-testserver-fixture": "responses/stream/dotnet-text-basic.sse", "x-testserver-stream-error-after": "3",
        ])
        var received = 0
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try self.responsesStream(client) { received += 1 }
        }
        XCTAssertEqual(received, 3)
        XCTAssertEqual(error?.kind, .server)
        XCTAssertEqual(error?.code, "server_error")
        XCTAssertFalse(error?.message.isEmpty ?? true)
        XCTAssertNotNil(error?.requestID)
    }

    func testErrorEventInTheMiddleOfAChatStreamEndsIt() async throws {
        let client = try makeClient(headers: [
            "x-testserver-fixture": "chat-completions/stream/py-plain-text.sse", "x-testserver-stream-error-after": "5",
        ])
        var received = 0
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try self.chatStream(client) { received += 1 }
        }
        XCTAssertEqual(received, 5)
        XCTAssertEqual(error?.kind, .server)
        XCTAssertNotNil(error?.requestID)
    }

    func testNon2xxReplyToAStreamingRequestThrowsTheAPIErrorWithItsBody() async throws {
        let client = try makeClient(headers: [
            "x-testserver-error-fixture": "errors/400-responses-decimal-below-min-value-on-stream-request.json"
        ])
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try self.responsesStream(client) {}
        }
        XCTAssertEqual(error?.statusCode, 400)
        XCTAssertEqual(error?.kind, .badRequest)
        XCTAssertEqual(error?.code, "decimal_below_min_value")
        XCTAssertNotNil(error?.rawBody)
    }

    func testResponsesStreamWhoseBodyEndsCleanlyInsideAnEventIsReportedAsTruncated() async throws {
        // The server terminates the chunked body properly, 100 bytes into the third frame: the
        // transport sees a normal end, the SDK sees bytes after the last complete event.
        let path = "responses/stream/dotnet-text-basic.sse"
        let frames = SSETestSupport.parse(Array(try Data(contentsOf: try SharedData.file("fixtures/" + path))))
        let twoFrames = frames.prefix(2).map { "event: \($0.event!)\ndata: \($0.data)\n\n" }.joined().utf8.count
        let client = try makeClient(headers: [
            "x-testserver-fixture": path, "x-testserver-end-after-bytes": String(twoFrames + 100),
        ])
        var received = 0
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try self.responsesStream(client) { received += 1 }
        }
        XCTAssertEqual(error?.kind, .truncatedEvent)
        XCTAssertEqual(received, 2)
        XCTAssertEqual(error?.stream?.eventCount, 2)
        // What arrived of the third frame after its `event:` line: the start of its `data:` line.
        let eventLine = "event: \(frames[2].event!)\n".utf8.count
        let raw = String(decoding: error?.rawBody ?? Data(), as: UTF8.self)
        XCTAssertEqual(raw.utf8.count, 100 - eventLine)
        XCTAssertTrue(raw.hasPrefix("data: {\"type\":\"\(frames[2].event!)\""), raw)
        let records = try await TestServer.shared().requests(scenario: scenario)
        XCTAssertEqual(records.first?.raw["ended_early"], true)
    }

    func testResponsesStreamWhoseBodyEndsCleanlyBetweenEventsIsReportedAsMissingItsEnd() async throws {
        let path = "responses/stream/dotnet-text-basic.sse"
        let frames = SSETestSupport.parse(Array(try Data(contentsOf: try SharedData.file("fixtures/" + path))))
        let threeFrames = frames.prefix(3).map { "event: \($0.event!)\ndata: \($0.data)\n\n" }.joined().utf8.count
        let client = try makeClient(headers: [
            "x-testserver-fixture": path, "x-testserver-end-after-bytes": String(threeFrames),
        ])
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try self.responsesStream(client) {}
        }
        XCTAssertEqual(error?.kind, .missingTerminalEvent)
        XCTAssertEqual(error?.stream?.eventCount, 3)
        XCTAssertEqual(error?.stream?.lastEventType, frames[2].event)
    }

    func testChatStreamWhoseBodyEndsBeforeItsLastChoiceFinishedIsReported() async throws {
        let path = "chat-completions/stream/py-plain-text.sse"
        let frames = SSETestSupport.parse(Array(try Data(contentsOf: try SharedData.file("fixtures/" + path))))
        let tenFrames = frames.prefix(10).map { "data: \($0.data)\n\n" }.joined().utf8.count
        let client = try makeClient(headers: [
            "x-testserver-fixture": path, "x-testserver-end-after-bytes": String(tenFrames),
        ])
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try self.chatStream(client) {}
        }
        XCTAssertEqual(error?.kind, .unfinishedChoices)
        XCTAssertEqual(error?.stream?.unfinishedChoices, [0])
    }

    func testChatStreamWhoseConnectionDropsMidStreamIsAConnectionErrorOrACutOff() async throws {
        let client = try makeClient(headers: [
            "x-testserver-fixture": "chat-completions/stream/py-plain-text.sse", "x-testserver-drop-after-frames": "5",
        ])
        var received = 0
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try self.chatStream(client) { received += 1 }
        }
        XCTAssertEqual(received, 5)
        // The socket closes without ending the chunked body: libcurl reports it (connection), or,
        // when it does not, the SDK does (unfinished choices). It never looks complete.
        XCTAssertTrue([.connection, .unfinishedChoices].contains(error?.kind), "\(String(describing: error))")
    }

    func testInitialConnectionIsRetriedAfterA500() async throws {
        let client = try makeClient(headers: [
            "x-testserver-fixture": "chat-completions/stream/py-plain-text.sse", "x-testserver-fail-times": "1",
        ])
        var count = 0
        for try await _ in try chatStream(client) { count += 1 }
        XCTAssertEqual(count, 33)
        let records = try await TestServer.shared().requests(scenario: scenario)
        XCTAssertEqual(records.map(\.status), [500, 200])
    }

    func testCancellingTheConsumerClosesTheConnectionPromptly() async throws {
        let client = try makeClient(headers: [
            "x-testserver-fixture": "chat-completions/stream/py-plain-text.sse", "x-testserver-chunk-delay-ms": "200",
        ])
        let stream = try chatStream(client)
        let (firstEvent, signal) = AsyncStream<Void>.makeStream()
        let task = Task { () -> OpenAIError? in
            do {
                for try await _ in stream { signal.yield() }
                return nil
            } catch let error as OpenAIError {
                return error
            } catch {
                return nil
            }
        }
        for await _ in firstEvent { break }
        let cancelledAt = Date()
        task.cancel()
        let error = await task.value
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 1.0, "the iteration ends at once")
        // The server notices the closed socket at its next frame (200 ms later).
        var disconnected = false
        for _ in 0..<40 where !disconnected {
            try await Task.sleep(nanoseconds: 50_000_000)
            disconnected = try await TestServer.shared().requests(scenario: scenario).first?.disconnected ?? false
        }
        XCTAssertTrue(disconnected, "the test server recorded the disconnect")
    }
}
