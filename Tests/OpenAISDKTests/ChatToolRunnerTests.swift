import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The run loop against the local server acting as a model that calls every tool it is offered
/// (`x-testserver-tool-rounds`), then answers with the results it was sent.
final class ChatToolRunnerTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    private func request() throws -> CreateChatCompletionRequest {
        try (["model": "gpt-4o", "messages": [["role": "user", "content": "Weather and time in Oslo?"]]] as JSONValue)
            .decode()
    }

    func testParallelCallsRunAtOnceAndResultsAndErrorsGoBackInOrder() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-tool-rounds": "1"])
        let probe = ConcurrencyProbe()
        let run = try await client.chat.completions.runTools(
            try request(), tools: try weatherAndTimeTools(probe: probe), options: RequestOptions(idempotencyKey: "k"))
        XCTAssertEqual(run.completions.count, 2)
        XCTAssertFalse(run.stoppedAtMaxRounds)
        XCTAssertEqual(run.content, "tool results: sunny in text | Error: the clock is broken")
        let mostAtOnce = await probe.mostAtOnce
        XCTAssertEqual(mostAtOnce, 2, "the two calls of one reply run concurrently")
        // user, assistant with two tool calls, two tool results, the final answer.
        XCTAssertEqual(run.messages.count, 5)
        guard case .assistant(let final) = run.messages.last else { return XCTFail("\(run.messages)") }
        XCTAssertEqual(final.content, .string("tool results: sunny in text | Error: the clock is broken"))
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok", "ok"], "\(records.map(\.validationErrors))")
        XCTAssertEqual(records.map { $0.headers["idempotency-key"] }, ["k-round-1", "k-round-2"])
        let second = try XCTUnwrap(records.last?.bodyJSON?["messages"]?.arrayValue)
        XCTAssertEqual(second.map { $0["role"] }, ["user", "assistant", "tool", "tool"])
        XCTAssertEqual(second[1]["tool_calls"]?.arrayValue?.map { $0["id"] }, ["call_1_0", "call_1_1"])
        XCTAssertEqual(second[2]["tool_call_id"], "call_1_0")
        XCTAssertEqual(second[3]["content"], "Error: the clock is broken")
        let declared = try XCTUnwrap(records.first?.bodyJSON?["tools"]?.arrayValue)
        XCTAssertEqual(declared.map { $0["function"]?["name"] }, ["get_weather", "get_time"])
        XCTAssertEqual(declared.first?["function"]?["strict"], true)
    }

    func testAtMostMaxConcurrentCallsRunAtOnceAndEveryResultGoesBackInOrder() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-tool-rounds": "1"])
        let probe = ConcurrencyProbe()
        // The test server's model calls every tool offered, at once: 12 calls in one reply.
        let tools = try (0..<12).map { index in
            try RunnableFunction(name: "tool_\(index)", arguments: NoArguments.self) { _ in
                await probe.enter()
                try await Task.sleep(for: .milliseconds(30))
                await probe.leave()
                return "done \(index)"
            }
        }
        let run = try await client.chat.completions.runTools(try request(), tools: tools, maxConcurrentCalls: 3)
        let mostAtOnce = await probe.mostAtOnce
        XCTAssertEqual(mostAtOnce, 3, "three calls at once, never more")
        XCTAssertEqual(run.content, "tool results: " + (0..<12).map { "done \($0)" }.joined(separator: " | "))
    }

    func testTwoToolsWithOneNameAreRefusedBeforeAnythingIsSent() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
        let tools = try weatherAndTimeTools() + [weatherAndTimeTools()[0]]
        do {
            _ = try await client.chat.completions.runTools(try request(), tools: tools)
            XCTFail("two tools named get_weather were sent")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
            XCTAssertEqual(
                error.message, "Two tools are named `get_weather`: a function's name must be unique among the tools.")
        }
        do {
            _ = try await client.responses.runTools(.init(model: "gpt-4.1", input: "Weather?"), tools: tools)
            XCTFail("two tools named get_weather were sent")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
        }
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 0)
    }

    func testTheStreamedLoopYieldsChunksCallsAndResultsAsTheyHappen() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0,
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-tool-rounds": "1", "x-testserver-delta-chars": "5",
            ])
        var kinds: [String] = []
        var arguments = ""
        var text = ""
        var finished: ChatToolRun?
        for try await event in client.chat.completions.runToolsStream(
            try request(), tools: try weatherAndTimeTools(probe: ConcurrencyProbe()))
        {
            switch event {
            case .event(let chunk, let round):
                kinds.append("chunk \(round)")
                for call in chunk.choices.first?.delta.toolCalls ?? [] {
                    if case .function(let function) = call { arguments += function.function?.arguments ?? "" }
                }
                if round == 2 { text += chunk.choices.first?.delta.content ?? "" }
            case .toolCall(let call): kinds.append("call \(call.name)")
            case .toolResult(let call, let output): kinds.append("result \(call.name): \(output)")
            case .finished(let run): finished = run
            }
        }
        // Runs of chunks collapse to one entry, to read the order.
        let order = kinds.reduce(into: [String]()) { order, kind in if order.last != kind { order.append(kind) } }
        XCTAssertEqual(order.first, "chunk 1")
        XCTAssertEqual(order.last, "chunk 2")
        XCTAssertEqual(Set(order.dropFirst().prefix(2)), ["call get_weather", "call get_time"])
        XCTAssertEqual(
            Set(order.dropFirst(3).prefix(2)),
            ["result get_weather: sunny in text", "result get_time: Error: the clock is broken"])
        XCTAssertGreaterThan(kinds.filter { $0 == "chunk 1" }.count, 4, "the arguments arrive in deltas")
        XCTAssertTrue(arguments.contains("\"city\""), arguments)
        let run = try XCTUnwrap(finished)
        XCTAssertEqual(run.completions.count, 2)
        XCTAssertEqual(run.content, "tool results: sunny in text | Error: the clock is broken")
        XCTAssertEqual(text, run.content)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok", "ok"], "\(records.map(\.validationErrors))")
        XCTAssertEqual(records.map { $0.bodyJSON?["stream"] }, [true, true])
        let second = try XCTUnwrap(records.last?.bodyJSON?["messages"]?.arrayValue)
        XCTAssertEqual(second.map { $0["role"] }, ["user", "assistant", "tool", "tool"])
    }

    func testADeclinedCallIsNotRunAndTheModelIsToldWhy() async throws {
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-tool-rounds": "1"])
        let probe = ConcurrencyProbe()
        let asked = LockedRequests()
        let run = try await client.chat.completions.runTools(
            try request(), tools: try weatherAndTimeTools(probe: probe)
        ) { call in
            asked.append(call)
            return call.name == "get_time" ? .decline(reason: "not now") : .approve
        }
        XCTAssertEqual(run.content, "tool results: sunny in text | The call was declined: not now")
        XCTAssertEqual(asked.all.map(\.name).sorted(), ["get_time", "get_weather"])
        let arguments = try XCTUnwrap(asked.all.first { $0.name == "get_weather" }?.arguments)
        XCTAssertEqual(
            try JSONDecoder().decode(JSONValue.self, from: Data(arguments.utf8)), ["city": "text", "unit": "text"])
        XCTAssertEqual(asked.all.map(\.round), [1, 1])
    }

    func testTheLoopStopsAtMaxRounds() async throws {
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-tool-rounds": "5"])
        let run = try await client.chat.completions.runTools(
            try request(), tools: try weatherAndTimeTools(probe: ConcurrencyProbe()), maxRounds: 2)
        XCTAssertTrue(run.stoppedAtMaxRounds)
        XCTAssertEqual(run.completions.count, 2)
        XCTAssertEqual(run.completion.choices.first?.message.toolCalls?.count, 2)
        XCTAssertNil(run.content)
    }

    func testCancellationStopsTheLoopWhileAToolRuns() async throws {
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-tool-rounds": "3"])
        let slow = try RunnableFunction(name: "slow", arguments: NoArguments.self) { _ in
            try await Task.sleep(nanoseconds: 10_000_000_000)
            return "late"
        }
        let body = try request()
        let task = Task { try await client.chat.completions.runTools(body, tools: [slow]) }
        try await Task.sleep(nanoseconds: 300_000_000)
        let start = Date()
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled run returned")
        } catch {
            // Cancelled while a tool runs (`CancellationError`) or during a request (`.cancelled`).
            XCTAssertTrue(
                error is CancellationError || (error as? OpenAIError)?.kind == .cancelled, "\(error)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        }
    }

    func testAReplyMessageBecomesTheNextRequestsAssistantMessage() throws {
        let reply: ChatCompletionResponseMessage = try
            ([
                "role": "assistant", "content": "Hi", "refusal": nil,
                "tool_calls": [["id": "c1", "type": "function", "function": ["name": "f", "arguments": "{}"]]],
            ] as JSONValue).decode()
        XCTAssertEqual(
            try JSONValue(encoding: reply.asRequestMessage),
            [
                "role": "assistant", "content": "Hi",
                "tool_calls": [["id": "c1", "type": "function", "function": ["name": "f", "arguments": "{}"]]],
            ])
    }
}
