import Foundation
import XCTest

@testable import OpenAI

/// The README's quick start, kept compiling: these are the calls the README shows, and the
/// request they build is checked against the JSON OpenAI's documentation sends.
final class ReadmeExampleTests: XCTestCase {
    /// The README's quick start, verbatim apart from the client being passed in.
    static func quickStart(_ client: OpenAIClient) async throws {
        let completion = try await client.chat.completions.create(
            .init(messages: [.user(.init(content: "Say hello."))], model: .gpt4o))
        print(completion.choices.first?.message.content ?? "")

        for try await chunk in try client.chat.completions.createStream(
            .init(messages: [.user(.init(content: "Count to 3."))], model: "gpt-4o-mini"))
        {
            print(chunk.choices.first?.delta.content ?? "", terminator: "")
        }
    }

    struct Forecast: Decodable {
        enum Sky: String, Decodable, CaseIterable { case clear, cloudy, rain }
        var city: String
        var high: Double
        var sky: Sky
        var warning: String?
    }

    struct LookUpOrder: Decodable { var orderID: String }

    /// The README's structured outputs and function tools, verbatim apart from the client.
    static func structuredOutputs(_ client: OpenAIClient) async throws {
        let parsed = try await client.chat.completions.parse(
            .init(messages: [.user(.init(content: "Tomorrow in Oslo?"))], model: .gpt4o), as: Forecast.self)
        print(parsed.output?.high ?? parsed.refusal ?? "")

        let reply = try await client.chat.completions.create(
            .init(
                messages: [.user(.init(content: "Where is order 42?"))], model: .gpt4o,
                tools: [
                    try .function(name: "look_up_order", description: "Finds an order.", arguments: LookUpOrder.self)
                ]))
        for case .function(let call) in reply.choices.first?.message.toolCalls ?? [] {
            print(try call.function.decodeArguments(as: LookUpOrder.self).orderID)
        }
    }

    /// The structured-output example against the local server: the derived schema passes the
    /// server's checks and the reply written against it decodes.
    func testStructuredOutputsExampleRunsAgainstTheLocalServer() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        try await Self.structuredOutputs(try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario]))
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.validation), ["ok", "ok"], "\(records.map(\.validationErrors))")
        XCTAssertEqual(
            records.first?.bodyJSON?["response_format"]?["json_schema"]?["schema"]?["required"],
            ["city", "high", "sky", "warning"])
        XCTAssertEqual(records.last?.bodyJSON?["tools"]?.arrayValue?.first?["function"]?["strict"], true)
    }

    func testQuickStartRequestEncodesAsTheAPIDocumentsIt() throws {
        _ = Self.quickStart  // The README code above must keep compiling.
        let request = CreateChatCompletionRequest(messages: [.user(.init(content: "Say hello."))], model: .gpt4o)
        let json = try JSONValue(encoding: request)
        XCTAssertEqual(json, ["messages": [["role": "user", "content": "Say hello."]], "model": "gpt-4o"])
    }
}
