import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The README's quick start, kept compiling: these are the calls the README shows (and BEHAVIOUR.md's
/// undeclared members example), and the request they build is checked against the JSON OpenAI's
/// documentation sends.
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

    struct Weather: Decodable { var city: String }

    /// The README's five everyday tasks, verbatim apart from the client and the file URLs being
    /// passed in.
    static func fiveTasks(_ client: OpenAIClient, pdf: URL, mp3: URL) async throws {
        let weather = try RunnableFunction(name: "get_weather", arguments: Weather.self) { "Sunny in \($0.city)" }
        let run = try await client.chat.completions.runTools(
            .init(messages: [.user(.init(content: "Weather in Oslo?"))], model: .gpt4o), tools: [weather])
        print(run.content ?? "")

        for try await event in try client.responses.createStream(.init(model: "gpt-4.1", input: "A joke, please.")) {
            if case .responseOutputTextDelta(let text) = event { print(text.delta, terminator: "") }
        }

        let store = try await client.vectorStores.create(.init(name: "Handbook"))
        let file = try await client.vectorStores.files.uploadAndPoll(
            vectorStoreID: store.id, file: try FileUpload(fileURL: pdf))
        print(file.status)

        let embedding = try await client.embeddings.create(.init(input: "Hello", model: "text-embedding-3-small"))
        print(embedding.data.first?.embedding.floats?.count ?? 0)

        let transcription = try await client.audio.transcriptions.create(
            .init(file: try FileUpload(fileURL: mp3), model: "gpt-4o-transcribe"))
        print(transcription.text ?? "")
    }

    /// The five tasks against the local server: every request matches the spec, and each task
    /// gets its reply (the tool round trip, the stream, the polled upload).
    func testTheFiveEverydayTasksRunAgainstTheLocalServer() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("handbook.pdf")
        let mp3 = folder.appendingPathComponent("meeting.mp3")
        try Data("%PDF-1.4 handbook".utf8).write(to: pdf)
        try Data([0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 400)).write(to: mp3)
        let client = try server.client(
            maxRetries: 0,
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-tool-rounds": "1",
                "x-testserver-status-sequence": "completed",
            ], sleeper: RecordingSleeper())
        try await Self.fiveTasks(client, pdf: pdf, mp3: mp3)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(
            records.map { $0.operationID ?? "" },
            [
                "createChatCompletion", "createChatCompletion", "createResponse", "createVectorStore", "createFile",
                "createVectorStoreFile", "getVectorStoreFile", "createEmbedding", "createTranscription",
            ])
        XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(records.map(\.validationErrors))")
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

    /// The README's provider example, verbatim apart from the client (made from
    /// `.provider("deepseek")`) being passed in.
    static func provider(_ client: OpenAIClient) async throws -> CreateChatCompletionRequest {
        var request = CreateChatCompletionRequest(
            messages: [.user(.init(content: "Is 9.11 > 9.9?"))], model: "deepseek-reasoner")
        request.maxCompletionTokens = 2048  // sent as `max_tokens`, DeepSeek's name for it
        let completion = try await client.chat.completions.create(request)
        print(completion.choices[0].message.reasoningText ?? "", completion.choices[0].message.contentText ?? "")
        return request
    }

    /// The undeclared members example of BEHAVIOUR.md ("Members the spec does not declare"), verbatim.
    static func undeclaredMembers(_ completion: CreateChatCompletionResponse) throws -> CreateChatCompletionRequest {
        let citations = try completion.undeclaredMembers["citations"]?.decode(as: [String].self)
        var request = CreateChatCompletionRequest(messages: [.user(.init(content: "Hi"))], model: "deepseek-reasoner")
        request.undeclaredMembers["thinking"] = ["type": "enabled"]
        XCTAssertEqual(citations, ["https://a.example"])
        return request
    }

    func testTheProviderExamplesSendWhatTheReadmeSays() async throws {
        let reply =
            #"{"id":"c","object":"chat.completion","created":1,"model":"deepseek-reasoner","citations":["https://a.example"],"choices":[{"index":0,"message":{"role":"assistant","content":"No.","reasoning_content":"9.11 < 9.9"},"finish_reason":"stop"}]}"#
        let transport = ScriptedTransport { _, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(reply.utf8))
        }
        var configuration = try OpenAIClient.Configuration.provider("deepseek", apiKey: "sk-deep", environment: [:])
        configuration.maxRetries = 0
        let client = try OpenAIClient(
            configuration: configuration, transport: transport, sleeper: NoSleep(), jitter: { 0 })
        _ = try await Self.provider(client)
        let completion = try await client.chat.completions.create(.init(messages: [], model: "deepseek-reasoner"))
        XCTAssertEqual(completion.choices[0].message.reasoningText, "9.11 < 9.9")
        let sent = try JSONValue(parsing: try XCTUnwrap(transport.requests.first?.bodyData))
        XCTAssertEqual(sent["max_tokens"], 2048)
        XCTAssertNil(sent["max_completion_tokens"])
        let request = try Self.undeclaredMembers(completion)
        XCTAssertEqual(try JSONValue(encoding: request)["thinking"], ["type": "enabled"])
    }

    func testTheReadmesProviderTableIsTheCatalogue() throws {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let table = readme.split(separator: "\n").map { row -> [String] in
            row.split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
            }
        }.filter { $0.count == 5 && $0[2].hasPrefix("http") }
        XCTAssertEqual(table.map { $0[0] }, ProviderPreset.all.map(\.id))
        for (row, preset) in zip(table, ProviderPreset.all) {
            XCTAssertEqual(row[1], preset.name)
            XCTAssertEqual(row[2], preset.baseURL.absoluteString)
            XCTAssertEqual(row[3], preset.apiKeyVariable ?? "none")
        }
    }
}
