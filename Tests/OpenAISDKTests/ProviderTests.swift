import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Providers as data: the catalogue, a configuration by name, requests adapted to a dialect with
/// every change logged, and the stream endings real servers send.
final class ProviderTests: XCTestCase {
    func testTheCatalogueHasEveryProviderOfTheRecordingsAndTheLocalServers() throws {
        let ids = ProviderPreset.all.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "ids are unique")
        for id in [
            "openai", "deepseek", "gemini", "groq", "huggingface", "mistral", "ollama", "openrouter", "perplexity",
            "together", "vllm", "xai", "lmstudio", "anthropic", "cerebras", "alibaba", "zai",
        ] {
            let preset = try XCTUnwrap(ProviderPreset.named(id), id)
            XCTAssertFalse(preset.sources.isEmpty, "\(id) names its sources")
            XCTAssertTrue(["https", "http"].contains(preset.baseURL.scheme), id)
            let isLocal = preset.baseURL.host == "localhost"
            XCTAssertEqual(preset.apiKeyVariable == nil, isLocal, "\(id): a key unless it is a local server")
        }
        XCTAssertEqual(ProviderPreset.named("Groq")?.baseURL.absoluteString, "https://api.groq.com/openai/v1")
        XCTAssertNil(ProviderPreset.named("nope"))
    }

    func testAConfigurationByNameReadsTheProvidersKeyVariable() throws {
        let configuration = try OpenAIClient.Configuration.provider(
            "deepseek", environment: ["DEEPSEEK_API_KEY": " sk-deep ", "OPENAI_API_KEY": "sk-openai"])
        XCTAssertEqual(configuration.apiKey, "sk-deep")
        XCTAssertEqual(configuration.baseURL.absoluteString, "https://api.deepseek.com")
        XCTAssertEqual(configuration.provider?.id, "deepseek")
        XCTAssertTrue(configuration.description.contains("provider: deepseek"))
        XCTAssertFalse(configuration.description.contains("sk-deep"))
        XCTAssertThrowsError(try OpenAIClient.Configuration.provider("nope", environment: [:])) { error in
            XCTAssertTrue((error as? OpenAIError)?.message.contains("ollama") ?? false, "\(error)")
        }
        // A local server takes requests without a key.
        XCTAssertNoThrow(try OpenAIClient(configuration: .provider("ollama", environment: [:])))
        XCTAssertThrowsError(try OpenAIClient(configuration: .provider("groq", environment: [:])))
    }

    func testRequestsAreAdaptedToTheDialectAndEveryChangeIsLogged() async throws {
        let body = try JSONValue(
            parsing: Data(
                #"""
                {"messages":[{"role":"user","content":"Hi"}],"model":"m","max_completion_tokens":100,"seed":7,
                 "stream_options":{"include_usage":true},"reasoning_effort":"high","store":true,
                 "tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"},"strict":true}}]}
                """#.utf8)
        ).objectValue!
        let mistral = try XCTUnwrap(ProviderPreset.named("mistral"))
        let (adapted, changes) = ProviderAdaptation.adapt(body, to: mistral)
        XCTAssertEqual(
            adapted.keys,
            ["messages", "model", "max_tokens", "random_seed", "reasoning_effort", "store", "tools"])
        XCTAssertEqual(adapted["max_tokens"], 100)
        XCTAssertEqual(
            changes,
            [
                "sent `max_completion_tokens` as `max_tokens`", "sent `seed` as `random_seed`",
                "left out `stream_options` (Mistral AI does not accept it)",
            ])
        var custom = mistral
        custom.dialect = .init(acceptsStrict: false, reasoning: .reasoningObject, unsupportedMembers: ["store"])
        let (other, otherChanges) = ProviderAdaptation.adapt(body, to: custom)
        XCTAssertEqual(other["reasoning"], ["effort": "high"])
        XCTAssertNil(other["store"])
        XCTAssertNil(other["tools"]?[0]?["function"]?["strict"])
        XCTAssertEqual(
            other.keys, ["messages", "model", "max_completion_tokens", "seed", "stream_options", "reasoning", "tools"])
        XCTAssertEqual(otherChanges.count, 3)
        // OpenAI's own dialect changes nothing.
        XCTAssertEqual(ProviderAdaptation.adapt(body, to: ProviderPreset.named("openai")!).changes, [])

        // Through the client: the body sent, and one warning with the changes.
        let entries = Locked<[OpenAILogger.Entry]>([])
        let transport = ScriptedTransport { _, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(Self.reply.utf8))
        }
        var configuration = OpenAIClient.Configuration.provider(mistral, apiKey: "sk-mistral", environment: [:])
        configuration.logger = OpenAILogger(level: .warning) { entry in entries.withLock { $0.append(entry) } }
        let client = try OpenAIClient(
            configuration: configuration, transport: transport, sleeper: NoSleep(), jitter: { 0 })
        var request = CreateChatCompletionRequest(messages: [.user(.init(content: "Hi"))], model: "mistral-small")
        request.maxCompletionTokens = 50
        _ = try await client.chat.completions.create(request)
        let sent = try JSONValue(parsing: try XCTUnwrap(transport.requests.first?.bodyData))
        XCTAssertEqual(sent.objectValue?.keys, ["messages", "model", "max_tokens"])
        XCTAssertEqual(transport.requests.first?.headers["Authorization"], "Bearer sk-mistral")
        let logged = entries.withLock { $0 }
        XCTAssertEqual(logged.count, 1)
        XCTAssertEqual(logged.first?.level, .warning)
        XCTAssertEqual(
            logged.first?.message, "adapted to the provider: Mistral AI: sent `max_completion_tokens` as `max_tokens`")
    }

    func testAPresetOfYourOwnIsJSONAndSendsItsKeyInItsHeader() async throws {
        let preset = try OrderedJSONDecoder().decode(
            ProviderPreset.self,
            from: Data(
                #"{"id":"gateway","name":"Gateway","baseURL":"https://gateway.example/v1","apiKeyVariable":"GW_KEY","keyHeader":"x-api-key"}"#
                    .utf8))
        XCTAssertEqual(preset.dialect, ProviderPreset.Dialect())
        let transport = ScriptedTransport { _, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(Self.reply.utf8))
        }
        let client = try OpenAIClient(
            configuration: .provider(preset, environment: ["GW_KEY": "gw-secret"]), transport: transport,
            sleeper: NoSleep(), jitter: { 0 })
        _ = try await client.chat.completions.create(.init(messages: [.user(.init(content: "Hi"))], model: "m"))
        let headers = try XCTUnwrap(transport.requests.first?.headers)
        XCTAssertEqual(headers["x-api-key"], "gw-secret")
        XCTAssertNil(headers["Authorization"])
        XCTAssertEqual(transport.requests.first?.url.absoluteString, "https://gateway.example/v1/chat/completions")
    }

    // MARK: Stream endings

    func testAFinalDoneWithoutItsBlankLineEndsTheStreamNormally() async throws {
        let chunk =
            #"data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"claude","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}"#
        for ending in ["\n\ndata: [DONE]\n", "\n\ndata: [DONE]", "\n\ndata: [DONE]\r"] {
            let body = Data((chunk + ending).utf8)
            for size in [1, 3, 4096] {
                let transport = ScriptedStreamTransport(body: body, chunkSize: size)
                let client = try StreamingTestSupport.client(transport)
                var texts: [String] = []
                for try await event in try client.chat.completions.createStream(
                    .init(messages: [.user(.init(content: "x"))], model: "m"))
                {
                    texts.append(event.choices.first?.delta.content ?? "")
                }
                XCTAssertEqual(texts, ["Hi"], "\(ending.debugDescription) in pieces of \(size)")
            }
        }
    }

    func testAFinalEventWithoutItsBlankLineIsDeliveredWhenWholeAndTruncatedWhenNot() async throws {
        let first =
            #"data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"A"},"finish_reason":null}]}"#
        let last =
            #"data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"B"},"finish_reason":"stop"}]}"#
        let whole = try StreamingTestSupport.client(
            ScriptedStreamTransport(body: Data((first + "\n\n" + last + "\n").utf8)))
        var texts: [String] = []
        for try await event in try whole.chat.completions.createStream(
            .init(messages: [.user(.init(content: "x"))], model: "m"))
        {
            texts.append(event.choices.first?.delta.content ?? "")
        }
        XCTAssertEqual(texts, ["A", "B"])
        let cut = String(last.dropLast(12))
        let truncated = try StreamingTestSupport.client(
            ScriptedStreamTransport(body: Data((first + "\n\n" + cut).utf8)))
        let error = await XCTAssertThrowsOpenAIError {
            for try await _ in try truncated.chat.completions.createStream(
                .init(messages: [.user(.init(content: "x"))], model: "m"))
            {}
        }
        XCTAssertEqual(error?.kind, .truncatedEvent)
        XCTAssertEqual(error?.stream?.eventCount, 1)
    }

    static let reply =
        #"{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}"#
}

extension HTTPRequest {
    /// The body when it is held in memory.
    var bodyData: Data? {
        if case .data(let data)? = body { return data }
        return nil
    }
}
