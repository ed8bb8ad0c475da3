import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The decoding policy (``DecodingMode``) on real-shaped replies: recorded fixtures changed the
/// way real servers differ from the spec (Azure OpenAI's content-filter chunk, proxies, older API
/// versions, documentation examples), in lenient and in strict mode.
final class LenientDecodingTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String, mode: DecodingMode = .lenient) throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo[.openAIDecodingMode] = mode
        return try decoder.decode(T.self, from: Data(json.utf8))
    }

    private func fixture(_ path: String) throws -> String {
        try String(contentsOf: try SharedData.file("fixtures/" + path), encoding: .utf8)
    }

    /// The first `data:` payload of a recorded stream.
    private func firstEvent(_ path: String) throws -> String {
        let line = try XCTUnwrap(try fixture(path).split(separator: "\n").first { $0.hasPrefix("data: {") })
        return String(line.dropFirst("data: ".count))
    }

    // MARK: Constants that do not pick a union case

    func testAzureContentFilterChunkWithEmptyObjectNameDecodesAndKeepsWhatItReceived() throws {
        // Azure OpenAI streams a first chunk with empty `object`, `id` and `model`, no choices and
        // its `prompt_filter_results` (documented in Azure's content filtering guide).
        let json = #"""
            {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}
            """#
        let chunk = try decode(CreateChatCompletionStreamResponse.self, json)
        XCTAssertEqual(chunk.choices, [])
        XCTAssertEqual(chunk.specDeviations["object"], .unexpectedConstant(received: ""))
        XCTAssertEqual(chunk.specDeviations.receivedValue(of: "object"), "")
        XCTAssertFalse(chunk.specDeviations.isMissing("object"))
        XCTAssertEqual(chunk.specDeviations.count, 1)
        // Encoded again, it keeps what it received; a value made in code has the spec's constant.
        XCTAssertEqual(try JSONValue(encoding: chunk)["object"], "")
        let made = CreateChatCompletionStreamResponse(id: "", choices: [], created: 0, model: "")
        XCTAssertEqual(try JSONValue(encoding: made)["object"], "chat.completion.chunk")

        let error = XCTAssertThrowsDecodingError {
            _ = try self.decode(CreateChatCompletionStreamResponse.self, json, mode: .strict)
        }
        XCTAssertEqual(error, "object")
    }

    func testAnotherProvidersObjectNameDecodes() throws {
        var json = try firstEvent("chat-completions/stream/py-plain-text.sse")
        json = json.replacingOccurrences(of: #""object":"chat.completion.chunk""#, with: #""object":"chat.completion""#)
        let chunk = try decode(CreateChatCompletionStreamResponse.self, json)
        XCTAssertEqual(chunk.id, "chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL")
        XCTAssertEqual(chunk.specDeviations.receivedValue(of: "object"), "chat.completion")
    }

    func testToolCallChunkWithAnEmptyTypeIsAFunctionCallWithTheTypeKept() throws {
        var json = try firstEvent("chat-completions/stream/py-tool-call.sse")
        json = json.replacingOccurrences(of: #""type":"function""#, with: #""type":"""#)
        let chunk = try decode(CreateChatCompletionStreamResponse.self, json)
        let fragment = try XCTUnwrap(chunk.choices.first?.delta.toolCalls?.first)
        guard case .function(let call) = fragment else { return XCTFail("\(fragment)") }
        XCTAssertEqual(call.function?.name, "GetWeatherArgs")
        XCTAssertEqual(call.specDeviations.receivedValue(of: "type"), "")
    }

    func testCustomToolCallFragmentsAndAnUnknownToolTypeInAChatChunk() throws {
        // The streamed form of ChatCompletionMessageCustomToolCall: the first fragment names the
        // tool, later ones (without `type`) carry pieces of the input.
        let first = #"""
            {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-5","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"custom","custom":{"name":"code_exec","input":""}},{"index":1,"id":"call_2","type":"web_search_preview","web_search_preview":{}}]},"finish_reason":null}]}
            """#
        let later = #"""
            {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-5","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":{"input":"print(1)"}}]},"finish_reason":"tool_calls"}]}
            """#
        let chunks = [
            try decode(CreateChatCompletionStreamResponse.self, first),
            try decode(CreateChatCompletionStreamResponse.self, later),
        ]
        let calls = chunks[0].choices[0].delta.toolCalls ?? []
        guard calls.count == 2, case .custom(let custom) = calls[0], case .unknown(let raw) = calls[1] else {
            return XCTFail("\(calls)")
        }
        XCTAssertEqual(custom.custom?.name, "code_exec")
        XCTAssertEqual(custom.id, "call_1")
        XCTAssertEqual(raw["type"], "web_search_preview")
        XCTAssertEqual(calls[1].index, 1)
        guard case .custom(let piece)? = chunks[1].choices[0].delta.toolCalls?.first else {
            return XCTFail("\(chunks[1])")
        }
        XCTAssertEqual(piece.custom?.input, "print(1)")

        var accumulator = ChatCompletionStreamAccumulator()
        for chunk in chunks { accumulator.append(chunk) }
        let message = try XCTUnwrap(accumulator.completion?.choices.first?.message)
        guard case .custom(let assembled)? = message.toolCalls?.first else { return XCTFail("\(message)") }
        XCTAssertEqual(assembled.custom.name, "code_exec")
        XCTAssertEqual(assembled.custom.input, "print(1)")
        XCTAssertEqual(accumulator.toolCallArguments(0), "print(1)")
    }

    // MARK: Required members a reply leaves out

    func testVectorStoreWithoutUsageBytesReadsZeroAndSaysItWasMissing() throws {
        let recorded = try fixture("vector-stores/json/dotnet-created.json")
        let json = recorded.replacingOccurrences(of: #""usage_bytes": 0,"#, with: "")
        XCTAssertNotEqual(json, recorded)
        let store = try decode(VectorStoreObject.self, json)
        XCTAssertEqual(store.id, "vs_68c9ee1ddce08191ab35289e906cdb6d")
        XCTAssertEqual(store.usageBytes, 0)
        XCTAssertTrue(store.specDeviations.isMissing("usage_bytes"))
        XCTAssertEqual(store.specDeviations["usage_bytes"], .missing)
        // A zero that the server sent is not missing.
        let real = try decode(VectorStoreObject.self, recorded)
        XCTAssertEqual(real.usageBytes, 0)
        XCTAssertFalse(real.specDeviations.isMissing("usage_bytes"))
        XCTAssertTrue(real.specDeviations.isEmpty)

        let error = XCTAssertThrowsDecodingError { _ = try self.decode(VectorStoreObject.self, json, mode: .strict) }
        XCTAssertEqual(error, "usage_bytes")
    }

    func testNullForANonNullableObjectReadsAsItsPlaceholderWithItsOwnMembersMissing() throws {
        // The fine-tuning job fixture's `error: {}` replaced with `null` for a required object
        // member that the spec does not allow to be null (eval runs' documentation examples).
        let json =
            #"{"id":"run_1","object":"eval.run","eval_id":"eval_1","status":"queued","model":"gpt-4o","name":"r","created_at":1,"report_url":"https://example.com","result_counts":{"total":0,"errored":0,"failed":0,"passed":0},"per_model_usage":[],"per_testing_criteria_results":[],"data_source":{"type":"jsonl","source":{"type":"file_id","id":"file-1"}},"metadata":{},"error":null}"#
        let run = try decode(EvalRun.self, json)
        XCTAssertEqual(run.specDeviations["error"], .null)
        XCTAssertTrue(run.specDeviations.isMissing("error"))
        XCTAssertEqual(run.error.code, "")
        XCTAssertTrue(run.error.specDeviations.isMissing("code"))
        XCTAssertTrue(run.error.specDeviations.sharesNoMember)
        XCTAssertEqual(
            SpecDeviationReport(run).entries.map(\.description),
            ["null error", "error: none of the schema's members; missing code; missing message"])
    }

    func testAValueOfAnotherTypeReadsAsThePlaceholderAndKeepsTheValue() throws {
        let json =
            #"{"object":"vector_store.search_results.page","search_query":"What is the return policy?","data":[],"has_more":false,"next_page":null}"#
        let page = try decode(VectorStoreSearchResultsPage.self, json)
        XCTAssertEqual(page.searchQuery, [])
        XCTAssertEqual(page.specDeviations.receivedValue(of: "search_query"), "What is the return policy?")
        guard case .invalid(let received)? = page.specDeviations["search_query"] else {
            return XCTFail("\(page.specDeviations)")
        }
        XCTAssertEqual(received, "What is the return policy?")
        XCTAssertThrowsDecodingError { _ = try self.decode(VectorStoreSearchResultsPage.self, json, mode: .strict) }
    }

    func testAnOptionalMemberOfAnotherTypeReadsAsNil() throws {
        var json = try fixture("vector-stores/json/dotnet-created.json")
        json = json.replacingOccurrences(of: #""last_active_at": 1758064158"#, with: #""last_active_at": "yesterday""#)
        let store = try decode(VectorStoreObject.self, json)
        XCTAssertNil(store.lastActiveAt)
        XCTAssertEqual(store.specDeviations.receivedValue(of: "last_active_at"), "yesterday")
    }

    // MARK: Unions

    func testADiscriminatorStillSelectsItsCaseAndAnUnlistedValueIsUnknown() throws {
        let text = try decode(
            ResponseStreamEvent.self,
            #"{"type":"response.output_text.delta","sequence_number":1,"item_id":"m","output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}"#
        )
        guard case .responseOutputTextDelta(let delta) = text else { return XCTFail("\(text)") }
        XCTAssertEqual(delta.delta, "Hi")
        XCTAssertTrue(delta.specDeviations.isEmpty)
        let future = try decode(ResponseStreamEvent.self, #"{"type":"response.hologram.delta","sequence_number":2}"#)
        guard case .unknown(let raw) = future else { return XCTFail("\(future)") }
        XCTAssertEqual(raw["type"], "response.hologram.delta")
    }

    func testAUnionWithoutDiscriminatorStillChoosesTheCaseWhoseConstantsFit() throws {
        // `ChatCompletionToolChoiceOption` tries its cases in order; the allowed-tools case is
        // tried before the named one, and must not take a named choice because lenient mode
        // reads members leniently.
        let named = try decode(ChatCompletionToolChoiceOption.self, #"{"type":"function","function":{"name":"f"}}"#)
        guard case .chatCompletionNamedToolChoice(let choice) = named else { return XCTFail("\(named)") }
        XCTAssertEqual(choice.function.name, "f")
        let unknown = try decode(ChatCompletionToolChoiceOption.self, #"{"type":"hologram"}"#)
        guard case .unknown = unknown else { return XCTFail("\(unknown)") }
    }

    func testAMissingUnionMemberIsUnknownNull() throws {
        let event = try decode(
            ResponseStreamEvent.self, #"{"type":"response.output_item.done","sequence_number":3,"output_index":0}"#)
        guard case .responseOutputItemDone(let done) = event else { return XCTFail("\(event)") }
        XCTAssertTrue(done.specDeviations.isMissing("item"))
        guard case .unknown(.null) = done.item else { return XCTFail("\(done.item)") }
    }

    // MARK: Through the client

    func testStrictModeInTheConfigurationMakesTheClientThrowWithThePath() async throws {
        let recorded = try fixture("vector-stores/json/dotnet-created.json")
        let json = Data(recorded.replacingOccurrences(of: #""usage_bytes": 0,"#, with: "").utf8)
        let lenient = try OpenAIClient(
            configuration: .init(apiKey: "sk-test"), transport: FixedReplyTransport(body: json))
        let store = try await lenient.vectorStores.retrieve(vectorStoreID: "vs_1")
        XCTAssertTrue(store.specDeviations.isMissing("usage_bytes"))

        let strict = try OpenAIClient(
            configuration: .init(apiKey: "sk-test", decodingMode: .strict), transport: FixedReplyTransport(body: json))
        do {
            _ = try await strict.vectorStores.retrieve(vectorStoreID: "vs_1")
            XCTFail("strict mode accepted a reply without usage_bytes")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .decoding)
            XCTAssertEqual(error.codingPath, "usage_bytes")
            XCTAssertEqual(error.rawBody, json)
        }
    }

    func testValuesCreatedInCodeHaveNoDeviationsAndCompareByMembers() throws {
        let made = ChatCompletionToolCallChunk.Function(index: 0, id: "a")
        XCTAssertTrue(made.specDeviations.isEmpty)
        XCTAssertEqual(SpecDeviations().description, "none")
        let decoded = try decode(ChatCompletionToolCallChunk.Function.self, #"{"index":0,"id":"a","type":"function"}"#)
        XCTAssertEqual(decoded, made)
    }

    /// Runs `body`, which must throw `DecodingError`; returns the JSON path of the failing member.
    @discardableResult
    private func XCTAssertThrowsDecodingError(
        file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) -> String? {
        do {
            try body()
            XCTFail("expected a DecodingError", file: file, line: line)
            return nil
        } catch let error as DecodingError {
            return OpenAIError.decoding(error, response: HTTPResponse(statusCode: 200)).codingPath
        } catch {
            XCTFail("expected a DecodingError, got \(error)", file: file, line: line)
            return nil
        }
    }
}

/// Answers every request with one JSON body (status 200).
struct FixedReplyTransport: HTTPTransport {
    var body: Data
    var status = 200

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: ["content-type": "application/json"], body: body)
    }
}
