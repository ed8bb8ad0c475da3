import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Members a server sends beyond the spec are kept by every generated type, in order, written back
/// when encoding, reachable by name and by path, and carried through streams.
final class UndeclaredMembersTests: XCTestCase {
    private static let deepSeekReply = Data(
        #"""
        {"id":"c1","object":"chat.completion","created":1,"model":"deepseek-reasoner",
         "choices":[{"index":0,"message":{"role":"assistant","content":"4","reasoning_content":"2 + 2 is 4.",
           "zz_last":true,"aa_first":[1,{"k":null}]},"logprobs":null,"finish_reason":"stop"}],
         "usage":{"prompt_tokens":5,"completion_tokens":9,"total_tokens":14,"prompt_cache_hit_tokens":3,
           "prompt_cache_miss_tokens":2},
         "system_fingerprint":"fp_1","citations":["https://a.example","https://b.example"]}
        """#.utf8)

    func testUndeclaredMembersAreKeptInOrderAndReachableByName() throws {
        let completion = try OrderedJSONDecoder().decode(CreateChatCompletionResponse.self, from: Self.deepSeekReply)
        let message = try XCTUnwrap(completion.choices.first?.message)
        XCTAssertEqual(message.undeclaredMembers.keys, ["reasoning_content", "zz_last", "aa_first"])
        XCTAssertEqual(message.reasoningText, "2 + 2 is 4.")
        XCTAssertEqual(try message.undeclaredMembers["aa_first"]?[0]?.decode(as: Int.self), 1)
        XCTAssertEqual(completion.undeclaredMembers.keys, ["citations"])
        XCTAssertEqual(completion.citationURLs, ["https://a.example", "https://b.example"])
        XCTAssertEqual(completion.usage?.cachedPromptTokens, 3)
        XCTAssertEqual(
            completion.usage?.undeclaredMembers.keys, ["prompt_cache_hit_tokens", "prompt_cache_miss_tokens"])
        XCTAssertTrue(completion.specDeviations.isEmpty, "undeclared members are no deviation")
        let report = SpecDeviationReport(completion)
        XCTAssertTrue(report.isEmpty)
        XCTAssertEqual(
            report.undeclaredMembers.map(\.description),
            [
                "citations", "choices[0].message: reasoning_content, zz_last, aa_first",
                "usage: prompt_cache_hit_tokens, prompt_cache_miss_tokens",
            ])
        XCTAssertTrue(report.description.contains("undeclared choices[0].message: reasoning_content"))
    }

    func testADecodeEncodeRoundTripKeepsEveryMember() throws {
        let completion = try OrderedJSONDecoder().decode(CreateChatCompletionResponse.self, from: Self.deepSeekReply)
        let encoded = try JSONValue(parsing: OrderedJSONEncoder().encode(completion))
        let original = try JSONValue(parsing: Self.deepSeekReply)
        XCTAssertEqual(encoded["citations"], original["citations"])
        // The declared members in the spec's order (`refusal`, required and nullable, as `null`),
        // then the undeclared ones in the order received.
        var message = try XCTUnwrap(original["choices"]?[0]?["message"]?.objectValue)
        message["refusal"] = .null
        XCTAssertEqual(encoded["choices"]?[0]?["message"], .object(message))
        XCTAssertEqual(
            encoded["choices"]?[0]?["message"]?.objectValue?.keys,
            ["content", "refusal", "role", "reasoning_content", "zz_last", "aa_first"])
        // Foundation's JSONDecoder keeps them too, sorted by name (it keeps no order).
        let viaFoundation = try JSONDecoder().decode(CreateChatCompletionResponse.self, from: Self.deepSeekReply)
        XCTAssertEqual(
            viaFoundation.choices[0].message.undeclaredMembers.keys, ["aa_first", "reasoning_content", "zz_last"])
        XCTAssertEqual(viaFoundation, completion)
    }

    func testValuesOfAnotherTypeAndConstantsWithAnotherValueAreWrittenBackAsReceived() throws {
        let text =
            #"{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Hm."}]},{"type":"text","text":"Yes."}]}"#
        let message = try OrderedJSONDecoder().decode(ChatCompletionResponseMessage.self, from: Data(text.utf8))
        XCTAssertNil(message.content)
        XCTAssertEqual(message.contentText, "Yes.")
        XCTAssertEqual(message.reasoningText, "Hm.")
        var expected = try XCTUnwrap(try JSONValue(parsing: Data(text.utf8)).objectValue)
        expected["refusal"] = .null
        XCTAssertEqual(try JSONValue(parsing: OrderedJSONEncoder().encode(message)), .object(expected))
        let chunk = try OrderedJSONDecoder().decode(
            CreateChatCompletionStreamResponse.self,
            from: Data(#"{"id":"1","object":"chat.completion","created":1,"model":"m","choices":[]}"#.utf8))
        XCTAssertEqual(chunk.specDeviations.receivedValue(of: "object"), "chat.completion")
        XCTAssertEqual(try JSONValue(encoding: chunk)["object"], "chat.completion")
    }

    func testMembersSetOnARequestAreSentAfterTheDeclaredOnesAndCanReplaceThem() throws {
        var request = CreateChatCompletionRequest(messages: [.user(.init(content: "Hi"))], model: "deepseek-reasoner")
        request.undeclaredMembers["thinking"] = ["type": "enabled"]
        request.undeclaredMembers["model"] = "deepseek-chat"
        let body = try JSONValue(parsing: OrderedJSONEncoder().encode(request))
        XCTAssertEqual(body.objectValue?.keys, ["messages", "model", "thinking"])
        XCTAssertEqual(body["model"], "deepseek-chat")
        XCTAssertEqual(body["thinking"], ["type": "enabled"])
    }

    func testStreamsCarryUndeclaredMembersIntoTheAccumulatedCompletion() throws {
        let chunks = [
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","x_groq":{"id":"req_1"},"choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Let me "},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":"think."},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Done"},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","x_groq":{"usage":{"queue_time":0.1}},"choices":[{"index":0,"delta":{},"finish_reason":"stop","stop_reason":null}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"cost":0.5}}"#,
        ]
        var accumulator = ChatCompletionStreamAccumulator()
        var events: [ChatCompletionStreamAccumulator.Event] = []
        for chunk in chunks {
            events += accumulator.append(
                try OrderedJSONDecoder().decode(CreateChatCompletionStreamResponse.self, from: Data(chunk.utf8)))
        }
        XCTAssertEqual(
            events,
            [
                .reasoningDelta(choice: 0, delta: "Let me ", snapshot: "Let me "),
                .reasoningDelta(choice: 0, delta: "think.", snapshot: "Let me think."),
                .reasoningDone(choice: 0, reasoning: "Let me think."),
                .contentDelta(choice: 0, delta: "Done", snapshot: "Done"),
                .contentDone(choice: 0, content: "Done"),
            ])
        let completion = try XCTUnwrap(accumulator.completion)
        XCTAssertEqual(completion.choices[0].message.reasoningText, "Let me think.")
        XCTAssertEqual(completion.choices[0].message.undeclaredMembers, ["reasoning_content": "Let me think."])
        XCTAssertEqual(completion.undeclaredMembers["x_groq"], ["id": "req_1", "usage": ["queue_time": 0.1]])
        XCTAssertEqual(completion.usage?.costInUSD, 0.5)
        XCTAssertTrue(completion.choices[0].undeclaredMembers.isEmpty, "a null member adds nothing")
    }

    func testMistralsContentPartsGiveTheirTextAndReasoningInAStream() throws {
        let chunks = [
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"magistral","choices":[{"index":0,"delta":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Two and "}]}]},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"magistral","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"two."}]}]},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"magistral","choices":[{"index":0,"delta":{"content":"4"},"finish_reason":"stop"}]}"#,
        ]
        var accumulator = ChatCompletionStreamAccumulator()
        for chunk in chunks {
            accumulator.append(
                try OrderedJSONDecoder().decode(CreateChatCompletionStreamResponse.self, from: Data(chunk.utf8)))
        }
        XCTAssertEqual(accumulator.content(), "4")
        XCTAssertEqual(accumulator.reasoning(), "Two and two.")
        let message = try XCTUnwrap(accumulator.completion?.choices.first?.message)
        XCTAssertEqual(message.reasoningText, "Two and two.")
        XCTAssertEqual(message.undeclaredMembers["reasoning_content"], "Two and two.")
    }

    func testToolCallsWithoutIndexAreSeparateCalls() throws {
        let chunk =
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","function":{"name":"plus","arguments":"{\"a\":1}"}},{"id":"b","function":{"name":"plus","arguments":"{\"a\":2}"}}]},"finish_reason":"tool_calls"}]}"#
        var accumulator = ChatCompletionStreamAccumulator()
        accumulator.append(
            try OrderedJSONDecoder().decode(CreateChatCompletionStreamResponse.self, from: Data(chunk.utf8)))
        XCTAssertEqual(accumulator.toolCallArguments(0), #"{"a":1}"#)
        XCTAssertEqual(accumulator.toolCallArguments(1), #"{"a":2}"#)
        XCTAssertEqual(accumulator.completion?.choices.first?.message.toolCalls?.count, 2)
    }

    func testAnErrorEnvelopeInA200ReplyIsThrownAsTheError() async throws {
        let body = Data(
            #"{"error":{"message":"The response was filtered.","type":null,"param":"prompt","code":"content_filter","status":400}}"#
                .utf8)
        let transport = ScriptedTransport { _, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)
        }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1", maxRetries: 0), transport: transport, sleeper: NoSleep(), jitter: { 0 }
        )
        do {
            _ = try await client.chat.completions.create(.init(messages: [.user(.init(content: "x"))], model: "m"))
            XCTFail("no error")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .server)
            XCTAssertEqual(error.statusCode, 200)
            XCTAssertEqual(error.message, "The response was filtered.")
            XCTAssertEqual(error.code, "content_filter")
            XCTAssertEqual(error.param, "prompt")
            XCTAssertEqual(error.rawBody, body)
        }
    }
}
