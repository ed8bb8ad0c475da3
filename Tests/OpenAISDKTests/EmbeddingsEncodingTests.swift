import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// `client.embeddings.create` asks for base64 vectors when the caller does not choose (a quarter
/// of the bytes), and still returns floats; a caller who chooses gets what they chose.
final class EmbeddingsEncodingTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    /// The floats of the recorded base64 reply, read without the SDK.
    private func recordedFloats() throws -> [Float] {
        let data = try Data(contentsOf: try SharedData.file("fixtures/embeddings/json/dotnet-base64.json"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let first = try XCTUnwrap((object["data"] as? [[String: Any]])?.first?["embedding"] as? String)
        let bytes = try XCTUnwrap(Data(base64Encoded: first))
        return stride(from: 0, to: bytes.count, by: 4).map { offset -> Float in
            var bits: UInt32 = 0
            for index in 0..<4 { bits |= UInt32(bytes[offset + index]) << (8 * UInt32(index)) }
            return Float(bitPattern: bits)
        }
    }

    private func client(_ scenario: String) throws -> OpenAIClient {
        try server.client(
            maxRetries: 0,
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-fixture": "embeddings/json/dotnet-base64.json",
            ])
    }

    func testWithoutAChosenFormatTheSDKAsksForBase64AndReturnsFloats() async throws {
        let scenario = TestServer.scenario()
        let request: CreateEmbeddingRequest = try (["model": "text-embedding-3-small", "input": "Hello"] as JSONValue)
            .decode()
        XCTAssertNil(request.encodingFormat)
        let reply = try await client(scenario).embeddings.create(request)
        guard case .floats(let values) = try XCTUnwrap(reply.data.first).embedding else {
            return XCTFail("\(reply.data.first!.embedding)")
        }
        XCTAssertEqual(values, try recordedFloats())
        XCTAssertEqual(values.count, 1536)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.first?.bodyJSON?["encoding_format"], "base64")
        XCTAssertEqual(records.first?.validation, "ok")
    }

    func testAChosenFormatIsSentAndKept() async throws {
        let scenario = TestServer.scenario()
        var request: CreateEmbeddingRequest = try (["model": "text-embedding-3-small", "input": "Hello"] as JSONValue)
            .decode()
        request.encodingFormat = .base64
        let reply = try await client(scenario).embeddings.create(request)
        guard case .base64(let text) = try XCTUnwrap(reply.data.first).embedding else {
            return XCTFail("a caller who asked for base64 gets the base64 text")
        }
        XCTAssertEqual(EmbeddingVector.base64(text).floats, try recordedFloats())

        let floatScenario = TestServer.scenario()
        request.encodingFormat = .float
        _ = try await client(floatScenario).embeddings.create(request)
        let records = try await server.requests(scenario: floatScenario)
        XCTAssertEqual(records.first?.bodyJSON?["encoding_format"], "float")
    }
}
