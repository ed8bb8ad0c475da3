import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The shapes the generated types promise, on payloads from public bug reports against other SDKs.
final class GeneratedModelTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    private func encode(_ value: some Encodable) throws -> JSONValue {
        try JSONValue(encoding: value)
    }

    // MARK: Inputs from bug reports

    func testBase64EmbeddingDecodesAndReadsAsLittleEndianFloats() throws {
        let response = try decode(
            CreateEmbeddingResponse.self,
            #"{"object":"list","data":[{"object":"embedding","index":0,"embedding":"AACAPwAAAEAAAEBA"}],"model":"text-embedding-3-small","usage":{"prompt_tokens":2,"total_tokens":2}}"#
        )
        XCTAssertEqual(response.data[0].embedding, .base64("AACAPwAAAEAAAEBA"))
        XCTAssertEqual(response.data[0].embedding.floats, [1.0, 2.0, 3.0])
    }

    func testFloatArrayEmbeddingStillDecodes() throws {
        let response = try decode(
            CreateEmbeddingResponse.self,
            #"{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.5,-1.25]}],"model":"m","usage":{"prompt_tokens":1,"total_tokens":1}}"#
        )
        XCTAssertEqual(response.data[0].embedding.floats, [0.5, -1.25])
    }

    func testEventWhoseSchemaRequiresAnUndeclaredPropertyDecodes() throws {
        let json = #"{"type":"response.audio.done","response_id":"resp_1","sequence_number":3}"#
        let event = try decode(ResponseAudioDoneEvent.self, json)
        XCTAssertEqual(event.sequenceNumber, 3)
        guard case .responseAudioDone(let typed) = try decode(ResponseStreamEvent.self, json) else {
            return XCTFail("the union did not pick response.audio.done")
        }
        XCTAssertEqual(typed.sequenceNumber, 3)
    }

    func testErrorBodyWithACodeTheSpecDoesNotListKeepsMessageAndCode() throws {
        let body = #"{"error":{"message":"Slow down.","type":"requests","param":null,"code":"brand_new_code_2026"}}"#
        let decoded = try decode(ErrorResponse.self, body)
        XCTAssertEqual(decoded.error.message, "Slow down.")
        XCTAssertEqual(decoded.error.code, "brand_new_code_2026")
        let error = OpenAIError.fromResponse(
            HTTPResponse(statusCode: 429, headers: ["x-request-id": "req_42"], body: Data(body.utf8)))
        XCTAssertEqual(error.kind, .rateLimit)
        XCTAssertEqual(error.code, "brand_new_code_2026")
        XCTAssertEqual(error.message, "Slow down.")
        XCTAssertEqual(error.requestID, "req_42")
    }

    // MARK: Shapes

    func testUnknownEnumValueDecodesAndReencodesUnchanged() throws {
        let status = try decode([MessageStatus].self, #"["completed","brand_new_status"]"#)
        XCTAssertEqual(status[0], .completed)
        XCTAssertEqual(status[1].rawValue, "brand_new_status")
        XCTAssertEqual(try encode(status), ["completed", "brand_new_status"])
    }

    func testModelIDsAreAnOpenEnumUsableWithAStringLiteral() throws {
        let known: ModelIDsShared = .gpt4o
        let custom: ModelIDsShared = "ft:gpt-4o:acme:custom:abc123"
        XCTAssertEqual(known.rawValue, "gpt-4o")
        XCTAssertEqual(try encode([known, custom]), ["gpt-4o", "ft:gpt-4o:acme:custom:abc123"])
    }

    func testUnknownUnionVariantKeepsItsRawJSONAndRoundTrips() throws {
        let json = #"{"type":"response.brand_new_event","sequence_number":9,"payload":{"a":[1,2]}}"#
        let event = try decode(ResponseStreamEvent.self, json)
        guard case .unknown(let raw) = event else { return XCTFail("expected .unknown, got \(event)") }
        XCTAssertEqual(raw["type"], "response.brand_new_event")
        XCTAssertEqual(try encode(event), try decode(JSONValue.self, json))
    }

    func testDiscriminatorWithoutMappingDispatchesOnTheWireValue() throws {
        // ChatCompletionRequestMessage: discriminator `role`, no mapping; the schema names are
        // ChatCompletionRequestUserMessage etc., the wire values "user", "system"...
        let message = try decode(ChatCompletionRequestMessage.self, #"{"role":"user","content":"Hi"}"#)
        guard case .user(let user) = message else { return XCTFail("expected .user, got \(message)") }
        XCTAssertEqual(user.content, "Hi")
    }

    func testConstantsAreWrittenByTheEncoderAndNotPassedByTheCaller() throws {
        let message = ChatCompletionRequestMessage.user(.init(content: "Hello"))
        XCTAssertEqual(try encode(message), ["role": "user", "content": "Hello"])
    }

    func testRequiredNullablePropertyEncodesAnExplicitNull() throws {
        // `Error.code` and `Error.param` are required and nullable: `nil` goes on the wire as
        // `null`, it is not omitted.
        let error = ErrorObject(message: "m", type: "t")
        XCTAssertEqual(try encode(error), ["code": nil, "message": "m", "param": nil, "type": "t"])
    }

    func testOptionalPropertyIsOmittedWhenNil() throws {
        let request = CreateEmbeddingRequest(input: .string("x"), model: "text-embedding-3-small")
        XCTAssertEqual(try encode(request), ["input": "x", "model": "text-embedding-3-small"])
    }

    func testEveryOperationWithAJSONReplyHasItsTypeInTheTable() {
        XCTAssertTrue(
            OperationResponseTypes.responseType(of: "createChatCompletion") == CreateChatCompletionResponse.self)
        XCTAssertNil(OperationResponseTypes.responseType(of: "createSpeech"))
    }
}

final class ResponseOutputTextTests: XCTestCase {
    func testOutputTextJoinsTheTextPartsOfARecordedReply() throws {
        let url = try SharedData.file("fixtures/responses/json/py-output-text.json")
        let response = try JSONDecoder().decode(Response.self, from: Data(contentsOf: url))
        let raw = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
        // Independently: the text parts of the message items, read from the raw JSON.
        let expected = (raw["output"]?.arrayValue ?? []).flatMap { item -> [String] in
            guard item["type"] == "message" else { return [] }
            return (item["content"]?.arrayValue ?? []).compactMap {
                $0["type"] == "output_text" ? $0["text"]?.stringValue : nil
            }
        }.joined()
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(response.outputText, expected)
    }
}
