import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Error replies in every shape servers send: OpenAI's envelope (every recorded error fixture),
/// members of another type, no wrapper, other frameworks' shapes, plain text and HTML.
final class ErrorEnvelopeTests: XCTestCase {
    /// The error the client throws for a reply with `status` and `body`.
    private func error(_ status: Int, _ body: String, contentType: String = "application/json") async throws
        -> OpenAIError
    {
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-test", maxRetries: 0),
            transport: FixedReplyTransport(body: Data(body.utf8), status: status))
        do {
            _ = try await client.models.list()
        } catch let error as OpenAIError {
            return error
        }
        XCTFail("a \(status) reply did not throw")
        return OpenAIError(kind: .status, message: "")
    }

    func testEveryRecordedErrorFixtureGivesItsMessageTypeCodeAndParam() async throws {
        let directory = try SharedData.file("fixtures/errors")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".meta.json") }.sorted()
        XCTAssertGreaterThan(names.count, 15)
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let status = Int(name.prefix(3)) ?? 400
            let thrown = try await error(status, String(decoding: data, as: UTF8.self))
            // Read independently of the SDK.
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], name)
            let envelope = try XCTUnwrap(object["error"] as? [String: Any], name)
            XCTAssertEqual(thrown.message, envelope["message"] as? String, name)
            XCTAssertEqual(thrown.type, envelope["type"] as? String, name)
            XCTAssertEqual(thrown.code, envelope["code"] as? String, name)
            XCTAssertEqual(thrown.param, envelope["param"] as? String, name)
            XCTAssertEqual(thrown.statusCode, status, name)
            XCTAssertEqual(thrown.rawBody, data.prefix(8192), name)
        }
    }

    func testMembersOfAnotherTypeKeepTheEnvelope() async throws {
        let thrown = try await error(
            400,
            #"{"error":{"message":"Invalid content","type":"invalid_request_error","param":["messages",0,"content"],"code":400}}"#
        )
        XCTAssertEqual(thrown.message, "Invalid content")
        XCTAssertEqual(thrown.type, "invalid_request_error")
        XCTAssertEqual(thrown.param, #"["messages",0,"content"]"#)
        XCTAssertEqual(thrown.code, "400")
        XCTAssertEqual(thrown.kind, .badRequest)
    }

    func testAnEnvelopeWithoutItsWrapperOrWithAStringError() async throws {
        let flat = try await error(
            429, #"{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}"#)
        XCTAssertEqual(flat.message, "Rate limit reached for requests")
        XCTAssertEqual(flat.type, "requests")
        XCTAssertEqual(flat.code, "rate_limit_exceeded")
        XCTAssertEqual(flat.kind, .rateLimit)
        let text = try await error(401, #"{"error":"Invalid API key provided","code":"invalid_api_key"}"#)
        XCTAssertEqual(text.message, "Invalid API key provided")
        XCTAssertEqual(text.code, "invalid_api_key")
    }

    func testFastAPIDetailShapesOfCompatibleServers() async throws {
        let plain = try await error(404, #"{"detail":"Not Found"}"#)
        XCTAssertEqual(plain.message, "Not Found")
        let validation = try await error(
            422,
            #"{"detail":[{"loc":["body","model"],"msg":"field required","type":"value_error.missing"},{"loc":["body","input"],"msg":"str type expected","type":"type_error.str"}]}"#
        )
        XCTAssertEqual(validation.message, "field required; str type expected")
        XCTAssertEqual(validation.kind, .unprocessableEntity)
    }

    func testPlainTextAndHTMLBodiesFromProxies() async throws {
        let envoy = try await error(
            503, "upstream connect error or disconnect/reset before headers. reset reason: connection termination",
            contentType: "text/plain")
        XCTAssertEqual(
            envoy.message,
            "upstream connect error or disconnect/reset before headers. reset reason: connection termination")
        XCTAssertEqual(envoy.kind, .server)
        let nginx = """
            <html>
            <head><title>502 Bad Gateway</title></head>
            <body>
            <center><h1>502 Bad Gateway</h1></center>
            <hr><center>nginx</center>
            </body>
            </html>
            """
        let gateway = try await error(502, nginx, contentType: "text/html")
        XCTAssertEqual(gateway.message, "502 Bad Gateway")
        XCTAssertEqual(gateway.rawBody.map { String(decoding: $0, as: UTF8.self) }, nginx)
        let untitled = try await error(500, "<html><body><h1>Error</h1><p>The server  is\n busy.</p></body></html>")
        XCTAssertEqual(untitled.message, "Error The server is busy.")
        // Text whose lowercase form is longer (İ becomes i + U+0307) before the title: read from
        // the page itself, not from its lowercased copy.
        let turkish = "<html><p>" + String(repeating: "İ", count: 1000) + "</p><TITLE>Hata 502</Title></html>"
        XCTAssertEqual(ErrorBody.textMessage(turkish), "Hata 502")
        XCTAssertEqual(ErrorBody.textMessage("<html>İİ<title>x</title></html>"), "x")
        let empty = try await error(503, "")
        XCTAssertEqual(empty.message, "HTTP 503")
        let huge = try await error(500, String(repeating: "x", count: 100_000), contentType: "text/plain")
        XCTAssertEqual(huge.message.count, ErrorBody.maxMessageCharacters + 1)
        XCTAssertEqual(huge.rawBody?.count, 8192)
    }

    func testStreamErrorEventsReadTheSameShapes() async throws {
        let body = Data(
            ("data: " + #"{"error":{"message":"Overloaded","type":"server_error","param":null,"code":529}}"# + "\n\n")
                .utf8)
        let client = try StreamingTestSupport.client(ScriptedStreamTransport(body: body))
        let thrown = await XCTAssertThrowsOpenAIError {
            for try await _ in StreamingTestSupport.stream(
                client, as: CreateChatCompletionStreamResponse.self, framing: .data)
            {}
        }
        XCTAssertEqual(thrown?.message, "Overloaded")
        XCTAssertEqual(thrown?.code, "529")
        XCTAssertEqual(thrown?.type, "server_error")
    }
}
