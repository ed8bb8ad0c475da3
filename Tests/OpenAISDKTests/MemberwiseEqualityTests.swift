import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// `==` on generated types comes from `MemberwiseEquatable`, not a derived conformance: it must
/// compare exactly what a derived `==` compared, every stored property (`specDeviations` and
/// `undeclaredMembers` included) and a union's case and payload.
final class MemberwiseEqualityTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    private func batch() -> Batch {
        Batch(
            id: "batch_1", endpoint: "/v1/responses", inputFileID: "file-in", completionWindow: "24h",
            status: .completed, createdAt: 1_733_000_000, model: "gpt-5", outputFileID: "file-out")
    }

    func testEqualStructsCompareEqual() {
        XCTAssertEqual(batch(), batch())
        XCTAssertTrue(batch().isMemberwiseEqual(to: batch()))
        XCTAssertFalse(batch() != batch())
    }

    func testAStructDifferingInAnyOneStoredPropertyIsUnequal() {
        let base = batch()
        var changes: [(String, (inout Batch) -> Void)] = [
            ("id, the first", { $0.id = "batch_2" }),
            ("a required string", { $0.completionWindow = "1h" }),
            ("an open enum", { $0.status = "brand_new_status" }),
            ("a required integer", { $0.createdAt += 1 }),
            ("an optional set to nil", { $0.outputFileID = nil }),
            ("an optional left nil, now set", { $0.errorFileID = "file-err" }),
            ("metadata, the last declared", { $0.metadata = ["k": "v"] }),
        ]
        changes.append(("undeclaredMembers", { $0.undeclaredMembers["x_provider"] = 1 }))
        for (what, change) in changes {
            var other = base
            change(&other)
            XCTAssertNotEqual(base, other, what)
            XCTAssertNotEqual(other, base, what)
            XCTAssertFalse(base.isMemberwiseEqual(to: other), what)
        }
    }

    func testSpecDeviationsTakePartInEquality() throws {
        // `model` as a number is a deviation in lenient mode: it decodes as nil and is recorded.
        let prefix =
            #"{"id":"batch_1","object":"batch","endpoint":"/v1/responses","input_file_id":"f","#
            + #""completion_window":"24h","status":"completed","created_at":1"#
        let deviating = try decode(Batch.self, prefix + #","model":5}"#)
        let clean = try decode(Batch.self, prefix + "}")
        XCTAssertNil(deviating.model)
        XCTAssertFalse(deviating.specDeviations.isEmpty)
        XCTAssertTrue(clean.specDeviations.isEmpty)
        XCTAssertNotEqual(deviating, clean)
        XCTAssertEqual(deviating, try decode(Batch.self, prefix + #","model":5}"#))
    }

    func testUnionsCompareTheirCaseAndPayload() throws {
        let user = ChatCompletionRequestMessage.user(.init(content: "Hello"))
        XCTAssertEqual(user, .user(.init(content: "Hello")))
        XCTAssertNotEqual(user, .user(.init(content: "Bye")))
        XCTAssertNotEqual(user, .system(.init(content: "Hello")))
        XCTAssertNotEqual(ChatCompletionRequestMessage.system(.init(content: "Hello")), user)

        let unknown = #"{"type":"response.brand_new_event","sequence_number":9}"#
        let event = try decode(ResponseStreamEvent.self, unknown)
        guard case .unknown = event else { return XCTFail("expected .unknown, got \(event)") }
        XCTAssertEqual(event, try decode(ResponseStreamEvent.self, unknown))
        XCTAssertNotEqual(
            event, try decode(ResponseStreamEvent.self, #"{"type":"response.brand_new_event","sequence_number":10}"#))
    }

    func testEqualityOfARecordedReplyDecodedTwice() throws {
        let json = #"""
            {"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-5",
             "output":[{"type":"message","id":"msg_1","status":"completed","role":"assistant",
                        "content":[{"type":"output_text","text":"Hi","annotations":[]}]}],
             "parallel_tool_calls":true,"tool_choice":"auto","tools":[],"x_provider":{"a":1}}
            """#
        let first = try decode(Response.self, json)
        XCTAssertEqual(first, try decode(Response.self, json))
        let other = try decode(Response.self, json.replacingOccurrences(of: #""text":"Hi""#, with: #""text":"Ho""#))
        XCTAssertNotEqual(first, other)
        // `user` is deprecated, so stored privately (`_user`): still compared.
        let withUser = try decode(
            Response.self, json.replacingOccurrences(of: #""tools":[],"#, with: #""tools":[],"user":"u1","#))
        XCTAssertEqual(try JSONValue(encoding: withUser)["user"], "u1")
        XCTAssertNotEqual(first, withUser)
        let withoutUndeclared = try decode(
            Response.self, json.replacingOccurrences(of: #","x_provider":{"a":1}"#, with: ""))
        XCTAssertNotEqual(first, withoutUndeclared)
    }
}
