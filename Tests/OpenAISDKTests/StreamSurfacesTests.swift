import Foundation
import OpenAICLI
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// One table of Chat Completions streams fed to the three surfaces that read them: the SDK's typed
/// stream, `openai … --stream` and `openai mcp`'s tool. The stream rules live in the runtime
/// (`OpenAIStream`), so the same bytes end the same way everywhere: the same events, the same
/// ending, the same error kind and message.
final class StreamSurfacesTests: XCTestCase {
    private struct Case {
        var name: String
        var body: String
        /// The chunks delivered (a non-JSON payload is skipped by every surface).
        var events: Int
        /// `nil`: the stream is complete; else the kind every surface reports and a part of its message.
        var failure: (kind: OpenAIError.Kind, message: String)?
        /// The merged text MCP returns for a complete stream.
        var content: String? = nil
    }

    private static func chunk(_ content: String?, finish: String? = nil, index: Int = 0) -> String {
        let delta = content.map { #"{"content":"\#($0)"}"# } ?? "{}"
        let reason = finish.map { "\"\($0)\"" } ?? "null"
        return
            #"data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":\#(index),"delta":\#(delta),"finish_reason":\#(reason)}]}"#
            + "\n\n"
    }

    private static let cases: [Case] = [
        Case(
            name: "done", body: chunk("Hel") + chunk("lo", finish: "stop") + "data: [DONE]\n\n", events: 2,
            failure: nil, content: "Hello"),
        Case(
            name: "finished choices without [DONE]", body: chunk("Hi") + chunk(nil, finish: "stop"), events: 2,
            failure: nil, content: "Hi"),
        Case(
            name: "keep-alive skipped", body: "data: keep-alive\n\n" + chunk("Yo", finish: "stop") + "data: [DONE]\n\n",
            events: 1, failure: nil, content: "Yo"),
        Case(
            name: "cut between events", body: chunk("Hel"), events: 1,
            failure: (.unfinishedChoices, "choice 0 had no finish_reason")),
        Case(
            name: "cut in an event", body: chunk("Hel") + #"data: {"id":"c1","choi"#, events: 1,
            failure: (.truncatedEvent, "in the middle of an event")),
        Case(
            name: "error event", body: chunk("Hel") + #"data: {"error":{"message":"overloaded now"}}"# + "\n\n",
            events: 1, failure: (.server, "overloaded now")),
    ]

    private static func transport(_ body: String) -> ScriptedStreamTransport {
        ScriptedStreamTransport([
            .stream(
                status: 200, headers: ["Content-Type": "text/event-stream", "x-request-id": "req_s"],
                chunks: ScriptedStreamTransport.split(Data(body.utf8), 7), hold: false)
        ])
    }

    func testTheSameStreamsEndTheSameWayInTheSDKTheCLIAndMCP() async throws {
        for test in Self.cases {
            // The SDK's typed stream.
            let client = try StreamingTestSupport.client(Self.transport(test.body), maxRetries: 0)
            var chunks = 0
            var sdkError: OpenAIError?
            do {
                let request = CreateChatCompletionRequest(messages: [.user(.init(content: "Hi"))], model: "m")
                for try await _ in try client.chat.completions.createStream(request) { chunks += 1 }
            } catch let error as OpenAIError {
                sdkError = error
            }
            XCTAssertEqual(chunks, test.events, "SDK: \(test.name)")
            XCTAssertEqual(sdkError?.kind, test.failure?.kind, "SDK: \(test.name): \(String(describing: sdkError))")
            if let failure = test.failure {
                XCTAssertTrue(sdkError?.message.contains(failure.message) == true, "SDK: \(test.name): \(sdkError!)")
            }

            // `openai chat:completions create --stream`, one JSON line per event.
            let terminal = Terminal.capturing()
            let status = await OpenAITool.run(
                [
                    "chat:completions", "create", "--model", "m", "--message", "{role: user, content: Hi}", "--stream",
                    "--format", "jsonl",
                ],
                environment: ["OPENAI_API_KEY": "sk-test-surfaces-0123"], terminal: terminal, stdin: { nil },
                transport: Self.transport(test.body))
            let printed = terminal.capturedText
            XCTAssertEqual(printed.output.split(separator: "\n").count, test.events, "CLI: \(test.name)")
            if let failure = test.failure {
                XCTAssertEqual(status, failure.kind == .server ? 5 : 7, "CLI: \(test.name): \(printed.error)")
                XCTAssertTrue(printed.error.contains(failure.message), "CLI: \(test.name): \(printed.error)")
                XCTAssertTrue(
                    printed.error.contains(sdkError?.message ?? "?"), "CLI says what the SDK says: \(test.name)")
            } else {
                XCTAssertEqual(status, 0, "CLI: \(test.name): \(printed.error)")
            }

            // `openai mcp`'s chat_completions_create tool with `stream: true`.
            let result = try await mcpCall(test.body)
            if let failure = test.failure {
                XCTAssertEqual(result["isError"] as? Bool, true, "MCP: \(test.name)")
                let text = ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
                XCTAssertTrue(text.contains(failure.message), "MCP: \(test.name): \(text)")
                XCTAssertTrue(text.contains(sdkError?.message ?? "?"), "MCP says what the SDK says: \(test.name)")
            } else {
                XCTAssertNil(result["isError"] as? Bool == true ? "error" : nil, "MCP: \(test.name): \(result)")
                let structured = result["structuredContent"] as? [String: Any]
                let choice = (structured?["choices"] as? [[String: Any]])?.first
                let message = choice?["message"] as? [String: Any]
                XCTAssertEqual(message?["content"] as? String, test.content, "MCP: \(test.name): \(result)")
                XCTAssertEqual(choice?["finish_reason"] as? String, "stop", "MCP: \(test.name)")
                XCTAssertEqual(structured?["object"] as? String, "chat.completion")
            }
        }
    }

    /// The result of one `tools/call` of `chat_completions_create` streaming `body`.
    private func mcpCall(_ body: String) async throws -> [String: Any] {
        var options = try MCPOptions.parse([])
        options.globals.apiKey = "sk-test-surfaces-0123"
        let output = Terminal.capturing()
        let server = try MCPServer(
            options: options, environment: ["OPENAI_API_KEY": "sk-test-surfaces-0123"], output: output,
            transport: Self.transport(body))
        let arguments = #"{"model":"m","messages":[{"role":"user","content":"Hi"}],"stream":true}"#
        server.handle(
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"chat_completions_create","arguments":\#(arguments)}}"#
        )
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            for line in output.capturedText.output.split(separator: "\n") {
                if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["id"] as? Int == 1
                {
                    return try XCTUnwrap(object["result"] as? [String: Any], "\(object)")
                }
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        XCTFail("no answer: \(output.capturedText.output)")
        return [:]
    }

    func testTheChunkMergeAppendsTextToolCallArgumentsAndReasoning() throws {
        var merge = ChatCompletionChunkMerge()
        let chunks = [
            #"{"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Let me "}}]}"#,
            #"{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"think.","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get","arguments":"{\"a\""}}]}}]}"#,
            #"{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]},"finish_reason":"tool_calls"}]}"#,
            #"{"id":"c1","choices":[],"usage":{"total_tokens":9}}"#,
        ]
        for chunk in chunks { merge.take(try JSONValue(parsing: Data(chunk.utf8))) }
        let completion = try XCTUnwrap(merge.completion)
        XCTAssertEqual(completion["object"], "chat.completion")
        let message = completion["choices"]?[0]?["message"]
        XCTAssertEqual(message?["role"], "assistant", "a role repeated by each chunk is not appended")
        XCTAssertEqual(message?["reasoning_content"], "Let me think.")
        XCTAssertEqual(message?["content"], .null)
        XCTAssertEqual(message?["tool_calls"]?[0]?["function"]?["arguments"], #"{"a":1}"#)
        XCTAssertEqual(message?["tool_calls"]?[0]?["id"], "call_1")
        XCTAssertNil(message?["tool_calls"]?[0]?["index"], "a completion's tool calls have no index")
        XCTAssertEqual(completion["choices"]?[0]?["finish_reason"], "tool_calls")
        XCTAssertEqual(completion["usage"]?["total_tokens"], 9)
    }
}
