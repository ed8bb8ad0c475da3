import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

private struct Forecast: Decodable, JSONSchemaDescribable {
    enum Sky: String, Decodable, CaseIterable { case clear, cloudy, rain, snow }
    struct Day: Decodable {
        var date: String
        var high: Double
        var low: Double
        var sky: Sky
    }

    var city: String
    var days: [Day]
    var warning: String?

    static var jsonSchemaDescription: String? { "A forecast for the coming days." }
    static var jsonSchemaPropertyDescriptions: [String: String] { ["warning": "A weather warning, if any."] }
}

private struct LookUpOrder: Decodable {
    var orderID: String
    var includeItems: Bool?
}

/// The schemas derived from Swift types travel in real requests, and the local server, which
/// checks them against the JSON Schema meta-schema and OpenAI's strict rules, accepts them.
final class StructuredOutputServerTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    func testDerivedFormatsAndToolsPassTheServersSchemaChecks() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])

        var chat: CreateChatCompletionRequest = try
            (["model": "gpt-4o", "messages": [["role": "user", "content": "Oslo?"]]]
            as JSONValue).decode()
        chat.responseFormat = try .jsonSchema(Forecast.self)
        chat.tools = [
            try .function(name: "look_up_order", description: "Finds an order.", arguments: LookUpOrder.self)
        ]
        _ = try await client.chat.completions.create(chat)

        var response: CreateResponse = try (["model": "gpt-4o", "input": "Oslo?"] as JSONValue).decode()
        response.text = ResponseTextParam(format: try .jsonSchema(Forecast.self, name: "forecast"))
        response.tools = [.function(try FunctionTool(name: "look_up_order", arguments: LookUpOrder.self))]
        _ = try await client.responses.create(response)

        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok", "ok"], "\(records.map(\.validationErrors))")
        let sent = try XCTUnwrap(records.first?.bodyJSON)
        let schema = try XCTUnwrap(sent["response_format"]?["json_schema"]?["schema"])
        XCTAssertEqual(sent["response_format"]?["json_schema"]?["strict"], true)
        XCTAssertEqual(sent["response_format"]?["json_schema"]?["name"], "Forecast")
        XCTAssertEqual(schema["required"], ["city", "days", "warning"])
        XCTAssertEqual(schema["properties"]?["warning"]?["type"], ["string", "null"])
        XCTAssertEqual(schema["$defs"]?["Day"]?["properties"]?["sky"]?["enum"], ["clear", "cloudy", "rain", "snow"])
        let parameters = try XCTUnwrap(sent["tools"]?.arrayValue?.first?["function"]?["parameters"])
        XCTAssertEqual(parameters["required"], ["orderID", "includeItems"])
        XCTAssertEqual(records.last?.bodyJSON?["text"]?["format"]?["name"], "forecast")
        XCTAssertEqual(records.last?.bodyJSON?["tools"]?.arrayValue?.first?["strict"], true)
    }

    /// The server's check is real: a schema that breaks the strict rules, sent without the SDK's
    /// own check, is rejected with the rule and where.
    func testTheServerRejectsASchemaThatBreaksTheStrictRules() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
        var chat: CreateChatCompletionRequest = try
            (["model": "gpt-4o", "messages": [["role": "user", "content": "hi"]]]
            as JSONValue).decode()
        chat.responseFormat = .jsonSchema(
            ResponseFormatJSONSchema(
                jsonSchema: .init(
                    name: "loose", schema: try JSONSchemaDocument(for: LookUpOrder.self).jsonObject(strict: false),
                    strict: true)))
        do {
            _ = try await client.chat.completions.create(chat)
            XCTFail("the server accepted a loose schema marked strict")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.statusCode, 400)
            XCTAssertTrue(
                error.message.contains(
                    "$.response_format.json_schema.schema: strict mode needs every property in `required`; missing ['includeItems']"
                ), error.message)
        }
    }

    private func chatRequest() throws -> CreateChatCompletionRequest {
        try (["model": "gpt-4o", "messages": [["role": "user", "content": "Forecast for Oslo?"]]] as JSONValue).decode()
    }

    /// `parse` sends the type's schema and decodes the reply that the server writes against it.
    func testParseDecodesTheStructuredReplyOrGivesTheRefusal() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
        let parsed = try await client.chat.completions.parse(try chatRequest(), as: Forecast.self)
        let forecast = try XCTUnwrap(parsed.output)
        XCTAssertEqual(forecast.city, "text")
        XCTAssertEqual(forecast.days.count, 1)
        XCTAssertEqual(forecast.days.first?.sky, .clear)
        XCTAssertEqual(forecast.days.first?.high, 1.5)
        XCTAssertNil(parsed.refusal)
        XCTAssertEqual(parsed.completion.choices.count, parsed.choices.count)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok"], "\(records.map(\.validationErrors))")
        XCTAssertEqual(records.first?.bodyJSON?["response_format"]?["type"], "json_schema")

        let refusing = try server.client(maxRetries: 0, headers: ["x-testserver-refusal": "I can't help with that."])
        let refused = try await refusing.chat.completions.parse(try chatRequest(), as: Forecast.self)
        XCTAssertNil(refused.output)
        XCTAssertEqual(refused.refusal, "I can't help with that.")

        var response: CreateResponse = try (["model": "gpt-4o", "input": "Forecast for Oslo?"] as JSONValue).decode()
        response.text = ResponseTextParam(verbosity: .low)
        let parsedResponse = try await client.responses.parse(response, as: Forecast.self)
        XCTAssertEqual(parsedResponse.output?.days.first?.low, 1.5)
        let sent = try await server.requests(scenario: scenario).last?.bodyJSON
        XCTAssertEqual(sent?["text"]?["verbosity"], "low")
        XCTAssertEqual(sent?["text"]?["format"]?["strict"], true)
        let refusedResponse = try await refusing.responses.parse(response, as: Forecast.self)
        XCTAssertNil(refusedResponse.output)
        XCTAssertEqual(refusedResponse.refusal, "I can't help with that.")
    }

    func testAnIncompleteResponseIsItsOwnError() async throws {
        let response: CreateResponse = try (["model": "gpt-4o", "input": "Forecast?"] as JSONValue).decode()
        for (reason, kind) in [("length", StructuredOutputError.Kind.lengthLimit), ("content_filter", .contentFilter)] {
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-finish-reason": reason])
            do {
                _ = try await client.responses.parse(response, as: Forecast.self)
                XCTFail("\(reason) did not throw")
            } catch let error as StructuredOutputError {
                XCTAssertEqual(error.kind, kind, "\(error)")
                XCTAssertNil(error.choiceIndex)
            }
        }
    }

    func testAReplyCutAtTheTokenLimitOrFilteredIsItsOwnError() async throws {
        for (reason, kind) in [("length", StructuredOutputError.Kind.lengthLimit), ("content_filter", .contentFilter)] {
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-finish-reason": reason])
            do {
                _ = try await client.chat.completions.parse(try chatRequest(), as: Forecast.self)
                XCTFail("\(reason) did not throw")
            } catch let error as StructuredOutputError {
                XCTAssertEqual(error.kind, kind, "\(error)")
                XCTAssertNotNil(error.content)
                XCTAssertEqual(error.choiceIndex, 0)
            }
        }
    }

    // MARK: Streaming

    /// What a screen shows while the forecast streams: every member optional.
    private struct PartialForecast: Decodable {
        struct Day: Decodable { var date: String? }
        var city: String?
        var days: [Day]?
    }

    /// The partial values grow towards the final one: each text is a prefix of the next, the
    /// last partial is the whole output, and typed partial values appear before the end.
    private func assertGrows(_ partials: [PartialOutput<Forecast>], finalText: String) {
        XCTAssertGreaterThan(partials.count, 10)
        for (early, late) in zip(partials, partials.dropFirst()) {
            XCTAssertTrue(late.text.hasPrefix(early.text))
            XCTAssertGreaterThan(late.text.count, early.text.count)
        }
        XCTAssertEqual(partials.last?.text, finalText)
        XCTAssertEqual(
            partials.last?.json, try? JSONDecoder().decode(JSONValue.self, from: Data(finalText.utf8)))
        let typed = partials.compactMap { $0.value(as: PartialForecast.self)?.city }
        XCTAssertFalse(typed.isEmpty)
        XCTAssertNotEqual(typed.first, typed.last, "the city is shown while it grows")
    }

    func testChatParseStreamYieldsTheValueSoFarThenTheParsedReply() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-delta-chars": "3"])
        var partials: [PartialOutput<Forecast>] = []
        var final: ParsedChatCompletion<Forecast>?
        for try await event in try client.chat.completions.parseStream(try chatRequest(), as: Forecast.self) {
            switch event {
            case .partial(let partial): partials.append(partial)
            case .completed(let parsed): final = parsed
            }
        }
        let parsed = try XCTUnwrap(final)
        let content = try XCTUnwrap(parsed.completion.choices.first?.message.content)
        assertGrows(partials, finalText: content)
        XCTAssertEqual(parsed.output?.city, partials.last?.value()?.city, "the last partial is the whole output")
        XCTAssertEqual(parsed.output?.days.count, partials.last?.value(as: PartialForecast.self)?.days?.count)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok"], "\(records.map(\.validationErrors))")
        XCTAssertEqual(records.first?.bodyJSON?["stream"], true)
        XCTAssertEqual(records.first?.bodyJSON?["response_format"]?["json_schema"]?["name"], "Forecast")
    }

    func testResponsesParseStreamYieldsTheValueSoFarThenTheParsedResponse() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(
            maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-delta-chars": "5"])
        var partials: [PartialOutput<Forecast>] = []
        var final: ParsedResponse<Forecast>?
        for try await event in try client.responses.parseStream(
            CreateResponse(model: "gpt-4.1", input: "Oslo?"), as: Forecast.self)
        {
            switch event {
            case .partial(let partial): partials.append(partial)
            case .completed(let parsed): final = parsed
            }
        }
        let parsed = try XCTUnwrap(final)
        assertGrows(partials, finalText: parsed.response.outputText)
        XCTAssertEqual(parsed.output?.city, partials.last?.value()?.city)
        XCTAssertEqual(parsed.response.status, .completed)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok"], "\(records.map(\.validationErrors))")
    }

    func testAStreamedRefusalOrCutOffEndsAsParseDoes() async throws {
        let refusing = try server.client(maxRetries: 0, headers: ["x-testserver-refusal": "I can't help with that."])
        var refusal: String?
        var partialCount = 0
        for try await event in try refusing.chat.completions.parseStream(try chatRequest(), as: Forecast.self) {
            switch event {
            case .partial: partialCount += 1
            case .completed(let parsed):
                XCTAssertNil(parsed.output)
                refusal = parsed.refusal
            }
        }
        XCTAssertEqual(refusal, "I can't help with that.")
        XCTAssertEqual(partialCount, 0)

        let cut = try server.client(maxRetries: 0, headers: ["x-testserver-finish-reason": "length"])
        var partials = 0
        do {
            for try await event in try cut.responses.parseStream(
                CreateResponse(model: "gpt-4.1", input: "Oslo?"), as: Forecast.self)
            {
                if case .partial = event { partials += 1 }
            }
            XCTFail("a response cut at max_output_tokens parsed")
        } catch let error as StructuredOutputError {
            XCTAssertEqual(error.kind, .lengthLimit)
            XCTAssertGreaterThan(partials, 0, "the partial values came before the error")
        }
    }
}
