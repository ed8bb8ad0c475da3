import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The Responses run loop and conversation helpers, against the local server acting as a model
/// that calls every function tool it is offered (`x-testserver-tool-rounds`), and on recorded
/// replies.
final class ResponsesToolRunnerTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    func testParallelCallsRunAtOnceAndTheWholeConversationGoesBack() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-tool-rounds": "1"])
        let probe = ConcurrencyProbe()
        let run = try await client.responses.runTools(
            CreateResponse(model: "gpt-4.1", input: "Weather and time in Oslo?"),
            tools: try weatherAndTimeTools(probe: probe),
            options: RequestOptions(idempotencyKey: "k"))
        XCTAssertEqual(run.responses.count, 2)
        XCTAssertFalse(run.stoppedAtMaxRounds)
        XCTAssertEqual(run.outputText, "tool results: sunny in text | Error: the clock is broken")
        let mostAtOnce = await probe.mostAtOnce
        XCTAssertEqual(mostAtOnce, 2, "the two calls of one reply run concurrently")

        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok", "ok"], "\(records.map(\.validationErrors))")
        XCTAssertEqual(records.map { $0.headers["idempotency-key"] }, ["k-round-1", "k-round-2"])
        let declared = try XCTUnwrap(records.first?.bodyJSON?["tools"]?.arrayValue)
        XCTAssertEqual(declared.map { $0["name"] }, ["get_weather", "get_time"])
        XCTAssertEqual(declared.map { $0["type"] }, ["function", "function"])
        XCTAssertEqual(declared.first?["strict"], true)
        let input = try XCTUnwrap(records.last?.bodyJSON?["input"]?.arrayValue)
        XCTAssertEqual(
            input.map { $0["type"] },
            ["message", "function_call", "function_call", "function_call_output", "function_call_output"])
        XCTAssertEqual(input[0]["role"], "user")
        XCTAssertEqual(input[1]["call_id"], "call_1_0")
        XCTAssertEqual(input[1]["id"], "fc_1_0", "the call goes back as the model sent it")
        XCTAssertEqual(input[3], ["type": "function_call_output", "call_id": "call_1_0", "output": "sunny in text"])
        XCTAssertEqual(input[4]["output"], "Error: the clock is broken")
        // The conversation: the input, both calls, both results, the final message.
        XCTAssertEqual(run.items.count, 6)
        guard case .item(.outputMessage(let final)) = run.items.last else { return XCTFail("\(run.items)") }
        XCTAssertEqual(final.id, "msg_testserver")
    }

    func testTheStreamedLoopYieldsEventsCallsAndResultsAsTheyHappen() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0,
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-tool-rounds": "1", "x-testserver-delta-chars": "5",
            ])
        var order: [String] = []
        var argumentDeltas = 0
        var finished: ResponseToolRun?
        for try await event in client.responses.runToolsStream(
            CreateResponse(model: "gpt-4.1", input: "Weather and time in Oslo?"), tools: try weatherAndTimeTools())
        {
            switch event {
            case .event(let event, let round):
                if case .responseFunctionCallArgumentsDelta = event { argumentDeltas += 1 }
                if order.last != "events \(round)" { order.append("events \(round)") }
            case .toolCall(let call): order.append("call \(call.id)")
            case .toolResult(let call, _): order.append("result \(call.id)")
            case .finished(let run): finished = run
            }
        }
        XCTAssertEqual(order.first, "events 1")
        XCTAssertEqual(order.last, "events 2")
        XCTAssertEqual(Array(order.dropFirst().prefix(2)), ["call call_1_0", "call call_1_1"])
        XCTAssertEqual(Set(order.dropFirst(3).prefix(2)), ["result call_1_0", "result call_1_1"])
        XCTAssertGreaterThan(argumentDeltas, 2)
        let run = try XCTUnwrap(finished)
        XCTAssertEqual(run.outputText, "tool results: sunny in text | Error: the clock is broken")
        XCTAssertEqual(run.items.count, 6)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok", "ok"], "\(records.map(\.validationErrors))")
        XCTAssertEqual(
            records.last?.bodyJSON?["input"]?.arrayValue?.map { $0["type"] },
            ["message", "function_call", "function_call", "function_call_output", "function_call_output"])
        // The call goes back with the arguments assembled from their deltas.
        let arguments = try XCTUnwrap(records.last?.bodyJSON?["input"]?.arrayValue?[1]["arguments"]?.stringValue)
        XCTAssertEqual(
            try JSONDecoder().decode(JSONValue.self, from: Data(arguments.utf8)), ["city": "text", "unit": "text"])
    }

    func testADeclinedCallIsNotRunAndTheModelIsToldWhy() async throws {
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-tool-rounds": "1"])
        let asked = LockedRequests()
        let run = try await client.responses.runTools(
            CreateResponse(model: "gpt-4.1", input: "Weather?"), tools: try weatherAndTimeTools()
        ) { call in
            asked.append(call)
            return call.name == "get_time" ? .decline(reason: "not now") : .approve
        }
        XCTAssertEqual(run.outputText, "tool results: sunny in text | The call was declined: not now")
        XCTAssertEqual(asked.all.map(\.name).sorted(), ["get_time", "get_weather"])
        XCTAssertEqual(Set(asked.all.map(\.id)), ["call_1_0", "call_1_1"])
    }

    func testTheLoopStopsAtMaxRounds() async throws {
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-tool-rounds": "5"])
        let run = try await client.responses.runTools(
            CreateResponse(model: "gpt-4.1", input: "Weather?"), tools: try weatherAndTimeTools(), maxRounds: 2)
        XCTAssertTrue(run.stoppedAtMaxRounds)
        XCTAssertEqual(run.responses.count, 2)
        XCTAssertEqual(run.outputText, "")
        guard case .functionCall(let call) = run.response.output.first else { return XCTFail("\(run.response.output)") }
        XCTAssertEqual(call.callID, "call_2_0")
    }

    func testWithAConversationEachNextRequestCarriesOnlyTheResults() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-tool-rounds": "1"])
        let run = try await client.responses.runTools(
            CreateResponse(model: "gpt-4.1", input: "Weather?", conversation: .string("conv_1")),
            tools: try weatherAndTimeTools(),
            maxRounds: 2)
        XCTAssertEqual(run.responses.count, 2)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok", "ok"], "\(records.map(\.validationErrors))")
        let second = try XCTUnwrap(records.last?.bodyJSON)
        XCTAssertEqual(second["conversation"], "conv_1")
        XCTAssertEqual(
            second["input"]?.arrayValue?.map { $0["type"] }, ["function_call_output", "function_call_output"])
    }

    func testCancellationStopsTheLoopWhileAToolRuns() async throws {
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-tool-rounds": "3"])
        let slow = try RunnableFunction(name: "slow", arguments: NoArguments.self) { _ in
            try await Task.sleep(nanoseconds: 10_000_000_000)
            return "late"
        }
        let task = Task {
            try await client.responses.runTools(CreateResponse(model: "gpt-4.1", input: "Go"), tools: [slow])
        }
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

    /// Every recorded reply's output goes back as input items: each one typed (not `unknown`),
    /// with the same JSON as the output item apart from its `null` members, and the
    /// spec-validating server accepts all of them as a request's `input`.
    func testRecordedOutputsBecomeInputItemsTheServerAccepts() async throws {
        let folder = try SharedData.file("fixtures/responses/json")
        var items: [InputItem] = []
        var replies = 0
        for url in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        where url.pathExtension == "json" {
            let data = try Data(contentsOf: url)
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: data), json["object"] == "response" else {
                continue
            }
            let response = try JSONDecoder().decode(Response.self, from: data)
            let converted = try response.toInputItems()
            XCTAssertEqual(converted.count, response.output.count, url.lastPathComponent)
            for (output, input) in zip(response.output, converted) {
                if case .unknown = input { XCTFail("\(url.lastPathComponent): \(output) went back untyped") }
                XCTAssertEqual(
                    try JSONValue(encoding: input).withoutNulls, try JSONValue(encoding: output).withoutNulls,
                    url.lastPathComponent)
            }
            items += converted
            replies += 1
        }
        XCTAssertGreaterThan(replies, 50)
        XCTAssertGreaterThan(items.count, 100)

        let scenario = TestServer.scenario()
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
        // Web search sources of type `api` (dotnet-web-search*.json) are real traffic the spec does
        // not describe (Spec/overrides.json corrects the reply types); the server validates against
        // the uncorrected spec, so they are left out of what it checks.
        let sent = try JSONValue(encoding: items).removingAPISources
        _ = try await client.responses.create(CreateResponse(model: "gpt-4.1", input: .unknown(sent)))
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok"], "\(records.map(\.validationErrors))")
    }

    func testTextInputIsOneUserMessage() throws {
        XCTAssertEqual(
            try JSONValue(encoding: InputParam.string("Hi").items()),
            [["type": "message", "role": "user", "content": "Hi"]])
        XCTAssertEqual(
            try JSONValue(encoding: InputItem.functionCallOutput(callID: "c", output: "42")),
            ["type": "function_call_output", "call_id": "c", "output": "42"])
    }
}

extension JSONValue {
    /// This value without the elements of a `sources` array whose `type` is `api`, at any depth.
    fileprivate var removingAPISources: JSONValue {
        switch self {
        case .object(let members):
            .object(
                JSONObject(
                    members.map { key, value in
                        guard key == "sources", case .array(let sources) = value else {
                            return (key, value.removingAPISources)
                        }
                        return (key, .array(sources.filter { $0["type"] != "api" }))
                    }))
        case .array(let items): .array(items.map(\.removingAPISources))
        default: self
        }
    }

    /// This value with every `null` object member left out, at any depth.
    fileprivate var withoutNulls: JSONValue {
        switch self {
        case .object(let members): .object(members.filter { $0.value != .null }.mapValues(\.withoutNulls))
        case .array(let items): .array(items.map(\.withoutNulls))
        default: self
        }
    }
}
